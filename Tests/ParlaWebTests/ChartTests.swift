import Foundation
import ParlaCore
import ParlaWeb
import Testing

@Suite("dashboard charts and words")
struct ChartTests {
    @Test("bars: one per label, scaled to the largest, labels escaped, a title for screen readers")
    func bars() {
        let svg = Charts.bars([("A1", 2), ("A2", 4), ("<B1>", 0)], title: "Learners & levels")
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>"))
        #expect(svg.components(separatedBy: "<rect").count - 1 == 3)
        #expect(
            svg.contains("aria-label=\"Learners &amp; levels: A1 2, A2 4, &lt;B1&gt; 0\"") && svg.contains("&lt;B1&gt;")
                && !svg.contains("<B1>"))
        #expect(svg.contains("height=\"136.0\""))  // the tallest bar fills the plot
    }

    @Test("a line over days with its level guides; one day is a point")
    func line() {
        let day = Date(timeIntervalSince1970: 1_800_000_000)
        let two = Charts.line([(day, -1), (day + 86400 * 10, 0.5)], guides: [("A2", -1.5)], title: "Progress")
        #expect(two.contains("<polyline") && two.contains("class=\"guide\""))
        #expect(two.contains("aria-label=\"Progress: -1.0 → 0.5\""))
        let one = Charts.line([(day, 0)], guides: [], title: "Progress")
        #expect(one.contains("<circle") && !one.contains("<polyline"))
    }

    @Test("every word of the dashboard in every language")
    func words() {
        let english = WebText.texts(.english)
        for language in Language.allCases {
            let texts = WebText.texts(language)
            #expect(Set(texts.keys) == Set(english.keys))
            #expect(texts.values.allSatisfy { !$0.isEmpty })
        }
        #expect(WebText.texts(.german)["signIn"] == "Anmelden")
    }
}

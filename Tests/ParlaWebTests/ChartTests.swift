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

    @Test("the proficiency bar: filled as far as the level is done, said in words, none filled at 0")
    func proficiency() {
        let half = Charts.proficiency(0.5, label: "A1, 50 % <of the way> to A2")
        #expect(half.contains("role=\"img\"") && half.contains("aria-label=\"A1, 50 % &lt;of the way&gt; to A2\""))
        #expect(half.contains("width=\"29.5\" height=\"7.0\" rx=\"3.5\" class=\"fill\""))
        #expect(!Charts.proficiency(0, label: "B1, 0 %").contains("class=\"fill\""))
        #expect(Charts.proficiency(1.7, label: "C2").contains("width=\"59.0\" height=\"7.0\" rx=\"3.5\" class=\"fill\""))
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
        #expect(WebText.text(.signInWithGoogle, in: .french) == "Se connecter avec Google")
        #expect(WebText.field("dueAt") == .fieldDueAt && WebText.field("nothing") == nil)
        #expect(Skill.allCases.map { WebText.skill($0).rawValue } == Skill.allCases.map { "skill." + $0.rawValue })
    }

    @Test("every word a template names (`{{t.name}}`) is a word of WebText")
    func templatesNameWords() throws {
        let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ParlaWeb/Templates")
        let files = try FileManager.default.contentsOfDirectory(atPath: templates.path).filter { $0.hasSuffix(".mustache") }
        #expect(files.count > 10)
        var named = 0
        for file in files {
            let text = try String(contentsOf: templates.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /\{\{[#^\/]?t\.([A-Za-z0-9.]+)\}\}/) {
                named += 1
                #expect(WebText.Key(rawValue: String(match.1)) != nil, "\(file) names t.\(match.1), which WebText does not have")
            }
        }
        #expect(named > 50)
    }
}

import Foundation
import ParlaCore
import ParlaWeb
import Testing

@testable import ParlaServer

/// The dashboard's own page models, rendered by their templates.
@Suite("typed pages")
struct PageTests {
    @Test("a model's properties, its frame and the words fill its template; hasItems follows items; HTML is escaped")
    func rendered() async throws {
        let pages = try await DashboardPages()
        var page = AssignmentPage(
            frame: PageFrame(title: "Animals <A1>", signedIn: true, csrf: "token-1"), what: "Animals <A1>", classID: "class-1",
            className: "4e B", due: "1 Dec", items: 12,
            learners: [.init(id: "l1", name: "Léo & Zoé", answers: 7, completion: "50 %", locked: 3, accuracy: "71 %", last: "today")])
        let html = pages.render(page, language: .german)
        #expect(html.contains("<html lang=\"de\">"))
        #expect(html.contains("Animals &lt;A1&gt; · Parla für Lehrkräfte"))
        #expect(html.contains("value=\"token-1\""), "the frame's CSRF token in the sign-out form")
        #expect(html.contains("Léo &amp; Zoé"))
        #expect(html.contains("/teach/classes/class-1"))
        page.learners = []
        let empty = pages.render(page, language: .german)
        #expect(!empty.contains("Léo") && !empty.contains("<table"), "no table without learners (hasLearners)")
        let missing = pages.render(MissingPage(frame: PageFrame(title: "Not here")), language: .french)
        #expect(missing.contains("Not here") && !missing.contains("sign-out"))
    }
}

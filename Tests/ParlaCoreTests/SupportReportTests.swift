import ParlaCore
import Testing

@Suite("support report rules")
struct SupportReportTests {
    @Test("references are PR- and six digits at least")
    func references() {
        #expect(SupportReport.reference(42) == "PR-000042")
        #expect(SupportReport.reference(1_234_567) == "PR-1234567")
    }

    @Test("a report keeps its lines, trimmed; the version is normalized; every problem is named")
    func validation() throws {
        let report = try SupportReport.validate(
            text: "\n  The game froze.\nTwice.  \n", appVersion: "2.04.1", platform: "android", device: " Pixel 8 ")
        #expect(report.text == "The game froze.\nTwice." && report.appVersion == "2.4.1" && report.device == "Pixel 8")
        #expect(report.platform == .android)
        #expect(throws: ParlaError.validation([FieldError("text", .invalidReportText)])) {
            try SupportReport.validate(text: String(repeating: "a", count: 5001), appVersion: "1", platform: "ios", device: "x")
        }
        #expect(throws: ParlaError.validation([FieldError("status", .invalidReportStatus)])) { try SupportReport.status("done") }
        #expect(try SupportReport.status("in_progress") == .inProgress)
    }

    @Test("prose fields take line breaks and tabs, never other control characters")
    func prose() {
        #expect(TextInput.isAcceptableProse("one\ntwo\r\n\tthree") && !TextInput.isAcceptable("one\ntwo"))
        #expect(!TextInput.isAcceptableProse("bell \u{7}") && !TextInput.isAcceptableProse("nul \u{0}"))
        let document: [String: Any] = ["text": "a\nb", "device": "x\ny"]
        #expect(TextInput.controlledFields(in: document, prose: TextInput.proseFields(path: "/v1/support/reports")) == ["device"])
        #expect(TextInput.controlledFields(in: document, prose: TextInput.proseFields(path: "/v1/accounts")) == ["device", "text"])
    }
}

import Foundation
import Testing

@testable import ParlaCore

@Suite("the Art Space's rules")
struct ArtSpaceRulesTests {
    @Test("a title is 1 to 60 printable characters, trimmed")
    func titles() throws {
        #expect(try ArtSpaceRules.title("  Mon chat bleu ") == "Mon chat bleu")
        for bad in ["", "   ", String(repeating: "x", count: 61), "a\u{0}b"] {
            #expect(throws: ParlaError.self) { try ArtSpaceRules.title(bad) }
        }
    }

    @Test("its family sees every drawing and hears it; a teacher sees shared ones, and hears them only if recordings are shared")
    func readers() {
        let drawing = Drawing(
            id: .generate(), title: "Le soleil", picture: PictureInfo(mediaType: .png, width: 40, height: 40),
            recording: .init(mediaType: "audio/wav", seconds: 3), isShared: true, createdAt: Date())
        let (learner, account) = (LearnerID.generate(), AccountID.generate())
        let family = AuthorizedLearner(id: learner, account: account, role: .owner)
        let teacher = AuthorizedLearner(id: learner, account: account, role: .teacher, mayHearRecordings: false)
        let hearingTeacher = AuthorizedLearner(id: learner, account: account, role: .teacher, mayHearRecordings: true)
        #expect(ArtSpaceRules.seesUnshared(.owner) && !ArtSpaceRules.seesUnshared(.teacher))
        #expect(ArtSpaceRules.shown(drawing, to: family).recording != nil)
        #expect(ArtSpaceRules.shown(drawing, to: teacher).recording == nil)
        #expect(ArtSpaceRules.shown(drawing, to: hearingTeacher) == drawing)
    }
}

import Foundation
import ParlaCore
import Testing

@Suite("languages and messages")
struct LanguageTests {
    @Test(
        arguments: [
            (nil, Language.english), ("", .english), ("fr", .french), ("fr-CA", .french), ("DE_at", .german),
            ("ja, it;q=0.5", .italian), ("en;q=0.2, es;q=0.8", .spanish), ("es;q=0, de;q=0.1", .german),
            ("*", .english), ("pt-BR, pt;q=0.9", .english), ("fr;q=abc, it", .italian), ("it;q=0.5, de;q=0.5", .italian),
        ] as [(String?, Language)])
    func negotiation(_ header: String?, _ expected: Language) {
        #expect(LanguagePreference.negotiate(header) == expected)
    }

    @Test("every error code has a message in all five languages, each its own")
    func everyCodeTranslated() {
        for code in ErrorCode.allCases {
            let texts = Language.allCases.map { code.message.text(in: $0) }
            #expect(texts.allSatisfy { !$0.isEmpty && $0.count < 200 }, "\(code)")
            #expect(Set(texts).count == 5, "\(code) has untranslated messages")
        }
        #expect(Set(ErrorCode.allCases.map(\.rawValue)).count == ErrorCode.allCases.count)
    }

    @Test("avatars are named in every language")
    func avatarNames() {
        for avatar in Avatar.catalogue {
            #expect(Language.allCases.allSatisfy { !avatar.name.text(in: $0).isEmpty })
        }
        #expect(Set(Avatar.catalogue.map(\.id)).count == Avatar.catalogue.count)
        #expect(Avatar.isKnown(Avatar.defaultID))
    }

    @Test("identifiers are time-ordered UUIDv7")
    func identifiers() {
        let ids = (0..<100).map { _ in AccountID.generate() }
        for id in ids {
            #expect(id.description.count == 36)
            #expect(Array(id.description)[14] == "7")
            #expect(AccountID(id.description) == id)
        }
        let early = UUID.version7(now: Date(timeIntervalSince1970: 1_000))
        let late = UUID.version7(now: Date(timeIntervalSince1970: 2_000))
        #expect(early.uuidString < late.uuidString)
        #expect(AccountID("not-a-uuid") == nil)
    }
}

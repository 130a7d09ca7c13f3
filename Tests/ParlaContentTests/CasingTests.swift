import ParlaCore
import Testing

@testable import ParlaContent

@Suite("letter case: how words and letters are shown")
struct CasingTests {
    @Test("lower shows a word as written (a German noun keeps its capital); upper and title change it")
    func setting() {
        #expect(Casing.word("dog", override: nil, letterCase: .lower) == "dog")
        #expect(Casing.word("Hund", override: nil, letterCase: .lower) == "Hund")
        #expect(Casing.word("ice cream", override: nil, letterCase: .upper) == "ICE CREAM")
        #expect(Casing.word("ice cream", override: nil, letterCase: .title) == "Ice cream")
        #expect(Casing.word("été", override: nil, letterCase: .upper) == "ÉTÉ")
        // ß has no one-letter capital in use: the word keeps its letters.
        #expect(Casing.word("Straße", override: nil, letterCase: .upper) == "STRAßE")
    }

    @Test("a word's own case override wins over the setting")
    func override() {
        #expect(Casing.word("tv", override: .upper, letterCase: .lower) == "TV")
        #expect(Casing.word("Hund", override: .lower, letterCase: .title) == "hund")
        #expect(Casing.word("new york", override: .capitalized, letterCase: .lower) == "New York")
        #expect(Casing.word("new york", override: .capitalized, letterCase: .upper) == "New York")
    }

    @Test("a letter on its own is a capital in upper and title case")
    func letters() {
        #expect(Casing.letter("a", letterCase: .lower) == "a")
        #expect(Casing.letter("ñ", letterCase: .upper) == "Ñ")
        #expect(Casing.letter("é", letterCase: .title) == "É")
        #expect(Casing.letter("ß", letterCase: .upper) == "ß")
    }
}

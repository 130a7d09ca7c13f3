import ParlaSpeech
import ParlaTestSupport
import Testing

@Suite("pronunciation")
struct PronunciationTests {
    let map = PhoneMap(
        name: "test", table: ["b": "B", "ʊ": "UH", "o": "OW", "n": "N", "dʒ": "JH", "ɔ": "AO", "r": "R", "ɑ̃": "AA N", "ʔ": ""])

    @Test("espeak-ng IPA becomes model phones: stress and length dropped, diacritics tried off")
    func ipa() {
        #expect(map.phones(ofIPA: "b_ʊ_o_n_dʒ_ˈɔ__r_n_o").phones == ["B", "UH", "OW", "N", "JH", "AO", "R", "N", "OW"])
        #expect(map.phones(ofIPA: "ˈɑ̃_ʔ_oː").phones == ["AA", "N", "OW"])
        #expect(map.phones(ofIPA: "n̪_o").phones == ["N", "OW"])
        #expect(map.phones(ofIPA: "q_o").unknown == ["q"])
        // A loanword's voice switch is no phoneme.
        #expect(map.phones(ofIPA: "(en)_b_ˈɔ_(de)") == (["B", "AO"], []))
    }

    @Test("German's phone map takes every phoneme espeak-ng says in German, English loanwords' included")
    func germanLoanwords() throws {
        let map = try PhoneMap.load(TestApp.projectDirectory + "/Models/phonemaps/ipa-de.json")
        for word in ["Thriller", "Workshop", "Sweatshirt", "Fan", "Baseball", "Guten", "Brötchen"] {
            let ipa = try #require(Espeak.ipa(word, voice: "de"))
            let mapped = map.phones(ofIPA: ipa)
            #expect(mapped.unknown.isEmpty && !mapped.phones.isEmpty, "\(word): \(ipa) -> \(mapped)")
        }
    }

    @Test("a phrase's words: punctuation off, elisions and hyphens kept")
    func words() {
        #expect(PhraseText.words("¿Dónde está la estación?") == ["Dónde", "está", "la", "estación"])
        #expect(PhraseText.words("Bonjour ! C’est l’éléphant, « vingt-deux ».") == ["Bonjour", "C'est", "l'éléphant", "vingt-deux"])
        #expect(PhraseText.words("Guten Morgen — wie geht's?") == ["Guten", "Morgen", "wie", "geht's"])
        #expect(PhraseText.words(" ... !! ") == [])
    }

    @Test("espeak-ng transcribes what a dictionary lacks, in the language's voice")
    func espeak() throws {
        let ipa = try #require(Espeak.ipa("buongiorno", voice: "it"))
        #expect(ipa.contains("dʒ"))
        let french = try #require(Espeak.ipa("éléphant", voice: "fr"))
        #expect(french.contains("ɑ̃"))
    }
}

import Foundation
import ParlaCore
import ParlaSpeech
import ParlaTestSupport
import Testing

/// Letters aligned with phones, so that hints can name letters: the bundled
/// spelling tables on words whose spellings a teacher would give.
@Suite("letters of each phone")
struct GraphemesTests {
    static func table(_ language: String) throws -> Graphemes {
        try Graphemes.load(TestApp.projectDirectory + "/Models/\(language)/graphemes.json")
    }

    func spelled(_ table: Graphemes, _ word: String, _ phones: String) -> [String] {
        table.spellings(of: word, phones: phones.split(separator: " ").map(String.init)).map { $0.map(String.init) ?? "" }
    }

    @Test("English: digraphs and trigraphs, silent letters, a letter for two phones, hyphens and capitals")
    func english() throws {
        let en = try Self.table("en")
        #expect(spelled(en, "think", "θ ɪ ŋ k") == ["th", "i", "n", "k"])
        #expect(spelled(en, "though", "ð oʊ") == ["th", "ough"])
        #expect(spelled(en, "knight", "n aɪ t") == ["kn", "igh", "t"])
        #expect(spelled(en, "box", "b ɑ k s") == ["b", "o", "x", ""])
        #expect(spelled(en, "Church", "tʃ ɝ tʃ") == ["Ch", "ur", "ch"])
        #expect(spelled(en, "ill-disposed", "ɪ l d ɪ s p oʊ z d") == ["i", "ll", "d", "i", "s", "p", "o", "s", "ed"])
        #expect(spelled(en, "phone", "f oʊ n") == ["ph", "o", "n"])
        #expect(spelled(en, "station", "s t eɪ ʃ ʌ n") == ["s", "t", "a", "ti", "o", "n"])
    }

    @Test("a phone the table does not know still takes a letter, and the phones around it keep theirs; no phones, no letters")
    func unknownPhone() throws {
        let en = try Self.table("en")
        #expect(spelled(en, "think", "θ ʏ ŋ k") == ["th", "i", "n", "k"])
        #expect(en.spellings(of: "think", phones: []).isEmpty)
        #expect(spelled(en, "", "θ") == [""])
    }
}

extension GraphemesTests {
    struct Check: Decodable {
        var word: String
        var phones: [String]
        var groups: [String]
    }

    /// Everyday words, each phone as the language's model shows it and the
    /// letters a teacher would point at (written with the tables, checked against each model's dictionary).
    @Test(
        "French, German, Italian and Spanish: everyday words get the letters a teacher would point at", arguments: ["fr", "de", "it", "es"])
    func otherLanguages(_ language: String) throws {
        let table = try Self.table(language)
        let data = try Data(
            contentsOf: URL(fileURLWithPath: TestApp.projectDirectory + "/Tests/ParlaSpeechTests/Fixtures/graphemes-checks.json"))
        let checks = try #require(try JSONDecoder().decode([String: [Check]].self, from: data)[language])
        #expect(checks.count >= 15)
        for check in checks {
            // As written: a capital stays one (the groups are in lower case).
            let spelled = table.spellings(of: check.word, phones: check.phones).map { $0.map(String.init) ?? "" }
            #expect(spelled.map { $0.lowercased() } == check.groups, "\(language) \(check.word)")
        }
    }
}

extension GraphemesTests {
    /// Every phone a language's models can show a learner (through the
    /// model's IPA map, or its phone map read backwards) has spellings.
    @Test("every IPA a language's models show has spellings in its table", arguments: ["en", "fr", "de", "it", "es"])
    func tablesCoverWhatIsShown(_ language: String) throws {
        let models = TestApp.projectDirectory + "/Models"
        let table = try Self.table(language)
        let profile = try SpeechModels(modelsDirectory: models, modelPaths: []).profile(try #require(Language(rawValue: language)))
        for model in profile.models {
            let shown: [String]
            if let ipa = model.ipa {
                let map = try JSONDecoder().decode(
                    [String: String].self, from: Data(contentsOf: URL(fileURLWithPath: "\(models)/phonemaps/\(ipa).json")))
                shown = Array(map.values)
            } else {
                shown = Array(try PhoneMap.load("\(models)/phonemaps/\(model.phoneMap).json").ipaOfPhones.values)
            }
            let missing = Set(shown.filter { !$0.isEmpty && table.phones[$0] == nil }).sorted()
            #expect(missing.isEmpty, "\(language) \(model.name): no spellings for \(missing)")
        }
    }

    /// German's model shows its own phone names where its phone map gives
    /// no IPA ("RR", its everyday r): its IPA map names every phone of its dictionary.
    @Test(
        "German: the IPA map names every phone of the model's dictionary",
        .enabled(
            if: FileManager.default.fileExists(atPath: ScorerTests.sharedModels + "/de/de.dict"), "no shared German model on this machine"))
    func germanPhonesHaveIPA() throws {
        let map = try JSONDecoder().decode(
            [String: String].self,
            from: Data(contentsOf: URL(fileURLWithPath: TestApp.projectDirectory + "/Models/phonemaps/de-ipa.json")))
        let dictionary = try String(contentsOfFile: ScorerTests.sharedModels + "/de/de.dict", encoding: .utf8)
        let phones = Set(dictionary.split(separator: "\n").flatMap { $0.split(separator: " ").dropFirst().map(String.init) })
        #expect(phones.count > 40)
        #expect(phones.filter { map[$0] == nil }.sorted() == [])
        #expect(map["RR"] == "ʁ")
    }
}

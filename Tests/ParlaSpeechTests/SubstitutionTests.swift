import Foundation
import ParlaSpeech
import ParlaTestSupport
import Testing

/// The phones learners say instead (issue 36, must-have 5): the table the
/// alignment grammar offers, and the one the project keeps for en-us.
@Suite("phone substitutions")
struct SubstitutionTests {
    @Test("the grammar offers the phone first, then each substitute once, weighted e^-penalty in plain decimals")
    func alternatives() {
        let table = PhoneSubstitutions(penalty: 39.14, substitutes: ["TH": ["S", "T", "S", "TH"], "B": []])
        let offered = table.alternatives("TH")
        #expect(offered.map(\.heard) == ["TH", "S", "T"])
        #expect(offered[0].weight == "1")
        // JSGF reads no exponent: the weight is a decimal, e^-39.14 = 1.0e-17.
        #expect(offered[1].weight.hasPrefix("0.0000000000000000100") && !offered[1].weight.contains("e"))
        #expect((Double(offered[1].weight)! - exp(-39.14)) / exp(-39.14) < 1e-6)
        #expect(table.alternatives("B").map(\.heard) == ["B"] && table.alternatives("ZH").map(\.heard) == ["ZH"])
    }

    @Test("a table of another format, or a penalty JSGF cannot write, is refused")
    func refused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-substitutions-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func load(_ json: String) throws -> PhoneSubstitutions {
            let path = directory.appendingPathComponent("table.json").path
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            return try PhoneSubstitutions.load(path)
        }
        #expect(
            try load(#"{"format": "parla-substitutions-1", "penalty": 20, "substitutes": {"AE": ["EH"]}}"#).substitutes == ["AE": ["EH"]])
        #expect(throws: (any Error).self) { try load(#"{"format": "other", "penalty": 20, "substitutes": {}}"#) }
        #expect(throws: (any Error).self) { try load(#"{"format": "parla-substitutions-1", "penalty": 90, "substitutes": {}}"#) }
        #expect(throws: (any Error).self) { try load(#"{"format": "parla-substitutions-1", "penalty": -1, "substitutes": {}}"#) }
    }

    @Test("en-us's table: the model's phones only, vowels for vowels and consonants for consonants, never the phone itself")
    func englishTable() throws {
        let table = try PhoneSubstitutions.load(TestApp.projectDirectory + "/Models/en/substitutions.json")
        let definition = try ModelDefinition.read("/usr/share/pocketsphinx/model/en-us/en-us/mdef")
        let vowels = Set("AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW".split(separator: " ").map(String.init))
        #expect(table.substitutes.count > 20)
        for (phone, substitutes) in table.substitutes {
            #expect(definition.phones.contains(phone) && !substitutes.isEmpty && substitutes.count <= 3)
            for substitute in substitutes {
                #expect(definition.phones.contains(substitute) && substitute != phone && substitute != "SIL")
                #expect(vowels.contains(phone) == vowels.contains(substitute), "\(phone) -> \(substitute)")
            }
        }
        // The substitutions learners are known for are there.
        #expect(table.substitutes["TH"]?.contains("S") == true && table.substitutes["AE"]?.contains("EH") == true)
        #expect(table.substitutes["IH"]?.contains("IY") == true && table.substitutes["Z"]?.contains("S") == true)
    }

    @Test("a simulated substitution: from the middle word outward, a phone the native said that another's substitutes include")
    func trial() throws {
        let table = PhoneSubstitutions(penalty: 39.14, substitutes: ["AE": ["EH"], "IH": ["IY", "EH"], "TH": ["S"]])
        let words = [
            ExpectedWord(text: "the", pronunciations: [["DH", "AH"]]),
            ExpectedWord(text: "red", pronunciations: [["R", "EH", "D"], ["R", "AH", "D"]]),
            ExpectedWord(text: "sun", pronunciations: [["S", "AH", "N"]]),
        ]
        // "red" is the middle word; EH is a substitute of AE and of IH: AE, the first alphabetically, is asked for.
        let trial = try #require(table.trial(words))
        #expect(trial == SubstitutionTrial(word: 1, phone: 1, asked: "AE", said: "EH"))
        let changed = trial.applied(to: words)
        #expect(changed[1].pronunciations == [["R", "AE", "D"]] && changed[0] == words[0] && changed[2] == words[2])
        // Without EH in the middle, the nearest word with a substitute: "sun" (S, TH's) before "the".
        let noMiddle = [words[0], ExpectedWord(text: "mm", pronunciations: [["M"]]), words[2]]
        #expect(table.trial(noMiddle) == SubstitutionTrial(word: 2, phone: 0, asked: "TH", said: "S"))
        #expect(table.trial([ExpectedWord(text: "mm", pronunciations: [["M"]])]) == nil)
    }

    @Test("the other languages' tables, by phone class: their models' phones only, a vowel for a vowel, a consonant for a consonant")
    func otherLanguages() throws {
        func json(_ name: String) throws -> [String: String] {
            try JSONDecoder().decode(
                [String: String].self,
                from: Data(contentsOf: URL(fileURLWithPath: TestApp.projectDirectory + "/Models/phonemaps/\(name).json")))
        }
        // Each model's phones in IPA: French's and German's maps, Spanish's phone map read backwards.
        // (Of several IPA for one phone, the first in order: /i/ before /j/, as training/substitutions.py reads it.)
        let spanish = try json("ipa-es").sorted { $0.key < $1.key }.reduce(into: [String: String]()) { ipa, entry in
            if !entry.value.isEmpty && !entry.value.contains(" ") && ipa[entry.value] == nil { ipa[entry.value] = entry.key }
        }
        let vowels = Set("aeiouyøœɛɔəɪʊʏɐɑæʌɜɝɚ".unicodeScalars)
        // By the first scalar: a nasal vowel's tilde is a second one.
        func isVowel(_ ipa: String) -> Bool { ipa.unicodeScalars.first.map(vowels.contains) ?? false }
        for (language, ipa) in [("fr", try json("fr-ipa")), ("de", try json("de-ipa")), ("es", spanish)] {
            let table = try PhoneSubstitutions.load(TestApp.projectDirectory + "/Models/\(language)/substitutions.json")
            #expect(table.substitutes.count >= 15 && table.penalty == 39.14, "\(language)")
            for (phone, substitutes) in table.substitutes {
                let own = try #require(ipa[phone], "\(language): \(phone) is not the model's")
                for substitute in substitutes {
                    let theirs = try #require(ipa[substitute], "\(language): \(substitute) is not the model's")
                    #expect(isVowel(own) == isVowel(theirs) && own != theirs, "\(language): \(phone) -> \(substitute)")
                }
            }
        }
        // The classic pairs are there: French /e/-/ɛ/ and /o/-/ɔ/, German long and short /a/, Spanish /b/-/p/.
        let french = try PhoneSubstitutions.load(TestApp.projectDirectory + "/Models/fr/substitutions.json").substitutes
        #expect(french["ei"]?.contains("ai") == true && french["au"]?.contains("oo") == true)
        let german = try PhoneSubstitutions.load(TestApp.projectDirectory + "/Models/de/substitutions.json").substitutes
        #expect(german["AAH"]?.contains("AH") == true)
        #expect(try PhoneSubstitutions.load(TestApp.projectDirectory + "/Models/es/substitutions.json").substitutes["b"] == ["p"])
    }
}

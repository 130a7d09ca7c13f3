import Foundation
import ParlaSpeech
import ParlaTestSupport
import Testing

/// Another language's attempts carried into the English sequence scorer's
/// phones (issue 36, must-have 6).
@Suite("phone transfer")
struct PhoneTransferTests {
    static let transfer = PhoneTransfer(scorer: "en/scorer.json", phones: ["a": "AA", "e": "EH", "ɛ": "EH", "SIL": "SIL"])

    @Test(
        "labels, pronunciations and posteriors carried: phones that share a scorer phone pool their mass, one none carries to explains nothing"
    )
    func carried() {
        var evidence = PhoneEvidence()
        (evidence.posteriors, evidence.heardAs, evidence.substitute, evidence.energy) = ([-1, -2, -2, -5], "ɛ", "e", 3)
        let raw = AttemptScore(
            overall: 70, accuracy: 70, completeness: 100, fluency: 80,
            words: [
                .init(
                    text: "été", start: 0, end: 0.2, score: 70, error: .none,
                    phones: [.init(phone: "e", start: 0, end: 0.1, score: 70), .init(phone: "x", start: 0.1, end: 0.2, score: 60)])
            ], insertions: 0, recognizedText: nil, passed: true, feedback: .good, goodness: -1, speechRate: 10, duration: 1, warnings: [])
        let carried = Self.transfer.carried(
            raw, evidence: [evidence, nil], pronunciations: [["e", "t", "e"]], modelPhones: ["a", "e", "ɛ", "SIL"],
            scorerPhones: ["AA", "EH", "IY", "SIL"])
        // A phone the table lacks is silence to the scorer.
        #expect(carried.score.words[0].phones.map(\.phone) == ["EH", "SIL"] && carried.pronunciations == [["EH", "SIL", "EH"]])
        let posteriors = try! #require(carried.evidence[0]?.posteriors)
        #expect(posteriors.count == 4 && posteriors[0] == -1 && posteriors[2] == -5 && posteriors[3] == -5)
        #expect(abs(Double(posteriors[1]) - (-2 + log(2.0))) < 1e-6)
        #expect(carried.evidence[0]?.heardAs == "EH" && carried.evidence[0]?.substitute == "EH" && carried.evidence[0]?.energy == 3)
        #expect(carried.evidence[1] == nil && carried.score.words[0].phones.map(\.score) == [70, 60])
        // Evidence over other phones than the model's stays as it was.
        let foreign = Self.transfer.carried(
            raw, evidence: [evidence], pronunciations: [], modelPhones: ["a", "e"], scorerPhones: ["AA", "EH", "IY", "SIL"])
        #expect(foreign.evidence[0]?.posteriors == evidence.posteriors)
    }

    @Test("the committed tables carry every phone of French, German and Spanish to an en-us phone, by IPA and class")
    func tables() throws {
        func json(_ name: String) throws -> [String: String] {
            try JSONDecoder().decode(
                [String: String].self,
                from: Data(contentsOf: URL(fileURLWithPath: TestApp.projectDirectory + "/Models/phonemaps/\(name).json")))
        }
        let english = Set(try json("arpabet-ipa").keys)
        for (language, ipa) in [("fr", try json("fr-ipa")), ("de", try json("de-ipa"))] {
            let table = try PhoneTransfer.load(TestApp.projectDirectory + "/Models/\(language)/transfer.json")
            #expect(Set(table.phones.keys) == Set(ipa.keys), "\(language)")
            #expect(table.phones.values.allSatisfy(english.contains) && table.scorer == "en/scorer.json", "\(language)")
        }
        let french = try PhoneTransfer.load(TestApp.projectDirectory + "/Models/fr/transfer.json").phones
        #expect(french["ee"] == "AH" && french["rr"] == "R" && french["ei"] == "EY" && french["ch"] == "SH" && french["SIL"] == "SIL")
        let german = try PhoneTransfer.load(TestApp.projectDirectory + "/Models/de/transfer.json").phones
        #expect(german["AAH"] == "AA" && german["AH"] == "AA" && german["IIH"] == "IY" && german["X"] == "HH")
        let spanish = try PhoneTransfer.load(TestApp.projectDirectory + "/Models/es/transfer.json").phones
        #expect(spanish["rr"] == "R" && spanish["b"] == "B" && spanish["g"] == "G" && spanish["z"] == "TH")
        #expect(spanish.values.allSatisfy(english.contains) && spanish.count >= 20)
        // The en-us model scoring German or Spanish carries each phone to itself.
        let itself = try PhoneTransfer.load(TestApp.projectDirectory + "/Models/en/transfer-en-us.json").phones
        #expect(Set(itself.keys) == english && itself.allSatisfy { $0.key == $0.value })
    }
}

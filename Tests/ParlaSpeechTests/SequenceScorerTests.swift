import Foundation
import ParlaSpeech
import ParlaTestSupport
import Testing

/// The sequence scorer of issue 36 in Swift against the training script's
/// own outputs: `training/train_scorer.py` writes, beside the weights,
/// synthetic utterances and what its model (in float64) says of them.
@Suite("sequence scorer")
struct SequenceScorerTests {
    struct Reference: Decodable {
        struct Case: Decodable {
            var inputs: [[Double]]
            var phone: [Int]
            var word: [Int]
            var phoneScores: [Double]
            var wordScoresPerPhone: [[Double]]
            var utteranceScores: [Double]
        }
        var format: String
        var tolerance: Double
        var cases: [Case]
    }

    static let weights = TestApp.projectDirectory + "/Models/en/scorer.json"

    @Test("Swift inference of the committed weights equals the script's on its fixed inputs, to 1e-4")
    func equalsTheScript() throws {
        let scorer = try SequenceScorer(contentsOf: Self.weights)
        let data = try Data(
            contentsOf: URL(fileURLWithPath: TestApp.projectDirectory + "/Tests/ParlaSpeechTests/Fixtures/scorer-reference.json"))
        let reference = try JSONDecoder().decode(Reference.self, from: data)
        #expect(reference.format == "parla-gopt-scorer-reference-1" && reference.tolerance <= 1e-4)
        #expect(reference.cases.count >= 2)
        var largest = 0.0
        for item in reference.cases {
            let output = scorer.predict(inputs: item.inputs, phones: item.phone)
            #expect(output.phones.count == item.phoneScores.count)
            for (swift, script) in zip(output.phones, item.phoneScores) { largest = max(largest, abs(swift - script)) }
            for (swift, script) in zip(output.words, item.wordScoresPerPhone) {
                #expect(swift.count == script.count)
                for (a, b) in zip(swift, script) { largest = max(largest, abs(a - b)) }
            }
            #expect(output.utterance.count == item.utteranceScores.count)
            for (swift, script) in zip(output.utterance, item.utteranceScores) { largest = max(largest, abs(swift - script)) }
        }
        #expect(largest <= reference.tolerance, "largest difference \(largest)")
    }

    @Test("the tokens' order matters: a bidirectional model reads the phones in context, and an empty attempt scores zero")
    func context() throws {
        let scorer = try SequenceScorer(contentsOf: Self.weights)
        let row = (0..<scorer.inputs.count).map { Double($0 % 7) - 3 }
        let other = row.map { -$0 }
        let inContext = scorer.predict(inputs: [row, other], phones: [0, 1])
        // The same token followed by another scores otherwise than alone.
        #expect(abs(inContext.phones[0] - scorer.predict(inputs: [row], phones: [0]).phones[0]) > 1e-6)
        #expect(inContext.words.count == 2 && inContext.utterance.count == 5)
        #expect(scorer.predict(inputs: [], phones: []).utterance == [0, 0, 0, 0, 0])
    }

    @Test("a weights file of another format or shape is refused, naming the file")
    func refused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scorer-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.weights))) as! [String: Any]
        object["format"] = "parla-gopt-scorer-0"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        #expect(throws: SpeechSetupError.self) { try SequenceScorer(contentsOf: path) }
        object["format"] = SequenceScorer.format
        object["inputMean"] = [0.0]
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        #expect(throws: SpeechSetupError.self) { try SequenceScorer(contentsOf: path) }
    }
}

/// The sequence scorer's tokens, built from an attempt as the training
/// script builds them, and the rule that turns its scores into the attempt's.
@Suite("sequence scorer inputs")
struct SequenceInputsTests {
    static let phones = ["AH", "HH", "L", "OW", "SIL"]

    static func evidence(_ posteriors: [Float]) -> PhoneEvidence {
        var evidence = PhoneEvidence()
        (evidence.logPosterior, evidence.gapToBest, evidence.otherShare, evidence.heardAs) = (-1.5, -0.5, 0.25, "AH")
        evidence.posteriors = posteriors
        return evidence
    }

    /// "hello" said (HH at 0-0.1 s, OW at 0.3-0.4 s), "low" not reached.
    static func attempt() -> AttemptScore {
        AttemptScore(
            overall: 60, accuracy: 70, completeness: 50, fluency: 80,
            words: [
                .init(
                    text: "hello", start: 0, end: 0.4, score: 65, error: .none,
                    phones: [.init(phone: "HH", start: 0, end: 0.1, score: 70), .init(phone: "OW", start: 0.3, end: 0.4, score: 60)]),
                .init(text: "low", start: nil, end: nil, score: 0, error: .omitted, phones: []),
            ], insertions: 1, recognizedText: nil, passed: false, feedback: .incomplete, goodness: -30, speechRate: 10, duration: 2,
            warnings: [])
    }

    @Test("one token a phone said and one a phone of a word left out, with the columns training/features.py names")
    func tokens() {
        let names = SequenceInputs.names(phones: Self.phones)
        func column(_ name: String) -> Int { names.firstIndex(of: name)! }
        // The third evidence entry is past the words scored (a word the alignment left unfinished): read for the mean only.
        var evidence: [PhoneEvidence?] = [Self.evidence([-1, -2, -3, -4, -5]), Self.evidence([-6, -2, -3, -0.5, -9]), Self.evidence([])]
        (evidence[0]!.energy, evidence[1]!.energy) = (3, -1)
        let tokens = SequenceInputs(
            Self.attempt(), evidence: evidence, pronunciations: [["HH", "AH", "L", "OW"], ["L", "OW"]], phones: Self.phones)
        #expect(tokens.rows.count == 4 && tokens.rows.allSatisfy { $0.count == names.count })
        #expect(tokens.phones == [1, 3, 2, 3])
        #expect(tokens.places.map(\.word) == [0, 0, 1, 1] && tokens.places.map(\.phone) == [0, 1, nil, nil])
        let (hh, ow, l) = (tokens.rows[0], tokens.rows[1], tokens.rows[2])
        // LPP as given; LPR the token's own phone's minus each; own and margin over the best other (silence apart).
        #expect(Array(hh[0..<5]) == [-1, -2, -3, -4, -5])
        #expect(Array(hh[5..<10]) == [-1, 0, 1, 2, 3])
        #expect(hh[column("lppOwn")] == -2 && hh[column("lppMargin")] == -1)
        #expect(ow[column("lppMargin")] == 1.5)
        // Loudness in tens of dB, and against the word's loudest phone.
        #expect(hh[column("energy")] == 0.3 && hh[column("energyInWord")] == 0)
        #expect(ow[column("energy")] == -0.1 && ow[column("energyInWord")] == -0.4)
        // The pause between the word's phones, either side.
        #expect(abs(hh[column("pauseAfter")] - 0.2) < 1e-9 && abs(ow[column("pauseBefore")] - 0.2) < 1e-9 && hh[column("pauseBefore")] == 0)
        #expect(hh[column("position.begin")] == 1 && ow[column("position.end")] == 1 && hh[column("wordPhones")] == 2)
        #expect(hh[column("wordError.none")] == 1 && hh[column("missing")] == 0 && hh[column("phoneScore")] == 0.7)
        // The word left out: its pronunciation's phones, missing, omitted.
        #expect(l[column("missing")] == 1 && l[column("wordError.omitted")] == 1 && Array(l[0..<10]) == Array(repeating: 0, count: 10))
        // The sentence: the raw scores, goodness floored at -10, the share of tokens missing on every token.
        #expect(tokens.rows.allSatisfy { $0[column("utteranceMissingShare")] == 0.5 && $0[column("goodness")] == -10 })
        #expect(hh[column("completeness")] == 0.5 && hh[column("insertions")] == 1 && hh[column("logDuration.utterance")] == log(2))
        #expect(hh[column("utteranceMeanLogPosterior")] == -1.5)
        // Evidence shorter than the phones scored is none at all: every phone then lacks it.
        let short = SequenceInputs(Self.attempt(), evidence: [nil], pronunciations: [[], ["L", "OW"]], phones: Self.phones)
        #expect(short.rows.allSatisfy { $0[column("missing")] == 1 && $0[column("logPosterior")] == 0 })
    }

    @Test("a scorer that judges omitted words scores a squeezed word like any other, and a word never reached keeps omitted")
    func omittedWords() {
        var raw = Self.attempt()
        // "hello" squeezed into too few frames: the raw scorer calls it omitted.
        raw.words[0].error = .omitted
        let fitted = FittedScores(
            phones: [[1.8, 1.6], []], words: [9, 4], stress: [9.5, 6], overall: 7, accuracy: 8, fluency: 6, prosody: 5.5,
            judgesOmitted: true)
        let scored = fitted.applied(to: raw, passThreshold: 60, mispronouncedShareAllowed: 0.5)
        #expect(scored.words[0].error == AttemptScore.WordError.none && scored.words[0].score == 90 && scored.words[0].stress == 95)
        #expect(scored.words[0].phones.map(\.score) == [90, 80])
        #expect(scored.words[1].error == .omitted && scored.words[1].score == 40 && scored.words[1].stress == 60)
        #expect(scored.accuracy == 80 && scored.fluency == 60 && scored.prosody == 55)
        // Half the phrase unsaid (raw completeness 50): the overall is scaled by it.
        #expect(scored.overall == 35)
        // The linear mapping's way: omitted words keep the raw verdict and score, no stress, raw fluency.
        let linear = FittedScores(phones: [[1.8, 1.6], []], words: [9, 4], overall: 7).applied(
            to: raw, passThreshold: 60, mispronouncedShareAllowed: 0.5)
        #expect(linear.words.map(\.error) == [.omitted, .omitted] && linear.words.map(\.score) == [65, 0])
        #expect(linear.words.allSatisfy { $0.stress == nil } && linear.prosody == nil && linear.fluency == 80)
    }
}

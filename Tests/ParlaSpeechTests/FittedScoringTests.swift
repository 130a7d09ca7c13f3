import Foundation
import ParlaCore
import ParlaSpeech
import Testing

/// Scores fitted to human raters, without audio: the linear fit, native
/// norms and the mapping applied to an attempt.
@Suite("fitted scoring")
struct FittedScoringTests {
    @Test("a linear score recovers a linear relation, clips what lies beyond the range it saw, and ridge shrinks its weights")
    func linear() {
        let rows = (0..<50).map { i -> [String: Double] in ["x": Double(i), "y": Double(i % 7)] }
        let targets = rows.map { 3 + 2 * $0["x"]! - $0["y"]! }
        let fit = LinearScore.fit(rows, targets: targets, features: ["x", "y"], ridge: 0, clip: 0)
        #expect(abs(fit.predict(["x": 10, "y": 2]) - 21) < 1e-6)
        // Beyond the range seen (0...49): as at its edge.
        #expect(abs(fit.predict(["x": 100, "y": 0]) - fit.predict(["x": 49, "y": 0])) < 1e-9)
        // A missing feature counts as its mean.
        #expect(abs(fit.predict(["x": 10]) - fit.predict(["x": 10, "y": fit.mean[1]])) < 1e-9)
        let shrunk = LinearScore.fit(rows, targets: targets, features: ["x", "y"], ridge: 1000, clip: 0)
        #expect(abs(shrunk.weights[0]) < abs(fit.weights[0]))
        // A feature that never varies gets no weight.
        let constant = LinearScore.fit(rows.map { $0.merging(["c": 1]) { a, _ in a } }, targets: targets, features: ["x", "c"], ridge: 0)
        #expect(constant.weights[1] == 0)
    }

    @Test("an isotonic map pools what falls, never falls itself, and interpolates between its steps")
    func isotonic() {
        // Targets 1, 3, 2, 4 at 1...4: the middle pair pools to 2.5.
        let map = IsotonicMap.fit(predictions: [4, 2, 1, 3], targets: [4, 3, 1, 2])
        #expect(map.inputs == [1, 2.5, 4] && map.outputs == [1, 2.5, 4])
        #expect(map(0) == 1 && map(10) == 4 && map(1.75) == 1.75)
        let noisy = IsotonicMap.fit(predictions: (0..<100).map(Double.init), targets: (0..<100).map { Double($0 % 10) })
        #expect(zip(noisy.outputs, noisy.outputs.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(IsotonicMap(inputs: [], outputs: [])(3) == 3)
    }

    @Test("native norms: each phone's spread drawn towards the pooled one, z measured in spreads")
    func natives() {
        let samples = (0..<40).map { NativeNorms.Sample(phone: $0 < 30 ? "AA" : "B", gap: $0 < 30 ? -1 : -3, logPosterior: -2, frames: 8) }
        let norms = NativeNorms.measure(samples, rates: [10, 12], prior: 10)
        #expect(norms.phones["AA"]?.count == 30 && norms.pooled.count == 40)
        // Pooled: mean -1.5; AA's mean (30 x -1 + 10 x -1.5) / 40.
        #expect(abs(norms.pooled.gap.mean + 1.5) < 1e-9)
        #expect(abs(norms.phone("AA").gap.mean + 1.125) < 1e-9)
        #expect(norms.phone("AA").gap.deviation > 0)
        #expect(norms.phone("ZZ") == norms.pooled)
        #expect(abs(norms.rate.mean - 11) < 1e-9)
        #expect(NativeNorms.Spread(mean: 1, deviation: 2).z(5) == 2)
        // Norms measured before loudness was have none; a phone's is drawn towards the pooled one.
        #expect(norms.pooled.energy == nil && norms.phone("AA").energy == nil)
        let loud = NativeNorms.measure(
            (0..<40).map { .init(phone: $0 < 30 ? "AA" : "B", gap: -1, logPosterior: -2, frames: 8, energy: $0 < 30 ? 4 : -8) },
            rates: [10], prior: 10)
        #expect(abs(loud.pooled.energy!.mean - 1) < 1e-9 && abs(loud.phone("AA").energy!.mean - 3.25) < 1e-9)
        // A learner's loud AA is near natives', the same loudness for B far above theirs.
        var evidence = PhoneEvidence()
        evidence.energy = 4
        var attempt = Self.attempt()
        attempt.words[0].phones = [
            .init(phone: "AA", start: 0, end: 0.08, score: 70), .init(phone: "B", start: 0.08, end: 0.16, score: 70),
        ]
        let features = ScoringModel.features(attempt, evidence: [evidence, evidence], natives: loud)
        let (aa, b) = (features.phones[0][0]["zEnergy"]!, features.phones[0][1]["zEnergy"]!)
        #expect(abs(aa) < 0.5 && b > 1, "zEnergy AA \(aa), B \(b)")
        #expect(ScoringModel.features(attempt, evidence: [evidence, evidence], natives: norms).phones[0][0]["zEnergy"] == 0)
    }

    @Test("a phone's loudness is its frames' mean level against all the phones' frames, whatever the recording's gain")
    func relativeLevels() {
        let decibels: [Double] = [-60, -20, -20, -30, -30, -30, -60]
        let levels = SpeechActivity.relativeLevels(decibels, phones: [1...2, 3...5, 6...9])
        // Five phone frames average -26: +6 and -4; the last phone runs past the recording.
        #expect(levels.count == 3 && abs(levels[0]! - 6) < 1e-9 && abs(levels[1]! + 4) < 1e-9 && levels[2] == nil)
        #expect(SpeechActivity.relativeLevels(decibels.map { $0 - 15 }, phones: [1...2, 3...5]) == [6, -4])
        #expect(SpeechActivity.relativeLevels(decibels, phones: [8...9]) == [nil])
    }

    /// A score that says `value` whatever the features.
    static func constant(_ value: Double, _ features: [String]) -> LinearScore {
        LinearScore(
            features: features, lower: features.map { _ in -1e9 }, upper: features.map { _ in 1e9 }, mean: features.map { _ in 0 },
            scale: features.map { _ in 1 }, weights: features.map { _ in 0 }, intercept: value)
    }

    static func attempt(feedback: AttemptScore.Feedback = .good, completeness: Double = 100) -> AttemptScore {
        func phone(_ symbol: String, _ start: Double) -> AttemptScore.PhoneScore {
            .init(phone: symbol, start: start, end: start + 0.1, score: 70)
        }
        return AttemptScore(
            overall: 70, accuracy: 70, completeness: completeness, fluency: 80,
            words: [
                .init(text: "hello", start: 0, end: 0.2, score: 70, error: .none, phones: [phone("HH", 0), phone("AH", 0.1)]),
                .init(text: "world", start: nil, end: nil, score: 0, error: .omitted, phones: []),
            ], insertions: 0, recognizedText: nil, passed: true, feedback: feedback, goodness: -1, speechRate: 10, duration: 1, warnings: []
        )
    }

    @Test("the mapping applied: phones, words and the sentence from the fitted scores; an omitted word stays 0; no speech stays no speech")
    func apply() {
        let norms = NativeNorms.measure([.init(phone: "HH", gap: -1, logPosterior: -2, frames: 10)], rates: [10])
        let model = ScoringModel(
            phone: Self.constant(1.5, ScoringModel.phoneFeatures), word: Self.constant(9, ScoringModel.wordFeatures),
            sentence: Self.constant(8, ScoringModel.sentenceFeatures))
        let evidence: [PhoneEvidence?] = [PhoneEvidence(), nil]
        let scored = model.apply(
            to: Self.attempt(), evidence: evidence, natives: norms, passThreshold: 60, mispronouncedShareAllowed: 0.5)
        #expect(scored.words[0].phones.map(\.score) == [75, 75])
        #expect(scored.words[0].score == 90 && scored.words[1].score == 0 && scored.words[1].error == .omitted)
        #expect(scored.overall == 80 && scored.accuracy == 90 && scored.passed && scored.feedback == .good)
        // Half the words unsaid: half the score, and no pass however well the rest went.
        let half = model.apply(
            to: Self.attempt(completeness: 50), evidence: evidence, natives: norms, passThreshold: 60,
            mispronouncedShareAllowed: 0.25)
        #expect(half.overall == 40 && !half.passed)
        let silent = model.apply(
            to: {
                var a = Self.attempt(feedback: .noSpeech)
                a.overall = 0
                return a
            }(), evidence: evidence, natives: norms,
            passThreshold: 60, mispronouncedShareAllowed: 0.5)
        #expect(silent.overall == 0 && silent.feedback == .noSpeech && !silent.passed)
    }

    @Test(
        "a word as bad as the wrong phrase among words said well is flagged and held below a good word; in the wrong phrase, the raw verdicts stand"
    )
    func plainlyWrong() {
        let norms = NativeNorms.measure([.init(phone: "AH", gap: -1, logPosterior: -2, frames: 10)], rates: [10])
        let model = ScoringModel(
            phone: Self.constant(2, ScoringModel.phoneFeatures), word: Self.constant(9.5, ScoringModel.wordFeatures),
            sentence: Self.constant(9, ScoringModel.sentenceFeatures))
        func word(_ text: String, _ score: Double, _ start: Double) -> AttemptScore.WordScore {
            .init(
                text: text, start: start, end: start + 0.3, score: score, error: score < 50 ? .mispronounced : .none,
                phones: [.init(phone: "AH", start: start, end: start + 0.3, score: score)])
        }
        var raw = Self.attempt()
        raw.words = [word("he", 99, 0), word("was", 98, 0.3), word("old", 10, 0.6), word("man", 95, 0.9)]
        let swapped = model.apply(
            to: raw, evidence: [nil, nil, nil, nil], natives: norms, passThreshold: 60, mispronouncedShareAllowed: 0.25)
        #expect(swapped.words.map(\.error) == [.none, .none, .mispronounced, .none])
        #expect(swapped.words[2].score < ScoringModel.goodWord && swapped.words[0].score == 95)
        // Among words the raw scorer finds poor too, a low one is an accent: the fit decides.
        raw.words = [word("he", 40, 0), word("was", 30, 0.3), word("old", 10, 0.6), word("man", 45, 0.9)]
        let accented = model.apply(
            to: raw, evidence: [nil, nil, nil, nil], natives: norms, passThreshold: 60, mispronouncedShareAllowed: 0.25)
        #expect(accented.words.allSatisfy { $0.error == .none && $0.score == 95 })
        raw.feedback = .wrongPhrase
        raw.overall = 20
        let wrong = model.apply(
            to: raw, evidence: [nil, nil, nil, nil], natives: norms, passThreshold: 60, mispronouncedShareAllowed: 0.25)
        #expect(wrong.words.allSatisfy { $0.error == .mispronounced } && wrong.words.map(\.score) == [40, 30, 10, 45])
        #expect(wrong.overall == 20 && !wrong.passed && wrong.feedback == .wrongPhrase)
    }

    @Test("a word's phones named in IPA with what they sounded like; a mispronounced word's hint names its worst phone")
    func annotate() {
        var heard = PhoneEvidence()
        heard.heardAs = "S"
        var word = AttemptScore.WordScore(
            text: "think", start: 0, end: 0.4, score: 60, error: .mispronounced,
            phones: [.init(phone: "TH", start: 0, end: 0.1, score: 30), .init(phone: "IH", start: 0.1, end: 0.2, score: 90)])
        word.annotate(evidence: [heard, nil], ipa: ["TH": "θ", "IH": "ɪ", "S": "s"])
        #expect(word.phones.map(\.ipa) == ["θ", "ɪ"] && word.phones.map(\.heardAs) == ["s", nil])
        #expect(word.hint == AttemptScore.Hint(phoneIndex: 0, phone: "θ", heardAs: "s"))
        // With the language's spelling table, the hint names the letters too.
        word.annotate(
            evidence: [heard, nil], ipa: ["TH": "θ", "IH": "ɪ", "S": "s"], graphemes: Graphemes(phones: ["θ": ["th"], "ɪ": ["i"]]))
        #expect(word.hint == AttemptScore.Hint(phoneIndex: 0, phone: "θ", heardAs: "s", letters: "th"))
        word.error = .none
        word.annotate(evidence: [heard, nil], ipa: [:])
        #expect(word.hint == nil && word.phones[0].ipa == "TH")
    }

    @Test("a substitute the alignment took: heard as that, the hint's phone, and the word said instead when its phones spell one")
    func annotateSubstitute() {
        // "men" (M EH N): the alignment heard AE in EH's place; M scored worse, but EH is what the path says was wrong.
        var posteriors = PhoneEvidence()
        posteriors.heardAs = "N"
        var substituted = PhoneEvidence()
        (substituted.heardAs, substituted.substitute) = ("IH", "AE")
        var word = AttemptScore.WordScore(
            text: "Men", start: 0, end: 0.4, score: 40, error: .mispronounced,
            phones: [
                .init(phone: "M", start: 0, end: 0.1, score: 20), .init(phone: "EH", start: 0.1, end: 0.3, score: 45),
                .init(phone: "N", start: 0.3, end: 0.4, score: 90),
            ])
        let dictionary: [[String]: String] = [["M", "AE", "N"]: "man", ["M", "EH", "N"]: "men"]
        var asked: [[String]] = []
        word.annotate(evidence: [posteriors, substituted, nil], ipa: ["M": "m", "EH": "ɛ", "AE": "æ", "N": "n", "IH": "ɪ"]) {
            asked.append($0)
            return dictionary[$0]
        }
        #expect(word.phones.map(\.heardAs) == ["n", "æ", nil] && word.phones.map(\.substituted) == [false, true, nil])
        #expect(word.hint == AttemptScore.Hint(phoneIndex: 1, phone: "ɛ", heardAs: "æ", heardAsWord: "man"))
        #expect(asked == [["M", "AE", "N"]])
        // Phones that spell the word itself, or nothing the dictionary knows, name no other word.
        word.annotate(evidence: [posteriors, substituted, nil], ipa: [:]) { _ in "men" }
        #expect(word.hint?.heardAsWord == nil && word.hint?.phoneIndex == 1)
        word.annotate(evidence: [posteriors, substituted, nil], ipa: [:]) { _ in nil }
        #expect(word.hint?.heardAsWord == nil)
        // Without a substitute, no word is looked up and the worst phone is the hint's.
        asked = []
        word.annotate(evidence: [posteriors, nil, nil], ipa: [:]) {
            asked.append($0)
            return nil
        }
        #expect(asked.isEmpty && word.hint?.phoneIndex == 0 && word.hint?.heardAsWord == nil)
    }

    @Test("the hint's words when the sounds heard spell another word, in every language")
    func hintNamesTheWordSaid() {
        let hint = Wording.pronunciationHint(phone: "ɛ", word: "men", heardAs: "æ", letters: "e", heardAsWord: "man")
        #expect(hint.en == "“men” sounded like “man”: the “e” (/ɛ/) came out as /æ/.")
        #expect(hint.fr == "« men » ressemblait à « man » : le « e » (/ɛ/) est sorti comme /æ/.")
        for text in [hint.it, hint.de, hint.es] { #expect(text.contains("man") && text.contains("men") && text.contains("/æ/")) }
    }
}

import Foundation

/// The mapping from what the scorer measures to 0-100 per phone, word and
/// sentence, fitted to human raters (issue 18) on speaker-grouped folds:
/// `parla speech evaluate --write` keeps it in `Models/en/profile.json`.
/// Its features are measured against native speech (`NativeNorms`), so
/// the same mapping serves every language.
///
/// Stacked: phones from their own evidence; the sentence from the whole
/// attempt; each word from its phones and the sentence (raters judge a word
/// in the light of the speaker: the sentence explains much of it).
public struct ScoringModel: Codable, Sendable, Equatable {
    /// Predicts the raters' phone accuracy, 0-2.
    public var phone: LinearScore
    /// Predicts the raters' word accuracy, 0-10.
    public var word: LinearScore
    /// Predicts the raters' sentence accuracy, 0-10.
    public var sentence: LinearScore
    /// The linear word and sentence scores as the raters would say them on
    /// average (nil: as they are).
    public var wordCalibration: IsotonicMap?
    public var sentenceCalibration: IsotonicMap?
    /// How it was fitted, for people.
    public var source: String?

    public init(
        phone: LinearScore, word: LinearScore, sentence: LinearScore, wordCalibration: IsotonicMap? = nil,
        sentenceCalibration: IsotonicMap? = nil, source: String? = nil
    ) {
        (self.phone, self.word, self.sentence, self.source) = (phone, word, sentence, source)
        (self.wordCalibration, self.sentenceCalibration) = (wordCalibration, sentenceCalibration)
    }

    /// The sentence's predicted accuracy, 0-10.
    func sentenceScore(_ features: [String: Double]) -> Double {
        let linear = sentence.predict(features)
        return min(10, max(0, sentenceCalibration.map { $0(linear) } ?? linear))
    }

    func wordScore(_ features: [String: Double]) -> Double {
        let linear = word.predict(features)
        return min(10, max(0, wordCalibration.map { $0(linear) } ?? linear))
    }

    public static let phoneFeatures = ["zGap", "zLogPosterior", "zLogDuration", "otherShare", "loopScore", "zEnergy"]
    public static let wordFeatures = [
        "phoneMean", "phoneMin", "zLogPosterior", "zLogPosteriorMin", "zLogDuration", "omitted", "sentence", "loopScore", "loopScoreMin",
        "sentenceFluency", "sentenceRate", "sentenceZLogPosterior",
    ]
    /// (Not the raw scorer's fluency: a hand-made blend of the rate and
    /// pauses that are features themselves; with it, r 0.751 rather than 0.758.)
    public static let sentenceFeatures = [
        "completeness", "rate", "pauseSeconds", "pauses", "insertions", "zGap", "zLogPosterior", "zLogPosteriorLow",
        "lowShare", "durationDeviation", "logSecondsPerWord", "otherShare", "goodness", "rawAccuracy", "logSpeechRate",
        "zLogPosteriorMedian", "lowWordShare", "zLogDuration", "energyDeviation",
    ]

    /// What an attempt's measures say, feature by feature.
    public struct Features: Sendable {
        /// Per word, per phone scored.
        public var phones: [[[String: Double]]]
        /// Per word, whether it was left out (its phones, if any, squeezed in).
        public var omitted: [Bool]
        public var sentence: [String: Double]
        /// Per word, once the sentence's prediction is known.
        public func words(sentence prediction: Double, phonePredictions: [[Double]]) -> [[String: Double]] {
            let context = [
                "sentenceFluency": sentence["fluency"] ?? 0, "sentenceRate": sentence["rate"] ?? 0,
                "sentenceZLogPosterior": sentence["zLogPosterior"] ?? 0,
            ]
            return zip(zip(phones, phonePredictions), omitted).map { pair, omitted in
                wordOnly(pair.0, pair.1, omitted, prediction).merging(context) { own, _ in own }
            }
        }

        /// A word's own features, and the sentence's prediction.
        func wordOnly(_ phones: [[String: Double]], _ predictions: [Double], _ omitted: Bool, _ prediction: Double) -> [String: Double] {
            guard !phones.isEmpty, !omitted else {
                return [
                    "omitted": 1, "phoneMean": 0, "phoneMin": 0, "zLogPosterior": -5, "zLogPosteriorMin": -5, "sentence": prediction,
                    "loopScore": 0, "loopScoreMin": 0,
                ]
            }
            let posteriors = phones.map { $0["zLogPosterior"] ?? 0 }
            let loop = phones.map { $0["loopScore"] ?? 0 }
            return [
                "loopScore": loop.reduce(0, +) / Double(loop.count), "loopScoreMin": loop.min() ?? 0,
                "omitted": 0, "phoneMean": predictions.reduce(0, +) / Double(predictions.count), "phoneMin": predictions.min() ?? 0,
                "zLogPosterior": posteriors.reduce(0, +) / Double(posteriors.count), "zLogPosteriorMin": posteriors.min() ?? 0,
                "zLogDuration": phones.map { $0["zLogDuration"] ?? 0 }.reduce(0, +) / Double(phones.count), "sentence": prediction,
            ]
        }
    }

    /// The features of a raw attempt (`PhraseScoring`'s) with its phones'
    /// evidence, measured against `natives`. Phones without evidence are
    /// measured as the natives' mean.
    public static func features(_ score: AttemptScore, evidence: [PhoneEvidence?], natives: NativeNorms) -> Features {
        var flat = evidence.makeIterator()
        let phones: [[[String: Double]]] = score.words.map { word in
            word.phones.map { phone in
                let norms = natives.phone(phone.phone)
                let frames = max(1, ((phone.end - phone.start) * 100).rounded())
                // The raw scorer's phone score: its goodness against the phone
                // loop, mapped between the language's anchors.
                let loopScore = phone.score / 100
                guard let evidence = flat.next() ?? nil else {
                    return [
                        "zGap": 0, "zLogPosterior": 0, "zLogDuration": norms.logDuration.z(log(frames)), "otherShare": 0,
                        "loopScore": loopScore,
                    ]
                }
                return [
                    "zGap": norms.gap.z(evidence.gapToBest), "zLogPosterior": norms.logPosterior.z(evidence.logPosterior),
                    "zLogDuration": norms.logDuration.z(log(frames)), "otherShare": evidence.otherShare, "loopScore": loopScore,
                    // Loudness against natives' for this phone (0 where either is unmeasured).
                    "zEnergy": evidence.energy.flatMap { energy in norms.energy.map { $0.z(energy) } } ?? 0,
                ]
            }
        }
        let all = phones.joined()
        func mean(_ key: String) -> Double { all.isEmpty ? 0 : all.map { $0[key] ?? 0 }.reduce(0, +) / Double(all.count) }
        let posteriors = all.map { $0["zLogPosterior"] ?? 0 }.sorted()
        let said = score.words.filter { $0.start != nil }
        let span = said.last.flatMap { last in said.first.map { (last.end ?? 0) - ($0.start ?? 0) } } ?? 0
        let gaps = zip(said, said.dropFirst()).map { ($1.start ?? 0) - ($0.end ?? 0) }
        let words = Double(max(1, score.words.count))
        let sentence: [String: Double] = [
            "completeness": score.completeness / 100, "fluency": score.fluency / 100,
            "rate": span > 0 ? Double(all.count) / span / max(0.1, natives.rate.mean) : 0,
            "pauseSeconds": gaps.filter { $0 > 0.1 }.reduce(0, +) / words, "pauses": Double(gaps.filter { $0 > 0.3 }.count),
            "insertions": Double(score.insertions), "zGap": mean("zGap"), "zLogPosterior": mean("zLogPosterior"),
            "zLogPosteriorLow": posteriors.isEmpty ? -5 : LinearScore.quantile(posteriors, 0.1),
            "lowShare": all.isEmpty ? 1 : Double(posteriors.filter { $0 < -2 }.count) / Double(all.count),
            "durationDeviation": all.isEmpty ? 0 : all.map { abs($0["zLogDuration"] ?? 0) }.reduce(0, +) / Double(all.count),
            "logSecondsPerWord": log(max(0.05, score.duration / words)), "otherShare": mean("otherShare"),
            "goodness": max(-20, score.goodness), "rawAccuracy": score.accuracy / 100,
            "logSpeechRate": log(max(0.5, score.speechRate) / max(0.1, natives.rate.mean)),
            "zLogPosteriorMedian": posteriors.isEmpty ? -5 : LinearScore.quantile(posteriors, 0.5),
            "lowWordShare": Double(
                phones.filter { word in
                    word.isEmpty || word.map { $0["zLogPosterior"] ?? 0 }.reduce(0, +) / Double(word.count) < -0.5
                }.count) / words,
            "zLogDuration": mean("zLogDuration"),
            "energyDeviation": all.isEmpty ? 0 : all.map { abs($0["zEnergy"] ?? 0) }.reduce(0, +) / Double(all.count),
        ]
        return Features(phones: phones, omitted: score.words.map { $0.error == .omitted }, sentence: sentence)
    }

    /// The fitted scores of a raw attempt (`FittedScores.applied`).
    public func apply(
        to raw: AttemptScore, evidence: [PhoneEvidence?], natives: NativeNorms, passThreshold: Double, mispronouncedShareAllowed: Double
    ) -> AttemptScore {
        let features = Self.features(raw, evidence: evidence, natives: natives)
        let phonePredictions = phoneScores(features)
        let sentencePrediction = sentenceScore(features.sentence)
        let wordPredictions = features.words(sentence: sentencePrediction, phonePredictions: phonePredictions).map(wordScore)
        return FittedScores(phones: phonePredictions, words: wordPredictions, overall: sentencePrediction).applied(
            to: raw, passThreshold: passThreshold, mispronouncedShareAllowed: mispronouncedShareAllowed)
    }

    /// Per word, per phone scored: the raters' phone accuracy, 0-2.
    public func phoneScores(_ features: Features) -> [[Double]] { features.phones.map { $0.map { min(2, max(0, phone.predict($0))) } } }

    /// A word scored below this is mispronounced: the dashboard's boundary
    /// of a good word, and near the best F1 (78) for finding the words the
    /// raters scored 5 or less on so762-dev.
    public static let goodWord = 80.0

    /// One attempt with what the raters said of it, for fitting.
    public struct Rated: Sendable {
        public var score: AttemptScore
        public var evidence: [PhoneEvidence?]
        public var utterance: RatedUtterance

        public init(score: AttemptScore, evidence: [PhoneEvidence?], utterance: RatedUtterance) {
            (self.score, self.evidence, self.utterance) = (score, evidence, utterance)
        }
    }

    /// Fits the three scores to the raters' phone, word and sentence
    /// accuracy. The word score learns from the sentence score as fitted
    /// on the same attempts.
    public static func fit(_ rated: [Rated], natives: NativeNorms, ridge: Double = 10, source: String? = nil) -> ScoringModel {
        let features = rated.map { Self.features($0.score, evidence: $0.evidence, natives: natives) }
        let paired = rated.map { $0.utterance.pairs(with: $0.score) }
        var (phoneRows, phoneTargets) = ([[String: Double]](), [Double]())
        for (pairs, measured) in zip(paired, features) {
            for pair in pairs {
                for phone in pair.phones {
                    phoneRows.append(measured.phones[pair.scored][phone.scored])
                    phoneTargets.append(phone.accuracy)
                }
            }
        }
        let phone = LinearScore.fit(phoneRows, targets: phoneTargets, features: phoneFeatures, ridge: ridge, clip: 0.01)
        let sentenceTargets = rated.map(\.utterance.accuracy)
        let sentence = LinearScore.fit(features.map(\.sentence), targets: sentenceTargets, features: sentenceFeatures, ridge: ridge)
        let sentenceCalibration = IsotonicMap.fit(predictions: features.map { sentence.predict($0.sentence) }, targets: sentenceTargets)
        let calibrated = ScoringModel(phone: phone, word: phone, sentence: sentence, sentenceCalibration: sentenceCalibration)
        var (wordRows, wordTargets) = ([[String: Double]](), [Double]())
        for (pairs, measured) in zip(paired, features) {
            let phonePredictions = measured.phones.map { $0.map { min(2, max(0, phone.predict($0))) } }
            let rows = measured.words(sentence: calibrated.sentenceScore(measured.sentence), phonePredictions: phonePredictions)
            for pair in pairs {
                wordRows.append(rows[pair.scored])
                wordTargets.append(pair.word.accuracy)
            }
        }
        let word = LinearScore.fit(wordRows, targets: wordTargets, features: wordFeatures, ridge: ridge, clip: 0.01)
        let wordCalibration = IsotonicMap.fit(predictions: wordRows.map(word.predict), targets: wordTargets)
        return ScoringModel(
            phone: phone, word: word, sentence: sentence, wordCalibration: wordCalibration, sentenceCalibration: sentenceCalibration,
            source: source)
    }
}

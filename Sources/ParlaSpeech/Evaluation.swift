import Foundation
import ParlaCore

/// An utterance that human raters scored (speechocean762's format, as in
/// so762-dev's `scores.jsonl`): per sentence 0-10, per word 0-10, per
/// phone 0-2 (the mean of five raters).
public struct RatedUtterance: Sendable, Decodable {
    public struct Word: Sendable, Decodable {
        public var text: String
        public var accuracy: Double
        public var total: Double
        /// CMU phones with stress digits, as the raters saw them.
        public var phones: [String]
        public var phonesAccuracy: [Double]

        enum CodingKeys: String, CodingKey {
            case text, accuracy, total, phones
            case phonesAccuracy = "phones-accuracy"
        }
    }

    public var id: String
    public var text: String
    public var accuracy: Double
    public var total: Double
    public var words: [Word]

    /// The corpus's speaker: the id's second to fifth digits.
    public var speaker: String { String(id.dropFirst().prefix(4)) }

    /// A phone the raters heard as wrong or heavily accented: their mean
    /// rounds to 0 or 1 (below 1.5 on 0-2).
    public static func isMispronounced(_ accuracy: Double) -> Bool { accuracy < 1.5 }

    /// A word the raters scored, paired with the attempt's word `scored`,
    /// and its phones with the attempt's (`Agreement.pairPhones`).
    public struct PairedWord: Sendable {
        public var word: Word
        public var scored: Int
        public var phones: [(accuracy: Double, scored: Int)]
    }

    /// The raters' words paired with an attempt's as the corpus's
    /// `evaluate.py` pairs them (`Agreement.pairWords`), each with its phones.
    public func pairs(with score: AttemptScore) -> [PairedWord] {
        Agreement.pairWords(human: words.map(\.text), scored: score.words.map(\.text)).map { h, s in
            let word = words[h]
            let phones = Agreement.pairPhones(human: word.phones, scored: score.words[s].phones.map(\.phone))
                .filter { $0.human < word.phonesAccuracy.count }
                .map { (accuracy: word.phonesAccuracy[$0.human], scored: $0.scored) }
            return PairedWord(word: word, scored: s, phones: phones)
        }
    }

    /// The utterances of `directory/scores.jsonl` whose audio
    /// `directory/wav/<id>.wav` exists, in the file's order.
    public static func load(_ directory: String) throws -> [RatedUtterance] {
        let text = try String(contentsOfFile: "\(directory)/scores.jsonl", encoding: .utf8)
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map {
            try decoder.decode(RatedUtterance.self, from: Data($0.utf8))
        }.filter { FileManager.default.fileExists(atPath: "\(directory)/wav/\($0.id).wav") }
    }
}

/// Scores rated utterances and measures how the scores agree with the
/// raters (`parla speech evaluate`): sentence and word correlation, the
/// detection of mispronounced phones (its threshold fitted on the other
/// speakers' folds), and the real-time factor.
public struct SpeechEvaluation: Sendable {
    public struct Scored: Sendable {
        public var utterance: RatedUtterance
        public var score: AttemptScore
        /// What the frames say of each phone scored, in the words' order.
        public var evidence: [PhoneEvidence?]
        public var cpuSeconds: Double

        public init(utterance: RatedUtterance, score: AttemptScore, evidence: [PhoneEvidence?], cpuSeconds: Double) {
            (self.utterance, self.score, self.evidence, self.cpuSeconds) = (utterance, score, evidence, cpuSeconds)
        }
    }

    public struct Report: Sendable {
        public var utterances: Int
        /// Overall against the raters' sentence accuracy and total.
        public var sentenceAccuracy: Double
        public var sentenceTotal: Double
        /// Accuracy against the raters' sentence accuracy.
        public var accuracy: Double
        /// Word scores against the raters' word accuracy and total, over the words paired.
        public var wordAccuracy: Double
        public var wordTotal: Double
        public var words: Int
        public var humanWords: Int
        /// Phones flagged below a threshold fitted on the other folds.
        public var detection: Agreement.Detection
        public var phones: Int
        public var folds: Int
        /// CPU seconds per second of audio, warm decoders.
        public var realTimeFactor: Double
    }

    let scorer: SpeechScorer

    public init(scorer: SpeechScorer) { self.scorer = scorer }

    /// Scores every utterance of `directory` as an attempt at its text, as
    /// many at once as the scorer has threads; in the utterances' order.
    public func score(
        _ utterances: [RatedUtterance], directory: String, language: Language, log: @Sendable (String) -> Void = { _ in }
    ) async throws -> [Scored] {
        let width = max(1, scorer.settings.threads)
        var scored: [Int: Scored] = [:]
        try await withThrowingTaskGroup(of: (Int, Scored).self) { group in
            var next = 0
            func add() throws {
                guard next < utterances.count else { return }
                let (index, utterance) = (next, utterances[next])
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(directory)/wav/\(utterance.id).wav")))
                group.addTask {
                    let (score, evidence, cpu) = try await scorer.scoreWithEvidence(bytes, text: utterance.text, language: language)
                    return (index, Scored(utterance: utterance, score: score, evidence: evidence, cpuSeconds: cpu))
                }
                next += 1
            }
            // The first score of a language also loads its model: alone, and not counted.
            try add()
            if let (index, first) = try await group.next() {
                scored[index] = Scored(utterance: first.utterance, score: first.score, evidence: first.evidence, cpuSeconds: .nan)
            }
            for _ in 0..<width { try add() }
            while let (index, done) = try await group.next() {
                scored[index] = done
                log(String(format: "%@  overall %5.1f  human %2.0f", done.utterance.id, done.score.overall, done.utterance.accuracy))
                try add()
            }
        }
        return (0..<utterances.count).compactMap { scored[$0] }
    }

    /// The utterances scored again with a mapping fitted on the other
    /// folds (each speaker's utterances in one fold): what `report` then
    /// measures has never been fitted on.
    public static func crossValidated(
        _ scored: [Scored], folds: Int, natives: NativeNorms, passThreshold: Double, ridge: Double = 10
    ) -> [Scored] {
        let fold = Agreement.folds(speakers: scored.map(\.utterance.speaker), count: folds)
        var result = scored
        for f in 0..<folds {
            let training = zip(scored, fold).filter { $1 != f }.map {
                ScoringModel.Rated(score: $0.0.score, evidence: $0.0.evidence, utterance: $0.0.utterance)
            }
            guard !training.isEmpty else { continue }
            let model = ScoringModel.fit(training, natives: natives, ridge: ridge)
            for index in scored.indices where fold[index] == f {
                result[index].score = model.apply(
                    to: scored[index].score, evidence: scored[index].evidence, natives: natives, passThreshold: passThreshold,
                    mispronouncedShareAllowed: PhraseScoring.mispronouncedShareAllowed)
            }
        }
        return result
    }

    /// The figures of scored utterances; `folds` speaker-grouped folds for
    /// what is fitted (the detection threshold).
    public static func report(_ scored: [Scored], folds: Int) -> Report {
        var (overall, humanAccuracy, humanTotal, accuracy) = ([Double](), [Double](), [Double](), [Double]())
        var (wordScores, wordAccuracy, wordTotal) = ([Double](), [Double](), [Double]())
        var phones: [(speaker: String, judgement: Agreement.PhoneJudgement)] = []
        var humanWords = 0
        for item in scored {
            let (human, score) = (item.utterance, item.score)
            overall.append(score.overall)
            accuracy.append(score.accuracy)
            humanAccuracy.append(human.accuracy)
            humanTotal.append(human.total)
            humanWords += human.words.count
            for pair in human.pairs(with: score) {
                let scoredWord = score.words[pair.scored]
                wordScores.append(scoredWord.score)
                wordAccuracy.append(pair.word.accuracy)
                wordTotal.append(pair.word.total)
                for phone in pair.phones {
                    phones.append(
                        (
                            human.speaker,
                            .init(
                                score: scoredWord.phones[phone.scored].score, mispronounced: RatedUtterance.isMispronounced(phone.accuracy))
                        ))
                }
                // An omitted word's phones were never said: each is flagged at 0.
                if scoredWord.phones.isEmpty {
                    for value in pair.word.phonesAccuracy {
                        phones.append((human.speaker, .init(score: 0, mispronounced: RatedUtterance.isMispronounced(value))))
                    }
                }
            }
        }
        let fold = Agreement.folds(speakers: phones.map(\.speaker), count: folds)
        var detection = Agreement.Detection()
        for f in 0..<max(1, folds) {
            let training = zip(phones, fold).filter { $1 != f }.map(\.0.judgement)
            let testing = zip(phones, fold).filter { $1 == f }.map(\.0.judgement)
            guard !testing.isEmpty else { continue }
            detection = detection + Agreement.detection(testing, threshold: Agreement.bestThreshold(training))
        }
        let timed = scored.filter { !$0.cpuSeconds.isNaN }
        let audio = timed.reduce(0) { $0 + $1.score.duration }
        return Report(
            utterances: scored.count, sentenceAccuracy: Agreement.pearson(overall, humanAccuracy),
            sentenceTotal: Agreement.pearson(overall, humanTotal), accuracy: Agreement.pearson(accuracy, humanAccuracy),
            wordAccuracy: Agreement.pearson(wordScores, wordAccuracy), wordTotal: Agreement.pearson(wordScores, wordTotal),
            words: wordScores.count, humanWords: humanWords, detection: detection, phones: phones.count, folds: folds,
            realTimeFactor: audio > 0 ? timed.reduce(0) { $0 + $1.cpuSeconds } / audio : 0)
    }
}

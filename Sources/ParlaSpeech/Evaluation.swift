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
        /// The word's lexical stress, 0-10.
        public var stress: Double?
        /// CMU phones with stress digits, as the raters saw them.
        public var phones: [String]
        public var phonesAccuracy: [Double]

        enum CodingKeys: String, CodingKey {
            case text, accuracy, total, stress, phones
            case phonesAccuracy = "phones-accuracy"
        }
    }

    public var id: String
    public var text: String
    public var accuracy: Double
    public var total: Double
    public var fluency: Double?
    public var prosodic: Double?
    public var words: [Word]

    /// The corpus's speaker: the id's second to fifth digits.
    public var speaker: String { String(id.dropFirst().prefix(4)) }
    /// The recording, `wav/<recording>.wav`: the id's, or for an utterance
    /// scored with another's text (`mismatched`), the part before "~".
    public var recording: String { String(id.prefix { $0 != "~" }) }

    /// Each recording scored as an attempt at another utterance's text
    /// (half the list away, the next with another text): the wrong phrase,
    /// which raters would score 0 throughout. Its id is "<recording>~<text's id>".
    public static func mismatched(_ utterances: [RatedUtterance]) -> [RatedUtterance] {
        let count = utterances.count
        return utterances.enumerated().compactMap { index, utterance in
            let others = (0..<count).lazy.map { utterances[(index + count / 2 + $0) % count] }
            guard let other = others.first(where: { $0.text != utterance.text }) else { return nil }
            var wrong = other
            wrong.id = "\(utterance.recording)~\(other.id)"
            (wrong.accuracy, wrong.total, wrong.fluency, wrong.prosodic) = (0, 0, nil, nil)
            wrong.words = other.words.map { word in
                var word = word
                (word.accuracy, word.total, word.stress) = (0, 0, nil)
                word.phonesAccuracy = word.phonesAccuracy.map { _ in 0 }
                return word
            }
            return wrong
        }
    }

    /// A phone the raters heard as wrong or heavily accented: their mean
    /// rounds to 0 or 1 (below 1.5 on 0-2).
    public static func isMispronounced(_ accuracy: Double) -> Bool { accuracy < 1.5 }

    /// A phone the raters heard as wrong or missing, not merely accented:
    /// their mean rounds to 0 (below 0.5). Mispronunciation detection on
    /// speechocean762 in the literature counts these as the errors.
    public static func isWrong(_ accuracy: Double) -> Bool { accuracy < 0.5 }

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
        }.filter { FileManager.default.fileExists(atPath: "\(directory)/wav/\($0.recording).wav") }
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
        /// Fluency and prosody against the raters' (nan: not scored).
        public var fluency: Double
        public var prosody: Double
        /// Word stress against the raters', over the words paired and scored for it.
        public var wordStress: Double
        /// Word scores against the raters' word accuracy and total, over the words paired.
        public var wordAccuracy: Double
        public var wordTotal: Double
        public var words: Int
        public var humanWords: Int
        /// Phone scores against the raters' mean phone accuracy (0-2), over
        /// the phones paired; an omitted word's phones at 0 (as GOPT reports it).
        public var phoneAccuracy: Double
        /// Phones flagged below a threshold fitted on the other folds (or
        /// on the train split), against those the raters heard as
        /// mispronounced (wrong or accented: `isMispronounced`)...
        public var detection: Agreement.Detection
        /// ...and against those they heard as wrong or missing (`isWrong`).
        public var wrongDetection: Agreement.Detection
        public var phones: Int
        /// Speaker-grouped folds the threshold was fitted on; 0 when fitted on a train split.
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
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(directory)/wav/\(utterance.recording).wav")))
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

    /// The test utterances scored with a mapping fitted on the train ones
    /// only: the papers' protocol (speechocean762's train and test splits,
    /// no speaker in both). The train utterances come back scored by the
    /// same mapping, for what `report(_:thresholdFrom:)` fits on them.
    public static func heldOut(
        _ test: [Scored], fittedOn train: [Scored], natives: NativeNorms, passThreshold: Double, ridge: Double = 10
    ) -> (train: [Scored], test: [Scored]) {
        let model = ScoringModel.fit(
            train.map { ScoringModel.Rated(score: $0.score, evidence: $0.evidence, utterance: $0.utterance) }, natives: natives,
            ridge: ridge)
        func applied(_ scored: [Scored]) -> [Scored] {
            scored.map { item in
                var item = item
                item.score = model.apply(
                    to: item.score, evidence: item.evidence, natives: natives, passThreshold: passThreshold,
                    mispronouncedShareAllowed: PhraseScoring.mispronouncedShareAllowed)
                return item
            }
        }
        return (applied(train), applied(test))
    }

    /// The figures of scored utterances; `folds` speaker-grouped folds for
    /// what is fitted (the detection threshold).
    public static func report(_ scored: [Scored], folds: Int) -> Report {
        let measured = measure(scored)
        let fold = Agreement.folds(speakers: measured.phones.map(\.speaker), count: folds)
        func detected(_ judgements: [Agreement.PhoneJudgement]) -> Agreement.Detection {
            var detection = Agreement.Detection()
            for f in 0..<max(1, folds) {
                let training = zip(judgements, fold).filter { $1 != f }.map(\.0)
                let testing = zip(judgements, fold).filter { $1 == f }.map(\.0)
                guard !testing.isEmpty else { continue }
                detection = detection + Agreement.detection(testing, threshold: Agreement.bestThreshold(training))
            }
            return detection
        }
        return measured.report(
            detection: detected(measured.phones.map(\.judgement)), wrongDetection: detected(measured.phones.map(\.wrong)), folds: folds)
    }

    /// The figures of held-out utterances, the detection threshold fitted
    /// on `train` (as `heldOut` scored them), never on what is measured.
    public static func report(_ test: [Scored], thresholdFrom train: [Scored]) -> Report {
        let (trained, measured) = (measure(train), measure(test))
        func detected(_ judgement: (Measured.Phone) -> Agreement.PhoneJudgement) -> Agreement.Detection {
            Agreement.detection(measured.phones.map(judgement), threshold: Agreement.bestThreshold(trained.phones.map(judgement)))
        }
        return measured.report(detection: detected(\.judgement), wrongDetection: detected(\.wrong), folds: 0)
    }

    /// What scored utterances and their raters say, paired: every figure
    /// but the detection, and the phones' judgements to detect on.
    struct Measured {
        var utterances = 0, humanWords = 0
        var (overall, humanAccuracy, humanTotal, accuracy) = ([Double](), [Double](), [Double](), [Double]())
        var (wordScores, wordAccuracy, wordTotal) = ([Double](), [Double](), [Double]())
        /// Scored and rated pairs: sentence fluency and prosody, word stress.
        var (fluency, prosody, stress) = ([(Double, Double)](), [(Double, Double)](), [(Double, Double)]())
        var (phoneScores, phoneAccuracy) = ([Double](), [Double]())
        /// A phone scored, judged both ways: mispronounced (wrong or
        /// accented), and wrong.
        struct Phone {
            var speaker: String
            var judgement: Agreement.PhoneJudgement
            var wrong: Agreement.PhoneJudgement
        }
        var phones: [Phone] = []
        var (cpuSeconds, audioSeconds) = (0.0, 0.0)

        mutating func phone(_ speaker: String, score: Double, accuracy: Double) {
            phones.append(
                Phone(
                    speaker: speaker, judgement: .init(score: score, mispronounced: RatedUtterance.isMispronounced(accuracy)),
                    wrong: .init(score: score, mispronounced: RatedUtterance.isWrong(accuracy))))
            phoneScores.append(score)
            phoneAccuracy.append(accuracy)
        }

        func report(detection: Agreement.Detection, wrongDetection: Agreement.Detection, folds: Int) -> Report {
            Report(
                utterances: utterances, sentenceAccuracy: Agreement.pearson(overall, humanAccuracy),
                sentenceTotal: Agreement.pearson(overall, humanTotal), accuracy: Agreement.pearson(accuracy, humanAccuracy),
                fluency: Self.pearson(fluency), prosody: Self.pearson(prosody), wordStress: Self.pearson(stress),
                wordAccuracy: Agreement.pearson(wordScores, wordAccuracy), wordTotal: Agreement.pearson(wordScores, wordTotal),
                words: wordScores.count, humanWords: humanWords, phoneAccuracy: Agreement.pearson(phoneScores, phoneAccuracy),
                detection: detection, wrongDetection: wrongDetection, phones: phones.count, folds: folds,
                realTimeFactor: audioSeconds > 0 ? cpuSeconds / audioSeconds : 0)
        }

        static func pearson(_ pairs: [(Double, Double)]) -> Double { Agreement.pearson(pairs.map(\.0), pairs.map(\.1)) }
    }

    static func measure(_ scored: [Scored]) -> Measured {
        var measured = Measured()
        measured.utterances = scored.count
        for item in scored {
            let (human, score) = (item.utterance, item.score)
            measured.overall.append(score.overall)
            measured.accuracy.append(score.accuracy)
            measured.humanAccuracy.append(human.accuracy)
            measured.humanTotal.append(human.total)
            if let rated = human.fluency { measured.fluency.append((score.fluency, rated)) }
            if let scored = score.prosody, let rated = human.prosodic { measured.prosody.append((scored, rated)) }
            measured.humanWords += human.words.count
            if !item.cpuSeconds.isNaN {
                (measured.cpuSeconds, measured.audioSeconds) = (
                    measured.cpuSeconds + item.cpuSeconds, measured.audioSeconds + score.duration
                )
            }
            for pair in human.pairs(with: score) {
                let scoredWord = score.words[pair.scored]
                measured.wordScores.append(scoredWord.score)
                measured.wordAccuracy.append(pair.word.accuracy)
                measured.wordTotal.append(pair.word.total)
                if let scored = scoredWord.stress, let rated = pair.word.stress { measured.stress.append((scored, rated)) }
                for phone in pair.phones {
                    measured.phone(human.speaker, score: scoredWord.phones[phone.scored].score, accuracy: phone.accuracy)
                }
                // An omitted word's phones were never said: each is flagged at 0.
                if scoredWord.phones.isEmpty {
                    for value in pair.word.phonesAccuracy { measured.phone(human.speaker, score: 0, accuracy: value) }
                }
            }
        }
        return measured
    }
}

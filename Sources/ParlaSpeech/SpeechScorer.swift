import Foundation
import Logging
import NIOPosix
import ParlaCore
import Synchronization

/// Scores recordings of phrases in every language: audio in, `AttemptScore`
/// out. Decoders are warm and pooled per language (created lazily, at most
/// one per thread); all blocking work runs on the scorer's own threads, never
/// on an event loop; past `queueLimit` waiting attempts it answers
/// `speech_busy` at once.
public final class SpeechScorer: Sendable {
    public struct Settings: Sendable {
        public var modelsDirectory = "Models"
        public var modelPaths: [String] = []
        public var scratchDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-speech").path
        public var limits = AudioLimits()
        public var threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
        public var queueLimit = 32
        /// Whether the alignment offers each phone's likely substitutes
        /// (the model's `PhoneSubstitutions`); off, it follows the phrase's
        /// phones only, as the evidence the sequence scorer was trained on
        /// was made (`make train-speech`).
        public var substitutions = true
        public init() {}
    }

    /// A language ready to score: its model, lexicon and idle decoders.
    final class Runtime: Sendable {
        let model: ActiveModel
        let lexicon: Lexicon
        /// The language's most frequent words, which recognition listens
        /// for besides the phrase's own.
        let commonWords: [ExpectedWord]
        /// The acoustic model's phones and their senones (nil: a model
        /// without a readable binary `mdef`, scored without posteriors).
        let definition: ModelDefinition?
        /// The model's sequence scorer, when it names one, or the one its
        /// phone transfer carries its attempts to.
        let sequence: SequenceScorer?
        /// How its attempts are carried into `sequence`'s phones, when it
        /// borrows another language's scorer.
        let transfer: PhoneTransfer?
        /// How the language spells its phones (`Models/<lang>/graphemes.json`), for hints.
        let graphemes: Graphemes?
        /// The phones learners say instead of the model's, when it names them.
        let substitutions: PhoneSubstitutions?
        let idle = Mutex<[PocketSphinxDecoder]>([])
        init(
            model: ActiveModel, lexicon: Lexicon, commonWords: [ExpectedWord], definition: ModelDefinition?, sequence: SequenceScorer?,
            transfer: PhoneTransfer?, graphemes: Graphemes?, substitutions: PhoneSubstitutions?
        ) {
            (self.model, self.lexicon, self.commonWords, self.definition, self.sequence, self.graphemes) = (
                model, lexicon, commonWords, definition, sequence, graphemes
            )
            (self.transfer, self.substitutions) = (transfer, substitutions)
        }

        /// A raw attempt as raters would score it (`SpeechScorer.fitted`).
        /// A model with a phone transfer borrows another language's scorer
        /// for its words and sentence, its attempt carried into that
        /// scorer's phones, and scores its phones against its own natives:
        /// on natives' read speech with one phone said as another, the
        /// borrowed scorer's phone scores hardly found it (detection AUC
        /// 0.43-0.52 in French, German and Spanish) where the natives'
        /// norms do (0.67-0.99), while its sentence scores part right from
        /// wrong phrases at least as well (training/README.md).
        func fitted(_ raw: AttemptScore, evidence: [PhoneEvidence?], pronunciations: [Pronunciation]) -> AttemptScore {
            guard let transfer, let sequence, let definition else {
                return SpeechScorer.fitted(raw, evidence: evidence, pronunciations: pronunciations, model: model, sequence: sequence)
            }
            let carried = transfer.carried(
                raw, evidence: evidence, pronunciations: pronunciations, modelPhones: definition.evidencePhones,
                scorerPhones: sequence.phones)
            guard var scores = sequence.fitted(carried.score, evidence: carried.evidence, pronunciations: carried.pronunciations) else {
                return SpeechScorer.fitted(raw, evidence: evidence, pronunciations: pronunciations, model: model, sequence: nil)
            }
            if let scoring = model.scoring, let natives = model.description.natives {
                scores.phones = scoring.phoneScores(ScoringModel.features(raw, evidence: evidence, natives: natives))
            }
            return SpeechScorer.applied(scores, to: raw, evidence: evidence, model: model)
        }
    }

    public let settings: Settings
    public let models: SpeechModels
    private let pool: NIOThreadPool
    private let runtimes = Mutex<[Language: Result<Runtime, SpeechSetupError>]>([:])
    private let waiting = Atomic<Int>(0)

    public init(settings: Settings) {
        self.settings = settings
        models = SpeechModels(modelsDirectory: settings.modelsDirectory, modelPaths: settings.modelPaths)
        pool = NIOThreadPool(numberOfThreads: settings.threads)
        pool.start()
    }

    public func shutdown() async throws { try await pool.shutdownGracefully() }

    /// Scores `audio` (the file's bytes) as an attempt at `text`.
    public func score(_ audio: [UInt8], text: String, language: Language) async throws -> AttemptScore {
        try await scoreTimed(audio, text: text, language: language).score
    }

    /// The score and the CPU seconds it took (decoding, alignment, phone
    /// loop, the fitted mapping: what the real-time factor divides by the
    /// audio's duration).
    public func scoreTimed(_ audio: [UInt8], text: String, language: Language) async throws -> (score: AttemptScore, cpuSeconds: Double) {
        try await queued {
            let start = Self.threadCPUTime()
            let score = try self.withDecoder(language, text: text) { runtime, expected, decoder in
                let (raw, evidence, heard) = try self.score(audio, expected: expected, runtime: runtime, decoder: decoder)
                var score = runtime.fitted(raw, evidence: evidence, pronunciations: expected.map(\.commonest))
                // The fitted scores' phrase check can find a wrong phrase the raw rule did not.
                if [.incomplete, .wrongPhrase].contains(score.feedback) && score.recognizedText == nil {
                    score.recognizedText = try self.recognize(expected, runtime: runtime, decoder: decoder, audio: heard)
                }
                var phones = evidence.makeIterator()
                for index in score.words.indices {
                    score.words[index].annotate(
                        evidence: score.words[index].phones.map { _ in phones.next() ?? nil }, ipa: runtime.model.phoneIPA,
                        graphemes: runtime.graphemes, wordPronounced: runtime.lexicon.word(pronounced:))
                }
                return score
            }
            return (score, Self.threadCPUTime() - start)
        }
    }

    /// The raw score (before any fitted mapping), what the frames say of
    /// each phone scored (in the order of the words' phones; nil where the
    /// model gives no posteriors) and the CPU seconds it took: what fitting
    /// and native norms are measured on.
    public func scoreWithEvidence(_ audio: [UInt8], text: String, language: Language) async throws
        -> (score: AttemptScore, evidence: [PhoneEvidence?], cpuSeconds: Double)
    {
        try await queued {
            let start = Self.threadCPUTime()
            let (score, evidence, _) = try self.withDecoder(language, text: text) { runtime, expected, decoder in
                try self.score(audio, expected: expected, runtime: runtime, decoder: decoder)
            }
            return (score, evidence, Self.threadCPUTime() - start)
        }
    }

    /// A raw attempt as raters would score it: by the language's sequence
    /// scorer where the evidence has what it reads, else by the linear
    /// mapping where the model has native norms, else raw. Fitted only with
    /// the frames' evidence: without it a learner would look native.
    public static func fitted(
        _ raw: AttemptScore, evidence: [PhoneEvidence?], pronunciations: [Pronunciation], model: ActiveModel, sequence: SequenceScorer?
    ) -> AttemptScore {
        if let scores = sequence?.fitted(raw, evidence: evidence, pronunciations: pronunciations) {
            return applied(scores, to: raw, evidence: evidence, model: model)
        }
        guard evidence.contains(where: { $0 != nil }), let scoring = model.scoring, let natives = model.description.natives else {
            return raw
        }
        return scoring.apply(
            to: raw, evidence: evidence, natives: natives, passThreshold: model.passThreshold,
            mispronouncedShareAllowed: PhraseScoring.mispronouncedShareAllowed)
    }

    /// A sequence scorer's scores applied to `raw`, the wrong phrase first
    /// decided by the model's phrase check where it has one.
    static func applied(_ scores: FittedScores, to raw: AttemptScore, evidence: [PhoneEvidence?], model: ActiveModel) -> AttemptScore {
        let raw = model.description.phraseCheck?.decided(raw, evidence: evidence, fitted: scores) ?? raw
        return scores.applied(
            to: raw, passThreshold: model.passThreshold, mispronouncedShareAllowed: PhraseScoring.mispronouncedShareAllowed)
    }

    /// What the scorer made of a simulated substitution on a native's clip
    /// of `text` (`PhoneSubstitutions.trial`): whether the alignment heard
    /// the phone said where another was asked for, and of the other phones,
    /// how many and how many it heard a substitute for; and the scores
    /// (0-100, as the API returns them) of the phone asked for and of the
    /// others. Nil: the language's model has no substitutions (or they are
    /// off), no phone of the phrase is a substitute, or the attempt never
    /// reached the changed phone.
    public func substitutionTrial(_ audio: [UInt8], text: String, language: Language) async throws -> SubstitutionTrial.Outcome? {
        try await queued {
            try self.withDecoder(language, text: text) { runtime, expected, decoder in
                guard self.settings.substitutions, let table = runtime.substitutions, runtime.definition != nil,
                    let trial = table.trial(expected)
                else { return nil }
                let changed = trial.applied(to: expected)
                let (raw, evidence, _) = try self.score(audio, expected: changed, runtime: runtime, decoder: decoder)
                guard trial.phone < raw.words[trial.word].phones.count else { return nil }
                let offset = raw.words[..<trial.word].reduce(0) { $0 + $1.phones.count } + trial.phone
                let others = evidence.indices.filter { $0 != offset }
                let scores = runtime.fitted(raw, evidence: evidence, pronunciations: changed.map(\.commonest)).words.flatMap {
                    $0.phones.map(\.score)
                }
                return SubstitutionTrial.Outcome(
                    trial: trial, found: evidence[offset]?.substitute == trial.said, otherPhones: others.count,
                    othersSubstituted: others.filter { evidence[$0]?.substitute != nil }.count, phoneScore: scores[offset],
                    otherScores: scores.indices.filter { $0 != offset }.map { scores[$0] })
            }
        }
    }

    /// The language's sequence scorer (nil: its model names none).
    public func sequenceScorer(_ language: Language) throws -> SequenceScorer? { try runtime(language).sequence }

    /// Each word's commonest pronunciation in `text`, as scoring reads it
    /// (what `fitted` reads beside an attempt).
    public func pronunciations(_ text: String, language: Language) throws -> [Pronunciation] {
        try runtime(language).lexicon.expectedWords(text).map(\.commonest)
    }

    /// When each word of `text` is spoken in `audio` (a narration: a
    /// definition read aloud, a recorded phrase). `limits` default to the
    /// scorer's own.
    public func align(_ audio: [UInt8], text: String, language: Language, limits: AudioLimits? = nil) async throws -> NarrationAlignment {
        try await queued { try self.alignBlocking(audio, text: text, language: language, limits: limits ?? self.settings.limits) }
    }

    /// Runs blocking decoder work on the scorer's threads, or answers
    /// `speech_busy` at once when `queueLimit` jobs already wait.
    private func queued<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        guard waiting.wrappingAdd(1, ordering: .relaxed).newValue <= settings.queueLimit else {
            waiting.wrappingSubtract(1, ordering: .relaxed)
            throw ParlaError(.speechBusy, retryAfter: 1)
        }
        defer { waiting.wrappingSubtract(1, ordering: .relaxed) }
        return try await pool.runIfActive(work)
    }

    public static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The model each language uses here, or why none.
    public func describeModels() -> [(Language, Result<ActiveModel, SpeechSetupError>)] {
        Language.allCases.map { ($0, models.active($0)) }
    }

    func runtime(_ language: Language) throws -> Runtime {
        if let known = runtimes.withLock({ $0[language] }) { return try known.get() }
        let made: Result<Runtime, SpeechSetupError> = models.active(language).flatMap { model in
            do {
                let lexicon = try Lexicon(
                    dictionaryPath: model.dictionaryPath, voice: model.description.espeakVoice, phoneMap: model.phoneMap)
                let common =
                    (try? String(contentsOfFile: "\(settings.modelsDirectory)/\(language.code)/common-words.txt", encoding: .utf8))
                    .map { lexicon.expectedWords($0) } ?? []
                let definition = try? ModelDefinition.read(model.acousticPath + "/mdef")
                let transfer = try model.phoneTransferPath.map(PhoneTransfer.load)
                let sequence = try (model.sequenceScorerPath ?? transfer.map { "\(settings.modelsDirectory)/\($0.scorer)" }).map {
                    try SequenceScorer(contentsOf: $0)
                }
                let spellings = "\(settings.modelsDirectory)/\(language.code)/graphemes.json"
                let graphemes = FileManager.default.fileExists(atPath: spellings) ? try Graphemes.load(spellings) : nil
                let substitutions = try model.substitutionsPath.map(PhoneSubstitutions.load)
                return .success(
                    Runtime(
                        model: model, lexicon: lexicon, commonWords: common, definition: definition, sequence: sequence,
                        transfer: transfer, graphemes: graphemes, substitutions: substitutions))
            } catch let error as SpeechSetupError {
                return .failure(error)
            } catch {
                return .failure(
                    SpeechSetupError(
                        "\(model.description.name): dictionary, sequence scorer, phone transfer, spellings or substitutions unreadable: \(error)"
                    ))
            }
        }
        runtimes.withLock { $0[language] = made }
        return try made.get()
    }

    /// A language's runtime, its words for `text` and a decoder of it, for
    /// one blocking job; the decoder goes back to the idle ones after.
    private func withDecoder<Result>(
        _ language: Language, text: String,
        _ work: (Runtime, [ExpectedWord], PocketSphinxDecoder) throws -> Result
    ) throws -> Result {
        let runtime: Runtime
        do { runtime = try self.runtime(language) } catch { throw ParlaError(.speechUnavailable) }
        let expected = runtime.lexicon.expectedWords(text)
        guard !expected.isEmpty else { throw ParlaError(.emptyText) }
        let decoder =
            try runtime.idle.withLock { $0.popLast() }
            ?? PocketSphinxDecoder(model: runtime.model, scratchDirectory: settings.scratchDirectory)
        defer { runtime.idle.withLock { $0.append(decoder) } }
        return try work(runtime, expected, decoder)
    }

    /// A recording decoded at the model's rate, and its speech with long
    /// silences compacted (what the decoder is given; `heard.original` maps
    /// its frames back).
    private static func recording(_ audio: [UInt8], runtime: Runtime, limits: AudioLimits) throws -> (
        decoded: DecodedAudio, heard: CompactedAudio
    ) {
        let decoded = try AudioDecoder.decode(audio, sampleRate: runtime.model.description.sampleRate, limits: limits)
        return (decoded, CompactedAudio(decoded.samples, sampleRate: decoded.sampleRate))
    }

    func alignBlocking(_ audio: [UInt8], text: String, language: Language, limits: AudioLimits) throws -> NarrationAlignment {
        try withDecoder(language, text: text) { runtime, expected, decoder in
            let (decoded, heard) = try Self.recording(audio, runtime: runtime, limits: limits)
            let alignment = try decoder.alignPhones(expected, audio: heard.samples)
            return NarrationAlignment.from(
                expected: expected, alignment: heard.original(Self.segments(alignment.segments)), complete: alignment.complete,
                duration: decoded.duration, phoneLabel: PocketSphinxDecoder.phoneWord)
        }
    }

    static func segments(_ segments: [PocketSphinxDecoder.Segment]) -> [PhraseScoring.Segment] {
        segments.map { .init(label: $0.label, start: $0.start, end: $0.end, acoustic: $0.acoustic) }
    }

    /// The raw score of `audio` as an attempt at `expected`, its phones'
    /// evidence, and the speech the decoder was given.
    private func score(_ audio: [UInt8], expected: [ExpectedWord], runtime: Runtime, decoder: PocketSphinxDecoder) throws
        -> (AttemptScore, [PhoneEvidence?], heard: [Int16])
    {
        let (decoded, heard) = try Self.recording(audio, runtime: runtime, limits: settings.limits)
        let alignment = try decoder.alignPhones(
            expected, audio: heard.samples, definition: runtime.definition,
            substitutions: settings.substitutions ? runtime.substitutions : nil)
        // In the order the words' phones are scored: the path's phones, fillers apart.
        let phoneOf = Dictionary(
            expected.flatMap { $0.pronunciations.joined() }.map { (PocketSphinxDecoder.phoneWord($0), $0) },
            uniquingKeysWith: { a, _ in a })
        let phoneSegments = alignment.segments.filter { !PhraseScoring.isFiller($0.label) }
        let levels = SpeechActivity.relativeLevels(heard.decibels, phones: phoneSegments.map { $0.start...$0.end })
        let evidence = zip(phoneSegments, levels).map { segment, level -> PhoneEvidence? in
            guard let phone = phoneOf[segment.label],
                var evidence = alignment.likelihoods?.evidence(for: phone, frames: segment.start...segment.end)
            else { return nil }
            // What the path took in the phone's place, when it took a substitute.
            evidence.substitute = segment.heard
            evidence.energy = level
            return evidence
        }
        let loop = try decoder.phoneLoop(audio: heard.samples)
        let scoring = PhraseScoring(
            calibration: runtime.model.description.calibration, passThreshold: runtime.model.passThreshold,
            natsPerUnit: decoder.natsPerUnit, phoneLabel: PocketSphinxDecoder.phoneWord)
        let warnings = decoded.isClipped ? ["clipping"] : []
        var result = scoring.score(
            expected: expected, alignment: heard.original(Self.segments(alignment.segments)),
            alignmentComplete: alignment.complete, loop: heard.original(Self.segments(loop.segments)),
            duration: decoded.duration, warnings: warnings)
        if [.incomplete, .wrongPhrase].contains(result.feedback) {
            result.recognizedText = try recognize(expected, runtime: runtime, decoder: decoder, audio: heard.samples)
        }
        return (result, evidence, heard.samples)
    }

    /// What was said instead: the phrase's words and the language's common
    /// words, in any order.
    private func recognize(_ expected: [ExpectedWord], runtime: Runtime, decoder: PocketSphinxDecoder, audio: [Int16]) throws -> String {
        var vocabulary: [(id: String, phones: Pronunciation)] = []
        var textOf: [String: String] = [:]
        for word in expected + runtime.commonWords {
            for pronunciation in word.pronunciations {
                // Named by its phones: a decoder keeps every word it was
                // given, so a name must never come back with other phones.
                let id = "say_" + pronunciation.joined(separator: "_").lowercased()
                guard textOf[id] == nil else { continue }
                vocabulary.append((id, pronunciation))
                textOf[id] = word.text.lowercased()
            }
        }
        let pass = try decoder.recognize(vocabulary: vocabulary, audio: audio)
        return pass.segments.compactMap { textOf[$0.label] }.joined(separator: " ")
    }
}

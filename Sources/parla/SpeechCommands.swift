import ArgumentParser
import Foundation
import ParlaCore
import ParlaServer
import ParlaSpeech

struct Speech: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Score recordings of phrases, align narrations with their text, and see or calibrate the speech models.",
        subcommands: [Score.self, Align.self, Models.self, Calibrate.self, Natives.self, Evaluate.self])

    /// `limits`: what a recording may be, where not a learner's upload's
    /// (a rated corpus's longest clip is 20.4 s; an attempt's limit is 15 s).
    static func scorer(_ options: ConfigurationOptions, limits: AudioLimits? = nil) async throws -> SpeechScorer {
        var settings = ServerSettings(config: try await options.reader()).speech.scorer
        if let limits { settings.limits = limits }
        return SpeechScorer(settings: settings)
    }

    /// Rated corpora are ours to trust: clips up to a minute.
    static let ratedCorpusLimits = AudioLimits(maxBytes: 16 * 1024 * 1024, maxSeconds: 60)

    static func language(_ code: String) throws -> Language {
        guard let language = Language(rawValue: code) else { throw ValidationError("--language must be one of en, fr, it, de, es") }
        return language
    }

    struct Score: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Score one recording as an attempt at a phrase.")

        @OptionGroup var recording: Speech.Recording
        @Flag(help: "The raw scores, before the mapping fitted to human raters.") var raw = false
        @OptionGroup var options: ConfigurationOptions

        func run() async throws {
            let raw = raw
            let result = try await recording.run(options) { scorer, bytes, text, language in
                raw
                    ? try await scorer.scoreWithEvidence(bytes, text: text, language: language).score
                    : try await scorer.score(bytes, text: text, language: language)
            }
            if recording.json { return try Speech.printJSON(result) }
            print(
                "overall \(result.overall)  accuracy \(result.accuracy)  completeness \(result.completeness)  fluency \(result.fluency)"
                    + (result.prosody.map { "  prosody \($0)" } ?? ""))
            print(
                "passed \(result.passed)  feedback \(result.feedback.rawValue)  goodness \(result.goodness)  "
                    + "rate \(result.speechRate) phones/s  insertions \(result.insertions)")
            if let recognized = result.recognizedText { print("heard: \(recognized)") }
            print("word".padding(toLength: 18, withPad: " ", startingAt: 0) + "start   end  score  stress  error")
            for word in result.words {
                let times = word.start.map { String(format: "%5.2f %5.2f", $0, word.end ?? 0) } ?? "    -     -"
                print(
                    word.text.padding(toLength: 18, withPad: " ", startingAt: 0) + times + String(format: "  %5.1f  ", word.score)
                        + (word.stress.map { String(format: "%6.1f  ", $0) } ?? "     -  ") + word.error.rawValue + "  "
                        + word.phones.map { "\($0.phone):\(Int($0.score))" + ($0.substituted == true ? ">/\($0.heardAs ?? "")/" : "") }
                        .joined(separator: " "))
                if let hint = word.hint {
                    print("    " + hint.message(word: word.text).en)
                }
            }
            if !result.warnings.isEmpty { print("warnings: " + result.warnings.joined(separator: ", ")) }
        }
    }

    /// A recording and its text, as `score` and `align` take them.
    struct Recording: ParsableArguments {
        @Option(help: "en, fr, it, de or es.") var language: String
        @Option(help: "What the recording says (or should say).") var text: String
        @Flag(help: "Print the result as JSON.") var json = false
        @Argument(help: "The recording (WAV, FLAC, Ogg, MP3).") var file: String

        /// Runs `work` with a scorer and the file's bytes; a scorer error is
        /// printed with its code, exit status 2.
        func run<Result: Sendable>(
            _ options: ConfigurationOptions,
            _ work: (SpeechScorer, [UInt8], String, Language) async throws -> Result
        ) async throws -> Result {
            let language = try Speech.language(language)
            let scorer = try await Speech.scorer(options)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
            do {
                let result = try await work(scorer, bytes, text, language)
                try await scorer.shutdown()
                return result
            } catch let error as ParlaError {
                try await scorer.shutdown()
                FileHandle.standardError.write(Data("\(error.code.rawValue): \(error.code.message.text(in: .english))\n".utf8))
                throw ExitCode(2)
            }
        }
    }

    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    struct Align: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "When each word of a text is spoken in a recording of it (a narration), for read-along highlighting.")

        @OptionGroup var recording: Speech.Recording
        @OptionGroup var options: ConfigurationOptions

        func run() async throws {
            let alignment = try await recording.run(options) { scorer, bytes, text, language in
                try await scorer.align(bytes, text: text, language: language, limits: .narration)
            }
            if recording.json { return try Speech.printJSON(alignment) }
            for word in alignment.words {
                print(String(format: "%6.2f %6.2f  ", word.start, word.end) + word.word)
            }
            print(String(format: "%.2f s", alignment.duration) + (alignment.complete ? "" : "  (the recording stops before the text ends)"))
        }
    }

    struct Models: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Which model each language uses here, and why.")
        @OptionGroup var options: ConfigurationOptions

        func run() async throws {
            let scorer = try await Speech.scorer(options)
            for (language, model) in scorer.describeModels() {
                switch model {
                case .success(let model):
                    print("\(language.code)  \(model.description.name)  \(model.description.sampleRate) Hz  (\(model.reason))")
                    print("    \(model.description.description)")
                case .failure(let error):
                    print("\(language.code)  none: \(error)")
                }
            }
            try await scorer.shutdown()
        }
    }

    struct Calibrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure a language's anchors on real read speech: each clip with its own text and with another's.",
            discussion: "DIR holds <id>.wav with its transcript in <id>.txt. Never use synthetic speech.")

        @Option(help: "en, fr, it, de or es.") var language: String
        @Option(help: "A folder of clips with transcripts.") var data: String
        @Flag(help: "Write the anchors into Models/<lang>/profile.json for the active model.") var write = false
        @OptionGroup var options: ConfigurationOptions

        func run() async throws {
            let language = try Speech.language(language)
            let scorer = try await Speech.scorer(options)
            let report = try await SpeechCalibration(scorer: scorer).measure(language, directory: data) { line in print(line) }
            print(
                String(
                    format: "clips %d  right %.3f  wrong %.3f  AUC %.3f  overall AUC %.3f  real-time factor %.3f", report.clips,
                    report.right, report.wrong, report.auc, report.overallAUC, report.realTimeFactor)
                    + (report.substitutions.trials == 0
                        ? ""
                        : "  substitutions found \(report.substitutions.found)/\(report.substitutions.trials)"
                            + " elsewhere \(report.substitutions.othersSubstituted)/\(report.substitutions.otherPhones)"
                            + String(format: " detection AUC %.3f", report.substitutions.detectionAUC)))
            if write {
                try SpeechCalibration(scorer: scorer).write(report, language: language)
                print("written to \(scorer.settings.modelsDirectory)/\(language.code)/profile.json")
            }
            try await scorer.shutdown()
        }
    }

    struct Natives: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure how natives say each phone: native read speech aligned with its own text.",
            discussion: """
                Each DIR holds <id>.wav with <id>.txt (VoxForge), or a Sphinx transcription file \
                (pocketsphinx-testdata). Never use synthetic speech.
                """)

        @Option(help: "en, fr, it, de or es.") var language: String
        @Option(help: "A folder of native clips with transcripts (repeatable).") var data: [String]
        @Flag(help: "Write the norms into Models/<lang>/profile.json for the active model.") var write = false
        @Flag(help: "Print each clip as it is measured.") var verbose = false
        @OptionGroup var options: ConfigurationOptions

        func run() async throws {
            let language = try Speech.language(language)
            let scorer = try await Speech.scorer(options)
            let calibration = SpeechCalibration(scorer: scorer)
            let verbose = verbose
            let norms = try await calibration.natives(language, directories: data) { line in if verbose { print(line) } }
            print(norms.source ?? "")
            print(String(format: "articulation rate %.2f phones/s (spread %.2f)", norms.rate.mean, norms.rate.deviation))
            for phone in norms.phones.keys.sorted() {
                let norm = norms.phones[phone]!
                print(
                    phone.padding(toLength: 6, withPad: " ", startingAt: 0)
                        + String(
                            format: "%4d  gap %6.2f ± %.2f  log posterior %6.2f ± %.2f  frames %5.1f", norm.count, norm.gap.mean,
                            norm.gap.deviation, norm.logPosterior.mean, norm.logPosterior.deviation, exp(norm.logDuration.mean))
                        + (norm.energy.map { String(format: "  energy %+5.1f ± %.1f dB", $0.mean, $0.deviation) } ?? ""))
            }
            if write {
                try calibration.updateActiveModel(language) { $0.natives = norms }
                print("written to \(scorer.settings.modelsDirectory)/\(language.code)/profile.json")
            }
            try await scorer.shutdown()
        }
    }
}

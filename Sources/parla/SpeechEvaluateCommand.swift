import ArgumentParser
import Foundation
import ParlaCore
import ParlaServer
import ParlaSpeech

extension Speech {
    struct Evaluate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Score utterances that human raters scored, and measure how the scores agree with theirs.",
            discussion: """
                DIR holds scores.jsonl and wav/<id>.wav in speechocean762's format (so762-dev). Prints Pearson r of \
                overall against the raters' sentence accuracy and total, of word scores against their word accuracy, \
                the detection of the phones they heard as mispronounced (mean below 1.5 of 2; the threshold fitted on \
                the other folds, each speaker's utterances in one fold), and the real-time factor.
                """)

        @Option(help: "en (the only language with rated speech).") var language: String
        @Option(help: "A folder of rated utterances, measured by speaker-grouped cross-validation.") var data: String?
        @Option(help: "With --test: the folder fitted on (speechocean762's train split, scripts/so762.sh).") var train: String?
        @Option(help: "With --train: the folder reported on, never fitted on (the test split).") var test: String?
        @Option(help: "Folds for what is fitted, speakers kept apart.") var folds = 5
        @Option(help: "The ridge penalty of the fitted mapping.") var ridge = 10.0
        @Flag(help: "Fit the mapping on every utterance (with --train, the train split's) and write it into Models/<lang>/profile.json.")
        var write = false
        @Option(help: "Score only the first N utterances.") var limit: Int?
        @Option(help: "Write each utterance's scores as JSON lines (the corpus's evaluate.py reads them).") var predictions: String?
        @Option(
            help: """
                Write each utterance's score and phone evidence with the raters' sentence scores, as JSON lines (with --train and \
                --test: a folder, one file per split, read back instead of scoring again when present).
                """)
        var features: String?
        @Option(help: "Read the scores and evidence --features wrote instead of scoring again (to try mappings quickly).")
        var reuse: String?
        @Flag(
            help: """
                With --train and --test: also score each recording as an attempt at another utterance's text (the wrong phrase; \
                with --features kept in DIR/<split>-mismatched.jsonl) and report how right and wrong attempts separate.
                """)
        var mismatched = false
        @Flag(help: "Print each utterance as it is scored.") var verbose = false
        @OptionGroup var options: ConfigurationOptions

        func run() async throws {
            let language = try Speech.language(language)
            guard folds >= 2 else { throw ValidationError("--folds must be at least 2") }
            if let train, let test, data == nil { return try await heldOut(train: train, test: test, language: language) }
            guard let data, train == nil, test == nil else { throw ValidationError("give either --data, or --train and --test") }
            let scorer = try await Speech.scorer(options, limits: Speech.ratedCorpusLimits)
            var utterances = try RatedUtterance.load(data)
            if let limit { utterances = Array(utterances.prefix(limit)) }
            guard utterances.count >= folds else { throw ValidationError("\(data) has \(utterances.count) rated utterances with audio") }
            let verbose = verbose
            let scored: [SpeechEvaluation.Scored]
            if let reuse {
                scored = try Self.readFeatures(reuse, utterances: utterances)
            } else {
                scored = try await SpeechEvaluation(scorer: scorer).score(utterances, directory: data, language: language) { line in
                    if verbose { print(line) }
                }
            }
            try await scorer.shutdown()
            if let features { try Self.writeFeatures(scored, to: features) }
            let raw = SpeechEvaluation.report(scored, folds: folds)
            print(
                String(
                    format: "raw scores: sentence r = %.3f, word r = %.3f, phone F1 = %.3f", raw.sentenceAccuracy, raw.wordAccuracy,
                    raw.detection.f1))
            let model = try scorer.models.active(language).get()
            guard let natives = model.description.natives else {
                throw ValidationError("\(model.description.name) has no native norms: run parla speech natives --write first")
            }
            let fitted = SpeechEvaluation.crossValidated(
                scored, folds: folds, natives: natives, passThreshold: model.passThreshold, ridge: ridge)
            if let predictions { try Self.write(fitted, to: predictions) }
            let report = SpeechEvaluation.report(fitted, folds: folds)
            print("fitted on the other folds:")
            print("utterances \(report.utterances), words paired \(report.words) of \(report.humanWords), phones paired \(report.phones)")
            print(
                String(format: "sentence  overall vs accuracy r = %.3f   vs total r = %.3f", report.sentenceAccuracy, report.sentenceTotal))
            print(String(format: "sentence  accuracy vs accuracy r = %.3f", report.accuracy))
            print(String(format: "word      score vs accuracy r = %.3f   vs total r = %.3f", report.wordAccuracy, report.wordTotal))
            let detection = report.detection
            print(
                String(
                    format: "phone     mispronounced: precision %.3f  recall %.3f  F1 %.3f  (%d folds)", detection.precision,
                    detection.recall, detection.f1, report.folds))
            let wrong = report.wrongDetection
            print(
                String(
                    format: "phone     wrong or missing: precision %.3f  recall %.3f  F1 %.3f", wrong.precision, wrong.recall, wrong.f1))
            print(String(format: "real-time factor %.3f (CPU seconds per second of audio, one core)", report.realTimeFactor))
            if write {
                let source = String(
                    format: "parla speech evaluate: %d utterances of %@, %d folds: sentence r %.3f, word r %.3f, phone F1 %.3f",
                    report.utterances, URL(fileURLWithPath: data).lastPathComponent, folds, report.sentenceAccuracy, report.wordAccuracy,
                    detection.f1)
                let scoring = ScoringModel.fit(
                    scored.map { .init(score: $0.score, evidence: $0.evidence, utterance: $0.utterance) }, natives: natives, ridge: ridge,
                    source: source)
                var profile = try scorer.models.profile(language)
                profile.scoring = scoring
                try scorer.models.write(profile, for: language)
                print("written to \(scorer.settings.modelsDirectory)/\(language.code)/profile.json")
            }
        }

        /// The papers' protocol: fitted on `train` only, reported on `test`.
        /// `--features DIR` keeps each split's scores and evidence in
        /// DIR/<split>.jsonl, and reads them back on the next run.
        func heldOut(train: String, test: String, language: Language) async throws {
            let scorer = try await Speech.scorer(options, limits: Speech.ratedCorpusLimits)
            let verbose = verbose
            func scored(_ directory: String, mismatched: Bool = false) async throws -> [SpeechEvaluation.Scored] {
                var utterances = try RatedUtterance.load(directory)
                if let limit { utterances = Array(utterances.prefix(limit)) }
                if mismatched { utterances = RatedUtterance.mismatched(utterances) }
                let name = URL(fileURLWithPath: directory).lastPathComponent + (mismatched ? "-mismatched" : "")
                let kept = features.map { "\($0)/\(name).jsonl" }
                if let kept, FileManager.default.fileExists(atPath: kept) { return try Self.readFeatures(kept, utterances: utterances) }
                let scored = try await SpeechEvaluation(scorer: scorer).score(utterances, directory: directory, language: language) {
                    line in
                    if verbose { print(line) }
                }
                if let kept {
                    try FileManager.default.createDirectory(atPath: features!, withIntermediateDirectories: true)
                    try Self.writeFeatures(scored, to: kept)
                }
                return scored
            }
            let (trained, tested) = (try await scored(train), try await scored(test))
            // The train split's wrong phrases are kept for training (training/), never reported on.
            let wrong =
                mismatched ? (train: try await scored(train, mismatched: true), test: try await scored(test, mismatched: true)) : nil
            try await scorer.shutdown()
            var model = try scorer.models.active(language).get()
            if let wrong, let sequence = try scorer.sequenceScorer(language) {
                model.description.phraseCheck = try Self.phraseCheck(
                    right: (trained, tested), wrong: wrong, splits: (train, test)
                ) { item in
                    let pronunciations = try scorer.pronunciations(item.utterance.text, language: language)
                    return sequence.fitted(item.score, evidence: item.evidence, pronunciations: pronunciations)
                }
                print(model.description.phraseCheck?.source ?? "")
            }
            guard let natives = model.description.natives else {
                throw ValidationError("\(model.description.name) has no native norms: run parla speech natives --write first")
            }
            let fitted = SpeechEvaluation.heldOut(
                tested, fittedOn: trained, natives: natives, passThreshold: model.passThreshold, ridge: ridge)
            if let predictions { try Self.write(fitted.test, to: predictions) }
            let linear = SpeechEvaluation.report(fitted.test, thresholdFrom: fitted.train)
            print("fitted on \(trained.count) utterances of \(train), reported on \(linear.utterances) of \(test)")
            print("words paired \(linear.words) of \(linear.humanWords), phones paired \(linear.phones)")
            print("sentence targets: the raters' median (within one point of the corpus's release for about a fifth of utterances)")
            print("                    utterance: accuracy  fluency  prosody  total   word: accuracy  stress  total   phone: accuracy")
            func row(_ name: String, _ report: SpeechEvaluation.Report, accuracy: Double) -> String {
                name.padding(toLength: 20, withPad: " ", startingAt: 0)
                    + String(
                        format: "%19.3f  %7.3f  %7.3f  %5.3f  %14.3f  %6.3f  %5.3f  %15.3f", accuracy, report.fluency, report.prosody,
                        report.sentenceTotal, report.wordAccuracy, report.wordStress, report.wordTotal, report.phoneAccuracy)
            }
            // The linear mapping fits its overall score to the raters' accuracy.
            print(row("Parla linear", linear, accuracy: linear.sentenceAccuracy))
            var reports = [("linear", linear)]
            var sequenceSeconds: Double?
            var separations: [(String, right: [SpeechEvaluation.Scored], wrong: [SpeechEvaluation.Scored])] = []
            if let wrong {
                let linearWrong = SpeechEvaluation.heldOut(
                    wrong.test, fittedOn: trained, natives: natives, passThreshold: model.passThreshold, ridge: ridge
                ).test
                separations.append(("linear", fitted.test, linearWrong))
            }
            if let sequence = try scorer.sequenceScorer(language) {
                func applied(_ items: [SpeechEvaluation.Scored]) throws -> [SpeechEvaluation.Scored] {
                    try items.map { item in
                        var item = item
                        let pronunciations = try scorer.pronunciations(item.utterance.text, language: language)
                        item.score = SpeechScorer.fitted(
                            item.score, evidence: item.evidence, pronunciations: pronunciations, model: model, sequence: sequence)
                        return item
                    }
                }
                let start = SpeechScorer.threadCPUTime()
                let sequencedTest = try applied(tested)
                sequenceSeconds = SpeechScorer.threadCPUTime() - start
                if let predictions { try Self.write(sequencedTest, to: predictions) }
                let report = SpeechEvaluation.report(sequencedTest, thresholdFrom: try applied(trained))
                print(row("Parla sequence", report, accuracy: report.accuracy))
                reports.append(("sequence", report))
                if let wrong { separations.append(("sequence", sequencedTest, try applied(wrong.test))) }
            }
            print("GOPT (2022)                       0.714        -        -  0.742           0.533       -  0.549            0.612")
            for (name, report) in reports {
                let (detection, wrong) = (report.detection, report.wrongDetection)
                print(
                    String(
                        format: "%@: phone mispronounced (mean below 1.5, threshold fitted on train): precision %.3f  recall %.3f  F1 %.3f",
                        name, detection.precision, detection.recall, detection.f1))
                print(
                    String(
                        format:
                            "%@: phone wrong or missing (mean below 0.5, as MDD papers count errors): precision %.3f  recall %.3f  F1 %.3f",
                        name, wrong.precision, wrong.recall, wrong.f1))
            }
            for (name, right, wrong) in separations {
                func share(_ items: [SpeechEvaluation.Scored], _ test: (AttemptScore) -> Bool) -> Double {
                    100 * Double(items.filter { test($0.score) }.count) / Double(max(1, items.count))
                }
                print(
                    String(
                        format:
                            "%@: each test recording said as another's text: overall AUC right vs wrong %.3f; wrong_phrase for %.1f %% of right, %.1f %% of wrong; passed %.1f %% of right, %.1f %% of wrong",
                        name, SpeechCalibration.auc(right: right.map(\.score.overall), wrong: wrong.map(\.score.overall)),
                        share(right) { $0.feedback == .wrongPhrase }, share(wrong) { $0.feedback == .wrongPhrase }, share(right, \.passed),
                        share(wrong, \.passed)))
            }
            print(String(format: "real-time factor %.3f (CPU seconds per second of audio, one core)", linear.realTimeFactor))
            if write {
                let scoring = ScoringModel.fit(
                    trained.map { .init(score: $0.score, evidence: $0.evidence, utterance: $0.utterance) }, natives: natives, ridge: ridge,
                    source: String(
                        format:
                            "parla speech evaluate: fitted on %d utterances of %@; on %d of %@: sentence r %.3f, word r %.3f, phone r %.3f",
                        trained.count, URL(fileURLWithPath: train).lastPathComponent, linear.utterances,
                        URL(fileURLWithPath: test).lastPathComponent, linear.sentenceAccuracy, linear.wordAccuracy, linear.phoneAccuracy))
                var profile = try scorer.models.profile(language)
                profile.scoring = scoring
                if wrong != nil, let index = profile.models.firstIndex(where: { $0.name == model.description.name }) {
                    profile.models[index].phraseCheck = model.description.phraseCheck
                }
                try scorer.models.write(profile, for: language)
                print("written to \(scorer.settings.modelsDirectory)/\(language.code)/profile.json")
            }
            if let sequenceSeconds {
                let audio = tested.map(\.score.duration).reduce(0, +)
                print(
                    String(
                        format: "the sequence scorer adds %.4f to it (%.2f ms an utterance, its tokens built and read)",
                        sequenceSeconds / audio,
                        1000 * sequenceSeconds / Double(max(1, tested.count))))
            }
        }

        /// The wrong-phrase check fitted on the train split's right and
        /// wrong attempts (`sequence`: the sequence scorer's scores of one),
        /// with what it does on the test split's in its source.
        static func phraseCheck(
            right: (train: [SpeechEvaluation.Scored], test: [SpeechEvaluation.Scored]),
            wrong: (train: [SpeechEvaluation.Scored], test: [SpeechEvaluation.Scored]), splits: (train: String, test: String),
            sequence: (SpeechEvaluation.Scored) throws -> FittedScores?
        ) throws -> PhraseCheck {
            // Attempts the sequence scorer cannot read (no posteriors) are left to the raw rule.
            func read(_ items: [SpeechEvaluation.Scored]) throws -> [(SpeechEvaluation.Scored, FittedScores)] {
                try items.compactMap { item in try sequence(item).map { (item, $0) } }
            }
            let (rightTrain, wrongTrain, rightTest, wrongTest) = (
                try read(right.train), try read(wrong.train), try read(right.test), try read(wrong.test)
            )
            func inputs(_ items: [(SpeechEvaluation.Scored, FittedScores)]) -> [[Double]] {
                items.map { PhraseCheck.inputs($0.score, evidence: $0.evidence, fitted: $1) }
            }
            var check = PhraseCheck.fit(
                right: inputs(rightTrain), wrong: inputs(wrongTrain), rightFlagged: PhraseCheck.rightFlagged,
                wrongCleared: PhraseCheck.wrongCleared)
            /// The share of `items` told they said the wrong phrase, by the check or by the raw rule.
            func flagged(_ items: [(SpeechEvaluation.Scored, FittedScores)], byCheck: Bool) -> Double {
                let told = items.filter { item, fitted in
                    (byCheck ? check.decided(item.score, evidence: item.evidence, fitted: fitted) : item.score).feedback == .wrongPhrase
                }
                return 100 * Double(told.count) / Double(max(1, items.count))
            }
            let name = { (path: String) in URL(fileURLWithPath: path).lastPathComponent }
            check.source = String(
                format:
                    "parla speech evaluate --mismatched: fitted on %d right and %d wrong attempts of %@; on %@, wrong phrase for %.1f %% of right and %.1f %% of wrong attempts (the raw rule: %.1f %% and %.1f %%)",
                rightTrain.count, wrongTrain.count, name(splits.train), name(splits.test), flagged(rightTest, byCheck: true),
                flagged(wrongTest, byCheck: true), flagged(rightTest, byCheck: false), flagged(wrongTest, byCheck: false))
            return check
        }

        /// One JSON object a line: the id, the speaker, the raters' sentence
        /// accuracy and total, the score in full and the phones' evidence.
        static func writeFeatures(_ scored: [SpeechEvaluation.Scored], to path: String) throws {
            struct Line: Encodable {
                var id, speaker: String
                var accuracy, total: Double
                var score: AttemptScore
                var evidence: [PhoneEvidence?]
                var cpu: Double?
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let lines = try scored.map { item in
                String(
                    decoding: try encoder.encode(
                        Line(
                            id: item.utterance.id, speaker: item.utterance.speaker, accuracy: item.utterance.accuracy,
                            total: item.utterance.total, score: item.score, evidence: item.evidence,
                            cpu: item.cpuSeconds.isNaN ? nil : item.cpuSeconds)), as: UTF8.self)
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }

        /// What `writeFeatures` wrote, for the utterances given (no CPU time).
        static func readFeatures(_ path: String, utterances: [RatedUtterance]) throws -> [SpeechEvaluation.Scored] {
            struct Line: Decodable {
                var id: String
                var score: AttemptScore
                var evidence: [PhoneEvidence?]
                var cpu: Double?
            }
            let decoder = JSONDecoder()
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
                try decoder.decode(Line.self, from: Data($0.utf8))
            }
            let byID = Dictionary(lines.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return utterances.compactMap { utterance in
                byID[utterance.id].map { .init(utterance: utterance, score: $0.score, evidence: $0.evidence, cpuSeconds: $0.cpu ?? .nan) }
            }
        }

        /// One JSON object a line: id, overall, accuracy, words with their scores.
        static func write(_ scored: [SpeechEvaluation.Scored], to path: String) throws {
            let lines = try scored.map { item -> String in
                let object: [String: Any] = [
                    "id": item.utterance.id, "overall": item.score.overall, "accuracy": item.score.accuracy,
                    "words": item.score.words.map { ["text": $0.text, "score": $0.score] },
                ]
                return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
    }
}

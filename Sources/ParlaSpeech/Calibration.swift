import Foundation
import ParlaCore

/// Measures a language's calibration anchors on real read speech: every
/// clip aligned with its own transcript (a right attempt) and with the next
/// clip's (a wrong one). Synthetic speech is out of domain: never use it.
public struct SpeechCalibration: Sendable {
    public struct Report: Sendable {
        public var clips: Int
        /// Mean goodness of pronunciation, nats per frame.
        public var right: Double
        public var wrong: Double
        /// The chance a right attempt out-scores a wrong one.
        public var auc: Double
        /// The same by the overall score the API returns (fitted where the
        /// language has a fitted scorer, else raw).
        public var overallAUC: Double
        public var rightScores: [Double]
        public var wrongScores: [Double]
        /// CPU seconds per second of audio of a full score (warm decoders).
        public var realTimeFactor: Double
        /// Simulated substitutions (`SpeechScorer.substitutionTrial`, one a
        /// clip, where the model has substitutions): how many were tried and
        /// found, and of the other phones of those clips, how many the
        /// alignment heard a substitute for.
        public var substitutions = Substitutions()

        public struct Substitutions: Sendable {
            public var trials = 0, found = 0, otherPhones = 0, othersSubstituted = 0
            /// The scores (as the API returns them) of the phones asked for
            /// where another was said, and of the clips' other phones.
            public var phoneScores: [Double] = [], otherScores: [Double] = []
            /// The chance a phone the native said as asked out-scores one
            /// said as another: how well the phone scores detect a substitution.
            public var detectionAUC: Double { SpeechCalibration.auc(right: otherScores, wrong: phoneScores) }
        }
    }

    let scorer: SpeechScorer

    public init(scorer: SpeechScorer) { self.scorer = scorer }

    /// The clips of a folder: `<id>.wav` (or .flac, .ogg) with `<id>.txt`,
    /// or listed in a Sphinx `transcription` file ("<s> text </s> (id)", as
    /// pocketsphinx-testdata has them).
    public static func clips(in directory: String) throws -> [(audio: String, text: String)] {
        if let listed = try? String(contentsOfFile: "\(directory)/transcription", encoding: .utf8) {
            return listed.split(separator: "\n").compactMap { line -> (String, String)? in
                guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else { return nil }
                let audio = "\(directory)/\(line[line.index(after: open)..<close]).wav"
                let text = line[..<open].replacingOccurrences(of: "<s>", with: "").replacingOccurrences(of: "</s>", with: "")
                return FileManager.default.fileExists(atPath: audio) ? (audio, text.trimmingCharacters(in: .whitespaces)) : nil
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        return names.compactMap { name -> (String, String)? in
            guard let dot = name.lastIndex(of: "."), ["wav", "flac", "ogg"].contains(name[name.index(after: dot)...]) else { return nil }
            let transcript = "\(directory)/\(name[..<dot]).txt"
            guard let text = try? String(contentsOfFile: transcript, encoding: .utf8) else { return nil }
            return ("\(directory)/\(name)", text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    public func measure(_ language: Language, directory: String, log: (String) -> Void = { _ in }) async throws -> Report {
        let clips = try Self.clips(in: directory)
        guard clips.count >= 2 else { throw SpeechSetupError("\(directory) needs at least two clips with transcripts") }
        var right: [Double] = [], wrong: [Double] = []
        var rightOverall: [Double] = [], wrongOverall: [Double] = []
        var cpu = 0.0, audioSeconds = 0.0
        var substitutions = Report.Substitutions()
        for (index, clip) in clips.enumerated() {
            let other = clips[(index + 1) % clips.count].text
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: clip.audio)))
            do {
                let (own, ownCPU) = try await scorer.scoreTimed(bytes, text: clip.text, language: language)
                let (wrongAttempt, wrongCPU) = try await scorer.scoreTimed(bytes, text: other, language: language)
                // The first score of a language also loads its model: not counted.
                if index > 0 { (cpu, audioSeconds) = (cpu + ownCPU, audioSeconds + own.duration) }
                (cpu, audioSeconds) = (cpu + wrongCPU, audioSeconds + wrongAttempt.duration)
                right.append(own.goodness)
                wrong.append(wrongAttempt.goodness)
                rightOverall.append(own.overall)
                wrongOverall.append(wrongAttempt.overall)
                if let trial = try await scorer.substitutionTrial(bytes, text: clip.text, language: language) {
                    substitutions.trials += 1
                    substitutions.found += trial.found ? 1 : 0
                    substitutions.otherPhones += trial.otherPhones
                    substitutions.othersSubstituted += trial.othersSubstituted
                    substitutions.phoneScores.append(trial.phoneScore)
                    substitutions.otherScores += trial.otherScores
                }
                log(
                    String(
                        format: "%@  right %.3f (%.0f)  wrong %.3f (%.0f)", URL(fileURLWithPath: clip.audio).lastPathComponent,
                        own.goodness, own.overall, wrongAttempt.goodness, wrongAttempt.overall))
            } catch let error as ParlaError {
                log("\(clip.audio): skipped, \(error.code.rawValue)")
            }
        }
        guard !right.isEmpty else { throw SpeechSetupError("no clip could be scored") }
        return Report(
            clips: right.count, right: Self.mean(right), wrong: Self.mean(wrong), auc: Self.auc(right: right, wrong: wrong),
            overallAUC: Self.auc(right: rightOverall, wrong: wrongOverall),
            rightScores: right, wrongScores: wrong, realTimeFactor: audioSeconds > 0 ? cpu / audioSeconds : 0,
            substitutions: substitutions)
    }

    public static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(1, values.count)) }

    /// Area under the ROC curve: the share of (right, wrong) pairs where the
    /// right one scores higher, ties counting half.
    public static func auc(right: [Double], wrong: [Double]) -> Double {
        guard !right.isEmpty, !wrong.isEmpty else { return 0 }
        var wins = 0.0
        for r in right { for w in wrong { wins += r > w ? 1 : r == w ? 0.5 : 0 } }
        return wins / Double(right.count * wrong.count)
    }

    /// Stores the anchors in the profile, for the model now active.
    public func write(_ report: Report, language: Language) throws {
        try updateActiveModel(language) { model in
            model.calibration = Calibration(
                right: (report.right * 1000).rounded() / 1000, wrong: (report.wrong * 1000).rounded() / 1000,
                source: String(format: "parla speech calibrate: %d clips, AUC %.3f", report.clips, report.auc))
        }
    }

    /// Changes the description of the model `language` uses now in its
    /// `Models/<lang>/profile.json`.
    public func updateActiveModel(_ language: Language, _ change: (inout ModelDescription) -> Void) throws {
        let active = try scorer.models.active(language).get()
        var profile = try scorer.models.profile(language)
        guard let index = profile.models.firstIndex(where: { $0.name == active.description.name }) else { return }
        change(&profile.models[index])
        try scorer.models.write(profile, for: language)
    }

    /// Native read speech aligned with its own text: each phone scored
    /// with its evidence, and each clip's articulation rate.
    public func natives(_ language: Language, directories: [String], log: (String) -> Void = { _ in }) async throws -> NativeNorms {
        var samples: [NativeNorms.Sample] = []
        var rates: [Double] = []
        var clipCount = 0
        for directory in directories {
            for clip in try Self.clips(in: directory) {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: clip.audio)))
                do {
                    let (score, evidence, _) = try await scorer.scoreWithEvidence(bytes, text: clip.text, language: language)
                    let phones = score.words.flatMap(\.phones)
                    for (phone, evidence) in zip(phones, evidence) {
                        guard let evidence else { continue }
                        samples.append(
                            .init(
                                phone: phone.phone, gap: evidence.gapToBest, logPosterior: evidence.logPosterior,
                                frames: Int(((phone.end - phone.start) * 100).rounded()), energy: evidence.energy))
                    }
                    if score.speechRate > 0 { rates.append(score.speechRate) }
                    clipCount += 1
                    log(
                        String(
                            format: "%@  %d phones  overall %.0f", URL(fileURLWithPath: clip.audio).lastPathComponent, phones.count,
                            score.overall))
                } catch let error as ParlaError {
                    log("\(clip.audio): skipped, \(error.code.rawValue)")
                }
            }
        }
        guard !samples.isEmpty else { throw SpeechSetupError("no native phone could be measured (a model without posteriors?)") }
        return NativeNorms.measure(
            samples, rates: rates,
            source: "parla speech natives: \(clipCount) clips, \(samples.count) phones, \(Set(samples.map(\.phone)).count) distinct")
    }
}

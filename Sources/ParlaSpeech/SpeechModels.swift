import Foundation
import ParlaCore

/// `Models/<lang>/profile.json`: the acoustic models a language can use, in
/// order of preference, each with its lexicon and calibration.
public struct LanguageProfile: Codable, Sendable {
    public var language: String
    /// The overall score (0-100) at or above which an attempt passes.
    public var passThreshold: Double
    public var models: [ModelDescription]
    /// The mapping fitted to human raters (`parla speech evaluate --write`):
    /// English's serves every language, its features being measured
    /// against each model's natives.
    public var scoring: ScoringModel?
}

public struct ModelDescription: Codable, Sendable {
    public var name: String
    public var description: String
    /// The acoustic model's folder. Relative paths are under `Models/`;
    /// `{modelPaths}` stands for each folder of `speech.modelPaths` in turn.
    public var acoustic: String
    /// The model's pronouncing dictionary; none for the cross-lingual path,
    /// where every word goes through espeak-ng.
    public var dictionary: String?
    public var sampleRate: Int
    /// `Models/phonemaps/<phoneMap>.json`: espeak-ng IPA -> this model's phones.
    public var phoneMap: String
    /// `Models/phonemaps/<ipa>.json`: this model's phones -> IPA, as learners
    /// read them; none: the phone map read backwards.
    public var ipa: String?
    public var espeakVoice: String
    /// More pocketsphinx arguments (`-key value`).
    public var arguments: [String]?
    public var calibration: Calibration
    /// How natives say each phone with this model (`parla speech natives`).
    public var natives: NativeNorms?
    /// `Models/<lang>/<sequenceScorer>`: the sequence scorer trained on
    /// this model's evidence (`make train-speech`); preferred, where the
    /// evidence has phone posteriors, to the linear `scoring`.
    public var sequenceScorer: String?
    /// `Models/<lang>/<substitutions>`: the phones learners say instead of
    /// this model's (`PhoneSubstitutions`), offered by the alignment.
    public var substitutions: String?
    /// `Models/<lang>/<phoneTransfer>`: this model's phones as another
    /// model's sequence scorer knows them (`PhoneTransfer`), for a model
    /// without a scorer of its own.
    public var phoneTransfer: String?
    /// Whether an attempt said another phrase, fitted on this model's
    /// scores of learners' right and wrong attempts (`parla speech
    /// evaluate --mismatched --write`); none: the raw rule decides.
    public var phraseCheck: PhraseCheck?
}

/// Goodness of pronunciation (nats per frame) of real read speech aligned
/// with its own text (`right`) and with another clip's text (`wrong`):
/// the two anchors of the 0-100 score.
public struct Calibration: Codable, Sendable, Equatable {
    public var right: Double
    public var wrong: Double
    /// How the anchors were measured (clips, AUC), for people.
    public var source: String?

    public init(right: Double, wrong: Double, source: String? = nil) {
        (self.right, self.wrong, self.source) = (right, wrong, source)
    }
}

/// The model a language uses on this machine, with its files resolved.
public struct ActiveModel: Sendable {
    public var language: Language
    public var description: ModelDescription
    public var acousticPath: String
    public var dictionaryPath: String?
    public var phoneMap: PhoneMap
    /// Each phone in IPA.
    public var phoneIPA: [String: String] = [:]
    public var passThreshold: Double
    /// Why this model: the ones before it that were missing.
    public var reason: String
    /// The mapping to the raters' scale, when both it and this model's
    /// native norms exist: scores are then fitted, else raw.
    public var scoring: ScoringModel? = nil
    /// The sequence scorer's weights file, when the model names one.
    public var sequenceScorerPath: String? = nil
    /// The substitutions file, when the model names one.
    public var substitutionsPath: String? = nil
    /// The phone transfer file, when the model names one.
    public var phoneTransferPath: String? = nil
}

/// Reads every language's profile and picks, for each, the first model
/// whose files are installed.
public struct SpeechModels: Sendable {
    public var modelsDirectory: String
    public var modelPaths: [String]

    public init(modelsDirectory: String, modelPaths: [String]) {
        (self.modelsDirectory, self.modelPaths) = (modelsDirectory, modelPaths)
    }

    public func profile(_ language: Language) throws -> LanguageProfile {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(modelsDirectory)/\(language.code)/profile.json"))
        return try JSONDecoder().decode(LanguageProfile.self, from: data)
    }

    /// Writes a language's profile back, as people read and diff it.
    public func write(_ profile: LanguageProfile, for language: Language) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(profile) + Data("\n".utf8))
            .write(to: URL(fileURLWithPath: "\(modelsDirectory)/\(language.code)/profile.json"))
    }

    /// The active model, or why there is none.
    public func active(_ language: Language) -> Result<ActiveModel, SpeechSetupError> {
        let profile: LanguageProfile
        do { profile = try self.profile(language) } catch {
            return .failure(SpeechSetupError("no readable \(modelsDirectory)/\(language.code)/profile.json: \(error)"))
        }
        var skipped: [String] = []
        for model in profile.models {
            guard let acoustic = resolve(model.acoustic, isDirectory: true) else {
                skipped.append("\(model.name): \(model.acoustic) is not installed")
                continue
            }
            var dictionary: String?
            if let path = model.dictionary {
                guard let found = resolve(path, isDirectory: false) else {
                    skipped.append("\(model.name): \(path) is not installed")
                    continue
                }
                dictionary = found
            }
            let phoneMap: PhoneMap
            do { phoneMap = try PhoneMap.load("\(modelsDirectory)/phonemaps/\(model.phoneMap).json") } catch {
                skipped.append("\(model.name): phone map \(model.phoneMap) unreadable")
                continue
            }
            let reason = skipped.isEmpty ? "first choice" : "instead of " + skipped.joined(separator: "; ")
            let scoring = model.natives == nil ? nil : profile.scoring ?? (try? self.profile(.english))?.scoring
            let ipa =
                model.ipa.flatMap { name in
                    (try? Data(contentsOf: URL(fileURLWithPath: "\(modelsDirectory)/phonemaps/\(name).json")))
                        .flatMap { try? JSONDecoder().decode([String: String].self, from: $0) }
                } ?? phoneMap.ipaOfPhones
            return .success(
                ActiveModel(
                    language: language, description: model, acousticPath: acoustic, dictionaryPath: dictionary,
                    phoneMap: phoneMap, phoneIPA: ipa, passThreshold: profile.passThreshold, reason: reason, scoring: scoring,
                    sequenceScorerPath: model.sequenceScorer.map { "\(modelsDirectory)/\(language.code)/\($0)" },
                    substitutionsPath: model.substitutions.map { "\(modelsDirectory)/\(language.code)/\($0)" },
                    phoneTransferPath: model.phoneTransfer.map { "\(modelsDirectory)/\(language.code)/\($0)" }))
        }
        return .failure(SpeechSetupError("no model installed: " + skipped.joined(separator: "; ")))
    }

    private func resolve(_ path: String, isDirectory: Bool) -> String? {
        let candidates: [String]
        if path.contains("{modelPaths}") {
            candidates = modelPaths.map { path.replacingOccurrences(of: "{modelPaths}", with: $0) }
        } else {
            candidates = [path.hasPrefix("/") ? path : "\(modelsDirectory)/\(path)"]
        }
        return candidates.first { candidate in
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: candidate, isDirectory: &directory) && directory.boolValue == isDirectory
        }
    }
}

public struct SpeechSetupError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

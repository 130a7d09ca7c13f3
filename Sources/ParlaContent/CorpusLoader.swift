import Foundation
import ParlaCore
import Yams

/// A problem found in `Corpora/`, with where it is.
public struct ContentProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case syntax, missingField = "missing_field", invalidValue = "invalid_value", missingLocalization = "missing_localization"
        case duplicateKey = "duplicate_key", listSize = "list_size", unknownLanguage = "unknown_language"
        case missingAsset = "missing_asset", badLevel = "bad_level", unknownReference = "unknown_reference"
    }

    public var file: String
    public var line: Int
    public var kind: Kind
    public var message: String

    public init(file: String, line: Int, kind: Kind, message: String) {
        (self.file, self.line, self.kind, self.message) = (file, line, kind, message)
    }

    public var description: String { "\(file):\(line): \(kind.rawValue): \(message)" }
}

/// Reads `Corpora/` from its files' text and checks every rule of
/// `Corpora/README.md`, collecting every problem rather than stopping at the
/// first. Reading the files themselves is the caller's business.
public struct CorpusLoader: Sendable {
    public struct File: Sendable {
        public var path: String
        public var text: String
        public init(path: String, text: String) { (self.path, self.text) = (path, text) }
    }

    /// Whether an asset a concept refers to exists (an SVG of ours, an
    /// emoji the picture set has).
    public var assetExists: @Sendable (AssetReference) -> Bool

    public init(assetExists: @escaping @Sendable (AssetReference) -> Bool) {
        self.assetExists = assetExists
    }

    public func load(_ files: [File]) -> (Corpus, [ContentProblem]) {
        var context = CorpusReading(assetExists: assetExists)
        for file in files.sorted(by: { $0.path < $1.path }) {
            context.file = file.path
            let node: Node?
            do {
                node = try Yams.compose(yaml: file.text)
            } catch {
                context.problem(
                    line: Self.line(of: error), .syntax, "\(error)".split(separator: "\n").first.map(String.init) ?? "unreadable YAML")
                continue
            }
            guard let node, case .mapping = node else {
                context.problem(line: 1, .syntax, "the file must hold a mapping")
                continue
            }
            switch file.path.split(separator: "/").first {
            case "wordlists": context.readWordList(node)
            case "phrases": context.readPhrases(node)
            case "grammar" where node["explainedIn"] != nil: context.readExplanations(node)
            case "grammar": context.readGrammar(node)
            case "placement": context.readPlacement(node, path: file.path)
            case "homophones.yaml": context.readHomophones(node)
            case "course": context.readCourseFile(node)
            case "alphabets": context.readAlphabet(node, path: file.path)
            default: continue
            }
        }
        context.applyExplanations()
        context.assembleCourse()
        context.checkReferences()
        return (context.corpus, context.problems)
    }

    static func line(of error: any Error) -> Int {
        if let error = error as? YamlError {
            switch error {
            case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): return mark.line
            case .duplicatedKeysInMapping(_, let context): return context.mark.line
            default: return 1
            }
        }
        return 1
    }
}

/// The loader's working state: what was read so far and what is wrong.
struct CorpusReading {
    let assetExists: @Sendable (AssetReference) -> Bool
    var file = ""
    var corpus = Corpus()
    var problems: [ContentProblem] = []
    var conceptSites: [String: (file: String, line: Int)] = [:]
    var phraseSites: [String: (file: String, line: Int)] = [:]
    var noteSites: [String: (file: String, line: Int)] = [:]
    var placementSites: [String: (file: String, line: Int)] = [:]
    var exerciseSites: [String: (file: String, line: Int)] = [:]
    var homophoneReferences: [(file: String, line: Int, concept: String)] = []
    var exampleReferences: [(file: String, line: Int, note: String, phrase: String)] = []
    var storyConcepts: [(file: String, line: Int, concept: String)] = []
    var course = CourseReading()
    /// Explanations of notes in other UI languages, applied once every note is read.
    var explanations: [(file: String, line: Int, language: Language, ui: Language, note: Node)] = []

    init(assetExists: @escaping @Sendable (AssetReference) -> Bool) { self.assetExists = assetExists }

    mutating func problem(line: Int, _ kind: ContentProblem.Kind, _ message: String) {
        problems.append(ContentProblem(file: file, line: line, kind: kind, message: message))
    }

    // MARK: Fields

    func line(_ node: Node?) -> Int { node?.mark?.line ?? 1 }

    mutating func string(_ node: Node, _ key: String, required: Bool = true) -> String? {
        guard let value = node[key], value.null == nil else {
            if required { problem(line: line(node), .missingField, "\(key) is missing") }
            return nil
        }
        guard let text = value.scalar?.string, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            problem(line: line(value), .invalidValue, "\(key) must be non-empty text")
            return nil
        }
        return text
    }

    mutating func level(_ node: Node, allowed: ClosedRange<CEFRLevel> = .a1 ... .c2) -> CEFRLevel? {
        guard let text = string(node, "level") else { return nil }
        guard let level = CEFRLevel(rawValue: text), allowed.contains(level) else {
            problem(
                line: line(node["level"]), .badLevel,
                "level \(text) is not one of \(allowed.lowerBound.rawValue)-\(allowed.upperBound.rawValue)")
            return nil
        }
        return level
    }

    mutating func asset(_ node: Node, _ key: String) -> AssetReference? {
        guard let text = string(node, key) else { return nil }
        guard let reference = AssetReference(text) else {
            problem(line: line(node[key]), .invalidValue, "\(key) \(text) is not emoji:<codepoints> or svg:<name>")
            return nil
        }
        if !assetExists(reference) { problem(line: line(node[key]), .missingAsset, "\(key) \(text) does not exist") }
        return reference
    }

    /// A `{en: ..., fr: ...}` mapping with every base language.
    mutating func perLanguage(_ node: Node, _ key: String) -> [Language: String] {
        guard let mapping = node[key], case .mapping(let pairs) = mapping else {
            problem(line: line(node), .missingField, "\(key) is missing")
            return [:]
        }
        var result: [Language: String] = [:]
        for (tag, value) in pairs {
            guard let code = tag.string, let language = Language(rawValue: code) else {
                problem(line: line(tag), .unknownLanguage, "\(tag.string ?? "?") is not a language Parla teaches")
                continue
            }
            result[language] = value.string
        }
        for language in Language.allCases where (result[language] ?? "").isEmpty {
            problem(line: line(mapping), .missingLocalization, "\(key) has no \(language.code)")
        }
        return result
    }

    static func isKey(_ text: String) -> Bool {
        !text.isEmpty && text.first != "-" && text.last != "-"
            && text.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }
    }

    // MARK: Word lists

    mutating func readWordList(_ node: Node) {
        let expectedID = String(file.split(separator: "/").last?.dropLast(5) ?? "")
        let id = string(node, "id")
        if let id, id != expectedID { problem(line: line(node["id"]), .invalidValue, "id \(id) differs from the file name \(expectedID)") }
        let icon = asset(node, "icon")
        let names = perLanguage(node, "names")
        let wordNodes = node["words"]?.sequence.map(Array.init) ?? []
        if wordNodes.count != WordList.size {
            problem(
                line: line(node["words"] ?? node), .listSize, "a word list has exactly \(WordList.size) words, this one \(wordNodes.count)")
        }
        let words = wordNodes.compactMap { readConcept($0) }
        let free = (node["free"]?.sequence.map(Array.init) ?? []).compactMap { $0.string }
        let keys = Set(wordNodes.compactMap { $0["key"]?.string })
        for key in free where !keys.contains(key) {
            problem(line: line(node["free"]), .unknownReference, "free word \(key) is not in the list")
        }
        guard let id, let icon else { return }
        corpus.wordLists.append(WordList(id: id, icon: icon, names: names, freeKeys: free, words: words))
    }

    mutating func readConcept(_ node: Node) -> Concept? {
        guard let key = string(node, "key") else { return nil }
        if !Self.isKey(key) {
            problem(line: line(node["key"]), .invalidValue, "key \(key) must be lowercase ASCII letters, digits and hyphens")
        }
        if let earlier = conceptSites[key] {
            problem(line: line(node["key"]), .duplicateKey, "key \(key) is already used at \(earlier.file):\(earlier.line)")
        } else {
            conceptSites[key] = (file, line(node["key"]))
        }
        let level = level(node)
        let picture = asset(node, "picture")
        var localizations: [String: Localization] = [:]
        guard case .mapping(let pairs) = node else { return nil }
        for (tagNode, value) in pairs {
            guard let tag = tagNode.string, !["key", "level", "picture", "sound", "background"].contains(tag) else { continue }
            let base = String(tag.split(separator: "-").first ?? "")
            guard Language(rawValue: base) != nil else {
                problem(line: line(tagNode), .unknownLanguage, "\(tag) is not a language Parla teaches (or a variant of one)")
                continue
            }
            localizations[tag] = readLocalization(value, tag: tag, isVariant: base != tag)
        }
        for language in Language.allCases where localizations[language.code] == nil {
            problem(line: line(node["key"]), .missingLocalization, "\(key) has no \(language.code) localization")
        }
        let sound = string(node, "sound", required: false), background = string(node, "background", required: false)
        guard let level, let picture else { return nil }
        return Concept(key: key, level: level, picture: picture, sound: sound, background: background, localizations: localizations)
    }

    mutating func readLocalization(_ node: Node, tag: String, isVariant: Bool) -> Localization {
        var result = Localization()
        result.word = string(node, "word", required: !isVariant)
        result.definition = string(node, "definition", required: !isVariant)
        result.article = string(node, "article", required: false)
        result.plural = string(node, "plural", required: false)
        result.sortKey = string(node, "sortKey", required: false)
        result.speech = string(node, "speech", required: false)
        if let gender = string(node, "gender", required: false) {
            result.gender = Gender(rawValue: gender)
            if result.gender == nil { problem(line: line(node["gender"]), .invalidValue, "gender \(gender) is not m, f or n") }
        }
        if result.article != nil, result.gender == nil, !tag.hasPrefix("en"), !isVariant {
            problem(line: line(node), .missingField, "a noun with an article needs its gender")
        }
        if let value = node["caseOverride"]?.string {
            result.caseOverride = CaseOverride(rawValue: value)
            if result.caseOverride == nil {
                problem(line: line(node["caseOverride"]), .invalidValue, "caseOverride \(value) is not upper, lower or capitalized")
            }
        }
        result.disabled = node["disabled"]?.bool
        if let frequency = node["frequency"] {
            if frequency.null == nil {
                result.frequency = frequency.int
                if (result.frequency ?? 0) < 1 { problem(line: line(frequency), .invalidValue, "frequency must be a rank from 1") }
            }
        } else if !isVariant {
            problem(line: line(node), .missingField, "frequency is missing (null when the word is not ranked)")
        }
        return result
    }
}

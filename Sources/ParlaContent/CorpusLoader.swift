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
        var context = Context(assetExists: assetExists)
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
            default: continue
            }
        }
        context.applyExplanations()
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
private struct Context {
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

    // MARK: Phrases and grammar

    mutating func readPhrases(_ node: Node) {
        guard let topic = string(node, "topic") else { return }
        for phraseNode in node["phrases"]?.sequence.map(Array.init) ?? [] {
            guard let id = string(phraseNode, "id") else { continue }
            if let earlier = phraseSites[id] {
                problem(line: line(phraseNode["id"]), .duplicateKey, "phrase \(id) is already defined at \(earlier.file):\(earlier.line)")
                continue
            }
            phraseSites[id] = (file, line(phraseNode["id"]))
            let level = level(phraseNode, allowed: .a1 ... .b2)
            let skillText = string(phraseNode, "skill")
            let skill = skillText.flatMap(Skill.init(rawValue:))
            if let skillText, skill == nil { problem(line: line(phraseNode["skill"]), .invalidValue, "skill \(skillText) is unknown") }
            var texts: [Language: String] = [:]
            for language in Language.allCases {
                guard let text = string(phraseNode, language.code) else { continue }
                let words = text.split(whereSeparator: { $0 == " " || $0 == "\u{00A0}" }).filter {
                    $0.contains(where: \.isLetter) || $0.contains(where: \.isNumber)
                }
                if !(1...12).contains(words.count) {
                    problem(
                        line: line(phraseNode[language.code]), .invalidValue,
                        "a phrase has 1 to 12 words, \(id) in \(language.code) has \(words.count)")
                }
                texts[language] = text
            }
            guard let level, let skill, texts.count == Language.allCases.count else { continue }
            corpus.phrases.append(Phrase(id: id, topic: topic, level: level, skill: skill, texts: texts))
        }
    }

    mutating func readGrammar(_ node: Node) {
        guard let code = string(node, "language") else { return }
        guard let language = Language(rawValue: code) else {
            problem(line: line(node["language"]), .unknownLanguage, "\(code) is not a language Parla teaches")
            return
        }
        for noteNode in node["notes"]?.sequence.map(Array.init) ?? [] {
            guard let id = string(noteNode, "id") else { continue }
            if let earlier = noteSites[id] {
                problem(line: line(noteNode["id"]), .duplicateKey, "note \(id) is already defined at \(earlier.file):\(earlier.line)")
                continue
            }
            noteSites[id] = (file, line(noteNode["id"]))
            let level = level(noteNode)
            let title = string(noteNode, "title"), summary = string(noteNode, "summary"), body = string(noteNode, "body")
            let examples = (noteNode["examples"]?.sequence.map(Array.init) ?? []).compactMap(\.string)
            if examples.count < 2 { problem(line: line(noteNode["id"]), .missingField, "note \(id) needs at least two example phrases") }
            for example in examples { exampleReferences.append((file, line(noteNode["examples"]), id, example)) }
            let exercises = (noteNode["exercises"]?.sequence.map(Array.init) ?? []).compactMap { readExercise($0, note: id) }
            guard let level, let title, let summary, let body else { continue }
            corpus.grammarNotes.append(
                GrammarNote(
                    id: id, language: language, level: level, title: title, summary: summary,
                    body: body, examples: examples, exercises: exercises))
        }
    }

    /// `grammar/<lang>.<ui>.yaml`: the notes of `language` explained in the
    /// UI language `explainedIn` (DF5). Kept until every note is read.
    mutating func readExplanations(_ node: Node) {
        guard let code = string(node, "language"), let uiCode = string(node, "explainedIn") else { return }
        guard let language = Language(rawValue: code) else {
            problem(line: line(node["language"]), .unknownLanguage, "\(code) is not a language Parla teaches")
            return
        }
        guard let ui = Language(rawValue: uiCode), ui != .english else {
            problem(
                line: line(node["explainedIn"]), .invalidValue,
                "explainedIn must be fr, it, de or es (a note's English is in grammar/\(code).yaml)")
            return
        }
        for noteNode in node["notes"]?.sequence.map(Array.init) ?? [] {
            explanations.append((file, line(noteNode), language, ui, noteNode))
        }
    }

    /// Gives each note its explanations, and requires one in every UI
    /// language: a note a reader cannot read in its own language is a
    /// problem of the content.
    mutating func applyExplanations() {
        var index: [String: Int] = [:]
        for (position, note) in corpus.grammarNotes.enumerated() { index[note.id] = position }
        for entry in explanations {
            file = entry.file
            guard let id = string(entry.note, "id") else { continue }
            guard let position = index[id], corpus.grammarNotes[position].language == entry.language else {
                problem(line: entry.line, .unknownReference, "note \(id) is no note of grammar/\(entry.language.code).yaml")
                continue
            }
            if corpus.grammarNotes[position].explanations[entry.ui] != nil {
                problem(line: entry.line, .duplicateKey, "note \(id) is explained in \(entry.ui.code) twice")
                continue
            }
            let title = string(entry.note, "title"), summary = string(entry.note, "summary"), body = string(entry.note, "body")
            var exercises = corpus.grammarNotes[position].exercises
            let translations = entry.note["exercises"]?.mapping.map(Array.init) ?? []
            if entry.ui == entry.language, !translations.isEmpty {
                problem(line: entry.line, .invalidValue, "note \(id): no exercise translations into the note's own language")
            }
            for (key, value) in translations {
                guard let exerciseID = key.string, let text = value.string, !text.isEmpty else {
                    problem(line: line(key), .invalidValue, "note \(id): an exercise translation is an id and a sentence")
                    continue
                }
                guard let at = exercises.firstIndex(where: { $0.id == exerciseID }) else {
                    problem(line: line(key), .unknownReference, "note \(id) has no exercise \(exerciseID)")
                    continue
                }
                exercises[at].translations[entry.ui] = text
            }
            if entry.ui != entry.language {
                for exercise in exercises where exercise.translation != nil && exercise.translations[entry.ui] == nil {
                    problem(line: entry.line, .missingField, "note \(id): exercise \(exercise.id) has no translation in \(entry.ui.code)")
                }
            }
            guard let title, let summary, let body else { continue }
            corpus.grammarNotes[position].exercises = exercises
            corpus.grammarNotes[position].explanations[entry.ui] = .init(title: title, summary: summary, body: body)
        }
        for note in corpus.grammarNotes {
            let missing = Language.allCases.filter { $0 != .english && note.explanations[$0] == nil }
            guard !missing.isEmpty, let site = noteSites[note.id] else { continue }
            problems.append(
                ContentProblem(
                    file: site.file, line: site.line, kind: .missingLocalization,
                    message: "note \(note.id) has no explanation in \(missing.map(\.code).joined(separator: ", "))"
                        + " (grammar/\(note.language.code).<ui>.yaml)"))
        }
    }

    /// One gap-fill exercise of a note; refuses anything that could have two
    /// right answers or none.
    mutating func readExercise(_ node: Node, note: String) -> GrammarExercise? {
        guard let id = string(node, "id") else { return nil }
        if let earlier = exerciseSites[id] {
            problem(line: line(node["id"]), .duplicateKey, "exercise \(id) is already defined at \(earlier.file):\(earlier.line)")
            return nil
        }
        exerciseSites[id] = (file, line(node["id"]))
        if !id.hasPrefix(note + "-") { problem(line: line(node["id"]), .invalidValue, "exercise \(id) must start with \(note)-") }
        let stem = string(node, "stem"), correct = string(node, "correct")
        let translation = string(node, "translation", required: false)
        let distractors = (node["distractors"]?.sequence.map(Array.init) ?? []).compactMap(\.string)
        if distractors.count != 3 || distractors.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            problem(line: line(node["id"]), .invalidValue, "exercise \(id) needs exactly 3 non-empty distractors")
        }
        if let correct {
            let options = [correct] + distractors
            if Set(options.map(PlacementQuestion.folded)).count != options.count {
                problem(
                    line: line(node["distractors"]), .invalidValue,
                    "exercise \(id) has two options that read the same: it would have two right answers")
            }
        }
        if let stem, stem.components(separatedBy: "___").count != 2 {
            problem(line: line(node["stem"]), .invalidValue, "exercise \(id) needs exactly one gap (___) in its stem")
        }
        guard let stem, let correct, distractors.count == 3 else { return nil }
        return GrammarExercise(id: id, stem: stem, correct: correct, distractors: distractors, translation: translation)
    }

    /// `placement/<lang>/<skill>.yaml`: the language and the skill come from
    /// the path. Refuses anything that could give an item two right answers
    /// or none.
    mutating func readPlacement(_ node: Node, path: String) {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count == 3, let language = Language(rawValue: parts[1]) else {
            problem(line: 1, .unknownLanguage, "placement banks are placement/<language>/<skill>.yaml")
            return
        }
        let skillName = String(parts[2].dropLast(5))
        guard let skill = Skill(rawValue: skillName), PlacementQuestion.skills.contains(skill) else {
            problem(line: 1, .invalidValue, "\(skillName) is not a placement skill (vocabulary, grammar, reading, listening)")
            return
        }
        for itemNode in node["items"]?.sequence.map(Array.init) ?? [] {
            guard let id = string(itemNode, "id") else { continue }
            if let earlier = placementSites[id] {
                problem(line: line(itemNode["id"]), .duplicateKey, "item \(id) is already defined at \(earlier.file):\(earlier.line)")
                continue
            }
            placementSites[id] = (file, line(itemNode["id"]))
            if !id.hasPrefix("\(language.code)-\(skill.rawValue)-") {
                problem(line: line(itemNode["id"]), .invalidValue, "item \(id) must start with \(language.code)-\(skill.rawValue)-")
            }
            let level = level(itemNode, allowed: .a1 ... .c1)
            let topic = string(itemNode, "topic"), stem = string(itemNode, "stem"), correct = string(itemNode, "correct")
            let passage = string(itemNode, "passage", required: skill == .reading)
            let audio = string(itemNode, "audio", required: skill == .listening)
            let distractors = (itemNode["distractors"]?.sequence.map(Array.init) ?? []).compactMap(\.string)
            if distractors.count != 3 || distractors.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                problem(line: line(itemNode["id"]), .invalidValue, "item \(id) needs exactly 3 non-empty distractors")
            }
            if let correct {
                let options = [correct] + distractors
                if Set(options.map(PlacementQuestion.folded)).count != options.count {
                    problem(
                        line: line(itemNode["distractors"]), .invalidValue,
                        "item \(id) has two options that read the same: it would have two right answers")
                }
            }
            if skill == .grammar, let stem, !stem.contains("___") {
                problem(line: line(itemNode["stem"]), .invalidValue, "grammar item \(id) needs a gap (___) in its stem")
            }
            guard let level, let topic, let stem, let correct, distractors.count == 3 else { continue }
            corpus.placementQuestions.append(
                PlacementQuestion(
                    id: id, language: language, skill: skill, level: level, topic: topic, stem: stem,
                    passage: passage, audio: audio, correct: correct, distractors: distractors))
        }
    }

    mutating func checkReferences() {
        for reference in exampleReferences where phraseSites[reference.phrase] == nil {
            problems.append(
                ContentProblem(
                    file: reference.file, line: reference.line, kind: .unknownReference,
                    message: "note \(reference.note) cites phrase \(reference.phrase), which does not exist"))
        }
        for reference in homophoneReferences where conceptSites[reference.concept] == nil {
            problems.append(
                ContentProblem(
                    file: reference.file, line: reference.line, kind: .unknownReference,
                    message: "homophones name \(reference.concept), which is no word's key"))
        }
    }

    /// `homophones.yaml`: per language, groups of concept keys whose words
    /// sound the same.
    mutating func readHomophones(_ node: Node) {
        for language in Language.allCases {
            for group in node[language.code]?.sequence.map(Array.init) ?? [] {
                let keys = (group.sequence.map(Array.init) ?? []).compactMap(\.string)
                guard keys.count >= 2 else {
                    problem(line: line(group), .invalidValue, "a group of homophones names at least two words")
                    continue
                }
                for key in keys { homophoneReferences.append((file, line(group), key)) }
                corpus.homophones[language, default: []].append(keys)
            }
        }
    }
}

import Foundation
import ParlaCore

/// Everything Parla teaches, as read from `Corpora/`: word lists of
/// concepts, phrases and grammar notes, in every language.
public struct Corpus: Sendable, Equatable {
    public var wordLists: [WordList]
    public var phrases: [Phrase]
    public var grammarNotes: [GrammarNote]
    /// The placement test's item banks, every language's.
    public var placementQuestions: [PlacementQuestion]
    /// Per language, groups of concepts whose words sound the same
    /// (`homophones.yaml`): a listening question never offers two of a group.
    public var homophones: [Language: [[String]]]
    /// The course (`course/`): every language's packs with their lessons,
    /// by language, section and order.
    public var packs: [CoursePack]
    public var stories: [Story]
    public var sightWords: [Language: [SightWord]]
    public var instructions: CourseInstructions
    /// Each language variant's letters (`alphabets/`), by variant.
    public var alphabets: [Alphabet] = []

    public init(
        wordLists: [WordList] = [], phrases: [Phrase] = [], grammarNotes: [GrammarNote] = [],
        placementQuestions: [PlacementQuestion] = [], homophones: [Language: [[String]]] = [:], packs: [CoursePack] = [],
        stories: [Story] = [], sightWords: [Language: [SightWord]] = [:], instructions: CourseInstructions = .init()
    ) {
        self.wordLists = wordLists
        self.phrases = phrases
        self.grammarNotes = grammarNotes
        self.placementQuestions = placementQuestions
        self.homophones = homophones
        (self.packs, self.stories, self.sightWords, self.instructions) = (packs, stories, sightWords, instructions)
    }

    /// The alphabet of a language variant (`en-GB-phonics`), if there is one.
    public func alphabet(_ variant: String) -> Alphabet? { alphabets.first { $0.variant == variant } }

    /// The variants a course in `language` may be in, in the corpus's order.
    public func variants(of language: Language) -> [Alphabet] { alphabets.filter { $0.language == language } }

    /// The variant of a course that names none: the one marked default, or
    /// the one named as the language is.
    public func defaultVariant(of language: Language) -> Alphabet? {
        variants(of: language).first { $0.isDefault == true } ?? alphabet(language.code)
    }

    /// A course's variant (nil: its language's default).
    public func variant(_ name: String?, of language: Language) -> Alphabet? {
        name.flatMap { alphabet($0) }.flatMap { $0.language == language ? $0 : nil } ?? defaultVariant(of: language)
    }

    /// The course's lessons, in every pack of every language.
    public var lessonCount: Int { packs.reduce(0) { $0 + $1.lessons.count } }

    /// Every concept once, in list order.
    public var concepts: [Concept] {
        var seen = Set<String>()
        return wordLists.flatMap(\.words).filter { seen.insert($0.key).inserted }
    }
}

/// A picture, sound or background that does not depend on the language.
/// Coded as it is written in Corpora: `emoji:1f43e`.
public enum AssetReference: Sendable, Hashable, TextCoded {
    /// An emoji drawing, by its code points (`1f468-200d-1f373`).
    case emoji(String)
    /// One of our own drawings, `Corpora/pictures/<name>.svg`.
    case svg(String)

    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else { return nil }
        switch parts[0] {
        case "emoji":
            let points = parts[1].split(separator: "-", omittingEmptySubsequences: false)
            guard points.allSatisfy({ (2...6).contains($0.count) && $0.allSatisfy(\.isHexDigit) && $0 == $0.lowercased() }) else {
                return nil
            }
            self = .emoji(parts[1])
        case "svg":
            guard parts[1].allSatisfy({ $0.isLetter && $0.isASCII || $0.isNumber || $0 == "-" }) else { return nil }
            self = .svg(parts[1])
        default:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .emoji(let points): "emoji:\(points)"
        case .svg(let name): "svg:\(name)"
        }
    }
}

public struct WordList: Sendable, Equatable, Identifiable {
    public var id: String
    public var icon: AssetReference
    public var names: [Language: String]
    /// Keys of the words anyone may use without owning the list.
    public var freeKeys: [String]
    public var words: [Concept]

    public static let size = 35

    public init(id: String, icon: AssetReference, names: [Language: String], freeKeys: [String], words: [Concept]) {
        (self.id, self.icon, self.names, self.freeKeys, self.words) = (id, icon, names, freeKeys, words)
    }
}

/// One word's meaning, shared by every language.
public struct Concept: Sendable, Equatable, Identifiable {
    public var key: String
    public var level: CEFRLevel
    public var picture: AssetReference
    public var sound: String?
    public var background: String?
    public var localizations: [String: Localization]

    public var id: String { key }

    public init(
        key: String, level: CEFRLevel, picture: AssetReference, sound: String? = nil, background: String? = nil,
        localizations: [String: Localization]
    ) {
        (self.key, self.level, self.picture, self.sound, self.background) = (key, level, picture, sound, background)
        self.localizations = localizations
    }

    /// The word in a language tag, a variant (`en-GB`) filling what it
    /// leaves out from its base language.
    public func localization(_ tag: String) -> Localization? {
        let base = String(tag.split(separator: "-").first ?? "")
        guard let variant = localizations[tag] else { return localizations[base] }
        guard tag != base, let fallback = localizations[base] else { return variant }
        return variant.filled(from: fallback)
    }

    public func localization(_ language: Language) -> Localization? { localizations[language.code] }
}

public enum Gender: String, Sendable, Codable { case masculine = "m", feminine = "f", neuter = "n" }

public enum CaseOverride: String, Sendable, Codable { case upper, lower, capitalized }

/// What a concept is called, and how, in one language (the fields of the
/// FirstWords `words.plist`).
public struct Localization: Sendable, Equatable {
    public var word: String?
    public var article: String?
    public var gender: Gender?
    public var plural: String?
    public var frequency: Int?
    public var definition: String?
    public var sortKey: String?
    public var caseOverride: CaseOverride?
    public var disabled: Bool?
    public var speech: String?

    public init(
        word: String? = nil, article: String? = nil, gender: Gender? = nil, plural: String? = nil, frequency: Int? = nil,
        definition: String? = nil, sortKey: String? = nil, caseOverride: CaseOverride? = nil, disabled: Bool? = nil,
        speech: String? = nil
    ) {
        (self.word, self.article, self.gender, self.plural, self.frequency) = (word, article, gender, plural, frequency)
        (self.definition, self.sortKey, self.caseOverride, self.disabled, self.speech) = (
            definition, sortKey, caseOverride, disabled, speech
        )
    }

    func filled(from base: Localization) -> Localization {
        Localization(
            word: word ?? base.word, article: article ?? base.article, gender: gender ?? base.gender,
            plural: plural ?? base.plural, frequency: frequency ?? base.frequency,
            // A sort key belongs to its word: a variant spelling its own sorts as it is spelled.
            definition: definition ?? base.definition, sortKey: sortKey ?? (word == nil ? base.sortKey : nil),
            caseOverride: caseOverride ?? base.caseOverride, disabled: disabled ?? base.disabled,
            speech: speech ?? base.speech)
    }

    public var isDisabled: Bool { disabled == true }
}

public struct Phrase: Sendable, Equatable, Identifiable {
    public var id: String
    public var topic: String
    public var level: CEFRLevel
    public var skill: Skill
    public var texts: [Language: String]

    public init(id: String, topic: String, level: CEFRLevel, skill: Skill, texts: [Language: String]) {
        (self.id, self.topic, self.level, self.skill, self.texts) = (id, topic, level, skill, texts)
    }
}

public struct GrammarNote: Sendable, Equatable, Identifiable {
    public var id: String
    public var language: Language
    public var level: CEFRLevel
    /// The explanation in English.
    public var title: String
    public var summary: String
    public var body: String
    public var examples: [String]
    /// Gap-fill sentences that practise the note, for lessons.
    public var exercises: [GrammarExercise]
    /// The explanation in the other UI languages (DF5: every explanatory
    /// text in each UI language), from `grammar/<lang>.<ui>.yaml`.
    public var explanations: [Language: Explanation]

    /// A note's title, summary and body in one UI language.
    public struct Explanation: Sendable, Equatable {
        public var title: String
        public var summary: String
        public var body: String
        public init(title: String, summary: String, body: String) { (self.title, self.summary, self.body) = (title, summary, body) }
    }

    public init(
        id: String, language: Language, level: CEFRLevel, title: String, summary: String, body: String, examples: [String],
        exercises: [GrammarExercise] = [], explanations: [Language: Explanation] = [:]
    ) {
        (self.id, self.language, self.level, self.title, self.summary, self.body, self.examples) =
            (id, language, level, title, summary, body, examples)
        self.exercises = exercises
        self.explanations = explanations
    }

    /// The explanation for a reader of `ui`; English when it has none.
    public func explanation(in ui: Language) -> Explanation {
        if ui != .english, let explanation = explanations[ui] { return explanation }
        return Explanation(title: title, summary: summary, body: body)
    }
}

/// A sentence with one gap (`___`) that practises a grammar note: one
/// filler is right, three are forms a learner would confuse with it.
public struct GrammarExercise: Sendable, Equatable, Identifiable {
    public var id: String
    public var stem: String
    public var correct: String
    public var distractors: [String]
    /// The completed sentence in English, shown once answered.
    public var translation: String?
    /// The completed sentence in the other UI languages but the note's own.
    public var translations: [Language: String]

    public init(
        id: String, stem: String, correct: String, distractors: [String], translation: String? = nil,
        translations: [Language: String] = [:]
    ) {
        (self.id, self.stem, self.correct, self.distractors, self.translation) = (id, stem, correct, distractors, translation)
        self.translations = translations
    }

    /// The completed sentence for a reader of `ui`: English's when there
    /// is none in `ui`.
    public func translation(in ui: Language) -> String? {
        ui == .english ? translation : translations[ui] ?? translation
    }
}

/// A multiple-choice question of a language's placement test
/// (`Corpora/placement/<lang>/<skill>.yaml`): one correct option and three
/// distractors, shuffled when served.
public struct PlacementQuestion: Sendable, Equatable, Codable {
    /// The skills a placement item can test; speaking is scored apart.
    public static let skills: [Skill] = [.vocabulary, .grammar, .reading, .listening]

    public var id: String
    public var language: Language
    public var skill: Skill
    public var level: CEFRLevel
    /// What the item tests (a grammar point, a theme), for naming gaps.
    public var topic: String
    /// The question; `___` marks a gap.
    public var stem: String
    /// The text a reading item asks about.
    public var passage: String?
    /// What a listening item speaks (the learner hears it, never reads it).
    public var audio: String?
    public var correct: String
    public var distractors: [String]

    public init(
        id: String, language: Language, skill: Skill, level: CEFRLevel, topic: String, stem: String,
        passage: String? = nil, audio: String? = nil, correct: String, distractors: [String]
    ) {
        (self.id, self.language, self.skill, self.level, self.topic, self.stem) = (id, language, skill, level, topic, stem)
        (self.passage, self.audio, self.correct, self.distractors) = (passage, audio, correct, distractors)
    }

    /// Options compare without case, accents or surrounding spaces: two
    /// options equal that way would be two right answers.
    public static func folded(_ option: String) -> String {
        option.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The concepts each word names, per language, words compared as options
/// are (`PlacementQuestion.folded`). One word can name several ("neuf" is
/// nine and new): a question that pairs a word with a meaning must allow
/// for every one of them.
public struct WordSenses: Sendable {
    private let byLanguage: [Language: [String: [String]]]

    /// Only words a learner sees count: a disabled localization names nothing.
    public init(_ concepts: some Sequence<Concept>) {
        var senses: [Language: [String: [String]]] = [:]
        for concept in concepts.sorted(by: { $0.key < $1.key }) {
            for language in Language.allCases {
                guard let localization = concept.localization(language), !localization.isDisabled, let word = localization.word else {
                    continue
                }
                senses[language, default: [:]][PlacementQuestion.folded(word), default: []].append(concept.key)
            }
        }
        byLanguage = senses
    }

    /// The keys of the concepts `word` names in `language`, in key order.
    public func concepts(named word: String, in language: Language) -> [String] {
        byLanguage[language]?[PlacementQuestion.folded(word)] ?? []
    }
}

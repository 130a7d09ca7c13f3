import ParlaContent
import ParlaCore
import ParlaLearning

/// The kinds of question a lesson asks.
public enum QuestionType: String, Codable, Sendable, CaseIterable {
    /// A word in the learner's language; choose it in the language learnt.
    case translationToTarget
    /// A word in the language learnt; choose its meaning.
    case translationFromTarget
    /// The word spoken; choose how it is written.
    case listening
    /// A word; choose its picture.
    case picture
    /// A word in the learner's language; type it in the language learnt.
    case typedTranslation
    /// A sentence with a gap; choose what fills it.
    case gapFill
    /// A phrase heard and read; say it.
    case repetition
    /// Four words of a list with one order (numbers by value), shown out of
    /// order; drop each into the next box (seed 001, "Discover Sequencing").
    case sequencing
    /// Four words and their translations; drop each word on its own
    /// (seed 001, "Discover Matching").
    case dragMatching
    /// A sentence read aloud: tap each sight word's tile as it is said, in
    /// the sentence's order (seed 001, a course's sight-words screens).
    case sightWords
    /// A question about a story read and heard: choose its answer (a
    /// course's story screens ask each of the story's questions).
    case reading
    /// A letter heard (its name, or in a phonics variant its sound): tap
    /// its tile among four (seed 003, a course's letters screens).
    case letters
    /// A word heard and pictured: drop each letter tile on its place in the
    /// word (seed 003, a course's spelling screens).
    case spelling

    /// The types teacher mode chooses from: the course's own (sight words,
    /// stories, letters, spelling) are asked only by its lessons.
    public static let practice = allCases.filter { ![.sightWords, .reading, .letters, .spelling].contains($0) }

    /// The skill whose ability the answer moves.
    public var skill: Skill {
        switch self {
        case .listening: .listening
        case .gapFill: .grammar
        case .repetition: .speaking
        case .sightWords, .reading, .letters, .spelling: .reading
        case .translationToTarget, .translationFromTarget, .picture, .typedTranslation, .sequencing, .dragMatching: .vocabulary
        }
    }

    /// Whether the learner picks one of the options.
    public var isChoice: Bool { !isTemplate && self != .typedTranslation && self != .repetition }

    /// Whether the learner drops items one at a time, each drop a try.
    public var isTemplate: Bool { [.sequencing, .dragMatching, .sightWords, .spelling].contains(self) }

    /// The choice-question kind that builds it, for the four word choices.
    var choiceKind: ChoiceQuestion.Kind? {
        switch self {
        case .translationToTarget: .translationToTarget
        case .translationFromTarget: .translationFromTarget
        case .listening: .listening
        case .picture: .picture
        default: nil
        }
    }

    /// Seconds within which an answer counts as quick evidence (the speed
    /// factor's limit); a third of it is the expected time for memory grades.
    public var timeLimitSeconds: Double {
        switch self {
        case .translationToTarget, .translationFromTarget, .picture: 20
        case .listening: 25
        case .gapFill: 30
        case .typedTranslation: 40
        case .repetition: 60
        // Per drop: each placement is timed from the one before.
        case .sequencing, .dragMatching: 20
        // Per tap, as the sentence is read.
        case .sightWords: 10
        case .letters: 15
        // Per letter placed.
        case .spelling: 10
        case .reading: 45
        }
    }

    /// Types that need the learner's own language to differ from the one learnt.
    var needsTranslation: Bool {
        self == .translationToTarget || self == .translationFromTarget || self == .typedTranslation || self == .dragMatching
    }
}

/// What a learner learns and is asked about: `word:<concept>`,
/// `phrase:<phrase id>`, `grammar:<exercise id>`, and in the course
/// `sightWord:<word>`, `letter:<small letter>` and `story:<story id>/<question, from 1>`. Memory
/// and difficulty are kept per item, whatever type of question asked it.
public struct LessonItemID: Hashable, TextCoded, Sendable, Comparable {
    /// `course`: a lesson of the course, as an assignment covers it (done once finished).
    public enum Kind: String, Codable, Sendable, CaseIterable { case word, phrase, grammar, sightWord, letter, story, course }

    public var kind: Kind
    public var key: String

    public init(_ kind: Kind, _ key: String) { (self.kind, self.key) = (kind, key) }

    public init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":"), let kind = Kind(rawValue: String(text[..<colon])) else { return nil }
        let key = String(text[text.index(after: colon)...])
        guard !key.isEmpty else { return nil }
        self.init(kind, key)
    }

    public var description: String { "\(kind.rawValue):\(key)" }

    /// The `number`-th question (from 1) of a story: `story:<story id>/<number>`.
    public static func storyQuestion(_ story: String, _ number: Int) -> LessonItemID { LessonItemID(.story, "\(story)/\(number)") }

    /// A story question's story and number (from 1); nil for any other item.
    public var storyQuestion: (story: String, number: Int)? {
        guard kind == .story, let slash = key.lastIndex(of: "/"), let number = Int(key[key.index(after: slash)...]) else { return nil }
        return (String(key[..<slash]), number)
    }

    public static func < (lhs: LessonItemID, rhs: LessonItemID) -> Bool { (lhs.kind.rawValue, lhs.key) < (rhs.kind.rawValue, rhs.key) }
}

/// One item of a language's catalogue, with what the planner weighs.
public struct LessonItem: Sendable, Equatable {
    public var id: LessonItemID
    public var level: CEFRLevel
    /// Where a gap in it shows: a word list or phrase topic, or a grammar note.
    public var area: PracticeAreaKind
    public var areaID: String
    /// The types that can ask it.
    public var types: [QuestionType]
    /// The difficulty before any answer (from level and frequency).
    public var initialDifficulty: Double
}

/// Everything a language's lessons can ask about, built from the corpus:
/// its words, its phrases and its grammar exercises.
public struct LessonCatalog: Sendable {
    public let language: Language
    public let items: [LessonItem]
    let index: [LessonItemID: Int]
    /// The items each type can ask, as indices into `items`.
    let byType: [QuestionType: [Int]]
    let corpus: Corpus
    let concepts: [String: Concept]
    let phrases: [String: Phrase]
    let exercises: [String: (note: GrammarNote, exercise: GrammarExercise)]
    let stories: [String: Story]
    let courseLessons: CourseLessons
    let choices: ChoiceQuestionMaker
    /// The concepts each word names, per language: a typed translation
    /// accepts every word the prompt can mean, and a matching question
    /// never pairs a word with a meaning it also has.
    let senses: WordSenses
    /// The lists whose words have one order, by list id, with their words
    /// in it: what sequencing draws from.
    let ordered: [String: [Concept]]

    /// Lists whose words have exactly one order: numbers, by value.
    public static let orderedLists: Set<String> = ["numbers"]

    /// `isAvailable` says which assets exist: a word is asked by ear only
    /// with its audio, by picture only with its picture (assets are made in
    /// the background after an import).
    public init(corpus: Corpus, language: Language, isAvailable: (AssetSlot) -> Bool = { _ in true }) {
        self.language = language
        self.corpus = corpus
        var items: [LessonItem] = []
        var concepts: [String: Concept] = [:]
        for list in corpus.wordLists {
            for concept in list.words where concepts[concept.key] == nil {
                guard let localization = concept.localization(language), !localization.isDisabled, localization.word != nil else {
                    continue
                }
                concepts[concept.key] = concept
                var types: [QuestionType] = [.translationToTarget, .translationFromTarget, .typedTranslation, .dragMatching]
                if Self.orderedLists.contains(list.id) { types.append(.sequencing) }
                if isAvailable(.word(concept: concept.key, language)) { types.append(.listening) }
                if isAvailable(.picture(concept.picture)) { types.append(.picture) }
                items.append(
                    LessonItem(
                        id: LessonItemID(.word, concept.key), level: concept.level, area: .topic, areaID: list.id, types: types,
                        initialDifficulty: AbilityModel.initialDifficulty(level: concept.level, frequencyRank: localization.frequency)))
            }
        }
        var phrases: [String: Phrase] = [:]
        for phrase in corpus.phrases where phrase.texts[language] != nil {
            phrases[phrase.id] = phrase
            items.append(
                LessonItem(
                    id: LessonItemID(.phrase, phrase.id), level: phrase.level, area: .topic, areaID: phrase.topic,
                    types: [.repetition], initialDifficulty: AbilityModel.initialDifficulty(level: phrase.level)))
        }
        var exercises: [String: (GrammarNote, GrammarExercise)] = [:]
        for note in corpus.grammarNotes where note.language == language {
            for exercise in note.exercises {
                exercises[exercise.id] = (note, exercise)
                items.append(
                    LessonItem(
                        id: LessonItemID(.grammar, exercise.id), level: note.level, area: .grammarNote, areaID: note.id,
                        types: [.gapFill], initialDifficulty: AbilityModel.initialDifficulty(level: note.level)))
            }
        }
        // The course's own: asked only by its screens (no type of teacher
        // mode asks them), remembered and weighed as any item.
        for (rank, sight) in (corpus.sightWords[language] ?? []).enumerated() {
            items.append(
                LessonItem(
                    id: LessonItemID(.sightWord, sight.word), level: .a1, area: .topic, areaID: "sight-words", types: [],
                    initialDifficulty: AbilityModel.initialDifficulty(level: .a1, frequencyRank: rank + 1)))
        }
        // Its letters, in every variant's alphabet (English's share theirs).
        var letters: Set<String> = []
        for alphabet in corpus.variants(of: language) {
            for letter in alphabet.letters.map(\.letter) where letters.insert(letter).inserted {
                items.append(
                    LessonItem(
                        id: LessonItemID(.letter, letter), level: .a1, area: .topic, areaID: "letters", types: [],
                        initialDifficulty: AbilityModel.initialDifficulty(level: .a1)))
            }
        }
        var stories: [String: Story] = [:]
        for story in corpus.stories where story.language == language {
            stories[story.id] = story
            for number in story.questions.indices {
                items.append(
                    LessonItem(
                        id: .storyQuestion(story.id, number + 1), level: story.level, area: .topic, areaID: story.pack,
                        types: [], initialDifficulty: AbilityModel.initialDifficulty(level: story.level)))
            }
        }
        self.stories = stories
        self.courseLessons = CourseLessons(corpus, language: language)
        self.senses = WordSenses(concepts.values)
        self.ordered = Dictionary(
            corpus.wordLists.filter { Self.orderedLists.contains($0.id) }.map { list in
                (list.id, list.words.filter { $0.localization(language).map { !$0.isDisabled && $0.word != nil } ?? false })
            }, uniquingKeysWith: { first, _ in first })
        var byType: [QuestionType: [Int]] = [:]
        for (position, item) in items.enumerated() { for type in item.types { byType[type, default: []].append(position) } }
        self.byType = byType
        self.items = items
        self.index = Dictionary(items.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.concepts = concepts
        self.phrases = phrases
        self.exercises = exercises
        self.choices = ChoiceQuestionMaker(corpus: corpus)
    }

    /// Each concept's words that sound alike in `language`.
    public static func soundsAlike(_ corpus: Corpus, _ language: Language) -> [String: Set<String>] {
        var alike: [String: Set<String>] = [:]
        for group in corpus.homophones[language] ?? [] {
            for key in group { alike[key, default: []].formUnion(group.filter { $0 != key }) }
        }
        return alike
    }

    public func item(_ id: LessonItemID) -> LessonItem? { index[id].map { items[$0] } }
    func indices(of type: QuestionType) -> [Int] { byType[type] ?? [] }

    public func concept(_ key: String) -> Concept? { concepts[key] }
    /// A story of the language's course, by id.
    public func story(_ id: String) -> Story? { stories[id] }

    /// How many questions a course lesson asks: one a screen, and a story
    /// screen one for each of its story's questions.
    public func questionCount(of lesson: CourseLesson) -> Int { corpus.questionCount(of: lesson) }

    /// A lesson of the language's course, by id (`<pack>-NN`).
    public func courseLesson(_ id: String) -> CourseLesson? { courseLessons[id]?.lesson }
    /// The concepts whose word in `language` reads as `word`.
    public func concepts(named word: String, in language: Language) -> [Concept] {
        senses.concepts(named: word, in: language).compactMap { concepts[$0] }
    }
    public func phrase(_ id: String) -> Phrase? { phrases[id] }
    public func exercise(_ id: String) -> (note: GrammarNote, exercise: GrammarExercise)? { exercises[id] }

    /// The types the item can be asked with for a learner whose own
    /// language is `native`, among those `allowed`.
    public func types(of item: LessonItem, native: Language, allowed: Set<QuestionType>) -> [QuestionType] {
        item.types.filter { type in
            guard allowed.contains(type) else { return false }
            if type.needsTranslation, native == language { return false }
            if type.needsTranslation, let concept = concepts[item.id.key],
                concept.localization(native)?.word == nil || concept.localization(native)?.isDisabled == true
            {
                return false
            }
            return true
        }
    }
}

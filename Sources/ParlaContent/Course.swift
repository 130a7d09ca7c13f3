import Foundation
import ParlaCore

/// The parts of seed 001's main menu a pack belongs to.
public enum CourseSection: String, Sendable, CaseIterable, Codable {
    case learnToRead, readAStory, discover, artSpace
}

/// How a screen asks (seed 001's templates, and the question types
/// lessons already had).
public enum ScreenTemplate: String, Sendable, CaseIterable, Codable, CodingKeyRepresentable {
    case wordPicture, choice, listen, gapFill, repeatPhrase = "repeat", sequencing, matching, sightWords, story
    /// Seed 003: a letter heard, its tile tapped among others; a word
    /// spelled with letter tiles.
    case letters, spelling
}

/// A pack of authored lessons in one language (`course/<lang>/packs.yaml`).
public struct CoursePack: Sendable, Equatable, Codable, Identifiable {
    public var id: String
    public var language: Language
    public var section: CourseSection
    public var level: CEFRLevel
    /// Its place in its section, from 1.
    public var order: Int
    public var icon: AssetReference
    /// A Discover pack's word list: what it teaches, and what opens it.
    public var wordList: String?
    public var titles: [Language: String]
    public var summaries: [Language: String]
    public var lessons: [CourseLesson]

    /// The id the same pack has in every language (en-stories-a2 →
    /// stories-a2): what products and entitlements name.
    public var sharedID: String { String(id.dropFirst(language.code.count + 1)) }

    /// The shared id of the pack a lesson (`<lang>-<pack>-NN`) belongs to.
    public static func sharedID(ofLesson lesson: String) -> String {
        let pack = lesson.lastIndex(of: "-").map { lesson[..<$0] } ?? lesson[...]
        return String(pack.drop { $0 != "-" }.dropFirst())
    }

    public init(
        id: String, language: Language, section: CourseSection, level: CEFRLevel, order: Int, icon: AssetReference, wordList: String?,
        titles: [Language: String], summaries: [Language: String], lessons: [CourseLesson] = []
    ) {
        (self.id, self.language, self.section, self.level, self.order, self.icon) = (id, language, section, level, order, icon)
        (self.wordList, self.titles, self.summaries, self.lessons) = (wordList, titles, summaries, lessons)
    }
}

/// A lesson of a pack (`course/<lang>/lessons/<pack>/NN.yaml`): screens in order.
public struct CourseLesson: Sendable, Equatable, Codable, Identifiable {
    /// `<pack>-NN`.
    public var id: String
    /// Its place in the pack, from 1.
    public var number: Int
    public var titles: [Language: String]
    public var screens: [CourseScreen]

    public init(id: String, number: Int, titles: [Language: String], screens: [CourseScreen]) {
        (self.id, self.number, self.titles, self.screens) = (id, number, titles, screens)
    }
}

/// One screen of a lesson: a template and its parts. Concepts are word
/// lists' keys; the instruction said aloud is the template's
/// (`course/instructions.yaml`) unless the screen has its own.
public struct CourseScreen: Sendable, Equatable, Codable {
    /// The most letters a spelling screen's word may have.
    public static let longestSpelledWord = 10

    public enum Direction: String, Sendable, Codable {
        /// A word of the language learnt; choose its meaning.
        case fromTarget
        /// A word in the learner's language; choose it in the language learnt.
        case toTarget
    }

    public enum Task: Sendable, Equatable, Codable {
        /// The word said and shown; choose its picture among the others'.
        case wordPicture(word: String, others: [String])
        case choice(word: String, others: [String], direction: Direction)
        /// The word heard only; choose how it is written.
        case listen(word: String, others: [String])
        /// A sentence with one gap (`___`), its filler and three wrong ones.
        case gapFill(sentence: String, answer: String, others: [String], hint: [Language: String])
        /// A phrase to say, scored by the speech scorer.
        case repeatPhrase(phrase: String)
        /// Concepts in their one right order.
        case sequencing(items: [String])
        /// Concepts whose words go onto their pictures.
        case matching(words: [String])
        /// A sentence read aloud; each sight word's tile tapped as it is said.
        case sightWords(sentence: String, words: [String])
        /// A story read along, then its questions.
        case story(id: String)
        /// A letter of the alphabet said (as the learner's variant says it);
        /// its tile tapped among three others.
        case letters(letter: String, others: [String])
        /// A concept's word heard and pictured, spelled with letter tiles.
        case spelling(word: String)
    }

    public var task: Task
    /// "I'll do the first one for you": the first item is placed for the learner.
    public var workedExample: Bool
    public var instruction: [Language: String]?

    public init(task: Task, workedExample: Bool = false, instruction: [Language: String]? = nil) {
        (self.task, self.workedExample, self.instruction) = (task, workedExample, instruction)
    }

    public var template: ScreenTemplate {
        switch task {
        case .wordPicture: .wordPicture
        case .choice: .choice
        case .listen: .listen
        case .gapFill: .gapFill
        case .repeatPhrase: .repeatPhrase
        case .sequencing: .sequencing
        case .matching: .matching
        case .sightWords: .sightWords
        case .story: .story
        case .letters: .letters
        case .spelling: .spelling
        }
    }

    /// Every concept the screen shows.
    public var concepts: [String] {
        switch task {
        case .wordPicture(let word, let others), .choice(let word, let others, _), .listen(let word, let others): [word] + others
        case .sequencing(let items): items
        case .matching(let words): words
        case .spelling(let word): [word]
        case .gapFill, .repeatPhrase, .sightWords, .story, .letters: []
        }
    }
}

/// A graded story (`course/<lang>/stories/NN-slug.yaml`), narrated with
/// read-along word timings, and its comprehension questions.
public struct Story: Sendable, Equatable, Codable, Identifiable {
    public struct Question: Sendable, Equatable, Codable {
        public var prompt: String
        public var options: [String]
        public var answer: Int
        public init(prompt: String, options: [String], answer: Int) { (self.prompt, self.options, self.answer) = (prompt, options, answer) }
    }

    public static let wordCount = 80...250

    public var id: String
    public var language: Language
    public var level: CEFRLevel
    public var pack: String
    public var titles: [Language: String]
    public var summaries: [Language: String]
    /// The concepts it uses.
    public var words: [String]
    public var paragraphs: [String]
    public var questions: [Question]

    public init(
        id: String, language: Language, level: CEFRLevel, pack: String, titles: [Language: String], summaries: [Language: String],
        words: [String], paragraphs: [String], questions: [Question]
    ) {
        (self.id, self.language, self.level, self.pack, self.titles, self.summaries) = (id, language, level, pack, titles, summaries)
        (self.words, self.paragraphs, self.questions) = (words, paragraphs, questions)
    }

    /// Its words as a reader counts them: runs of letters or digits.
    public var wordCount: Int { paragraphs.reduce(0) { $0 + Self.words(in: $1).count } }

    static func words(in text: String) -> [Substring] {
        text.split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "’" || $0 == "-") }.filter { $0.contains(where: \.isLetter) }
    }
}

/// A language's sight words (`course/<lang>/sightwords.yaml`): the most
/// frequent words a beginner learns to read at a glance, in sets.
public struct SightWord: Sendable, Equatable, Codable {
    public var word: String
    public var set: Int
    public init(word: String, set: Int) { (self.word, self.set) = (word, set) }
}

/// What the narrator says on a screen (`course/instructions.yaml`), in
/// every UI language.
public struct CourseInstructions: Sendable, Equatable, Codable {
    public struct Lines: Sendable, Equatable, Codable {
        /// Said first.
        public var instruction: [Language: String]
        /// Said before a worked example.
        public var example: [Language: String]?
        /// Said after a wrong try.
        public var retry: [Language: String]?
        public init(instruction: [Language: String], example: [Language: String]? = nil, retry: [Language: String]? = nil) {
            (self.instruction, self.example, self.retry) = (instruction, example, retry)
        }
    }

    public var templates: [ScreenTemplate: Lines]
    /// Said at a lesson's end, in turn.
    public var closing: [[Language: String]]
    /// Said after a right answer, in turn.
    public var praise: [[Language: String]]
    /// The main menu's lines (seed 001, 4.a), by `MenuLine`; a suggestion's
    /// holds `{title}` once, where the suggested lesson's title is said.
    public var menu: [MenuLine: [Language: String]]

    public init(
        templates: [ScreenTemplate: Lines] = [:], closing: [[Language: String]] = [], praise: [[Language: String]] = [],
        menu: [MenuLine: [Language: String]] = [:]
    ) {
        (self.templates, self.closing, self.praise, self.menu) = (templates, closing, praise, menu)
    }

    /// What the main menu says.
    public enum MenuLine: String, Sendable, CaseIterable, Codable, CodingKeyRepresentable {
        /// Before the suggestions; `welcome` when there are none.
        case intro, welcome
        case learnToRead, discover, story
        /// The lesson in progress.
        case `continue`

        /// Whether the line names a lesson's title.
        public var namesTitle: Bool { ![.intro, .welcome].contains(self) }
    }

    /// The placeholder a menu line says a title at.
    public static let titlePlaceholder = "{title}"

    private enum CodingKeys: String, CodingKey { case templates, closing, praise, menu }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        templates = try container.decode([ScreenTemplate: Lines].self, forKey: .templates)
        closing = try container.decode([[Language: String]].self, forKey: .closing)
        praise = try container.decode([[Language: String]].self, forKey: .praise)
        // Imported before the menu had lines: none.
        menu = try container.decodeIfPresent([MenuLine: [Language: String]].self, forKey: .menu) ?? [:]
    }
}

/// A line the course's narrator says: a template's instruction, its worked
/// example's or its retry's, a screen's own instruction, a closing line or
/// a praise. Its description names its audio's slot.
public enum CourseLine: Sendable, Hashable, CustomStringConvertible {
    public enum Moment: String, Sendable, CaseIterable { case instruction, example, retry }

    case template(ScreenTemplate, Moment)
    /// A screen's own instruction: its lesson, and its number from 1.
    case screen(lesson: String, number: Int)
    /// The n-th closing line or praise, from 1.
    case closing(Int)
    case praise(Int)
    /// A main-menu line, or the part of it before or after its title.
    case menu(CourseInstructions.MenuLine, MenuPart)

    public enum MenuPart: String, Sendable, CaseIterable { case whole, beforeTitle, afterTitle }

    public var description: String {
        switch self {
        case .template(let template, let moment): "\(template.rawValue).\(moment.rawValue)"
        case .screen(let lesson, let number): "screen.\(Self.screenKey(lesson: lesson, screen: number))"
        case .closing(let n): "closing.\(n)"
        case .praise(let n): "praise.\(n)"
        case .menu(let line, let part): "menu.\(line.rawValue).\(part.rawValue)"
        }
    }

    /// A screen's key: its lesson and its number, from 1 (`fr-read-sightwords-01.3`).
    public static func screenKey(lesson: String, screen: Int) -> String { "\(lesson).\(screen)" }
}

extension CourseInstructions {
    /// A menu line's part, trimmed; nil when it says nothing.
    public static func part(_ part: CourseLine.MenuPart, of text: String) -> String? {
        let said: Substring
        switch part {
        case .whole: said = Substring(text)
        case .beforeTitle: said = text.range(of: titlePlaceholder).map { text[..<$0.lowerBound] } ?? Substring(text)
        case .afterTitle: said = text.range(of: titlePlaceholder).map { text[$0.upperBound...] } ?? ""
        }
        let trimmed = said.trimmingCharacters(in: .whitespaces)
        // A part that is only punctuation ("?", " ?") is not said on its own.
        return trimmed.contains(where: \.isLetter) ? trimmed : nil
    }

    /// Every line, in every UI language it is written in.
    public var lines: [CourseLine: [Language: String]] {
        var lines: [CourseLine: [Language: String]] = [:]
        for (template, said) in templates {
            lines[.template(template, .instruction)] = said.instruction
            lines[.template(template, .example)] = said.example
            lines[.template(template, .retry)] = said.retry
        }
        for (index, texts) in closing.enumerated() { lines[.closing(index + 1)] = texts }
        for (index, texts) in praise.enumerated() { lines[.praise(index + 1)] = texts }
        for (line, texts) in menu {
            for part in line.namesTitle ? [CourseLine.MenuPart.beforeTitle, .afterTitle] : [.whole] {
                let said = texts.compactMapValues { Self.part(part, of: $0) }
                if !said.isEmpty { lines[.menu(line, part)] = said }
            }
        }
        return lines
    }
}

/// What the narrator says on one screen of a lesson, or at its end: which
/// lines, each found in the content by `Corpus.texts(of:)`.
public struct CourseNarration: Sendable, Equatable {
    /// Said first: the screen's own instruction, else its template's.
    public var instruction: CourseLine?
    /// Said before the worked example, on a screen that has one.
    public var example: CourseLine?
    /// Said after a wrong try.
    public var retry: CourseLine?
    /// Said once the lesson is finished: the closing lines in turn, by lesson number.
    public var closing: CourseLine?
    /// Said after a right answer: the praises in turn.
    public var praise: CourseLine?

    public init(
        instruction: CourseLine? = nil, example: CourseLine? = nil, retry: CourseLine? = nil, closing: CourseLine? = nil,
        praise: CourseLine? = nil
    ) {
        (self.instruction, self.example, self.retry, self.closing, self.praise) = (instruction, example, retry, closing, praise)
    }
}

extension Corpus {
    /// The narrator's lines on screen `index` (from 0) of `lesson`, or, once
    /// `finished`, at its end; `rightAnswer`: the how-manieth right try of
    /// the lesson its last try was, if it was right (then it is praised).
    public func narration(of lesson: CourseLesson, screen index: Int, finished: Bool, rightAnswer: Int? = nil) -> CourseNarration {
        let praise = rightAnswer.flatMap { n in
            instructions.praise.isEmpty ? nil : CourseLine.praise((n - 1) % instructions.praise.count + 1)
        }
        if finished {
            let count = instructions.closing.count
            return CourseNarration(closing: count == 0 ? nil : .closing((lesson.number - 1) % count + 1), praise: praise)
        }
        guard lesson.screens.indices.contains(index) else { return CourseNarration(praise: praise) }
        let screen = lesson.screens[index]
        let lines = instructions.templates[screen.template]
        return CourseNarration(
            instruction: screen.instruction != nil
                ? .screen(lesson: lesson.id, number: index + 1)
                : lines.map { _ in .template(screen.template, .instruction) },
            example: screen.workedExample && lines?.example != nil ? .template(screen.template, .example) : nil,
            retry: lines?.retry != nil ? .template(screen.template, .retry) : nil, praise: praise)
    }

    /// A line's text in every UI language it is written in.
    public func texts(of line: CourseLine) -> [Language: String]? {
        switch line {
        case .template(let template, let moment):
            let lines = instructions.templates[template]
            switch moment {
            case .instruction: return lines?.instruction
            case .example: return lines?.example
            case .retry: return lines?.retry
            }
        case .screen(let id, let number):
            let lesson = packs.lazy.filter { id.hasPrefix($0.id + "-") }.compactMap { $0.lessons.first { $0.id == id } }.first
            guard let lesson, lesson.screens.indices.contains(number - 1) else { return nil }
            return lesson.screens[number - 1].instruction
        case .closing(let n): return instructions.closing.indices.contains(n - 1) ? instructions.closing[n - 1] : nil
        case .praise(let n): return instructions.praise.indices.contains(n - 1) ? instructions.praise[n - 1] : nil
        case .menu(let line, let part):
            return instructions.menu[line].map { $0.compactMapValues { CourseInstructions.part(part, of: $0) } }
        }
    }

    /// The screens' own instructions, by screen.
    public var screenInstructions: [CourseLine: [Language: String]] {
        var lines: [CourseLine: [Language: String]] = [:]
        for lesson in packs.flatMap(\.lessons) {
            for (index, screen) in lesson.screens.enumerated() {
                if let own = screen.instruction { lines[.screen(lesson: lesson.id, number: index + 1)] = own }
            }
        }
        return lines
    }
}

extension Corpus {
    /// Everything a pack shows and says, for a learner whose own language is
    /// `native` (the narrator speaks it): the pack's icon; per screen its
    /// words' pictures and voices, its phrase, its sentence or story read
    /// aloud with their timings, and the narrator's lines; the closing lines.
    /// What an app downloads to take the pack offline (`concepts` looks a
    /// concept up by key), in a stable order, each slot once.
    public func assetSlots(of pack: CoursePack, native: Language, concepts: (String) -> Concept?) -> [AssetSlot] {
        var slots: [AssetSlot] = [.picture(pack.icon)]
        var seen: Set<AssetSlot> = Set(slots)
        func add(_ slot: AssetSlot) { if seen.insert(slot).inserted { slots.append(slot) } }
        let language = pack.language
        for lesson in pack.lessons {
            for (index, screen) in lesson.screens.enumerated() {
                let narration = narration(of: lesson, screen: index, finished: false)
                for line in [narration.instruction, narration.example, narration.retry].compactMap(\.self) {
                    add(.narratorLine(line, native))
                }
                for key in screen.concepts {
                    guard let concept = concepts(key) else { continue }
                    add(.picture(concept.picture))
                    add(.word(concept: key, language))
                    // As a variant spelling its words its own way says it (en-US).
                    for tag in Set(variants(of: language).map(\.wordsTag)).sorted() where tag != language.code {
                        add(.variantWord(concept: key, tag: tag))
                    }
                }
                switch screen.task {
                case .repeatPhrase(let phrase): add(.phrase(id: phrase, language))
                case .sightWords:
                    let key = CourseLine.screenKey(lesson: lesson.id, screen: index + 1)
                    add(.sentenceAudio(screen: key, language))
                    add(.sentenceTimings(screen: key, language))
                case .story(let id):
                    add(.storyAudio(id: id, language))
                    add(.storyTimings(id: id, language))
                case .letters, .spelling:
                    // Said as the learner's variant says it: every variant's.
                    for variant in variants(of: language) { letterSlots(of: screen.task, variant, concepts: concepts).forEach(add) }
                default: break
                }
            }
            if let closing = narration(of: lesson, screen: 0, finished: true).closing { add(.narratorLine(closing, native)) }
        }
        return slots
    }
}

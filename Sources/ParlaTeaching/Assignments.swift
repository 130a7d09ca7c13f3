import Foundation
import ParlaContent
import ParlaCore

/// What a teacher assigns a class (issue 17): a word list, a set of
/// phrases or a grammar note, due by a date; or from the course (issue 34)
/// a pack, or some of its lessons. An assignment covers items (the list's
/// words, the phrases, the note's exercises, the lessons), fixed when it is
/// made: a lesson can focus on the first three, and a learner's completion
/// is the share of them it has answered right since, a lesson of the course
/// counting once finished.
public enum AssignmentKind: String, Sendable, CaseIterable, Codable {
    case wordList, phrases, grammarNote, coursePack, courseLessons
}

public enum AssignmentRules {
    public static let maximumPhrases = 50
    public static let maximumLessons = 50

    /// What an account may open of what assignments cover: the words lessons
    /// draw from, and the course's packs (by the id they share across languages).
    public struct Open: Sendable, Equatable {
        public var words: Set<String>
        public var packs: Set<String>

        public init(words: Set<String>, packs: Set<String>) { (self.words, self.packs) = (words, packs) }
    }

    /// The items of an assignment a learner cannot open: words and lessons
    /// of the course its account may not open. Phrases and grammar
    /// exercises are never locked.
    public static func lockedItems(_ items: [String], open: Open) -> [String] {
        items.filter { item in
            guard let id = LessonItemID(item) else { return false }
            switch id.kind {
            case .word: return !open.words.contains(id.key)
            case .course: return !open.packs.contains(CoursePack.sharedID(ofLesson: id.key))
            case .phrase, .grammar, .sightWord, .letter, .story: return false
            }
        }
    }

    /// A learner's completion of an assignment (0-1): the share of the
    /// items it may open that it has answered right. Locked items are left
    /// out, so a pupil without the list's purchase can still finish. One
    /// who may open none of them has no completion (nil): it is not done,
    /// nor behind, and class averages leave it out; its teacher sees the
    /// items locked instead.
    public static func completion(rightItems: Set<String>, of items: [String], open: Open) -> Double? {
        let open = Set(items).subtracting(lockedItems(items, open: open))
        return open.isEmpty ? nil : Double(open.intersection(rightItems).count) / Double(open.count)
    }
    /// How far ahead a due date may be.
    public static let longestNotice: TimeInterval = 366 * 86400

    /// The items `targets` of `kind` cover in `language`, or every problem at once.
    public static func items(
        _ kind: String?, targets: [String]?, due: Date?, in language: Language, corpus: Corpus, now: Date
    ) throws(ParlaError) -> (kind: AssignmentKind, items: [LessonItemID]) {
        var errors = FieldErrors()
        let kind = kind.flatMap(AssignmentKind.init(rawValue:))
        if kind == nil { errors.add("kind", .validationFailed) }
        let targets = targets ?? []
        if let due {
            if due <= now || due.timeIntervalSince(now) > longestNotice { errors.add("dueAt", .validationFailed) }
        } else {
            errors.add("dueAt", .required)
        }
        var items: [LessonItemID] = []
        switch kind {
        case .wordList:
            if targets.count == 1, let list = corpus.wordLists.first(where: { $0.id == targets[0] }) {
                items = list.words.filter { !($0.localization(language)?.isDisabled ?? true) }.map { LessonItemID(.word, $0.key) }
            } else {
                errors.add("targets", .wordListNotFound)
            }
        case .phrases:
            let phrases = Dictionary(corpus.phrases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var seen = Set<String>()
            let unique = targets.filter { seen.insert($0).inserted }
            if (1...maximumPhrases).contains(unique.count), unique.allSatisfy({ phrases[$0]?.texts[language] != nil }) {
                items = unique.map { LessonItemID(.phrase, $0) }
            } else {
                errors.add("targets", .phraseNotFound)
            }
        case .grammarNote:
            if targets.count == 1, let note = corpus.grammarNotes.first(where: { $0.id == targets[0] && $0.language == language }),
                !note.exercises.isEmpty
            {
                items = note.exercises.map { LessonItemID(.grammar, $0.id) }
            } else {
                errors.add("targets", .grammarNoteNotFound)
            }
        case .coursePack:
            if targets.count == 1, let pack = corpus.packs.first(where: { $0.id == targets[0] && $0.language == language }) {
                items = pack.lessons.map { LessonItemID(.course, $0.id) }
            } else {
                errors.add("targets", .packNotFound)
            }
        case .courseLessons:
            var seen = Set<String>()
            let unique = targets.filter { seen.insert($0).inserted }
            let lessons = Set(corpus.packs.filter { $0.language == language }.flatMap(\.lessons).map(\.id))
            if (1...maximumLessons).contains(unique.count), unique.allSatisfy(lessons.contains) {
                items = unique.map { LessonItemID(.course, $0) }
            } else {
                errors.add("targets", .courseLessonNotFound)
            }
        case nil:
            break
        }
        try errors.throwIfAny()
        return (kind!, items)
    }
}

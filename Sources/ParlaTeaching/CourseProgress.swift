import Foundation
import ParlaContent
import ParlaCore

/// What a learner did of one lesson of the course, over every time it took
/// it: whether it ever finished it, when it last opened it, and whether it
/// is open now (not finished, abandoned or idle past the limit).
public struct CourseLessonRecord: Sendable, Equatable {
    public var finished: Bool
    public var lastOpened: Date
    public var inProgress: Bool

    public init(finished: Bool, lastOpened: Date, inProgress: Bool) {
        (self.finished, self.lastOpened, self.inProgress) = (finished, lastOpened, inProgress)
    }
}

/// Where a learner stands in a language's course (seed 001, content
/// management: "25 of 29 lessons complete, last accessed 05/06/2013"): per
/// pack its lessons finished, when one was last opened and the lesson to
/// take next; and the lesson in progress, to continue.
public struct CourseProgress: Sendable, Equatable {
    public enum LessonStatus: String, Sendable, Equatable {
        /// Never opened.
        case notStarted
        /// Opened, never finished.
        case started
        /// Finished at least once.
        case completed
    }

    public struct Pack: Sendable, Equatable {
        public var pack: CoursePack
        /// Lessons finished at least once.
        public var completed: Int
        public var lastAccessed: Date?
        /// The first lesson not yet finished, in order; nil once all are.
        public var next: CourseLesson?
        public var locked: Bool
    }

    /// Every pack, by section and order.
    public var packs: [Pack]
    /// The lesson open now, to continue (the last opened, should there be two).
    public var inProgress: String?

    /// `packs`, a language's, with the learner's `records`; `isLocked` says
    /// which packs it may not open.
    public init(packs: [CoursePack], records: [String: CourseLessonRecord], isLocked: (CoursePack) -> Bool) {
        let sections = CourseSection.allCases
        func place(_ pack: CoursePack) -> (Int, Int, String) { (sections.firstIndex(of: pack.section) ?? 0, pack.order, pack.id) }
        self.packs = packs.sorted { place($0) < place($1) }.map { pack in
            let taken = pack.lessons.compactMap { records[$0.id] }
            return Pack(
                pack: pack, completed: taken.filter(\.finished).count, lastAccessed: taken.map(\.lastOpened).max(),
                next: pack.lessons.first { records[$0.id]?.finished != true }, locked: isLocked(pack))
        }
        let open = records.filter { $0.value.inProgress }
        inProgress = open.max { ($0.value.lastOpened, $0.key) < ($1.value.lastOpened, $1.key) }?.key
    }

    public static func status(_ record: CourseLessonRecord?) -> LessonStatus {
        guard let record else { return .notStarted }
        return record.finished ? .completed : .started
    }
}

/// What learners made of one lesson of the course: how many started it,
/// finished it, and finished it more than once (taken again by choice).
public struct LessonAppeal: Sendable, Equatable {
    public var started: Int
    public var finished: Int
    public var repeated: Int

    public init(started: Int, finished: Int, repeated: Int) { (self.started, self.finished, self.repeated) = (started, finished, repeated) }

    /// How compelling it is, from 0 to about 2: learners who finished it and
    /// who took it again, per learner who started it, pulled towards an even
    /// 0.5 by five imagined learners so that a few cannot decide it; a
    /// lesson nobody took scores 0.5 and keeps its place in order.
    public var score: Double { (Double(finished + repeated) + 2.5) / (Double(started) + 5) }
}

/// The main menu's suggestions (seed 001, 4.a: "Would you like to learn
/// about the /a/ sound? Lions? or read Homer to the Rescue?"): the next
/// lesson of the Learn to Read progression, the most compelling Discover
/// lesson and the best story among the packs the learner may open, and the
/// lesson in progress.
public struct CourseMenu: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable { case learnToRead, discover, story }

    public struct Suggestion: Sendable, Equatable {
        public var kind: Kind
        public var pack: CoursePack
        public var lesson: CourseLesson
        /// The story a story suggestion reads.
        public var storyID: String?
    }

    public var suggestions: [Suggestion]

    /// `appeal`: by course lesson id, among learners like this one.
    public init(progress: CourseProgress, records: [String: CourseLessonRecord], appeal: [String: LessonAppeal]) {
        let open = progress.packs.filter { !$0.locked }
        func unfinished(_ pack: CourseProgress.Pack) -> [CourseLesson] { pack.pack.lessons.filter { records[$0.id]?.finished != true } }
        /// The best by appeal; ties (and lessons nobody took) in course order.
        func best(_ candidates: [(CoursePack, CourseLesson)]) -> (CoursePack, CourseLesson)? {
            candidates.enumerated().max { a, b in
                let (x, y) = (appeal[a.element.1.id]?.score ?? 0.5, appeal[b.element.1.id]?.score ?? 0.5)
                return x == y ? a.offset > b.offset : x < y
            }?.element
        }
        var suggestions: [Suggestion] = []
        if let pack = open.first(where: { $0.pack.section == .learnToRead && $0.next != nil }), let next = pack.next {
            suggestions.append(Suggestion(kind: .learnToRead, pack: pack.pack, lesson: next))
        }
        // Within a Discover pack, lessons build on each other: each pack offers its next one.
        let discover = open.filter { $0.pack.section == .discover }.compactMap { pack in pack.next.map { (pack.pack, $0) } }
        if let (pack, lesson) = best(discover) { suggestions.append(Suggestion(kind: .discover, pack: pack, lesson: lesson)) }
        // Stories stand alone: any story not read yet.
        let stories = open.filter { $0.pack.section == .readAStory }.flatMap { pack in unfinished(pack).map { (pack.pack, $0) } }
            .filter { $0.1.storyID != nil }
        if let (pack, lesson) = best(stories) {
            suggestions.append(Suggestion(kind: .story, pack: pack, lesson: lesson, storyID: lesson.storyID))
        }
        self.suggestions = suggestions
    }
}

extension CourseLesson {
    /// The story its story screen reads, if it has one.
    public var storyID: String? {
        screens.lazy.compactMap { if case .story(let id) = $0.task { id } else { nil } }.first
    }
}

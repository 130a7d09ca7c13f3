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

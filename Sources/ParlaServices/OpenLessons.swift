import Foundation
import ParlaCore
import ParlaTeaching
import Synchronization

/// Open lessons as this server last wrote them, decoded (`Kept`:
/// OpenLessons), by id with the version they were written at. An answer
/// reads its lesson's version with the learner's model anyway
/// (`LessonStore.update`): at the kept version the state is neither sent
/// by PostgreSQL nor decoded here, else the kept copy is passed over (an
/// answer through another server, a lesson left and resumed) and read as
/// before. Nothing needs to drop it for correctness: the version decides
/// on every use. A finished or left lesson is dropped to free its room;
/// `limit` lessons at most.
package final class OpenLessons: Sendable {
    package struct Kept: Sendable {
        package var version: Int
        package var lesson: Lesson
    }

    private let lessons = Mutex<[LessonID: Kept]>([:])
    /// About the learners answering at once on one server; a lesson takes
    /// a few kilobytes.
    package static let limit = 2_000

    package init() {}

    package func lesson(_ id: LessonID) -> Kept? { lessons.withLock { $0[id] } }

    /// A lesson left: it will not be answered again here.
    package func drop(_ id: LessonID) { _ = lessons.withLock { $0.removeValue(forKey: id) } }

    /// `lesson` as written at `version`.
    package func keep(_ id: LessonID, version: Int, _ lesson: Lesson) {
        lessons.withLock { kept in
            guard !lesson.isFinished else {
                kept[id] = nil
                return
            }
            if kept.count >= Self.limit, kept[id] == nil { kept.removeAll(keepingCapacity: true) }
            kept[id] = Kept(version: version, lesson: lesson)
        }
    }
}

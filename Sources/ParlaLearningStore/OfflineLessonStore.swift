import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import ParlaLearning
import PostgresNIO

/// Offline lessons' logs, written whole (issue 34, `OfflineLessons.swift`).
extension LessonStore {
    /// A replayed lesson to write: its state, when it was started and last
    /// answered, and each resolved question's record with when it was resolved.
    public struct Replayed: Sendable {
        public var change: Change
        public var startedAt: Date
        public var touchedAt: Date
        public var records: [(record: Record, at: Date)]

        public init(change: Change, startedAt: Date, touchedAt: Date, records: [(record: Record, at: Date)]) {
            (self.change, self.startedAt, self.touchedAt, self.records) = (change, startedAt, touchedAt, records)
        }
    }

    /// Writes lesson `id` as `step` replays it from the model read now: the
    /// lesson (finished, or left as an abandoned one is when the log stops
    /// short), its answers' rows at their own times and what they taught,
    /// in one transaction, unless a card it reviews had another review
    /// since the model was read (then it reads again and `step` decides
    /// again). A lesson already under `id` comes back as it is, `step`
    /// never called: the log was sent before. Another learner's id is
    /// `lesson_not_found`. Returns the lesson, the model after it, and
    /// whether this call wrote it.
    public func replay(
        _ id: LessonID, learner: AuthorizedLearner, language: Language, courseLesson: String,
        _ step: @escaping @Sendable (LearnerModel) async throws -> Replayed
    ) async throws -> (Stored, LearnerModel, written: Bool) {
        try await database.withConnection { connection in
            let logger = database.logger
            return try await OptimisticWrite.write(exhausted: ParlaError(.notCurrentQuestion)) { () -> (Stored, LearnerModel, Bool)? in
                // A log sent before (or another learner's id) is told apart before the model is read.
                let existing = try await Self.existing(id, learner: learner, on: connection, logger: logger)
                var read = try await ModelRead.read(learner: learner.id, language: language, on: connection, logger: logger)
                if let existing { return (existing, read.model, false) }
                let replayed = try await step(read.model)
                let learning = replayed.records.map(\.record.learning)
                let written = try await database.transaction(on: connection) { connection -> Stored? in
                    guard
                        try await LearningRows.lockAsRead(
                            learning, read: read, learner: learner.id, language: language, on: connection, logger: logger)
                    else { return nil }
                    // The answers go in only with the lesson: sent twice at once, the other one wrote both.
                    let rows = try await connection.query(
                        Self.lessonAndAnswers(id, learner: learner.id, language: language, courseLesson: courseLesson, replayed).query,
                        logger: logger
                    ).collect()
                    guard let row = rows.first else { return nil }
                    // In resolution order, which `AnswerSums` keeps per item.
                    try await LearningRows.write(
                        learning.enumerated().sorted { ($0.element.itemID, $0.offset) < ($1.element.itemID, $1.offset) }.map(\.element),
                        learner: learner.id, language: language, on: connection, logger: logger)
                    return try Self.stored(row)
                }
                guard let written else { return nil }
                for record in learning { read.apply(record) }
                return (written, read.model, true)
            }
        }
    }

    private static func existing(_ id: LessonID, learner: AuthorizedLearner, on connection: PostgresConnection, logger: Logger)
        async throws -> Stored?
    {
        let rows = try await connection.query(
            "SELECT \(unescaped: columns), learner_id = \(learner.uuid) FROM lessons WHERE id = \(id.uuid)", logger: logger
        ).collect()
        guard let row = rows.first else { return nil }
        // The last column: whether the lesson is the learner's.
        let cells = row.makeRandomAccess()
        guard try cells[cells.count - 1].decode(Bool.self) else {
            throw ParlaError(.lessonNotFound)
        }
        return try stored(row)
    }

    /// The replayed lesson's row, finished or left as an abandoned one is,
    /// and its answers' rows at their own times, unless a lesson has the id.
    private static func lessonAndAnswers(
        _ id: LessonID, learner: LearnerID, language: Language, courseLesson: String, _ replayed: Replayed
    ) throws -> SQL {
        struct Row: Encodable {
            var question: String, item: String, type: String, skill: String, areaKind: String, areaID: String, level: String
            var correct: Bool, tries: Int, responseMs: Int, at: Double
        }
        let answers = replayed.records.map { record, at in
            Row(
                question: record.questionID, item: record.learning.itemID, type: record.questionType,
                skill: record.learning.skill.rawValue, areaKind: record.areaKind, areaID: record.areaID, level: record.level.rawValue,
                correct: record.correct, tries: record.tries, responseMs: record.responseMilliseconds, at: at.timeIntervalSince1970)
        }
        let (finished, touched) = (replayed.change.finished, replayed.touchedAt)
        return """
            WITH lesson AS (
                INSERT INTO lessons (id, learner_id, language, state, course_lesson, started_at, touched_at, finished_at, expired_at)
                VALUES (\(id.uuid), \(learner.uuid), \(language.code), \(String(decoding: replayed.change.state, as: UTF8.self)),
                        \(courseLesson), \(replayed.startedAt), \(touched), CASE WHEN \(finished) THEN \(touched) END,
                        CASE WHEN NOT \(finished) THEN now() END)
                ON CONFLICT (id) DO NOTHING
                RETURNING \(unescaped: columns)
            ), answers AS (
                INSERT INTO lesson_answers (lesson_id, question_id, learner_id, language, item_id, question_type, skill, area_kind,
                                            area_id, level, correct, tries, response_ms, answered_at)
                SELECT lesson.id, r.question, \(learner.uuid), \(language.code), r.item, r.type, r.skill, r.area_kind, r.area_id,
                       r.level, r.correct, r.tries, r.response_ms, to_timestamp(r.at)
                FROM lesson, jsonb_to_recordset(\(try LearningRows.json(answers))::jsonb) AS r (
                    question text, item text, type text, skill text, area_kind text, area_id text, level text, correct boolean,
                    tries integer, response_ms integer, at float8)
            )
            SELECT * FROM lesson
            """
    }
}

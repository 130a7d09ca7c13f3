import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import ParlaLearning
import ParlaTeaching
import PostgresNIO

/// Teacher-mode lessons and what their answers teach the model: memory
/// cards per learner and item, shared item difficulties, abilities. An
/// answer and all its updates are written in one statement.
public struct LessonStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Lessons untouched this long are over.
    public static let idleLimit: TimeInterval = 24 * 3600

    public struct Stored: Sendable {
        public var id: LessonID
        public var language: Language
        public var state: Data
        public var startedAt: Date
        public var touchedAt: Date
        public var finishedAt: Date?
        public var expired: Bool
        /// Bumped by every write: what a kept copy of the state is checked against.
        public var version: Int
    }

    /// A resolved question's record, with what its answer teaches.
    public struct Record: Sendable {
        public var questionID: String
        public var questionType: String
        public var areaKind: String
        public var areaID: String
        public var level: CEFRLevel
        public var correct: Bool
        public var tries: Int
        public var responseMilliseconds: Int
        /// Its review always has a card: a lesson's answer is a real recall.
        public var learning: AnswerLearning

        public init(
            questionID: String, questionType: String, areaKind: String, areaID: String, level: CEFRLevel, correct: Bool,
            tries: Int, responseMilliseconds: Int, learning: AnswerLearning
        ) {
            (self.questionID, self.questionType, self.areaKind, self.areaID, self.level) = (
                questionID, questionType, areaKind, areaID, level
            )
            (self.correct, self.tries, self.responseMilliseconds, self.learning) = (correct, tries, responseMilliseconds, learning)
        }
    }

    public struct Change: Sendable {
        public var state: Data
        public var finished: Bool
        public var record: Record?

        public init(state: Data, finished: Bool, record: Record?) { (self.state, self.finished, self.record) = (state, finished, record) }
    }

    // MARK: Lessons

    /// The learner's open lesson in `language`, if any (one idle too long is
    /// ended first).
    public func open(learner: AuthorizedLearner, language: Language) async throws -> Stored? {
        try await database.withConnection { connection in
            try await Self.expireIdle(learner: learner.id, on: connection, logger: database.logger)
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.columns) FROM lessons
                WHERE learner_id = \(learner.uuid) AND language = \(language.code) AND finished_at IS NULL AND expired_at IS NULL
                """, logger: database.logger
            ).collect()
            return try rows.first.map(Self.stored)
        }
    }

    /// Starts a lesson unless one is open (then that one comes back: two
    /// devices starting at once get the same lesson).
    /// `courseLesson`: the lesson of the course it serves, if any.
    public func create(
        _ id: LessonID, learner: AuthorizedLearner, language: Language, state: Data, courseLesson: String? = nil
    ) async throws -> Stored {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                INSERT INTO lessons (id, learner_id, language, state, course_lesson)
                VALUES (\(id.uuid), \(learner.uuid), \(language.code), \(String(decoding: state, as: UTF8.self)), \(courseLesson))
                ON CONFLICT (learner_id, language) WHERE finished_at IS NULL AND expired_at IS NULL DO NOTHING
                RETURNING \(unescaped: Self.columns)
                """, logger: database.logger
            ).collect()
            if let row = rows.first { return try Self.stored(row) }
            let open = try await connection.query(
                """
                SELECT \(unescaped: Self.columns) FROM lessons
                WHERE learner_id = \(learner.uuid) AND language = \(language.code) AND finished_at IS NULL AND expired_at IS NULL
                """, logger: database.logger
            ).collect()
            guard let row = open.first else { throw ParlaError(.lessonNotFound) }
            return try Self.stored(row)
        }
    }

    /// What the learner did of each course lesson it took in `language`, by its id, in one scan of one index.
    public func courseLessons(learner: AuthorizedLearner, language: Language) async throws -> [String: CourseLessonRecord] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT course_lesson, bool_or(finished_at IS NOT NULL), max(touched_at),
                       bool_or(finished_at IS NULL AND expired_at IS NULL
                               AND touched_at >= now() - make_interval(secs => \(Self.idleLimit)))
                FROM lessons WHERE learner_id = \(learner.uuid) AND language = \(language.code) AND course_lesson IS NOT NULL
                GROUP BY course_lesson
                """, logger: database.logger
            ).collect().reduce(into: [:]) { records, row in
                let (lesson, finished, lastOpened, open) = try row.decode((String, Bool, Date, Bool).self)
                records[lesson] = CourseLessonRecord(finished: finished, lastOpened: lastOpened, inProgress: open)
            }
        }
    }

    /// Leaves the learner's lesson unfinished (a learner is never stuck in
    /// one): it ends as an idle one does, and a new one may start.
    /// `lesson_not_found` when it is not the learner's; nothing changes
    /// for one already over.
    public func abandon(_ id: LessonID, learner: AuthorizedLearner) async throws {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                WITH found AS (SELECT id FROM lessons WHERE id = \(id.uuid) AND learner_id = \(learner.uuid)),
                ended AS (
                    UPDATE lessons SET expired_at = now()
                    WHERE id IN (SELECT id FROM found) AND finished_at IS NULL AND expired_at IS NULL
                )
                SELECT count(*)::int FROM found
                """, logger: database.logger
            ).collect()
            guard try rows.first?.decode(Int.self) == 1 else { throw ParlaError(.lessonNotFound) }
        }
    }

    /// A lesson as it stands: `lesson_expired` once idle too long.
    public func lesson(_ id: LessonID, learner: AuthorizedLearner) async throws -> Stored {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.columns) FROM lessons
                WHERE id = \(id.uuid) AND learner_id = \(learner.uuid)
                """, logger: database.logger
            ).collect()
            guard let row = rows.first else { throw ParlaError(.lessonNotFound) }
            let stored = try Self.stored(row)
            if stored.expired { throw ParlaError(.lessonExpired) }
            return stored
        }
    }

    /// What the model knows of the learner in `language`, read outside any
    /// lesson's lock (to start one).
    public func learning(learner: AuthorizedLearner, language: Language) async throws -> LearnerModel {
        try await database.withConnection { connection in
            try await ModelRead.read(learner: learner.id, language: language, on: connection, logger: database.logger).model
        }
    }

    /// Reads the lesson with what the model knows of the learner, lets
    /// `step` decide (`known`: the version whose state the caller holds;
    /// when the lesson is still at it, its state is not read and `step`
    /// gets it empty), and writes the lesson, the answer's record, the memory
    /// card, the ability and its history, and the item's difficulty in one
    /// statement, on the condition that the lesson is still the version read
    /// (else it reads again and `step` decides again, `OptimisticWrite`: two
    /// answers to one question never both count). Returns the lesson and
    /// what the model knows after the change.
    public func update<Outcome: Sendable>(
        _ id: LessonID, learner: AuthorizedLearner, known: Int? = nil,
        _ step: @escaping @Sendable (Stored, LearnerModel) async throws -> (Change, Outcome)
    )
        async throws -> (Stored, LearnerModel, Outcome)
    {
        try await database.withConnection { connection in
            let logger = database.logger
            // Another answer to this lesson, or another review of its card
            // (a game at the same moment), came first: read again.
            return try await OptimisticWrite.write(exhausted: ParlaError(.notCurrentQuestion)) {
                () -> (Stored, LearnerModel, Outcome)? in
                var rows: [PostgresRow] = []
                for try await row in try await connection.execute(
                    LessonRead(lesson: id.uuid, learner: learner.uuid, known: known), logger: logger)
                {
                    rows.append(row)
                }
                guard let row = rows.first else { throw ParlaError(.lessonNotFound) }
                let (lessonID, code, state, startedAt, touchedAt, finishedAt, expired, version) =
                    try row.decode((UUID, String, String, Date, Date, Date?, Bool, Int).self)
                guard let language = Language(rawValue: code) else { throw ParlaError(.internalError) }
                var stored = Stored(
                    id: LessonID(lessonID), language: language, state: Data(state.utf8), startedAt: startedAt,
                    touchedAt: touchedAt, finishedAt: finishedAt, expired: expired, version: version)
                if stored.expired { throw ParlaError(.lessonExpired) }
                var read = try ModelRead.decode(row)
                let (change, outcome) = try await step(stored, read.model)
                let cardReviews = change.record.flatMap { read.reviews[$0.learning.itemID] } ?? 0
                // One statement, no transaction: 1 round trip instead of 4
                // (BEGIN, the statement, the read of what it announced,
                // COMMIT). What it announced (the learner's profile, its
                // classes) it returns itself, and this server hears it now,
                // before the notification arrives.
                guard
                    let (touchedAt, finishedAt) = try await write(
                        change, lesson: id, version: version, learner: learner.id, language: language, cardReviews: cardReviews,
                        on: connection, logger: logger)
                else { return nil }
                (stored.state, stored.touchedAt, stored.finishedAt, stored.version) = (change.state, touchedAt, finishedAt, version + 1)
                if let record = change.record { read.apply(record.learning) }
                return (stored, read.model, outcome)
            }
        }
    }

    /// The learned difficulties of every language's items, by language and item id.
    public func difficulties() async throws -> [Language: [String: ItemDifficulty]] {
        try await database.withConnection { connection in
            var difficulties: [Language: [String: ItemDifficulty]] = [:]
            for row in try await connection.query(
                "SELECT language, item_id, difficulty, responses FROM practice_items",
                logger: database.logger
            ).collect() {
                let (code, id, difficulty, responses) = try row.decode((String, String, Double, Int).self)
                guard let language = Language(rawValue: code) else { continue }
                difficulties[language, default: [:]][id] = ItemDifficulty(difficulty: difficulty, responses: responses)
            }
            return difficulties
        }
    }

    // MARK: Writing

    /// The lesson's new state and, with a record, every update it causes,
    /// as one statement that does nothing unless the lesson is still at
    /// `version` and the record's card still has the `cardReviews` it was
    /// computed from (its row locked first, so that a review committing
    /// meanwhile is seen). Nil when either moved on.
    private func write(
        _ change: Change, lesson: LessonID, version: Int, learner: LearnerID, language: Language, cardReviews: Int,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> (Date, Date?)? {
        guard let record = change.record else {
            // A lesson of the course finished announces its learner's classes
            // (migration 0054: assignments count it), heard here at once.
            guard change.finished else {
                let statement: SQL = "\(Self.lessonUpdate(change, lesson: lesson, version: version)) RETURNING touched_at, finished_at"
                return try await connection.query(statement.query, logger: logger).collect().first?.decode((Date, Date?).self)
            }
            let statement: SQL = """
                \(Self.lessonUpdate(change, lesson: lesson, version: version))
                RETURNING touched_at, finished_at,
                    ARRAY(SELECT m.class_id::text FROM class_members m WHERE m.learner_id = \(learner.uuid) AND course_lesson IS NOT NULL)
                """
            guard let row = try await connection.query(statement.query, logger: logger).collect().first else { return nil }
            let (touchedAt, finishedAt, classes) = try row.decode((Date, Date?, [String]).self)
            database.heardOwn("class", keys: classes.map { Substring($0) })
            return (touchedAt, finishedAt)
        }
        let query = try Self.answerWrite(
            change, record: record, lesson: lesson, version: version, learner: learner, language: language, cardReviews: cardReviews
        ).query
        assert(query.sql == AnswerWrite.sql, "a right answer's write changed its text with its values")
        var rows: [AnswerWrite.Row] = []
        for try await row in try await connection.execute(AnswerWrite(binds: query.binds), logger: logger) { rows.append(row) }
        guard let (touchedAt, finishedAt, account, classes) = rows.first else { return nil }
        database.heardOwn("account", keys: account.map { [Substring($0)] } ?? [])
        database.heardOwn("class", keys: classes.map { Substring($0) })
        return (touchedAt, finishedAt)
    }

    /// The lesson moved to `change`'s state, if it is still at `version`.
    static func lessonUpdate(_ change: Change, lesson: LessonID, version: Int) -> SQL {
        """
        UPDATE lessons SET state = \(String(decoding: change.state, as: UTF8.self)), touched_at = now(), version = version + 1,
            finished_at = CASE WHEN \(change.finished) THEN now() ELSE NULL END
        WHERE id = \(lesson.uuid) AND version = \(version)
        """
    }

    /// A right answer's write: the lesson, the answer's row, what it
    /// teaches (`LearningRows`), and what its triggers announce.
    static func answerWrite(
        _ change: Change, record: Record, lesson: LessonID, version: Int, learner: LearnerID, language: Language, cardReviews: Int
    ) throws -> SQL {
        let learned = try LearningRows.expressions([record.learning], learner: learner, language: language, gate: "updated")
        return """
            WITH updated AS (
                \(lessonUpdate(change, lesson: lesson, version: version))
                  AND coalesce((SELECT m.reviews FROM memory_cards m WHERE m.learner_id = \(learner.uuid) AND m.language = \(language.code)
                                  AND m.item_id = \(record.learning.itemID) FOR UPDATE), 0) = \(cardReviews)
                RETURNING touched_at, finished_at
            ), answer AS (
                INSERT INTO lesson_answers (lesson_id, question_id, learner_id, language, item_id, question_type, skill, area_kind, area_id,
                                            level, correct, tries, response_ms)
                SELECT \(lesson.uuid), \(record.questionID), \(learner.uuid), \(language.code), \(record.learning.itemID),
                       \(record.questionType), \(record.learning.skill.rawValue), \(record.areaKind), \(record.areaID),
                       \(record.level.rawValue), \(record.correct), \(record.tries), \(record.responseMilliseconds)
                FROM updated
            ), \(learned)
            SELECT touched_at, finished_at, \(LearningRows.announced(learner: learner, language: language)) FROM updated
            """
    }

    /// The lesson with what the model knows of its learner, read before
    /// every answer: prepared, as `AnswerWrite` is (its parsing and planning
    /// took 0.8 ms of the 1.1 ms it cost at saturation, the server's log of
    /// statement times). Its state comes empty when the lesson is at the
    /// version `known` (the caller has it). `$3` is cast: a statement is
    /// prepared with its first binds' types, and a first `known` of nil
    /// has none (PostgreSQL would take it as int4, refusing every int8 after).
    struct LessonRead: PostgresPreparedStatement {
        static let sql = """
            SELECT \(columns(state: "CASE WHEN lessons.version = $3::int8 THEN '' ELSE lessons.state END")), \(ModelRead.columns)
            FROM lessons \(ModelRead.sources(learner: "lessons.learner_id", language: "lessons.language"))
            WHERE lessons.id = $1 AND lessons.learner_id = $2
            """
        typealias Row = PostgresRow
        var lesson: UUID
        var learner: UUID
        var known: Int?

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(lesson)
            bindings.append(learner)
            bindings.append(known)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
    }

    /// A right answer's write, prepared: its text is the same for every
    /// answer (only its values differ), so each connection parses and plans
    /// it once instead of at every answer. At saturation (lessons.sh, the
    /// server's log of statement times) parsing and planning it took 2.0 ms
    /// of the 4.4 ms it cost in all.
    struct AnswerWrite: PostgresPreparedStatement {
        /// The text, from an answer made up for it: any answer's is the same.
        static let sql: String = {
            let learning = AnswerLearning(
                itemID: "word:a", skill: .vocabulary, card: nil, lapse: false,
                ability: SkillAbility(skill: .vocabulary, theta: 0, responses: 1),
                abilityChange: 0, snapshots: [], initialDifficulty: 0, difficultyChange: 0)
            let record = Record(
                questionID: "q", questionType: "picture", areaKind: "topic", areaID: "a", level: .a1, correct: true, tries: 1,
                responseMilliseconds: 0, learning: learning)
            let change = Change(state: Data("{}".utf8), finished: false, record: record)
            let made = try? answerWrite(
                change, record: record, lesson: LessonID(UUID()), version: 0, learner: LearnerID(UUID()), language: .english, cardReviews: 0
            )
            return made?.query.sql ?? ""
        }()
        typealias Row = (Date, Date?, String?, [String])
        var binds: PostgresBindings

        func makeBindings() throws -> PostgresBindings { binds }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// What an answer asks of PostgreSQL, for pgbench (`parla bench
    /// lessons`): the read of the lesson with its learner's model ($1
    /// lesson, $2 learner, $3 the version held) and a wrong answer's write
    /// ($1 state, $2 finished, $3 lesson, $4 version).
    package static var answerStatements: (read: String, wrongAnswerWrite: String) {
        let change = Change(state: Data("{}".utf8), finished: false, record: nil)
        let write: SQL = "\(lessonUpdate(change, lesson: LessonID(UUID()), version: 0)) RETURNING touched_at, finished_at"
        return (LessonRead.sql, write.query.sql)
    }

    // MARK: Reading

    static func expireIdle(learner: LearnerID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            UPDATE lessons SET expired_at = now()
            WHERE learner_id = \(learner.uuid) AND finished_at IS NULL AND expired_at IS NULL
              AND touched_at < now() - make_interval(secs => \(idleLimit))
            """, logger: logger)
    }

    /// A lesson's columns, as `stored` reads them. The seventh says whether
    /// the lesson has expired: marked so, or open and idle past the limit
    /// (marked when the learner next starts one); the last is its version.
    static let columns = columns(state: "lessons.state")

    static func columns(state: String) -> String {
        """
        lessons.id, lessons.language, \(state), lessons.started_at, lessons.touched_at, lessons.finished_at,
        (lessons.expired_at IS NOT NULL
         OR (lessons.finished_at IS NULL AND lessons.touched_at < now() - make_interval(secs => \(Int(idleLimit))))),
        lessons.version
        """
    }

    static func stored(_ row: PostgresRow) throws -> Stored {
        let (id, code, state, startedAt, touchedAt, finishedAt, expired, version) = try row.decode(
            (UUID, String, String, Date, Date, Date?, Bool, Int).self)
        guard let language = Language(rawValue: code) else { throw ParlaError(.internalError) }
        return Stored(
            id: LessonID(id), language: language, state: Data(state.utf8), startedAt: startedAt, touchedAt: touchedAt,
            finishedAt: finishedAt, expired: expired, version: version)
    }
}

import Foundation
import Logging
import ParlaCore
import PostgresNIO

/// Teacher-mode lessons and what their answers teach the model: memory
/// cards per learner and item, shared item difficulties, abilities. An
/// answer and all its updates are written in one transaction.
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
    }

    /// An FSRS card as stored (phase codes as in `MemoryPhase`).
    public struct Card: Sendable, Equatable {
        public var phase: Int
        public var step: Int?
        public var stability: Double?
        public var difficulty: Double?
        public var due: Date
        public var lastReview: Date?

        public init(phase: Int, step: Int?, stability: Double?, difficulty: Double?, due: Date, lastReview: Date?) {
            (self.phase, self.step, self.stability, self.difficulty, self.due, self.lastReview) =
                (phase, step, stability, difficulty, due, lastReview)
        }
    }

    /// What the model knows of a learner in a language.
    public struct Learning: Sendable {
        public var abilities: [AbilityStore.Ability]
        /// By item id.
        public var cards: [String: Card]
        /// The course's level, to start abilities from when there are none.
        public var courseLevel: CEFRLevel?
    }

    /// A resolved question's record and every update it causes.
    public struct Record: Sendable {
        public var questionID: String
        public var itemID: String
        public var questionType: String
        public var skill: Skill
        public var areaKind: String
        public var areaID: String
        public var level: CEFRLevel
        public var correct: Bool
        public var tries: Int
        public var responseMilliseconds: Int
        public var card: Card
        public var lapse: Bool
        public var ability: AbilityStore.Ability
        public var snapshots: [AbilityStore.Snapshot]
        /// The item's difficulty before any answer, and this answer's change to it.
        public var initialDifficulty: Double
        public var difficultyChange: Double

        public init(questionID: String, itemID: String, questionType: String, skill: Skill, areaKind: String, areaID: String,
                    level: CEFRLevel, correct: Bool, tries: Int, responseMilliseconds: Int, card: Card, lapse: Bool,
                    ability: AbilityStore.Ability, snapshots: [AbilityStore.Snapshot], initialDifficulty: Double, difficultyChange: Double) {
            (self.questionID, self.itemID, self.questionType, self.skill, self.areaKind, self.areaID) =
                (questionID, itemID, questionType, skill, areaKind, areaID)
            (self.level, self.correct, self.tries, self.responseMilliseconds, self.card, self.lapse) =
                (level, correct, tries, responseMilliseconds, card, lapse)
            (self.ability, self.snapshots, self.initialDifficulty, self.difficultyChange) =
                (ability, snapshots, initialDifficulty, difficultyChange)
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
    /// ended first); `learner_not_found` when the learner is not the account's.
    public func open(learner: LearnerID, of accountID: AccountID, language: Language) async throws -> Stored? {
        try await database.withConnection { connection in
            try await connection.requireLearner(learner, of: accountID, logger: database.logger)
            try await Self.expireIdle(learner: learner, on: connection, logger: database.logger)
            let rows = try await connection.query("""
                SELECT \(unescaped: Self.columns) FROM lessons
                WHERE learner_id = \(learner.uuid) AND language = \(language.code) AND finished_at IS NULL AND expired_at IS NULL
                """, logger: database.logger).collect()
            return try rows.first.map(Self.stored)
        }
    }

    /// Starts a lesson unless one is open (then that one comes back: two
    /// devices starting at once get the same lesson).
    public func create(_ id: LessonID, learner: LearnerID, language: Language, state: Data) async throws -> Stored {
        try await database.withConnection { connection in
            let rows = try await connection.query("""
                INSERT INTO lessons (id, learner_id, language, state)
                VALUES (\(id.uuid), \(learner.uuid), \(language.code), \(String(decoding: state, as: UTF8.self))::jsonb)
                ON CONFLICT (learner_id, language) WHERE finished_at IS NULL AND expired_at IS NULL DO NOTHING
                RETURNING \(unescaped: Self.columns)
                """, logger: database.logger).collect()
            if let row = rows.first { return try Self.stored(row) }
            let open = try await connection.query("""
                SELECT \(unescaped: Self.columns) FROM lessons
                WHERE learner_id = \(learner.uuid) AND language = \(language.code) AND finished_at IS NULL AND expired_at IS NULL
                """, logger: database.logger).collect()
            guard let row = open.first else { throw ParlaError(.lessonNotFound) }
            return try Self.stored(row)
        }
    }

    /// A lesson as it stands: `lesson_expired` once idle too long.
    public func lesson(_ id: LessonID, learner: LearnerID, of accountID: AccountID) async throws -> Stored {
        try await database.withConnection { connection in
            let rows = try await connection.query("""
                SELECT \(unescaped: Self.columns) FROM lessons
                WHERE id = \(id.uuid) AND learner_id = \(learner.uuid)
                  AND learner_id IN (SELECT id FROM learners WHERE account_id = \(accountID.uuid))
                """, logger: database.logger).collect()
            guard let row = rows.first else { throw ParlaError(.lessonNotFound) }
            let stored = try Self.stored(row)
            if stored.expired { throw ParlaError(.lessonExpired) }
            return stored
        }
    }

    /// What the model knows of the learner in `language`, read outside any
    /// lesson's lock (to start one).
    public func learning(learner: LearnerID, language: Language) async throws -> Learning {
        try await database.withConnection { connection in
            try await Self.learning(learner: learner, language: language, on: connection, logger: database.logger)
        }
    }

    /// Reads the lesson under a row lock with what the model knows of the
    /// learner, lets `step` decide, and writes the lesson, the answer's
    /// record, the memory card, the ability and its history, and the item's
    /// difficulty in one transaction. Returns the lesson and what the model
    /// knows after the change.
    public func update(_ id: LessonID, learner: LearnerID, of accountID: AccountID,
                       _ step: @Sendable (Stored, Learning) throws -> Change) async throws -> (Stored, Learning) {
        try await database.withTransaction { connection in
            let logger = database.logger
            let rows = try await connection.query("""
                SELECT \(unescaped: Self.columns) FROM lessons
                WHERE id = \(id.uuid) AND learner_id = \(learner.uuid)
                  AND learner_id IN (SELECT id FROM learners WHERE account_id = \(accountID.uuid))
                FOR UPDATE
                """, logger: logger).collect()
            guard let row = rows.first else { throw ParlaError(.lessonNotFound) }
            var stored = try Self.stored(row)
            if stored.expired { throw ParlaError(.lessonExpired) }
            var learning = try await Self.learning(learner: learner, language: stored.language, on: connection, logger: logger)
            let change = try step(stored, learning)
            if let record = change.record {
                try await write(record, lesson: id, learner: learner, language: stored.language, on: connection, logger: logger)
                learning.abilities.removeAll { $0.skill == record.skill }
                learning.abilities.append(record.ability)
            }
            let touched = try await connection.query("""
                UPDATE lessons SET state = \(String(decoding: change.state, as: UTF8.self))::jsonb, touched_at = now(),
                    finished_at = CASE WHEN \(change.finished) THEN now() ELSE NULL END
                WHERE id = \(id.uuid) RETURNING touched_at, finished_at
                """, logger: logger).collect()
            stored.state = change.state
            if let (touchedAt, finishedAt) = try touched.first?.decode((Date, Date?).self) {
                (stored.touchedAt, stored.finishedAt) = (touchedAt, finishedAt)
            }
            if let record = change.record { learning.cards[record.itemID] = record.card }
            return (stored, learning)
        }
    }

    /// An item's learned difficulty and how many answers moved it.
    public struct ItemDifficulty: Sendable, Equatable {
        public var difficulty: Double
        public var responses: Int
    }

    /// The learned difficulties of every language's items, by language and item id.
    public func difficulties() async throws -> [Language: [String: ItemDifficulty]] {
        try await database.withConnection { connection in
            var difficulties: [Language: [String: ItemDifficulty]] = [:]
            for row in try await connection.query("SELECT language, item_id, difficulty, responses FROM practice_items",
                                                  logger: database.logger).collect() {
                let (code, id, difficulty, responses) = try row.decode((String, String, Double, Int).self)
                guard let language = Language(rawValue: code) else { continue }
                difficulties[language, default: [:]][id] = ItemDifficulty(difficulty: difficulty, responses: responses)
            }
            return difficulties
        }
    }

    // MARK: Writing

    private func write(_ record: Record, lesson: LessonID, learner: LearnerID, language: Language, on connection: PostgresConnection,
                       logger: Logger) async throws {
        try await connection.query("""
            INSERT INTO lesson_answers (lesson_id, question_id, learner_id, language, item_id, question_type, skill, area_kind, area_id,
                                        level, correct, tries, response_ms)
            VALUES (\(lesson.uuid), \(record.questionID), \(learner.uuid), \(language.code), \(record.itemID), \(record.questionType),
                    \(record.skill.rawValue), \(record.areaKind), \(record.areaID), \(record.level.rawValue), \(record.correct),
                    \(record.tries), \(record.responseMilliseconds))
            """, logger: logger)
        let card = record.card
        try await connection.query("""
            INSERT INTO memory_cards (learner_id, language, item_id, phase, step, stability, difficulty, due, last_review, reviews, lapses)
            VALUES (\(learner.uuid), \(language.code), \(record.itemID), \(Int16(card.phase)), \(card.step), \(card.stability),
                    \(card.difficulty), \(card.due), \(card.lastReview), 1, \(record.lapse ? 1 : 0))
            ON CONFLICT (learner_id, language, item_id) DO UPDATE SET phase = EXCLUDED.phase, step = EXCLUDED.step,
                stability = EXCLUDED.stability, difficulty = EXCLUDED.difficulty, due = EXCLUDED.due, last_review = EXCLUDED.last_review,
                reviews = memory_cards.reviews + 1, lapses = memory_cards.lapses + EXCLUDED.lapses
            """, logger: logger)
        // A relative update: learners answering the same item at once each add their change.
        try await connection.query("""
            INSERT INTO practice_items (language, item_id, difficulty, responses)
            VALUES (\(language.code), \(record.itemID), \(record.initialDifficulty + record.difficultyChange), 1)
            ON CONFLICT (language, item_id) DO UPDATE SET difficulty = practice_items.difficulty + \(record.difficultyChange),
                responses = practice_items.responses + 1
            """, logger: logger)
        try await AbilityStore.write([record.ability], record.snapshots, learner: learner, language: language, on: connection, logger: logger)
    }

    // MARK: Reading

    static func expireIdle(learner: LearnerID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            UPDATE lessons SET expired_at = now()
            WHERE learner_id = \(learner.uuid) AND finished_at IS NULL AND expired_at IS NULL
              AND touched_at < now() - make_interval(secs => \(idleLimit))
            """, logger: logger)
    }

    static func learning(learner: LearnerID, language: Language, on connection: PostgresConnection, logger: Logger) async throws
        -> Learning {
        let abilities = try await connection.query("""
            SELECT skill, theta, responses FROM abilities WHERE learner_id = \(learner.uuid) AND language = \(language.code)
            """, logger: logger).collect().compactMap { row -> AbilityStore.Ability? in
                let (skill, theta, responses) = try row.decode((String, Double, Int).self)
                return Skill(rawValue: skill).map { AbilityStore.Ability(skill: $0, theta: theta, responses: responses) }
            }
        var cards: [String: Card] = [:]
        for row in try await connection.query("""
            SELECT item_id, phase, step, stability, difficulty, due, last_review FROM memory_cards
            WHERE learner_id = \(learner.uuid) AND language = \(language.code)
            """, logger: logger).collect() {
            let (item, phase, step, stability, difficulty, due, lastReview) =
                try row.decode((String, Int16, Int?, Double?, Double?, Date, Date?).self)
            cards[item] = Card(phase: Int(phase), step: step, stability: stability, difficulty: difficulty, due: due, lastReview: lastReview)
        }
        let level = try await connection.query("""
            SELECT level FROM courses WHERE learner_id = \(learner.uuid) AND language = \(language.code)
            """, logger: logger).collect().first.flatMap { try $0.decode(String?.self) }.flatMap(CEFRLevel.init(rawValue:))
        return Learning(abilities: abilities, cards: cards, courseLevel: level)
    }

    /// The last column says whether the lesson has expired: marked so, or
    /// open and idle past the limit (marked when the learner next starts one).
    static let columns = """
        id, language, state::text, started_at, touched_at, finished_at,
        (expired_at IS NOT NULL OR (finished_at IS NULL AND touched_at < now() - make_interval(secs => \(Int(idleLimit)))))
        """

    static func stored(_ row: PostgresRow) throws -> Stored {
        let (id, code, state, startedAt, touchedAt, finishedAt, expired) = try row.decode((UUID, String, String, Date, Date, Date?, Bool).self)
        guard let language = Language(rawValue: code) else { throw ParlaError(.internalError) }
        return Stored(id: LessonID(id), language: language, state: Data(state.utf8), startedAt: startedAt, touchedAt: touchedAt,
                      finishedAt: finishedAt, expired: expired)
    }
}

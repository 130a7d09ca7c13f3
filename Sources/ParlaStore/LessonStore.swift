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
        /// Reviews of the card as read: an answer computed from it is
        /// written only if the card has had no other review since.
        public var reviews: Int

        public init(phase: Int, step: Int?, stability: Double?, difficulty: Double?, due: Date, lastReview: Date?, reviews: Int = 0) {
            (self.phase, self.step, self.stability, self.difficulty, self.due, self.lastReview, self.reviews) =
                (phase, step, stability, difficulty, due, lastReview, reviews)
        }
    }

    /// What the model knows of a learner in a language.
    public struct Learning: Sendable {
        public var abilities: [AbilityStore.Ability]
        /// By item id.
        public var cards: [String: Card]
        /// The course's level, to start abilities from when there are none.
        public var courseLevel: CEFRLevel?

        /// The model after an answer: the skill's new ability and, when the
        /// answer reviewed it, the item's new memory.
        public mutating func apply(_ ability: AbilityStore.Ability, card: Card?, item: String) {
            abilities.removeAll { $0.skill == ability.skill }
            abilities.append(ability)
            if var card {
                card.reviews = (cards[item]?.reviews ?? 0) + 1
                cards[item] = card
            }
        }
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
        /// This answer's change to the ability, applied to the stored value.
        public var abilityChange: Double
        public var snapshots: [AbilityStore.Snapshot]
        /// The item's difficulty before any answer, and this answer's change to it.
        public var initialDifficulty: Double
        public var difficultyChange: Double

        public init(questionID: String, itemID: String, questionType: String, skill: Skill, areaKind: String, areaID: String,
                    level: CEFRLevel, correct: Bool, tries: Int, responseMilliseconds: Int, card: Card, lapse: Bool,
                    ability: AbilityStore.Ability, abilityChange: Double, snapshots: [AbilityStore.Snapshot], initialDifficulty: Double,
                    difficultyChange: Double) {
            (self.questionID, self.itemID, self.questionType, self.skill, self.areaKind, self.areaID) =
                (questionID, itemID, questionType, skill, areaKind, areaID)
            (self.level, self.correct, self.tries, self.responseMilliseconds, self.card, self.lapse) =
                (level, correct, tries, responseMilliseconds, card, lapse)
            (self.ability, self.abilityChange, self.snapshots, self.initialDifficulty, self.difficultyChange) =
                (ability, abilityChange, snapshots, initialDifficulty, difficultyChange)
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
            let rows = try await connection.query("""
                SELECT \(unescaped: Self.columns) FROM lessons
                WHERE learner_id = \(learner.uuid) AND language = \(language.code) AND finished_at IS NULL AND expired_at IS NULL
                """, logger: database.logger).collect()
            return try rows.first.map(Self.stored)
        }
    }

    /// Starts a lesson unless one is open (then that one comes back: two
    /// devices starting at once get the same lesson).
    public func create(_ id: LessonID, learner: AuthorizedLearner, language: Language, state: Data) async throws -> Stored {
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
    public func lesson(_ id: LessonID, learner: AuthorizedLearner) async throws -> Stored {
        try await database.withConnection { connection in
            let rows = try await connection.query("""
                SELECT \(unescaped: Self.columns) FROM lessons
                WHERE id = \(id.uuid) AND learner_id = \(learner.uuid)
                """, logger: database.logger).collect()
            guard let row = rows.first else { throw ParlaError(.lessonNotFound) }
            let stored = try Self.stored(row)
            if stored.expired { throw ParlaError(.lessonExpired) }
            return stored
        }
    }

    /// What the model knows of the learner in `language`, read outside any
    /// lesson's lock (to start one).
    public func learning(learner: AuthorizedLearner, language: Language) async throws -> Learning {
        try await database.withConnection { connection in
            try await Self.learning(learner: learner.id, language: language, on: connection, logger: database.logger)
        }
    }

    /// Reads the lesson with what the model knows of the learner, lets
    /// `step` decide, and writes the lesson, the answer's record, the memory
    /// card, the ability and its history, and the item's difficulty in one
    /// statement, on the condition that the lesson is still the version read
    /// (else it reads again and `step` decides again: two answers to one
    /// question never both count). Two round trips in all, without holding a
    /// lock while Swift decides. Returns the lesson and what the model knows
    /// after the change.
    public func update<Outcome: Sendable>(_ id: LessonID, learner: AuthorizedLearner,
                                          _ step: @Sendable (Stored, Learning) async throws -> (Change, Outcome))
        async throws -> (Stored, Learning, Outcome) {
        try await database.withConnection { connection in
            let logger = database.logger
            for _ in 0..<Self.conflictRetries {
                let rows = try await connection.query("""
                    SELECT \(unescaped: Self.columns), version,
                      (SELECT coalesce(json_agg(json_build_array(a.skill, a.theta, a.responses)), '[]')::text
                         FROM abilities a WHERE a.learner_id = lessons.learner_id AND a.language = lessons.language),
                      (SELECT coalesce(json_agg(json_build_array(c.item_id, c.phase, c.step, c.stability, c.difficulty,
                                                                 extract(epoch FROM c.due), extract(epoch FROM c.last_review),
                                                                 c.reviews)), '[]')::text
                         FROM memory_cards c WHERE c.learner_id = lessons.learner_id AND c.language = lessons.language),
                      (SELECT level FROM courses k WHERE k.learner_id = lessons.learner_id AND k.language = lessons.language)
                    FROM lessons
                    WHERE id = \(id.uuid) AND learner_id = \(learner.uuid)
                    """, logger: logger).collect()
                guard let row = rows.first else { throw ParlaError(.lessonNotFound) }
                let (lessonID, code, state, startedAt, touchedAt, finishedAt, expired, version, abilities, cards, level) =
                    try row.decode((UUID, String, String, Date, Date, Date?, Bool, Int, String, String, String?).self)
                guard let language = Language(rawValue: code) else { throw ParlaError(.internalError) }
                var stored = Stored(id: LessonID(lessonID), language: language, state: Data(state.utf8), startedAt: startedAt,
                                    touchedAt: touchedAt, finishedAt: finishedAt, expired: expired)
                if stored.expired { throw ParlaError(.lessonExpired) }
                var learning = Learning(abilities: Self.abilities(json: abilities), cards: Self.cards(json: cards),
                                        courseLevel: level.flatMap(CEFRLevel.init(rawValue:)))
                let (change, outcome) = try await step(stored, learning)
                let written: (Date, Date?)?
                do {
                    written = try await write(change, lesson: id, version: version, learner: learner.id, language: language,
                                              cardReviews: change.record.flatMap { learning.cards[$0.itemID]?.reviews } ?? 0,
                                              on: connection, logger: logger)
                } catch where isDeadlock(error) {
                    // A game of the same learner took the rows in another order: read again.
                    continue
                }
                // Nil: another answer to this lesson, or another review of
                // this card (a game at the same moment), came first.
                guard let (touchedAt, finishedAt) = written else { continue }
                (stored.state, stored.touchedAt, stored.finishedAt) = (change.state, touchedAt, finishedAt)
                if let record = change.record {
                    learning.apply(record.ability, card: record.card, item: record.itemID)
                }
                return (stored, learning, outcome)
            }
            throw ParlaError(.notCurrentQuestion)
        }
    }

    /// Tries at an answer that another one, at the same moment, overtook.
    static let conflictRetries = 5

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

    /// The lesson's new state and, with a record, every update it causes,
    /// as one statement that does nothing unless the lesson is still at
    /// `version` and the record's card still has the `cardReviews` it was
    /// computed from (its row locked first, so that a review committing
    /// meanwhile is seen). Nil when either moved on.
    private func write(_ change: Change, lesson: LessonID, version: Int, learner: LearnerID, language: Language, cardReviews: Int,
                       on connection: PostgresConnection, logger: Logger) async throws -> (Date, Date?)? {
        let state = String(decoding: change.state, as: UTF8.self)
        let updated: PostgresQuery = """
            UPDATE lessons SET state = \(state)::jsonb, touched_at = now(), version = version + 1,
                finished_at = CASE WHEN \(change.finished) THEN now() ELSE NULL END
            WHERE id = \(lesson.uuid) AND version = \(version) RETURNING touched_at, finished_at
            """
        guard let record = change.record else {
            return try await connection.query(updated, logger: logger).collect().first?.decode((Date, Date?).self)
        }
        let card = record.card
        let day = record.snapshots.first?.day ?? Date()
        let skillDay = record.snapshots.first { $0.skill == record.skill }, overallDay = record.snapshots.first { $0.skill == nil }
        let rows = try await connection.query("""
            WITH updated AS (
                UPDATE lessons SET state = \(state)::jsonb, touched_at = now(), version = version + 1,
                    finished_at = CASE WHEN \(change.finished) THEN now() ELSE NULL END
                WHERE id = \(lesson.uuid) AND version = \(version)
                  AND coalesce((SELECT m.reviews FROM memory_cards m WHERE m.learner_id = \(learner.uuid) AND m.language = \(language.code)
                                  AND m.item_id = \(record.itemID) FOR UPDATE), 0) = \(cardReviews)
                RETURNING touched_at, finished_at
            ), answer AS (
                INSERT INTO lesson_answers (lesson_id, question_id, learner_id, language, item_id, question_type, skill, area_kind, area_id,
                                            level, correct, tries, response_ms)
                SELECT \(lesson.uuid), \(record.questionID), \(learner.uuid), \(language.code), \(record.itemID), \(record.questionType),
                       \(record.skill.rawValue), \(record.areaKind), \(record.areaID), \(record.level.rawValue), \(record.correct),
                       \(record.tries), \(record.responseMilliseconds)
                FROM updated
            ), card AS (
                INSERT INTO memory_cards (learner_id, language, item_id, phase, step, stability, difficulty, due, last_review, reviews, lapses)
                SELECT \(learner.uuid), \(language.code), \(record.itemID), \(Int16(card.phase)), \(card.step)::integer,
                       \(card.stability)::float8, \(card.difficulty)::float8, \(card.due), \(card.lastReview)::timestamptz, 1,
                       \(record.lapse ? 1 : 0)
                FROM updated
                ON CONFLICT (learner_id, language, item_id) DO UPDATE SET phase = EXCLUDED.phase, step = EXCLUDED.step,
                    stability = EXCLUDED.stability, difficulty = EXCLUDED.difficulty, due = EXCLUDED.due,
                    last_review = EXCLUDED.last_review, reviews = memory_cards.reviews + 1, lapses = memory_cards.lapses + EXCLUDED.lapses
            ), item AS (
                -- Relative: learners answering the same item at once each add their change.
                INSERT INTO practice_items (language, item_id, difficulty, responses)
                SELECT \(language.code), \(record.itemID), \(record.initialDifficulty + record.difficultyChange), 1 FROM updated
                ON CONFLICT (language, item_id) DO UPDATE SET difficulty = practice_items.difficulty + \(record.difficultyChange),
                    responses = practice_items.responses + 1
            ), ability AS (
                INSERT INTO abilities (learner_id, language, skill, theta, responses)
                SELECT \(learner.uuid), \(language.code), \(record.skill.rawValue), \(record.ability.theta), \(record.ability.responses)
                FROM updated
                ON CONFLICT (learner_id, language, skill) DO UPDATE SET theta = abilities.theta + \(record.abilityChange),
                    responses = abilities.responses + 1, updated_at = now()
            ), history AS (
                INSERT INTO ability_history (learner_id, language, skill, day, theta, level)
                SELECT \(learner.uuid), \(language.code), s.skill, \(day)::date, s.theta, s.level
                FROM updated, (VALUES (\(record.skill.rawValue)::text, \(skillDay?.theta ?? record.ability.theta)::float8,
                                       \((skillDay?.level ?? .a1).rawValue)::text),
                                      ('overall', \(overallDay?.theta ?? record.ability.theta)::float8,
                                       \((overallDay?.level ?? .a1).rawValue)::text)) AS s (skill, theta, level)
                ON CONFLICT (learner_id, language, skill, day) DO UPDATE SET theta = EXCLUDED.theta, level = EXCLUDED.level
            )
            SELECT touched_at, finished_at FROM updated
            """, logger: logger).collect()
        return try rows.first?.decode((Date, Date?).self)
    }

    static func abilities(json: String) -> [AbilityStore.Ability] {
        let rows = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[Any]] ?? []
        return rows.compactMap { row in
            guard row.count == 3, let skill = (row[0] as? String).flatMap(Skill.init(rawValue:)), let theta = (row[1] as? NSNumber)?.doubleValue,
                  let responses = (row[2] as? NSNumber)?.intValue else { return nil }
            return AbilityStore.Ability(skill: skill, theta: theta, responses: responses)
        }
    }

    static func cards(json: String) -> [String: Card] {
        let rows = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[Any]] ?? []
        var cards: [String: Card] = [:]
        for row in rows where row.count == 8 {
            guard let item = row[0] as? String, let phase = (row[1] as? NSNumber)?.intValue, let due = (row[5] as? NSNumber)?.doubleValue
            else { continue }
            cards[item] = Card(phase: phase, step: (row[2] as? NSNumber)?.intValue, stability: (row[3] as? NSNumber)?.doubleValue,
                               difficulty: (row[4] as? NSNumber)?.doubleValue, due: Date(timeIntervalSince1970: due),
                               lastReview: (row[6] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) },
                               reviews: (row[7] as? NSNumber)?.intValue ?? 0)
        }
        return cards
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
            SELECT item_id, phase, step, stability, difficulty, due, last_review, reviews FROM memory_cards
            WHERE learner_id = \(learner.uuid) AND language = \(language.code)
            """, logger: logger).collect() {
            let (item, phase, step, stability, difficulty, due, lastReview, reviews) =
                try row.decode((String, Int16, Int?, Double?, Double?, Date, Date?, Int).self)
            cards[item] = Card(phase: Int(phase), step: step, stability: stability, difficulty: difficulty, due: due, lastReview: lastReview,
                               reviews: reviews)
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

import Foundation
import ParlaCore
import ParlaDatabase
import ParlaLearning
import PostgresNIO

/// Placement tests between requests, for an `AuthorizedLearner`; a change
/// and what follows from it (the answer, the course's level) are written
/// in one transaction.
public struct PlacementStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    public struct Stored: Sendable {
        public var id: PlacementID
        public var language: Language
        /// The test's state, as the learning model encodes it.
        public var session: Data
        public var servedItem: String?
        public var servedAt: Date?
        public var startedAt: Date
        public var finishedAt: Date?
        public var result: Data?
    }

    /// What one step changes.
    public struct Change: Sendable {
        public var session: Data
        public var servedItem: String?
        /// When the item on screen was served: now, for a new item or a resumed test.
        public var servedAt: Date?
        public var answer: (itemID: String, correct: Bool, responseMilliseconds: Int)?
        /// Set when the test ends: its result, the level the learner's course
        /// starts at, and the abilities it seeds.
        public var finish: Finish?

        public init(
            session: Data, servedItem: String?, servedAt: Date?, answer: (itemID: String, correct: Bool, responseMilliseconds: Int)? = nil,
            finish: Finish? = nil
        ) {
            (self.session, self.servedItem, self.servedAt, self.answer, self.finish) = (session, servedItem, servedAt, answer, finish)
        }
    }

    public struct Finish: Sendable {
        public var result: Data
        public var level: CEFRLevel
        public var abilities: [SkillAbility]
        public var snapshots: [ProficiencySnapshot]

        public init(result: Data, level: CEFRLevel, abilities: [SkillAbility], snapshots: [ProficiencySnapshot]) {
            (self.result, self.level, self.abilities, self.snapshots) = (result, level, abilities, snapshots)
        }
    }

    /// The learner's unfinished test in `language`, if any.
    public func open(learner: AuthorizedLearner, language: Language) async throws -> Stored? {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.columns) FROM placements p
                WHERE p.learner_id = \(learner.uuid) AND p.language = \(language.code) AND p.finished_at IS NULL
                """, logger: database.logger
            ).collect()
            return try rows.first.map(Self.stored)
        }
    }

    /// Starts a test, unless one is already open (then that one comes back:
    /// two devices starting at once get the same test).
    public func create(_ id: PlacementID, learner: AuthorizedLearner, language: Language, change: Change) async throws -> Stored {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                INSERT INTO placements (id, learner_id, language, session, served_item, served_at)
                VALUES (\(id.uuid), \(learner.uuid), \(language.code), \(String(decoding: change.session, as: UTF8.self))::jsonb,
                        \(change.servedItem), \(change.servedAt))
                ON CONFLICT (learner_id, language) WHERE finished_at IS NULL DO NOTHING
                RETURNING \(unescaped: Self.columns.replacingOccurrences(of: "p.", with: ""))
                """, logger: database.logger
            ).collect()
            if let row = rows.first { return try Self.stored(row) }
            let open = try await connection.query(
                """
                SELECT \(unescaped: Self.columns) FROM placements p
                WHERE p.learner_id = \(learner.uuid) AND p.language = \(language.code) AND p.finished_at IS NULL
                """, logger: database.logger
            ).collect()
            guard let row = open.first else { throw ParlaError(.placementNotFound) }
            return try Self.stored(row)
        }
    }

    /// Reads a test under a row lock, lets `step` decide what changes, and
    /// writes it all in one transaction: the test, the answer, and at the end
    /// the course's level (starting the course if the learner had none).
    public func update(
        _ id: PlacementID, learner: AuthorizedLearner,
        _ step: @escaping @Sendable (Stored) throws -> Change?
    ) async throws -> Stored {
        try await database.withTransaction { connection in
            let logger = database.logger
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.columns) FROM placements p
                WHERE p.id = \(id.uuid) AND p.learner_id = \(learner.uuid)
                FOR UPDATE OF p
                """, logger: logger
            ).collect()
            guard let row = rows.first else { throw ParlaError(.placementNotFound) }
            var stored = try Self.stored(row)
            guard let change = try step(stored) else { return stored }
            if let answer = change.answer {
                try await connection.query(
                    """
                    INSERT INTO placement_responses (placement_id, item_id, language, correct, response_ms)
                    VALUES (\(id.uuid), \(answer.itemID), \(stored.language.code), \(answer.correct), \(answer.responseMilliseconds))
                    """, logger: logger)
            }
            let result = change.finish.map { String(decoding: $0.result, as: UTF8.self) }
            let finished = try await connection.query(
                """
                UPDATE placements SET session = \(String(decoding: change.session, as: UTF8.self))::jsonb, served_item = \(change.servedItem),
                    served_at = \(change.servedAt), result = \(result)::jsonb,
                    finished_at = CASE WHEN \(result != nil) THEN now() ELSE NULL END
                WHERE id = \(id.uuid) RETURNING finished_at
                """, logger: logger
            ).collect()
            if let finish = change.finish {
                try await connection.query(
                    """
                    INSERT INTO courses (learner_id, language, start, level)
                    VALUES (\(learner.uuid), \(stored.language.code), 'placement', \(finish.level.rawValue))
                    ON CONFLICT (learner_id, language) DO UPDATE SET level = EXCLUDED.level
                    """, logger: logger)
                try await AbilityStore.write(
                    finish.abilities, finish.snapshots, learner: learner.id, language: stored.language, on: connection,
                    logger: logger)
            }
            stored.session = change.session
            stored.servedItem = change.servedItem
            stored.servedAt = change.servedAt
            stored.result = change.finish?.result
            stored.finishedAt = try finished.first?.decode(Date?.self)
            return stored
        }
    }

    /// The language of a test (to load its bank before locking it).
    public func language(of id: PlacementID) async throws -> Language {
        try await database.withConnection { connection in
            let rows = try await connection.query("SELECT language FROM placements WHERE id = \(id.uuid)", logger: database.logger)
                .collect()
            guard let code = try rows.first?.decode(String.self), let language = Language(rawValue: code) else {
                throw ParlaError(.placementNotFound)
            }
            return language
        }
    }

    // MARK: Item parameters

    /// Calibrated parameters of a language's items, by item id.
    public func parameters(_ language: Language) async throws -> [String: (discrimination: Double, difficulty: Double)] {
        try await database.withConnection { connection in
            var parameters: [String: (Double, Double)] = [:]
            for row in try await connection.query(
                """
                SELECT item_id, discrimination, difficulty FROM placement_item_parameters WHERE language = \(language.code)
                """, logger: database.logger
            ).collect() {
                let (id, a, b) = try row.decode((String, Double, Double).self)
                parameters[id] = (a, b)
            }
            return parameters
        }
    }

    /// Every stored answer in a language: who (the test), which item, right or not.
    public func responses(_ language: Language) async throws -> [(placement: String, itemID: String, correct: Bool)] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT placement_id, item_id, correct FROM placement_responses WHERE language = \(language.code)
                """, logger: database.logger
            ).collect().map { row in
                let (placement, item, correct) = try row.decode((UUID, String, Bool).self)
                return (UUIDText.lowercase(placement), item, correct)
            }
        }
    }

    /// Replaces the parameters of the items given, in one transaction.
    public func saveParameters(_ language: Language, _ items: [(id: String, discrimination: Double, difficulty: Double, responses: Int)])
        async throws
    {
        try await database.withTransaction { connection in
            for item in items {
                try await connection.query(
                    """
                    INSERT INTO placement_item_parameters (language, item_id, discrimination, difficulty, responses)
                    VALUES (\(language.code), \(item.id), \(item.discrimination), \(item.difficulty), \(item.responses))
                    ON CONFLICT (language, item_id) DO UPDATE SET discrimination = EXCLUDED.discrimination,
                        difficulty = EXCLUDED.difficulty, responses = EXCLUDED.responses, calibrated_at = now()
                    """, logger: database.logger)
            }
        }
    }

    static let columns = "p.id, p.language, p.session::text, p.served_item, p.served_at, p.started_at, p.finished_at, p.result::text"

    static func stored(_ row: PostgresRow) throws -> Stored {
        let (id, code, session, servedItem, servedAt, startedAt, finishedAt, result) =
            try row.decode((UUID, String, String, String?, Date?, Date, Date?, String?).self)
        guard let language = Language(rawValue: code) else { throw ParlaError(.internalError) }
        return Stored(
            id: PlacementID(id), language: language, session: Data(session.utf8), servedItem: servedItem, servedAt: servedAt,
            startedAt: startedAt, finishedAt: finishedAt, result: result.map { Data($0.utf8) })
    }
}

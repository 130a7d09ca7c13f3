import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import ParlaLearning
import ParlaLearningStore
import PostgresNIO
import Synchronization

/// Games and their results. A flip reads the game, lets the rules decide,
/// and writes it back only if no other flip came first.
public struct GameStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    public struct Stored: Sendable {
        public var id: GameID
        public var language: Language
        public var kind: String
        public var state: Data
        public var startedAt: Date
        public var finishedAt: Date?
    }

    /// What a finished game leaves: its result, derived from its log.
    /// `items` are the pairs matched or the words spelled, `moves` the
    /// cards flipped or the tiles placed.
    public struct Finish: Sendable {
        public var items: Int, score: Int, seconds: Double, moves: Int, mistakes: Int

        public init(items: Int, score: Int, seconds: Double, moves: Int, mistakes: Int) {
            (self.items, self.score, self.seconds, self.moves, self.mistakes) = (items, score, seconds, moves, mistakes)
        }
    }

    public func create(
        _ id: GameID, learner: AuthorizedLearner, language: Language, kind: String, state: Data,
        offline: Bool
    ) async throws -> Stored {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                INSERT INTO games (id, learner_id, language, kind, state, offline)
                VALUES (\(id.uuid), \(learner.uuid), \(language.code), \(kind), \(String(decoding: state, as: UTF8.self))::jsonb, \(offline))
                RETURNING \(unescaped: Self.columns)
                """, logger: database.logger
            ).collect()
            guard let row = rows.first else { throw ParlaError(.internalError) }
            return try Self.stored(row).0
        }
    }

    public func game(_ id: GameID, learner: AuthorizedLearner) async throws -> Stored {
        try await database.withConnection { connection in
            try await Self.game(id, learner: learner.id, on: connection, logger: database.logger).0
        }
    }

    /// Lets `step` decide the game's next state (and its result once
    /// finished) from the game and the learner's model as they are now, and
    /// writes it unless another flip came first (`OptimisticWrite`).
    /// Returns the game, what `step` said, and the result this write put on
    /// the leaderboards (when it finished the game).
    public func update<Outcome: Sendable>(
        _ id: GameID, learner authorized: AuthorizedLearner,
        _ step:
            @escaping @Sendable (Stored, ModelOnDemand) async throws
            -> (state: Data, finish: Finish?, learning: [AnswerLearning], outcome: Outcome)
    )
        async throws -> (Stored, Outcome, LeaderboardStore.Result?)
    {
        try await database.withConnection { connection in
            let logger = database.logger
            let learner = authorized.id
            // Another flip, or a lesson reviewing the same card, came first: read again.
            return try await OptimisticWrite.write(exhausted: ParlaError(.gameBusy)) { () -> (Stored, Outcome, LeaderboardStore.Result?)? in
                var (stored, version) = try await Self.game(id, learner: learner, on: connection, logger: logger)
                let language = stored.language
                let model = ModelOnDemand { try await ModelRead.read(learner: learner, language: language, on: connection, logger: logger) }
                let (state, finish, learning, outcome) = try await step(stored, model)
                // A move that teaches nothing never read the model, and locks nothing.
                guard learning.isEmpty || model.read != nil else { throw ParlaError(.internalError) }
                let written = try await write(
                    id, version: version, state: state, finish: finish, learning: learning, read: model.read,
                    learner: learner, language: stored.language, kind: stored.kind, on: connection, logger: logger)
                guard case .written(let finishedAt) = written else { return nil }
                let result = finish.flatMap { finish in
                    finishedAt.map {
                        LeaderboardStore.Result(
                            learner: learner, language: stored.language, kind: stored.kind, score: finish.score, seconds: finish.seconds,
                            at: $0)
                    }
                }
                stored.state = state
                stored.finishedAt = finishedAt
                return (stored, outcome, result)
            }
        }
    }

    /// The learner's model, read only when a move asks for it: most moves
    /// (a card turned, a letter placed) teach nothing, and the model is the
    /// costlier half of a move's reads (`Benchmarks/spelling.sh`).
    public final class ModelOnDemand: Sendable {
        private let reading: @Sendable () async throws -> ModelRead
        private let kept = Mutex<ModelRead?>(nil)

        init(_ reading: @escaping @Sendable () async throws -> ModelRead) { self.reading = reading }

        /// What was read, if anything was.
        var read: ModelRead? { kept.withLock { $0 } }

        public func model() async throws -> LearnerModel {
            if let read { return read.model }
            let read = try await reading()
            kept.withLock { $0 = read }
            return read.model
        }
    }

    /// What a write did: landed (the game's end, if it ended), or found
    /// that the game or a card it reviews had moved on.
    enum Written {
        case written(finishedAt: Date?)
        case overtaken
    }

    /// The game's new state, its result (on the leaderboards too) and what
    /// it taught, in one transaction, unless the game moved on since
    /// `version`, or a card it reviews had another review since the model
    /// was `read` (a lesson at the same moment): then nothing (`.overtaken`) and the
    /// caller tries again.
    private func write(
        _ id: GameID, version: Int, state: Data, finish: Finish?, learning: [AnswerLearning], read: ModelRead?,
        learner: LearnerID, language: Language, kind: String, on connection: PostgresConnection, logger: Logger
    )
        async throws -> Written
    {
        // Heard by this server at its commit (its class overviews drop it at once).
        try await database.transaction(on: connection) { connection in
            if let read {
                guard
                    try await LearningRows.lockAsRead(
                        learning, read: read, learner: learner, language: language, on: connection, logger: logger)
                else { return .overtaken }
            }
            let rows = try await connection.query(
                """
                UPDATE games SET state = \(String(decoding: state, as: UTF8.self))::jsonb, version = version + 1,
                    finished_at = CASE WHEN \(finish != nil) THEN now() ELSE finished_at END,
                    items = \(finish?.items), score = \(finish?.score), seconds = \(finish?.seconds), moves = \(finish?.moves),
                    mistakes = \(finish?.mistakes)
                WHERE id = \(id.uuid) AND version = \(version) RETURNING finished_at
                """, logger: logger
            ).collect()
            guard let row = rows.first else { return .overtaken }
            try await LearningRows.write(
                learning.sorted(by: { $0.itemID < $1.itemID }), learner: learner, language: language, on: connection, logger: logger)
            let finishedAt = try row.decode(Date?.self)
            // The result goes on the leaderboards in the same transaction.
            if let finish, let finishedAt {
                try await LeaderboardStore.record(
                    learner: learner, language: language, kind: kind, score: finish.score,
                    seconds: finish.seconds, at: finishedAt, on: connection, logger: logger)
            }
            return .written(finishedAt: finishedAt)
        }
    }

    /// A finished game as its result stands.
    public struct Record: Sendable {
        public var id: GameID
        public var language: Language
        public var kind: String
        /// A card-matching game's faces; nil for other kinds.
        public var faces: String?
        public var offline: Bool
        public var startedAt: Date
        public var finishedAt: Date
        public var result: Finish
    }

    /// The learner's finished games of a kind (nil: of every kind), newest
    /// first (`before`: finished before that game).
    public func finished(learner: AuthorizedLearner, kind: String?, language: Language?, limit: Int, before: GameID?) async throws
        -> [Record]
    {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT id, language, kind, state #>> '{game,deal,faces}', offline, started_at, finished_at,
                       items, score, seconds, moves, mistakes
                FROM games
                WHERE learner_id = \(learner.uuid) AND (\(kind)::text IS NULL OR kind = \(kind)) AND finished_at IS NOT NULL
                  AND (\(language?.code)::text IS NULL OR language = \(language?.code))
                  AND (\(before?.uuid)::uuid IS NULL
                       OR (finished_at, id) < (SELECT finished_at, id FROM games WHERE id = \(before?.uuid) AND learner_id = \(learner.uuid)))
                ORDER BY finished_at DESC, id DESC LIMIT \(limit)
                """, logger: database.logger
            ).collect().map { row in
                let (id, code, kind, faces, offline, started, finished, items, score, seconds, moves, mistakes) = try row.decode(
                    (UUID, String, String, String?, Bool, Date, Date, Int, Int, Double, Int, Int).self)
                guard let language = Language(rawValue: code) else { throw ParlaError(.internalError) }
                return Record(
                    id: GameID(id), language: language, kind: kind, faces: faces, offline: offline, startedAt: started,
                    finishedAt: finished,
                    result: Finish(items: items, score: score, seconds: seconds, moves: moves, mistakes: mistakes))
            }
        }
    }

    static func game(_ id: GameID, learner: LearnerID, on connection: PostgresConnection, logger: Logger)
        async throws -> (Stored, Int)
    {
        let rows = try await connection.query(
            """
            SELECT \(unescaped: Self.columns) FROM games
            WHERE id = \(id.uuid) AND learner_id = \(learner.uuid)
            """, logger: logger
        ).collect()
        guard let row = rows.first else { throw ParlaError(.gameNotFound) }
        return try stored(row)
    }

    static let columns = "id, language, kind, state::text, started_at, finished_at, version"

    static func stored(_ row: PostgresRow) throws -> (Stored, Int) {
        let (id, code, kind, state, startedAt, finishedAt, version) = try row.decode((UUID, String, String, String, Date, Date?, Int).self)
        guard let language = Language(rawValue: code) else { throw ParlaError(.internalError) }
        return (
            Stored(id: GameID(id), language: language, kind: kind, state: Data(state.utf8), startedAt: startedAt, finishedAt: finishedAt),
            version
        )
    }
}

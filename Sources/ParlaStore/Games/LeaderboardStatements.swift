import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// The statements that read a board: one round trip for a page (its top,
/// the learner's own row and neighbours, ranks and the total), prepared.
extension LeaderboardStore {
    typealias BoardID = LeaderboardBoard

    /// The values every board statement binds: $1 language, $2 kind,
    /// $3 period, then $4 the limit (pages only) and the learner.
    struct BoardKey: Sendable {
        var language: String, kind: String, period: String, limit: Int?, learner: UUID?

        var id: BoardID { BoardID(language: language, kind: kind, period: period) }
    }

    /// One row of a board statement (`BoardSQL`): an entry shown, tagged
    /// with its part of the page (0 the top, 1 the learner's own, 2 a
    /// neighbour), or, when nothing is shown, a row of nulls carrying the
    /// total. Every row carries the board's total and whether the asking
    /// learner still exists.
    struct BoardRow: Sendable {
        var part: Int?
        var learner: UUID?
        var displayName: ByteBuffer?
        var avatarID: String?
        var score: Int?
        var seconds: Double?
        var scoreAt: Date?
        var secondsAt: Date?
        var rank: Int?
        var total: Int
        var exists: Bool?
    }

    protocol BoardStatement: PostgresPreparedStatement where Row == BoardRow {
        var board: BoardKey { get }
    }

    struct ScorePage: BoardStatement {
        static let sql = BoardSQL.statement(.score, page: true)
        var board: BoardKey
    }

    struct TimePage: BoardStatement {
        static let sql = BoardSQL.statement(.time, page: true)
        var board: BoardKey
    }

    struct ScoreStanding: BoardStatement {
        static let sql = BoardSQL.statement(.score, page: false)
        var board: BoardKey
    }

    struct TimeStanding: BoardStatement {
        static let sql = BoardSQL.statement(.time, page: false)
        var board: BoardKey
    }

    /// The statement behind a page (top, own row, neighbours) or a standing
    /// (own row alone), for benchmarks that run it without the store.
    /// Binds $1 language, $2 kind, $3 period, then the limit (pages) and the
    /// learner.
    public static func statement(_ metric: Metric, page: Bool) -> String {
        BoardSQL.statement(metric, page: page)
    }

    /// The statements behind pages and standings, made from the metric
    /// only. The top's ranks follow from its order (see `assemble`); the
    /// others' are summed from the counts.
    enum BoardSQL {
        static func statement(_ metric: Metric, page: Bool) -> String {
            let learner = page ? "$5" : "$4"
            let onBoard = "e.language = $1 AND e.kind = $2 AND e.period = $3"
            let columns = "e.learner_id, e.best_score, e.score_at, e.best_seconds, e.seconds_at"
            let key = metric.order
            let ownKey = key.replacingOccurrences(of: "e.", with: "o.")
            let reversed = key.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) + " DESC" }.joined(separator: ", ")
            let counts =
                "FROM leaderboard_counts c WHERE c.language = $1 AND c.kind = $2 AND c.period = $3 AND c.metric = '\(metric.rawValue)'"
            // 1 + the learners in better blocks of 64 buckets + those in
            // better buckets of the row's own block (migration 0016).
            let bucket = metric.bucketSQL("s")
            let (betterBlocks, betterInBlock) =
                metric == .score
                ? ("c.bucket > \(bucket) / 64", "c.bucket > \(bucket) AND c.bucket < (\(bucket) / 64 + 1) * 64")
                : ("c.bucket < \(bucket) / 64", "c.bucket >= \(bucket) / 64 * 64 AND c.bucket < \(bucket)")
            let rank = """
                1 + (SELECT coalesce(sum(c.entries), 0) \(counts) AND c.span = 64 AND \(betterBlocks))
                  + (SELECT coalesce(sum(c.entries), 0) \(counts) AND c.span = 1 AND \(betterInBlock))
                """
            let pageParts =
                page
                ? """
                ,
                above AS (
                    SELECT n.* FROM own o CROSS JOIN LATERAL (
                        SELECT \(columns), 0 AS place FROM leaderboard_entries e WHERE \(onBoard) AND (\(key)) < (\(ownKey))
                        ORDER BY \(reversed) LIMIT 2) n),
                below AS (
                    SELECT n.* FROM own o CROSS JOIN LATERAL (
                        SELECT \(columns), 0 AS place FROM leaderboard_entries e WHERE \(onBoard) AND (\(key)) > (\(ownKey))
                        ORDER BY \(key) LIMIT 2) n),
                top AS (
                    SELECT \(columns), row_number() OVER (ORDER BY \(key)) AS place FROM leaderboard_entries e WHERE \(onBoard)
                    ORDER BY \(key) LIMIT $4)
                """ : ""
            let shown =
                page
                ? "SELECT 0 AS part, * FROM top UNION ALL SELECT 1, * FROM own UNION ALL SELECT 2, * FROM above UNION ALL SELECT 2, * FROM below"
                : "SELECT 1 AS part, * FROM own"
            return """
                WITH own AS (
                    SELECT \(columns), 0 AS place FROM leaderboard_entries e WHERE \(onBoard) AND e.learner_id = \(learner))\(pageParts),
                shown AS (\(shown))
                SELECT s.part, s.learner_id, l.display_name, l.avatar_id, s.best_score, s.best_seconds, s.score_at, s.seconds_at,
                       CASE WHEN s.part > 0 THEN (\(rank))::integer END, t.total,
                       \(page ? "EXISTS (SELECT 1 FROM learners a WHERE a.id = $5)" : "NULL::boolean")
                FROM (SELECT coalesce(sum(c.entries), 0)::integer AS total \(counts) AND c.span = 64) t
                LEFT JOIN (shown s JOIN learners l ON l.id = s.learner_id) ON true
                ORDER BY s.part, s.place
                """
        }
    }

    /// A board's rows, for the few-learner boards, by a condition and an
    /// order made from enums only.
    struct Board {
        var language: Language, kind: String, period: String, metric: Metric

        /// The board's own rows; its values are bound by `rows`.
        var `where`: String { "WHERE e.language = $1 AND e.kind = $2 AND e.period = $3" }
    }

    /// Rows of `board` matching `clause` (which follows the board's WHERE),
    /// with the learners' names, rank unset.
    func rows(
        _ clause: String, _ board: Board, on connection: PostgresConnection, logger: Logger,
        binding more: (inout PostgresBindings) -> Void = { _ in }
    ) async throws -> [Row] {
        var bindings = PostgresBindings()
        bindings.append(board.language.code)
        bindings.append(board.kind)
        bindings.append(board.period)
        more(&bindings)
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT e.learner_id, l.display_name, l.avatar_id, e.best_score, e.best_seconds, e.score_at, e.seconds_at
                FROM leaderboard_entries e JOIN learners l ON l.id = e.learner_id
                \(clause)
                """, binds: bindings)
        return try await connection.query(query, logger: logger).collect().map { row in
            let (id, name, avatar, score, seconds, scoreAt, secondsAt) = try row.decode(
                (UUID, ByteBuffer, String, Int, Double, Date, Date).self)
            return Row(
                rank: 0, learner: LearnerID(id), displayName: try cipher.openText(Array(buffer: name), as: .displayName),
                avatarID: avatar, score: score, seconds: seconds, scoreAt: scoreAt, secondsAt: secondsAt)
        }
    }
}

extension LeaderboardStore.BoardStatement {
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(board.language)
        bindings.append(board.kind)
        bindings.append(board.period)
        if let limit = board.limit { bindings.append(limit) }
        if let learner = board.learner { bindings.append(learner) } else { bindings.appendNull() }
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> LeaderboardStore.BoardRow {
        let (part, learner, name, avatar, score, seconds, scoreAt, secondsAt, rank, total, owned) =
            try row.decode((Int?, UUID?, ByteBuffer?, String?, Int?, Double?, Date?, Date?, Int?, Int, Bool?).self)
        return LeaderboardStore.BoardRow(
            part: part, learner: learner, displayName: name, avatarID: avatar, score: score, seconds: seconds, scoreAt: scoreAt,
            secondsAt: secondsAt, rank: rank, total: total, exists: owned)
    }
}

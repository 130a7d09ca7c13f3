import Foundation
import Logging
import ParlaCore
import PostgresNIO

/// Leaderboards: best score and best time per learner, language, game kind
/// and period, with ranks that never scan the entries (see migration 0013).
public struct LeaderboardStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    public init(database: Database, cipher: PersonalDataCipher) { (self.database, self.cipher) = (database, cipher) }

    public enum Metric: String, Sendable, CaseIterable {
        /// Higher is better.
        case score
        /// Fewer seconds is better.
        case time
    }

    public struct Row: Sendable, Equatable {
        public var rank: Int
        public var learner: LearnerID
        public var displayName: String
        public var avatarID: String
        public var score: Int
        public var seconds: Double
        /// When the best score and the best time were set (ties go to the earlier).
        public var scoreAt: Date
        public var secondsAt: Date
    }

    public struct Page: Sendable {
        public var top: [Row]
        /// The asking learner's own row, wherever it stands.
        public var own: Row?
        /// Up to two rows either side of the learner's own.
        public var neighbours: [Row]
        public var total: Int
    }

    /// The all-time period and the ISO week (UTC) of `date`, as stored.
    public static func periods(of date: Date) -> [String] { ["all", week(of: date)] }

    public static func week(of date: Date) -> String {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
        return String(format: "%04d-W%02d", parts.yearForWeekOfYear ?? 0, parts.weekOfYear ?? 0)
    }

    /// Tenths of a second: the bucket a time is counted in.
    static func bucket(seconds: Double) -> Int { Int((seconds * 10).rounded(.down)) }

    // MARK: Writing

    /// Keeps a finished game's result in every period it belongs to, on
    /// `connection` inside the game's transaction: the learner's best score
    /// and best time improve or stay, and the counts follow.
    public func record(learner: LearnerID, language: Language, kind: String, score: Int, seconds: Double, at date: Date) async throws {
        try await database.withTransaction { connection in
            try await Self.record(learner: learner, language: language, kind: kind, score: score, seconds: seconds, at: date,
                                  on: connection, logger: database.logger)
        }
    }

    static func record(learner: LearnerID, language: Language, kind: String, score: Int, seconds: Double, at date: Date,
                       on connection: PostgresConnection, logger: Logger) async throws {
        // Count changes are applied in one order (period, metric, bucket) so
        // that two games finishing at once never wait on each other in a circle.
        var changes: [(period: String, metric: Metric, bucket: Int, delta: Int)] = []
        for period in periods(of: date) {
            let rows = try await connection.query("""
                SELECT best_score, best_seconds FROM leaderboard_entries
                WHERE language = \(language.code) AND kind = \(kind) AND period = \(period) AND learner_id = \(learner.uuid)
                FOR UPDATE
                """, logger: logger).collect()
            if let (best, fastest) = try rows.first?.decode((Int, Double).self) {
                if score > best { changes += [(period, .score, best, -1), (period, .score, score, 1)] }
                if seconds < fastest {
                    changes += [(period, .time, bucket(seconds: fastest), -1), (period, .time, bucket(seconds: seconds), 1)]
                }
                try await connection.query("""
                    UPDATE leaderboard_entries SET
                        best_score = GREATEST(best_score, \(score)),
                        score_at = CASE WHEN \(score) > best_score THEN \(date) ELSE score_at END,
                        best_seconds = LEAST(best_seconds, \(seconds)),
                        seconds_at = CASE WHEN \(seconds) < best_seconds THEN \(date) ELSE seconds_at END
                    WHERE language = \(language.code) AND kind = \(kind) AND period = \(period) AND learner_id = \(learner.uuid)
                    """, logger: logger)
            } else {
                changes += [(period, .score, score, 1), (period, .time, bucket(seconds: seconds), 1)]
                try await connection.query("""
                    INSERT INTO leaderboard_entries (language, kind, period, learner_id, best_score, score_at, best_seconds, seconds_at)
                    VALUES (\(language.code), \(kind), \(period), \(learner.uuid), \(score), \(date), \(seconds), \(date))
                    """, logger: logger)
            }
        }
        let ordered = changes.filter { $0.delta != 0 }.sorted { ($0.period, $0.metric.rawValue, $0.bucket) < ($1.period, $1.metric.rawValue, $1.bucket) }
        for change in ordered {
            try await connection.query("""
                INSERT INTO leaderboard_counts (language, kind, period, metric, bucket, entries)
                VALUES (\(language.code), \(kind), \(change.period), \(change.metric.rawValue), \(change.bucket), \(max(change.delta, 0)))
                ON CONFLICT (language, kind, period, metric, bucket) DO UPDATE SET entries = leaderboard_counts.entries + \(change.delta)
                """, logger: logger)
        }
    }

    // MARK: Reading

    /// The top `limit` of a board with their ranks (ties share one), the
    /// total, and `learner`'s own row with its neighbours.
    public func page(language: Language, kind: String, period: String, metric: Metric, limit: Int, learner: LearnerID?) async throws -> Page {
        try await database.withConnection { connection in
            let logger = database.logger
            let board = Board(language: language, kind: kind, period: period, metric: metric)
            let top = try await rows(board.where + " ORDER BY \(board.order) LIMIT $4", board, on: connection, logger: logger) {
                $0.append(limit)
            }
            // Within a prefix of the order, a row's rank is 1 + the rows strictly better above it.
            var ranked: [Row] = []
            for row in top {
                var row = row
                row.rank = 1 + ranked.filter { board.isBetter($0, than: row) }.count
                ranked.append(row)
            }
            let total = try await connection.query("""
                SELECT coalesce(sum(entries), 0)::int FROM leaderboard_counts
                WHERE language = \(language.code) AND kind = \(kind) AND period = \(period) AND metric = 'score'
                """, logger: logger).collect().first?.decode(Int.self) ?? 0
            guard let learner else { return Page(top: ranked, own: nil, neighbours: [], total: total) }
            guard var own = try await rows(board.where + " AND e.learner_id = $4", board, on: connection, logger: logger,
                                           binding: { $0.append(learner.uuid) }).first else {
                return Page(top: ranked, own: nil, neighbours: [], total: total)
            }
            own.rank = try await rank(of: own, board, on: connection, logger: logger)
            var neighbours: [Row] = []
            for better in [true, false] {
                let mine = own
                for var row in try await rows(board.where + board.beside(better: better), board, on: connection, logger: logger,
                                              binding: { board.bind(mine, into: &$0) }) {
                    row.rank = try await rank(of: row, board, on: connection, logger: logger)
                    neighbours.append(row)
                }
            }
            neighbours.sort { ($0.rank, $0.learner.description) < ($1.rank, $1.learner.description) }
            return Page(top: ranked, own: own, neighbours: neighbours, total: total)
        }
    }

    /// A board among a few learners (a learner and their friends): read
    /// whole and ranked here, ties sharing a rank.
    public func page(language: Language, kind: String, period: String, metric: Metric, limit: Int, learner: LearnerID,
                     among members: [LearnerID]) async throws -> Page {
        try await database.withConnection { connection in
            let board = Board(language: language, kind: kind, period: period, metric: metric)
            let everyone = Array(Set(members + [learner]).map(\.uuid).prefix(2000))
            var ranked = try await rows(board.where + " AND e.learner_id = ANY($4) ORDER BY \(board.order)", board, on: connection,
                                        logger: database.logger) { $0.append(everyone) }
            for index in ranked.indices { ranked[index].rank = 1 + ranked.filter { board.isBetter($0, than: ranked[index]) }.count }
            guard let mine = ranked.firstIndex(where: { $0.learner == learner }) else {
                return Page(top: Array(ranked.prefix(limit)), own: nil, neighbours: [], total: ranked.count)
            }
            let neighbours = ranked[max(0, mine - 2)..<min(ranked.count, mine + 3)].filter { $0.learner != learner }
            return Page(top: Array(ranked.prefix(limit)), own: ranked[mine], neighbours: neighbours, total: ranked.count)
        }
    }

    /// 1 + the learners in better buckets (+ for times, those better within
    /// the same bucket): a sum over at most a few thousand count rows.
    func rank(of row: Row, _ board: Board, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        switch board.metric {
        case .score:
            let better = try await connection.query("""
                SELECT coalesce(sum(entries), 0)::int FROM leaderboard_counts
                WHERE language = \(board.language.code) AND kind = \(board.kind) AND period = \(board.period) AND metric = 'score'
                  AND bucket > \(row.score)
                """, logger: logger).collect().first?.decode(Int.self) ?? 0
            return 1 + better
        case .time:
            let bucket = Self.bucket(seconds: row.seconds)
            let better = try await connection.query("""
                SELECT (SELECT coalesce(sum(entries), 0)::int FROM leaderboard_counts
                        WHERE language = \(board.language.code) AND kind = \(board.kind) AND period = \(board.period) AND metric = 'time'
                          AND bucket < \(bucket)),
                       (SELECT count(*)::int FROM leaderboard_entries
                        WHERE language = \(board.language.code) AND kind = \(board.kind) AND period = \(board.period)
                          AND best_seconds >= \(Double(bucket) / 10) AND best_seconds < \(row.seconds))
                """, logger: logger).collect().first?.decode((Int, Int).self) ?? (0, 0)
            return 1 + better.0 + better.1
        }
    }

    /// A board's rows, by a condition and an order made from enums only.
    struct Board {
        var language: Language, kind: String, period: String, metric: Metric

        /// The board's own rows; its values are bound by `rows`.
        var `where`: String { "WHERE e.language = $1 AND e.kind = $2 AND e.period = $3" }
        /// The board's order: best first, then who got there first. The
        /// score index is on -best_score so that one row comparison walks it.
        var key: String { metric == .score ? "(-e.best_score), e.score_at, e.learner_id" : "e.best_seconds, e.seconds_at, e.learner_id" }
        var order: String { key }

        func isBetter(_ row: Row, than other: Row) -> Bool {
            metric == .score ? row.score > other.score : row.seconds < other.seconds
        }

        /// Rows just before (`better`) or just after the row whose key is
        /// ($4, $5, $6), nearest first: one index range either way.
        func beside(better: Bool) -> String {
            let nearest = better
                ? (metric == .score ? "(-e.best_score) DESC, e.score_at DESC, e.learner_id DESC"
                                    : "e.best_seconds DESC, e.seconds_at DESC, e.learner_id DESC")
                : order
            return " AND (\(key)) \(better ? "<" : ">") ($4, $5, $6) ORDER BY \(nearest) LIMIT 2"
        }

        /// The row's place in the order, bound as $4, $5, $6.
        func bind(_ row: Row, into bindings: inout PostgresBindings) {
            if metric == .score { bindings.append(-row.score) } else { bindings.append(row.seconds) }
            bindings.append(metric == .score ? row.scoreAt : row.secondsAt)
            bindings.append(row.learner.uuid)
        }
    }

    /// Rows of `board` matching `clause` (which follows the board's WHERE),
    /// with the learners' names, rank unset.
    func rows(_ clause: String, _ board: Board, on connection: PostgresConnection, logger: Logger,
              binding more: (inout PostgresBindings) -> Void = { _ in }) async throws -> [Row] {
        var bindings = PostgresBindings()
        bindings.append(board.language.code)
        bindings.append(board.kind)
        bindings.append(board.period)
        more(&bindings)
        let query = PostgresQuery(unsafeSQL: """
            SELECT e.learner_id, l.display_name, l.avatar_id, e.best_score, e.best_seconds, e.score_at, e.seconds_at
            FROM leaderboard_entries e JOIN learners l ON l.id = e.learner_id
            \(clause)
            """, binds: bindings)
        return try await connection.query(query, logger: logger).collect().map { row in
            let (id, name, avatar, score, seconds, scoreAt, secondsAt) = try row.decode((UUID, ByteBuffer, String, Int, Double, Date, Date).self)
            return Row(rank: 0, learner: LearnerID(id), displayName: try cipher.openText(Array(buffer: name), as: .displayName),
                       avatarID: avatar, score: score, seconds: seconds, scoreAt: scoreAt, secondsAt: secondsAt)
        }
    }
}

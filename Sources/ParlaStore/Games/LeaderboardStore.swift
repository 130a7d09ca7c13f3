import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import ParlaGames
import PostgresNIO

/// A board: one language, game kind and period.
public struct LeaderboardBoard: Hashable, Sendable {
    public var language: String, kind: String, period: String

    public init(language: String, kind: String, period: String) { (self.language, self.kind, self.period) = (language, kind, period) }
}

/// Leaderboards: best score and best time per learner, language, game kind
/// and period, with ranks that never scan the entries: summed from the
/// counts (migrations 0013 and 0016). Boards kept in memory
/// (`LeaderboardRanks`) are read whole from here (`entries(of:)`).
public struct LeaderboardStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    public init(database: Database, cipher: PersonalDataCipher) { (self.database, self.cipher) = (database, cipher) }

    /// Its order and buckets: `BoardPlace` (ParlaGames) and `LeaderboardOrder.swift`.
    public typealias Metric = LeaderboardMetric

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

        public init(
            rank: Int, learner: LearnerID, displayName: String, avatarID: String, score: Int, seconds: Double, scoreAt: Date,
            secondsAt: Date
        ) {
            (self.rank, self.learner, self.displayName, self.avatarID) = (rank, learner, displayName, avatarID)
            (self.score, self.seconds, self.scoreAt, self.secondsAt) = (score, seconds, scoreAt, secondsAt)
        }
    }

    public struct Page: Sendable {
        public var top: [Row]
        /// The asking learner's own row, wherever it stands.
        public var own: Row?
        /// Up to two rows either side of the learner's own.
        public var neighbours: [Row]
        public var total: Int

        public init(top: [Row], own: Row?, neighbours: [Row], total: Int) {
            (self.top, self.own, self.neighbours, self.total) = (top, own, neighbours, total)
        }
    }

    /// A finished game's result, as it goes on its boards.
    public struct Result: Sendable {
        public var learner: LearnerID, language: Language, kind: String, score: Int, seconds: Double, at: Date

        public init(learner: LearnerID, language: Language, kind: String, score: Int, seconds: Double, at: Date) {
            (self.learner, self.language, self.kind, self.score, self.seconds, self.at) = (learner, language, kind, score, seconds, at)
        }
    }

    /// The all-time period and the ISO week (UTC) of `date`, as stored.
    public static func periods(of date: Date) -> [String] { ["all", week(of: date)] }

    public static func week(of date: Date) -> String {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
        return String(format: "%04d-W%02d", parts.yearForWeekOfYear ?? 0, parts.weekOfYear ?? 0)
    }

    // MARK: Writing

    /// Keeps a finished game's result in every period it belongs to: the
    /// learner's best score and best time improve or stay, and the counts
    /// follow. A game's own result is kept inside its transaction (the
    /// static `record(learner:…on:)`); this one is for a result alone.
    ///
    /// One statement, so no transaction: BEGIN, COMMIT and the read of what
    /// a transaction announced (`Database.transaction`) made it 4 round trips
    /// instead of 1, for nothing, as its topic (`entry`) is not one a server
    /// hears from its own writes: the caller updates `LeaderboardRanks`
    /// itself. Measured (leaderboards.sh, 200,000 learners): level with
    /// cee7707, before announcements were heard, at 972 against 967 a second.
    public func record(_ result: Result) async throws {
        try await database.withConnection { connection in
            try await Self.record(
                learner: result.learner, language: result.language, kind: result.kind, score: result.score, seconds: result.seconds,
                at: result.at, on: connection, logger: database.logger)
        }
    }

    static func record(
        learner: LearnerID, language: Language, kind: String, score: Int, seconds: Double, at date: Date,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        // One statement for both periods, in key order (the week,
        // "2026-W48", sorts before "all"), as `removeEntries` takes them;
        // the trigger of migration 0016 moves the counts. Rows that would
        // not improve are not touched.
        try await connection.execute(
            RecordResult(
                language: language.code, kind: kind, week: week(of: date), learner: learner.uuid,
                score: score, seconds: seconds, at: date), logger: logger)
    }

    /// Removes the entries of the learners `condition` selects (before the
    /// learners themselves go), inside the caller's transaction, and says
    /// whose they were. The entries and then their counts are locked in key
    /// order first, the order in which recording a result takes them (the
    /// week, "2026-W48", sorts before "all"): a cascade would take them in
    /// the table's order, and could wait in a circle with a result being
    /// recorded at the same moment.
    static func removeEntries(ofLearners condition: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws
        -> [LearnerID]
    {
        let keys = try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT language, kind, period, learner_id FROM leaderboard_entries WHERE learner_id IN (\(condition.sql))
                    ORDER BY language, kind, period, learner_id FOR UPDATE
                    """, binds: condition.binds), logger: logger
        ).collect()
        guard !keys.isEmpty else { return [] }
        _ = try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT 1 FROM leaderboard_counts c
                    WHERE (c.language, c.kind, c.period, c.metric, c.span, c.bucket) IN (
                        SELECT e.language, e.kind, e.period, m.metric, s.span, leaderboard_bucket(m.metric, e.best_score, e.best_seconds) / s.span
                        FROM leaderboard_entries e, (VALUES ('score'), ('time')) AS m (metric), (VALUES (1), (64)) AS s (span)
                        WHERE e.learner_id IN (\(condition.sql)))
                    ORDER BY c.language, c.kind, c.period, c.metric, c.span, c.bucket FOR UPDATE OF c
                    """, binds: condition.binds), logger: logger
        ).collect()
        var learners: Set<UUID> = []
        for key in keys {
            let (language, kind, period, learner) = try key.decode((String, String, String, UUID).self)
            try await connection.query(
                """
                DELETE FROM leaderboard_entries WHERE language = \(language) AND kind = \(kind) AND period = \(period) AND learner_id = \(learner)
                """, logger: logger)
            learners.insert(learner)
        }
        return learners.map(LearnerID.init)
    }

    struct RecordResult: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO leaderboard_entries AS e (language, kind, period, learner_id, best_score, score_at, best_seconds, seconds_at)
            VALUES ($1, $2, $3, $4, $5, $7, $6, $7), ($1, $2, 'all', $4, $5, $7, $6, $7)
            ON CONFLICT (language, kind, period, learner_id) DO UPDATE SET
                best_score = GREATEST(e.best_score, excluded.best_score),
                score_at = CASE WHEN excluded.best_score > e.best_score THEN excluded.score_at ELSE e.score_at END,
                best_seconds = LEAST(e.best_seconds, excluded.best_seconds),
                seconds_at = CASE WHEN excluded.best_seconds < e.best_seconds THEN excluded.seconds_at ELSE e.seconds_at END
            WHERE excluded.best_score > e.best_score OR excluded.best_seconds < e.best_seconds
            """
        typealias Row = ()
        var language: String, kind: String, week: String, learner: UUID, score: Int, seconds: Double, at: Date

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 7)
            bindings.append(language)
            bindings.append(kind)
            bindings.append(week)
            bindings.append(learner)
            bindings.append(score)
            bindings.append(seconds)
            bindings.append(at)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    // MARK: Reading

    /// The top `limit` of a board with their ranks (ties share one), the
    /// total, and `learner`'s own row with its neighbours, in one statement
    /// ranked from the counts; `learner_not_found` if `learner` was deleted
    /// since it was authorized.
    public func page(
        language: Language, kind: String, period: String, metric: Metric, limit: Int,
        learner authorized: AuthorizedLearner?
    ) async throws -> Page {
        let learner = authorized?.id
        let board = BoardKey(language: language.code, kind: kind, period: period, limit: limit, learner: learner?.uuid)
        let rows = try await database.withConnection { connection in
            switch metric {
            case .score: try await collect(ScorePage(board: board), on: connection)
            case .time: try await collect(TimePage(board: board), on: connection)
            }
        }
        try Self.requireExisting(rows, learner: learner)
        return ranked(try assemble(rows), metric: metric)
    }

    /// `learner`'s own row with its rank, and the board's total: what a
    /// profile shows, in one statement.
    public func standing(language: Language, kind: String, period: String, metric: Metric, learner: LearnerID) async throws
        -> (own: Row?, total: Int)
    {
        let board = BoardKey(language: language.code, kind: kind, period: period, limit: nil, learner: learner.uuid)
        let rows = try await database.withConnection { connection in
            switch metric {
            case .score: try await collect(ScoreStanding(board: board), on: connection)
            case .time: try await collect(TimeStanding(board: board), on: connection)
            }
        }
        let page = ranked(try assemble(rows), metric: metric)
        return (page.own, page.total)
    }

    /// Every entry of `board`, as it stands now: a board to keep in memory.
    public func entries(of board: LeaderboardBoard) async throws -> BoardRanks {
        try await database.withConnection { connection in
            // Only the entries: what a board kept in memory reads is what
            // drops it (`Kept`), and the counts announce nothing.
            let rows = try await connection.query(
                """
                SELECT learner_id, best_score, leaderboard_bucket('time', 0, best_seconds), best_seconds, score_at, seconds_at
                FROM leaderboard_entries
                WHERE language = \(board.language) AND kind = \(board.kind) AND period = \(board.period)
                """, logger: database.logger)
            var entries: [(UUID, BoardRanks.Best)] = []
            // The instants come in binary and are made microseconds again
            // here: half the read's time, against converting them in SQL.
            for try await (learner, score, tenths, seconds, scoreAt, secondsAt) in rows.decode(
                (UUID, Int32, Int32, Double, Date, Date).self)
            {
                entries.append(
                    (
                        learner,
                        BoardRanks.Best(
                            score: score, tenths: tenths, seconds: seconds,
                            scoreAt: BoardRanks.microseconds(read: scoreAt),
                            secondsAt: BoardRanks.microseconds(read: secondsAt))
                    ))
            }
            return BoardRanks(entries: entries)
        }
    }

    /// A board among a few learners (a learner and their friends): read
    /// whole and ranked here, ties sharing a rank.
    public func page(
        language: Language, kind: String, period: String, metric: Metric, limit: Int, learner: LearnerID,
        among members: [LearnerID]
    ) async throws -> Page {
        try await database.withConnection { connection in
            let board = Board(language: language, kind: kind, period: period, metric: metric)
            let everyone = Array(Set(members + [learner]).map(\.uuid).prefix(2000))
            let ranked = metric.ranked(
                try await rows(
                    board.where + " AND e.learner_id = ANY($4) ORDER BY \(metric.order)", board,
                    on: connection, logger: database.logger
                ) { $0.append(everyone) })
            guard let mine = ranked.firstIndex(where: { $0.learner == learner }) else {
                return Page(top: Array(ranked.prefix(limit)), own: nil, neighbours: [], total: ranked.count)
            }
            let neighbours = ranked[max(0, mine - 2)..<min(ranked.count, mine + 3)].filter { $0.learner != learner }
            return Page(top: Array(ranked.prefix(limit)), own: ranked[mine], neighbours: neighbours, total: ranked.count)
        }
    }

    /// A page's statement found that `learner` still exists.
    static func requireExisting(_ rows: [BoardRow], learner: LearnerID?) throws {
        if learner != nil, rows.first?.exists != true { throw ParlaError(.learnerNotFound) }
    }

    func collect(_ statement: some BoardStatement, on connection: PostgresConnection) async throws -> [BoardRow] {
        var rows: [BoardRow] = []
        for try await row in try await connection.execute(statement, logger: database.logger) { rows.append(row) }
        return rows
    }

    /// A page from the rows of `BoardSQL`: each shown row tagged with its
    /// part, or one row of nulls carrying the total when nothing is shown.
    /// Ranks are as the statement gave them (none for the top).
    func assemble(_ rows: [BoardRow]) throws -> Page {
        var page = Page(top: [], own: nil, neighbours: [], total: rows.first?.total ?? 0)
        for row in rows {
            guard let part = row.part, let id = row.learner, let name = row.displayName, let avatar = row.avatarID,
                let score = row.score, let seconds = row.seconds, let scoreAt = row.scoreAt, let secondsAt = row.secondsAt
            else { continue }
            let shown = Row(
                rank: row.rank ?? 0, learner: LearnerID(id), displayName: try cipher.openText(Array(buffer: name), as: .displayName),
                avatarID: avatar, score: score, seconds: seconds, scoreAt: scoreAt, secondsAt: secondsAt)
            switch part {
            case 0: page.top.append(shown)
            case 1: page.own = shown
            default: page.neighbours.append(shown)
            }
        }
        return page
    }

    /// The statement's ranks completed: the top, the board's first rows in
    /// order, is ranked by place.
    func ranked(_ page: Page, metric: Metric) -> Page {
        var page = page
        page.top = metric.ranked(page.top)
        page.neighbours.sort(by: metric.precedes)
        return page
    }
}

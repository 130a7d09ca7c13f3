import Foundation
import Logging
import ParlaCore
import PostgresNIO

/// Leaderboards: best score and best time per learner, language, game kind
/// and period, with ranks that never scan the entries: from this server's
/// memory (`LeaderboardRanks`) once a board is loaded there, and from the
/// counts in SQL until then (migrations 0013, 0016 and 0018).
public struct LeaderboardStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher
    let ranks: LeaderboardRanks?
    /// Learners' names and avatars in memory: with the ranks, a page needs no query.
    let directory: LearnerDirectory?

    public init(database: Database, cipher: PersonalDataCipher, ranks: LeaderboardRanks? = nil, directory: LearnerDirectory? = nil) {
        (self.database, self.cipher, self.ranks, self.directory) = (database, cipher, ranks, directory)
    }

    public enum Metric: String, Sendable, CaseIterable {
        /// Higher is better.
        case score
        /// Fewer seconds is better.
        case time

        // Its order and buckets: `LeaderboardOrder.swift`.

        /// Ranks for rows in board order from the first: a row ties with
        /// the one before it, or is ranked by its place.
        func ranked(_ rows: [Row]) -> [Row] {
            var ranked: [Row] = []
            for var row in rows {
                row.rank = ranked.last.map { bucket(of: $0) == bucket(of: row) ? $0.rank : ranked.count + 1 } ?? 1
                ranked.append(row)
            }
            return ranked
        }
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

    // MARK: Writing

    /// Keeps a finished game's result in every period it belongs to, on
    /// `connection` inside the game's transaction: the learner's best score
    /// and best time improve or stay, and the counts follow.
    public func record(learner: LearnerID, language: Language, kind: String, score: Int, seconds: Double, at date: Date) async throws {
        try await database.withTransaction { connection in
            try await Self.record(
                learner: learner, language: language, kind: kind, score: score, seconds: seconds, at: date,
                on: connection, logger: database.logger)
        }
        recorded(learner: learner, language: language, kind: kind, score: score, seconds: seconds, at: date)
    }

    /// A result this server committed (`record(..., on:)`), into its ranks
    /// in memory at once, so that its caller reads it back at once; the
    /// notification of the same change follows and changes nothing.
    public func recorded(learner: LearnerID, language: Language, kind: String, score: Int, seconds: Double, at date: Date) {
        guard let ranks else { return }
        let at = BoardRanks.microseconds(date)
        let best = BoardRanks.Best(
            score: Int32(clamping: score), tenths: Metric.tenths(seconds), seconds: seconds,
            scoreAt: at, secondsAt: at)
        for period in Self.periods(of: date) {
            ranks.apply(
                .init(
                    board: .init(language: language.code, kind: kind, period: period), learner: learner.uuid, best: best,
                    improvesOnly: true))
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

    /// Learners this server removed (`removeEntries`, committed): out of
    /// its ranks in memory at once.
    public func removed(_ learners: [LearnerID]) {
        if !learners.isEmpty { ranks?.remove(learners.map(\.uuid)) }
        for learner in learners { directory?.cache.drop(learner.uuid) }
    }

    /// A learner this server renamed or gave another avatar: their card
    /// is read again (its notification follows).
    public func changed(_ learner: LearnerID) {
        directory?.cache.drop(learner.uuid)
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
    /// total, and `learner`'s own row with its neighbours: from memory once
    /// the board is loaded there (the fast path: names not yet kept are read
    /// in one query), else one statement ranked from the counts (the
    /// fallback, until the board loads or while notifications are lost);
    /// `learner_not_found` if `learner` was deleted since it was authorized.
    public func page(
        language: Language, kind: String, period: String, metric: Metric, limit: Int,
        learner authorized: AuthorizedLearner?
    ) async throws -> Page {
        let learner = authorized?.id
        let board = BoardKey(language: language.code, kind: kind, period: period, limit: limit, learner: learner?.uuid)
        if let page = try await pageInMemory(board.id, metric: metric, limit: limit, learner: learner) { return page }
        let rows = try await database.withConnection { connection in
            switch metric {
            case .score: try await collect(ScorePage(board: board), on: connection)
            case .time: try await collect(TimePage(board: board), on: connection)
            }
        }
        try Self.requireExisting(rows, learner: learner)
        return ranked(try assemble(rows), metric: metric)
    }

    /// A page from memory alone, the board and the learners' cards both
    /// kept there; nil when either is not (the learner checked as the
    /// statement would: `learner_not_found` once deleted).
    func pageInMemory(_ board: BoardID, metric: Metric, limit: Int, learner: LearnerID?, neighbours: Int = 2) async throws -> Page? {
        guard let ranks, let directory,
            let (placed, total) = ranks.withBoard(
                board, { ($0.page(metric, limit: limit, learner: learner?.uuid, neighbours: neighbours), $0.total) })
        else { return nil }
        var shown = Set((placed.top + placed.neighbours).map(\.learner))
        if let learner { shown.insert(learner.uuid) }
        let cards = try await directory.cards(shown)
        if let learner, cards[learner.uuid] == nil { throw ParlaError(.learnerNotFound) }
        // A learner shown but gone meanwhile: the statement decides.
        func row(_ placed: BoardRanks.Placed) -> Row? {
            guard let card = cards[placed.learner] else { return nil }
            return Row(
                rank: placed.rank, learner: LearnerID(placed.learner), displayName: card.displayName, avatarID: card.avatarID,
                score: Int(placed.best.score), seconds: placed.best.seconds, scoreAt: BoardRanks.date(placed.best.scoreAt),
                secondsAt: BoardRanks.date(placed.best.secondsAt))
        }
        let top = placed.top.compactMap(row), neighbours = placed.neighbours.compactMap(row), own = placed.own.flatMap(row)
        guard top.count == placed.top.count, neighbours.count == placed.neighbours.count, (own == nil) == (placed.own == nil) else {
            return nil
        }
        // The neighbours come in the board's order.
        return Page(top: top, own: own, neighbours: neighbours, total: total)
    }

    /// `learner`'s own row with its rank, and the board's total: what a
    /// profile shows. From memory when the board is kept there, else one
    /// statement.
    public func standing(language: Language, kind: String, period: String, metric: Metric, learner: LearnerID) async throws
        -> (own: Row?, total: Int)
    {
        let board = BoardKey(language: language.code, kind: kind, period: period, limit: nil, learner: learner.uuid)
        if let page = try await pageInMemory(board.id, metric: metric, limit: 0, learner: learner, neighbours: 0) {
            return (page.own, page.total)
        }
        let rows = try await database.withConnection { connection in
            switch metric {
            case .score: try await collect(ScoreStanding(board: board), on: connection)
            case .time: try await collect(TimeStanding(board: board), on: connection)
            }
        }
        let page = ranked(try assemble(rows), metric: metric)
        return (page.own, page.total)
    }

    /// `learner`'s rank and the board's total, nil when they have no entry:
    /// from memory, without a query, once the board is loaded there.
    public func rank(language: Language, kind: String, period: String, metric: Metric, learner: LearnerID) async throws
        -> (rank: Int, total: Int)?
    {
        let board = BoardID(language: language.code, kind: kind, period: period)
        if let ranks, let found = ranks.withBoard(board, { board in (board.rank(metric, of: learner.uuid), board.total) }) {
            return found.0.map { ($0, found.1) }
        }
        let standing = try await standing(language: language, kind: kind, period: period, metric: metric, learner: learner)
        return standing.own.map { ($0.rank, standing.total) }
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

    typealias BoardID = LeaderboardRanks.BoardID

    /// The values every board statement binds: $1 language, $2 kind,
    /// $3 period, then $4 the limit (pages only) and the learner.
    struct BoardKey: Sendable {
        var language: String, kind: String, period: String, limit: Int?, learner: UUID?

        var id: BoardID { BoardID(language: language, kind: kind, period: period) }
    }

    typealias BoardRow = (
        part: Int?, learner: UUID?, displayName: ByteBuffer?, avatarID: String?, score: Int?, seconds: Double?,
        scoreAt: Date?, secondsAt: Date?, rank: Int?, total: Int, exists: Bool?
    )

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
        return (part, learner, name, avatar, score, seconds, scoreAt, secondsAt, rank, total, owned)
    }
}

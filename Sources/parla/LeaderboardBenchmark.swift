import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import ParlaKept
import ParlaServer
import ParlaServices
import ParlaStore
import PostgresNIO

/// The leaderboard benchmark at the store level (`parla bench
/// leaderboards`): fills a board with `learners` learners (once per data
/// directory), then `callers` concurrent callers read a page with a random
/// learner's own rank, then submit results, each for `seconds`.
struct LeaderboardBenchmark: Sendable {
    struct Figures: Sendable {
        var operation: String
        var calls: Int
        var perSecond: Double
        var p50: Double, p99: Double, max: Double
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    static let language = Language.french
    static let kind = "matching"

    /// Fills the board (if it has fewer than `learners`) and measures; the
    /// figures are in milliseconds.
    static func run(_ settings: ServerSettings, learners: Int, callers: Int, seconds: Double, logger: Logger) async throws
        -> (seeded: Double?, loaded: Double, figures: [Figures])
    {
        var settings = settings
        settings.database.maxConnections = max(settings.database.maxConnections, min(callers, 32))
        return try await withDatabase(settings, logger: logger) { database, cipher in
            _ = try await database.migrate()
            let seeded = try await seed(database, cipher: cipher, learners: learners, logger: logger)
            // Each learner as the access rule lets its own account reach it.
            let players = try await database.withConnection { connection in
                try await connection.query(
                    """
                    SELECT e.learner_id, l.account_id FROM leaderboard_entries e JOIN learners l ON l.id = e.learner_id
                    WHERE e.language = \(language.code) AND e.kind = \(kind) AND e.period = 'all'
                    """, logger: logger
                ).collect().map { row in
                    let (learner, account) = try row.decode((UUID, UUID).self)
                    return AuthorizedLearner(id: LearnerID(learner), account: AccountID(account), role: .owner)
                }
            }
            // The ranks in memory, as a server keeps them, loaded before the clock starts.
            let feed = ChangeFeed(database: database, logger: logger)
            let boards = LeaderboardStore(database: database, cipher: cipher)
            let ranks = LeaderboardRanks(store: boards, feed: feed, logger: logger)
            let directory = LearnerDirectory(store: LearnerStore(database: database, cipher: cipher), feed: feed)
            let listening = Task { try await ranks.run() }, feeding = Task { try await feed.run() }
            defer {
                listening.cancel()
                feeding.cancel()
            }
            let loadStart = ContinuousClock.now
            guard await ranks.waitUntilLoaded(language: language.code, kind: kind, period: "all", seconds: 120) else {
                throw Failed(description: "the board's ranks did not load into memory within 120 s")
            }
            let loaded = ContinuousClock.now - loadStart
            let friends = FriendStore(database: database, cipher: cipher)
            let store = LeaderboardService(store: boards, friends: friends, ranks: ranks, directory: directory)
            let fromCounts = LeaderboardService(store: boards, friends: friends, ranks: nil, directory: directory)
            @Sendable func player(_ random: inout SystemRandomNumberGenerator) -> AuthorizedLearner {
                players[Int(random.next() % UInt64(players.count))]
            }
            @Sendable func learner(_ random: inout SystemRandomNumberGenerator) -> LearnerID { player(&random).id }
            /// A page with `learner`'s own rank: the top 10 and 4 neighbours.
            @Sendable func page(_ store: LeaderboardService, _ learner: AuthorizedLearner) async throws {
                _ = try await store.page(language: language, kind: kind, period: "all", metric: .score, limit: 10, learner: learner)
            }
            let rank = try await measure("rank alone (one learner's place, from memory)", callers: callers, seconds: seconds) { random in
                _ = try await store.rank(language: language, kind: kind, period: "all", metric: .score, learner: learner(&random))
            }
            let read = try await measure(
                "page with the caller's rank (top 10, own rank, 4 neighbours), all from memory", callers: callers,
                seconds: seconds
            ) { random in try await page(store, player(&random)) }
            // The learners who come back (here 1,000 of them): their names and their neighbours' are kept after the first page.
            let regulars = Array(players.prefix(1_000))
            for learner in regulars { try await page(store, learner) }
            let readKept = try await measure(
                "page from memory, the names kept (1,000 learners who come back)", callers: callers,
                seconds: seconds
            ) { random in try await page(store, regulars[Int(random.next() % UInt64(regulars.count))]) }
            let readCounts = try await measure(
                "page with the caller's rank, ranks from the SQL counts", callers: callers,
                seconds: seconds
            ) { random in try await page(fromCounts, player(&random)) }
            let rankCounts = try await measure("rank alone, from the SQL counts", callers: callers, seconds: seconds) { random in
                _ = try await fromCounts.rank(language: language, kind: kind, period: "all", metric: .score, learner: learner(&random))
            }
            let submit = try await measure(
                "submit a result (all time and this week; counts and memory follow)", callers: callers,
                seconds: seconds
            ) { random in
                let result = LeaderboardStore.Result(
                    learner: learner(&random), language: language, kind: kind, score: Int(random.next() % 800),
                    seconds: 20 + Double(random.next() % 2800) / 10, at: Date())
                try await boards.record(result)
                store.recorded(result)
            }
            return (
                seeded, Double(loaded.components.seconds) + Double(loaded.components.attoseconds) / 1e18,
                [rank, read, readKept, readCounts, rankCounts, submit]
            )
        }
    }

    /// Learners under one bench account, each with a random best score and
    /// time, all time and this week, and the counts the ranks read. Seconds
    /// taken, or nil when the board was already full.
    static func seed(_ database: Database, cipher: PersonalDataCipher, learners: Int, logger: Logger) async throws -> Double? {
        let start = Date()
        let present = try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT count(*)::int FROM leaderboard_entries WHERE language = \(language.code) AND kind = \(kind) AND period = 'all'
                """, logger: logger
            ).collect().first?.decode(Int.self) ?? 0
        }
        guard present < learners else { return nil }
        try await database.withTransaction { connection in
            let account = UUID()
            let blank = ByteBuffer(bytes: try cipher.seal("-", as: .firstName))
            let name = ByteBuffer(bytes: try cipher.seal("Bench player", as: .displayName))
            var index = ByteBuffer()
            index.writeBytes((0..<32).map { _ in UInt8.random(in: 0...255) })
            try await connection.query(
                """
                INSERT INTO accounts (id, first_name, last_name, email, email_index, password_hash, ui_language, terms_version, terms_accepted_at)
                VALUES (\(account), \(blank), \(blank), \(blank), \(index), '!', 'en', 'bench', now())
                """, logger: logger)
            try await connection.query(
                """
                INSERT INTO learners (id, account_id, display_name, avatar_id, native_language)
                SELECT gen_random_uuid(), \(account), \(name), 'cap-explorer', 'en' FROM generate_series(1, \(learners - present))
                """, logger: logger)
            let week = LeaderboardStore.week(of: Date())
            // Row by row, the triggers would move the counts and announce
            // the change a million times: they are off for the bulk load, the
            // counts are made once after, and ranks in memory load after.
            try await connection.query("ALTER TABLE leaderboard_entries DISABLE TRIGGER USER", logger: logger)
            try await connection.query(
                """
                INSERT INTO leaderboard_entries (language, kind, period, learner_id, best_score, score_at, best_seconds, seconds_at)
                SELECT \(language.code), \(kind), p.period, l.id, (random() * 800)::int, now(), 20 + round((random() * 280)::numeric, 1)::float8, now()
                FROM learners l CROSS JOIN (VALUES ('all'), (\(week))) AS p (period) WHERE l.account_id = \(account)
                """, logger: logger)
            try await connection.query(
                """
                DELETE FROM leaderboard_counts WHERE language = \(language.code) AND kind = \(kind)
                """, logger: logger)
            try await connection.query(
                """
                INSERT INTO leaderboard_counts (language, kind, period, metric, span, bucket, entries)
                SELECT e.language, e.kind, e.period, m.metric, s.span, leaderboard_bucket(m.metric, e.best_score, e.best_seconds) / s.span, count(*)
                FROM leaderboard_entries e
                CROSS JOIN (VALUES ('score'), ('time')) AS m (metric) CROSS JOIN (VALUES (1), (64)) AS s (span)
                WHERE e.language = \(language.code) AND e.kind = \(kind)
                GROUP BY 1, 2, 3, 4, 5, 6
                """, logger: logger)
            try await connection.query("ALTER TABLE leaderboard_entries ENABLE TRIGGER USER", logger: logger)
        }
        try await database.withConnection { connection in
            try await connection.query("ANALYZE leaderboard_entries", logger: logger)
            try await connection.query("ANALYZE leaderboard_counts", logger: logger)
        }
        return Date().timeIntervalSince(start)
    }

    /// pgbench scripts running the page and standing statements as the
    /// store does, for a random learner of the board (numbered in
    /// `leaderboard_bench_players`, made here): the SQL's own rate, without
    /// our client.
    static func writePgbenchScripts(_ settings: ServerSettings, learners: Int, to directory: String, logger: Logger) async throws {
        try await withDatabase(settings, logger: logger) { database, _ in
            try await database.withConnection { connection in
                let exists =
                    try await connection.query("SELECT to_regclass('leaderboard_bench_players') IS NOT NULL", logger: logger)
                    .collect().first?.decode(Bool.self) ?? false
                if exists {
                    let count =
                        try await connection.query("SELECT count(*)::int FROM leaderboard_bench_players", logger: logger)
                        .collect().first?.decode(Int.self) ?? 0
                    guard count != learners else { return }
                    try await connection.query("DROP TABLE leaderboard_bench_players", logger: logger)
                }
                try await connection.query(
                    """
                    CREATE TABLE leaderboard_bench_players AS
                    SELECT row_number() OVER (ORDER BY learner_id)::int AS n, learner_id FROM leaderboard_entries
                    WHERE language = \(language.code) AND kind = \(kind) AND period = 'all'
                    """, logger: logger)
                try await connection.query("ALTER TABLE leaderboard_bench_players ADD PRIMARY KEY (n)", logger: logger)
            }
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let learner = "(SELECT learner_id FROM leaderboard_bench_players WHERE n = :n)"
        for (name, page) in [("page", true), ("standing", false)] {
            let values = ["$3": "'all'", "$2": "'\(kind)'", "$1": "'\(language.code)'"]
                .merging(page ? ["$5": learner, "$4": "10"] : ["$4": learner]) { first, _ in first }
            let script = "\\set n random(1, \(learners))\n" + LessonBenchmark.bound(LeaderboardStore.statement(.score, page: page), values)
            try script.write(toFile: directory + "/\(name).sql", atomically: true, encoding: .utf8)
        }
    }

    /// `callers` tasks calling `operation` as fast as they can for `seconds`.
    static func measure(
        _ name: String, callers: Int, seconds: Double,
        _ operation: @escaping @Sendable (inout SystemRandomNumberGenerator) async throws -> Void
    ) async throws -> Figures {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<callers {
                group.addTask {
                    var random = SystemRandomNumberGenerator()
                    var mine: [Double] = []
                    while ContinuousClock.now < deadline {
                        let start = ContinuousClock.now
                        try await operation(&random)
                        let elapsed = ContinuousClock.now - start
                        mine.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
                    }
                    return mine
                }
            }
            var all: [Double] = []
            for try await part in group { all += part }
            return all.sorted()
        }
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, max(0, Int((p * Double(latencies.count)).rounded(.up)) - 1))]
        }
        return Figures(
            operation: name, calls: latencies.count, perSecond: Double(latencies.count) / seconds,
            p50: percentile(0.5), p99: percentile(0.99), max: latencies.last ?? .nan)
    }
}

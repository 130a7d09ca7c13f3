import Foundation
import Logging
import ParlaCore
import ParlaServices
import ParlaTestSupport
import PostgresNIO
import Testing

@testable import ParlaGames
@testable import ParlaKept
@testable import ParlaServer
@testable import ParlaStore

/// The ranks each server keeps in memory, against real PostgreSQL: two
/// servers' worth (their own pools and listeners) on one database, changed
/// through the store, through plain SQL and by learners leaving.
@Suite("games: leaderboard ranks in memory")
struct LeaderboardRankTests {
    static let board = LeaderboardBoard(language: "fr", kind: "matching", period: "all")
    let logger = Logger(label: "parla.tests.ranks")

    /// A server's leaderboard part on the database at `url`: its pool and
    /// its ranks, running for the length of `body`.
    func withServer<Value: Sendable>(
        _ url: String, idleLimit: Duration = .seconds(600), heartbeat: Duration = .seconds(10),
        _ body: (LeaderboardService, LeaderboardRanks) async throws -> Value
    ) async throws -> Value {
        try await TestDatabase.withPool(url, connections: 4, logger: logger) { database in
            let feed = ChangeFeed(database: database, logger: logger, heartbeatInterval: heartbeat)
            let cipher = try TestApp.cipher()
            let store = LeaderboardStore(database: database, cipher: cipher)
            let ranks = LeaderboardRanks(store: store, feed: feed, logger: logger, idleLimit: idleLimit)
            let directory = LearnerDirectory(store: LearnerStore(database: database, cipher: cipher), feed: feed)
            let listening = Task { try await ranks.run() }, feeding = Task { try await feed.run() }
            defer {
                listening.cancel()
                feeding.cancel()
            }
            let service = LeaderboardService(
                store: store, friends: FriendStore(database: database, cipher: cipher), ranks: ranks, directory: directory)
            return try await body(service, ranks)
        }
    }

    /// A game's result as a server records it: committed, then into its own ranks at once.
    func record(_ server: LeaderboardService, _ result: LeaderboardStore.Result) async throws {
        try await server.store.record(result)
        server.recorded(result)
    }

    /// Every learner's rank by score and by time, and the total, from a
    /// full ranking in SQL: what memory must say.
    func expected(_ url: String) async throws -> (ranks: [UUID: [Int]], total: Int) {
        let rows = try await TestDatabase.shared.rows(
            in: url,
            """
            SELECT learner_id, (rank() OVER (ORDER BY best_score DESC))::int,
                   (rank() OVER (ORDER BY floor(best_seconds * 10)))::int
            FROM leaderboard_entries WHERE language = 'fr' AND kind = 'matching' AND period = 'all'
            """)
        var ranks: [UUID: [Int]] = [:]
        for row in rows {
            let (learner, score, time) = try row.decode((UUID, Int, Int).self)
            ranks[learner] = [score, time]
        }
        return (ranks, rows.count)
    }

    /// Whether `ranks` holds the board, exactly as the table ranks it.
    func agrees(_ ranks: LeaderboardRanks, with url: String) async throws -> Bool {
        let (expected, total) = try await expected(url)
        let held = ranks.withBoard(Self.board) { board in
            (
                board.total,
                Dictionary(
                    uniqueKeysWithValues: board.learners.keys.map { ($0, [board.rank(.score, of: $0)!, board.rank(.time, of: $0)!]) })
            )
        }
        guard let (heldTotal, heldRanks) = held else { return false }
        return heldTotal == total && heldRanks == expected
    }

    @Test("both servers' ranks follow results, direct changes and departures, and load again after a lost connection")
    func ranksFollowTheTable() async throws {
        let app = try await TestApp.make()
        let url = app.databaseURL
        try await app.run { client in
            let owner = try await client.signUp(email: "owner@example.com")
            // 300 learners; some times past a day, beyond the tree.
            try await LeaderboardTests.addPlayers(
                url, owner: owner, count: 300, score: "abs(hashtext(id::text)) % 900",
                seconds: """
                    CASE WHEN abs(hashtext(id::text || 'x')) % 17 = 0 THEN 110000 + abs(hashtext(id::text || 'y')) % 5000
                         ELSE (abs(hashtext(id::text || 't')) % 3000) / 10.0 END
                    """)
            try await withServer(url) { one, oneRanks in
                try await withServer(url) { two, twoRanks in
                    #expect(await oneRanks.waitUntilLoaded(language: "fr", kind: "matching", period: "all"))
                    #expect(await twoRanks.waitUntilLoaded(language: "fr", kind: "matching", period: "all"))
                    #expect(try await agrees(oneRanks, with: url))
                    #expect(try await agrees(twoRanks, with: url))

                    // Through the store on one server: its own ranks have it at once.
                    let learners = try await expected(url).ranks.keys.sorted { $0.uuidString < $1.uuidString }
                    try await record(
                        one,
                        .init(learner: LearnerID(learners[0]), language: .french, kind: "matching", score: 5000, seconds: 0.05, at: Date()))
                    let first = try await one.rank(
                        language: .french, kind: "matching", period: "all", metric: .score,
                        learner: LearnerID(learners[0]))
                    #expect(first?.rank == 1)
                    for (index, learner) in learners[1..<40].enumerated() {
                        try await record(
                            one,
                            .init(
                                learner: LearnerID(learner), language: .french, kind: "matching", score: index * 25,
                                seconds: Double(index) * 3.05, at: Date()))
                    }
                    // Plain SQL: improvements, corrections for the worse, departures, newcomers.
                    try await TestDatabase.shared.execute(
                        in: url,
                        """
                        UPDATE leaderboard_entries SET best_score = best_score + 64, best_seconds = best_seconds / 3
                        WHERE abs(hashtext(learner_id::text || 'u')) % 4 = 0
                        """)
                    try await TestDatabase.shared.execute(
                        in: url,
                        """
                        UPDATE leaderboard_entries SET best_score = best_score / 2, best_seconds = best_seconds * 2 + 1
                        WHERE abs(hashtext(learner_id::text || 'w')) % 5 = 0
                        """)
                    try await TestDatabase.shared.execute(
                        in: url,
                        """
                        DELETE FROM learners WHERE id IN (SELECT learner_id FROM leaderboard_entries
                                                          WHERE abs(hashtext(learner_id::text || 'd')) % 10 = 0)
                        """)
                    try await LeaderboardTests.addPlayers(
                        url, owner: owner, count: 30, score: "abs(hashtext(id::text)) % 900",
                        seconds: "12.34")
                    #expect(try await eventually { try await agrees(oneRanks, with: url) })
                    #expect(try await eventually { try await agrees(twoRanks, with: url) })

                    // A page from memory (ranks, order and names) is the page
                    // the statement reads and ranks from the counts, row for row.
                    let account = try #require(AccountID(owner.accountID))
                    let fromCounts = two.store
                    func owned(_ learner: UUID) -> AuthorizedLearner? {
                        AuthorizedLearner.resolve(LearnerID(learner), ownedBy: account, caller: account, for: .read)
                    }
                    func samePages(_ count: Int) async throws {
                        let (expected, total) = try await expected(url)
                        for learner in expected.keys.sorted(by: { $0.uuidString < $1.uuidString }).prefix(count) {
                            for metric in LeaderboardStore.Metric.allCases {
                                let memory = try await two.pageInMemory(
                                    .init(language: "fr", kind: "matching", period: "all"), metric: metric,
                                    limit: 5, learner: LearnerID(learner))
                                let counted = try await fromCounts.page(
                                    language: .french, kind: "matching", period: "all", metric: metric,
                                    limit: 5, learner: owned(learner))
                                #expect(memory?.total == total && counted.total == total)
                                #expect(memory?.own == counted.own && memory?.own?.rank == expected[learner]?[metric == .score ? 0 : 1])
                                #expect(memory?.top == counted.top)
                                #expect(memory?.neighbours == counted.neighbours)
                            }
                        }
                    }
                    try await samePages(12)
                    // Ties in score and time, ordered by when and then by who.
                    try await TestDatabase.shared.execute(
                        in: url,
                        """
                        UPDATE leaderboard_entries SET best_score = 333, best_seconds = 33.3 + (abs(hashtext(learner_id::text)) % 3) / 100.0,
                            score_at = timestamptz '2026-11-01 10:00:00.123456+00' + (abs(hashtext(learner_id::text || 'a')) % 2) * interval '1 microsecond',
                            seconds_at = timestamptz '2026-11-01 10:00:00+00'
                        WHERE abs(hashtext(learner_id::text || 't')) % 3 = 0
                        """)
                    #expect(try await eventually { try await agrees(twoRanks, with: url) })
                    try await samePages(12)
                    // A learner renamed elsewhere shows under their new name.
                    let renamed = try #require(try await expected(url).ranks.keys.first)
                    let rename = try await client.patch("/v1/learners/\(renamed)", token: owner.token, json: ["displayName": "Renamed"])
                    #expect(rename.status == 200, "\(rename.text)")
                    #expect(
                        try await eventually {
                            try await two.pageInMemory(
                                .init(language: "fr", kind: "matching", period: "all"), metric: .score, limit: 5,
                                learner: LearnerID(renamed))?.own?.displayName == "Renamed"
                        })
                    // Not the asking account's learner: refused by the access rule, from the same directory.
                    let access = LearnerAccess(directory: two.directory)
                    await #expect(throws: ParlaError(.learnerNotFound)) {
                        try await access.learner(LearnerID(renamed), caller: AccountID.generate(), for: .read)
                    }
                    #expect(try await access.learner(LearnerID(renamed), caller: account, for: .read).role == .owner)

                    // Both listeners cut off: a change made meanwhile is not
                    // missed, as each server drops its boards and loads them again.
                    let cut = try await TestDatabase.shared.rows(
                        in: url,
                        """
                        SELECT count(pg_terminate_backend(pid))::int FROM pg_stat_activity
                        WHERE datname = current_database() AND pid <> pg_backend_pid()
                          AND (query ILIKE 'LISTEN%' OR query = 'SELECT pg_notify($1, $2)')
                        """)
                    #expect(try cut.first?.decode(Int.self) ?? 0 >= 2)  // and the HTTP server's own
                    try await TestDatabase.shared.execute(
                        in: url,
                        """
                        UPDATE leaderboard_entries SET best_score = best_score + 500 WHERE abs(hashtext(learner_id::text || 'v')) % 3 = 0
                        """)
                    #expect(try await eventually { try await agrees(oneRanks, with: url) })
                    #expect(try await eventually { try await agrees(twoRanks, with: url) })
                }
            }
        }
    }

    @Test("heartbeats keep a listener listening; a notification it cannot read makes it start again")
    func heartbeats() async throws {
        let url = try await TestDatabase.shared.newDatabase()
        // Generous: the whole suite shares two cores, and a listener starved
        // for three heartbeats would rightly start again.
        try await withServer(url, heartbeat: .seconds(3)) { _, ranks in
            #expect(await ranks.waitUntilLoaded(language: "de", kind: "matching", period: "all"))
            // Six heartbeats later, nothing was dropped.
            try await Task.sleep(for: .seconds(18))
            #expect(ranks.loadedBoards == 1)
            try await TestDatabase.shared.execute(in: url, "SELECT pg_notify('parla_changes', E'entry\\tnot a change')")
            let dropped = try await eventually { ranks.loadedBoards == 0 }
            #expect(dropped)
            #expect(await ranks.waitUntilLoaded(language: "de", kind: "matching", period: "all"))
        }
        try await TestDatabase.shared.dropDatabase(url: url)
    }

    @Test("a board nobody asks for leaves memory, and comes back when asked for")
    func idleBoardsLeave() async throws {
        let url = try await TestDatabase.shared.newDatabase()
        try await withServer(url, idleLimit: .seconds(3)) { _, ranks in
            #expect(await ranks.waitUntilLoaded(language: "de", kind: "matching", period: "all"))
            #expect(ranks.loadedBoards == 1)
            let forgotten = try await eventually { ranks.loadedBoards == 0 }
            #expect(forgotten)
            #expect(await ranks.waitUntilLoaded(language: "de", kind: "matching", period: "all"))
        }
        try await TestDatabase.shared.dropDatabase(url: url)
    }
}

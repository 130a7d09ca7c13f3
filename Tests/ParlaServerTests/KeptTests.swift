import Foundation
import Logging
import ParlaCore
import ParlaKept
import ParlaStore
import ParlaTestSupport
import PostgresNIO
import Synchronization
import Testing

/// The registry of what a server keeps in memory (`Kept`) against the
/// migrated database: each kept thing's tables announce its topic, and
/// nothing else does; a server hears its own transactions' announcements
/// at their commit.
@Suite("what a server keeps in memory")
struct KeptTests {
    let logger = Logger(label: "parla.tests.kept")

    /// The tables each topic is announced from, as the triggers say.
    func announcingTables(_ url: String) async throws -> [String: Set<String>] {
        let rows = try await TestDatabase.shared.rows(
            in: url,
            """
            SELECT c.relname::text, p.proname::text, t.tgargs FROM pg_trigger t
            JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
            WHERE NOT t.tgisinternal AND p.proname LIKE 'announce%'
            """)
        var tables: [String: Set<String>] = [:]
        for row in rows {
            let (table, function, arguments) = try row.decode((String, String, ByteBuffer).self)
            // The arguments, each ended by a zero byte; the first is the topic.
            let topic = Array(buffer: arguments).split(separator: 0, omittingEmptySubsequences: false).first.map {
                String(decoding: $0, as: UTF8.self)
            }
            let topicOf = "\(table) (\(function))"
            try #require(topic?.isEmpty == false, "a trigger on \(topicOf) announces no topic")
            tables[topic!, default: []].insert(table)
        }
        return tables
    }

    @Test("the tables announcing each topic are those the registry lists for it, and only announce() notifies of changes")
    func triggersMatchTheRegistry() async throws {
        let url = try await TestDatabase.shared.newDatabase()
        let announced = try await announcingTables(url)
        let registry = Kept.tablesByTopic
        for topic in Set(announced.keys).union(registry.keys).sorted() {
            let missing = (registry[topic] ?? []).subtracting(announced[topic] ?? [])
            let unlisted = (announced[topic] ?? []).subtracting(registry[topic] ?? [])
            #expect(missing.isEmpty, "\(topic): read from \(missing.sorted()) with no trigger announcing its changes")
            #expect(unlisted.isEmpty, "\(topic): announced from \(unlisted.sorted()), which the registry does not list")
        }
        // Every subscriber's topic is in the registry.
        #expect(Set(registry.keys) == ["session", "account", "learner", "entitlements", "entry", "class"])
        // Changes reach the feed only through announce(): no other function
        // notifies the channel of a table's change (the speech queue's bells
        // are not kept rows, and are rung by its store).
        let notifying = try await TestDatabase.shared.rows(
            in: url,
            "SELECT proname::text FROM pg_proc WHERE pronamespace = 'public'::regnamespace AND prosrc LIKE '%pg_notify%' ORDER BY 1")
        #expect(try notifying.map { try $0.decode(String.self) } == ["announce"])
    }

    @Test("a transaction's announcements are heard by its server at its commit, per topic, and a rolled back one's never")
    func ownWritesHeardAtCommit() async throws {
        let url = try await TestDatabase.shared.newDatabase()
        let heard = Mutex<[String: [String]]>([:])
        try await TestDatabase.withPool(url, connections: 2, logger: logger) { database in
            database.hearOwnAnnouncements(topics: ["account", "learner"]) { topic, keys in
                heard.withLock { $0[topic, default: []] += keys.map(String.init) }
            }
            let (account, learner) = (UUID(), UUID())
            try await database.withTransaction { connection in
                try await connection.query(
                    "INSERT INTO accounts (id, ui_language, guest) VALUES (\(account), 'en', true)", logger: logger)
                try await connection.query(
                    """
                    INSERT INTO learners (id, account_id, display_name, avatar_id, native_language)
                    VALUES (\(learner), \(account), '\\x00', 'fox', 'en')
                    """, logger: logger)
            }
            // A learner added changes its account's profile, not its card.
            #expect(heard.withLock { $0 } == ["account": [account.uuidString.lowercased()]])
            heard.withLock { $0 = [:] }
            try await database.withTransaction { connection in
                try await connection.query("UPDATE learners SET avatar_id = 'owl' WHERE id = \(learner)", logger: logger)
            }
            #expect(heard.withLock { $0 } == ["account": [account.uuidString.lowercased()], "learner": [learner.uuidString.lowercased()]])
            heard.withLock { $0 = [:] }
            struct Undone: Error {}
            await #expect(throws: Undone.self) {
                try await database.withTransaction { connection in
                    try await connection.query("UPDATE learners SET avatar_id = 'cat' WHERE id = \(learner)", logger: logger)
                    throw Undone()
                }
            }
            #expect(heard.withLock { $0 }.isEmpty)
            // More than 100 keys of a topic in one transaction: "*" once.
            try await database.withTransaction { connection in
                try await connection.query(
                    "INSERT INTO accounts (id, ui_language, guest) SELECT gen_random_uuid(), 'en', true FROM generate_series(1, 150)",
                    logger: logger)
                try await connection.query("UPDATE accounts SET ui_language = 'fr'", logger: logger)
            }
            #expect(heard.withLock { $0 } == ["account": ["*"]])
        }
    }
}

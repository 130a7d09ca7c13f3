import Foundation
import Logging
import ParlaDatabase
import ParlaStore
import ParlaTestSupport
import PostgresNIO
import Synchronization
import Testing

/// `Database.withConnection`'s promises, on a real pool: a use that cannot
/// get a connection within the wait, or whose connection closed under it,
/// ends with `databaseUnavailable` (a 503) instead of hanging; a use that
/// got its connection runs to its end.
@Suite("database connection use")
struct ConnectionUseTests {
    let logger = Logger(label: "parla.tests.connections")

    /// A use that holds one of the pool's connections for `seconds`.
    static func holding(_ database: Database, for seconds: Double, logger: Logger) -> Task<Int, any Error> {
        Task {
            try await database.withConnection { connection in
                try await connection.query("SELECT pg_sleep(\(seconds))", logger: logger).collect().count
            }
        }
    }

    static func isUnavailable<Value>(_ outcome: Result<Value, any Error>?) -> Bool {
        guard case .failure(StoreError.databaseUnavailable) = outcome else { return false }
        return true
    }

    @Test("a query on a connection that closed under its use ends as unavailable, and the pool goes on")
    func closedUnderTheBody() async throws {
        let url = try await TestDatabase.shared.newDatabase()
        let logger = logger
        try await TestDatabase.withPool(url, connections: 2, connectionWait: .seconds(1), logger: logger) { database in
            // PostgresNIO loses a query written after its channel closed;
            // its caller would wait forever without the guard.
            let (outcome, seconds) = await TimeLimit.within(.seconds(15)) {
                try await database.withConnection { connection in
                    try await connection.close()
                    return try await connection.query("SELECT 1", logger: logger).collect().count
                }
            }
            #expect(outcome != nil, "still waiting after 15 s")
            if case .failure(let error) = outcome {
                #expect(Database.isOutage(error), "\(String(reflecting: error))")
            } else {
                Issue.record("a query on a closed connection answered: \(String(describing: outcome))")
            }
            // The wait (1 s), a look a second, and the grace (2 s).
            #expect(seconds < 6)
            let rows = try await database.withConnection { connection in
                try await connection.query("SELECT 1", logger: logger).collect().count
            }
            #expect(rows == 1)
        }
        try await TestDatabase.shared.dropDatabase(url: url)
    }

    @Test("a use with no free connection within the wait is unavailable; the one holding it finishes")
    func noFreeConnection() async throws {
        let url = try await TestDatabase.shared.newDatabase()
        let logger = logger
        try await TestDatabase.withPool(url, connections: 1, connectionWait: .seconds(1), logger: logger) { database in
            // Longer than the wait: the timer never cancels a use that has its connection.
            let holding = Self.holding(database, for: 2.5, logger: logger)
            try await Task.sleep(for: .milliseconds(300))
            let (waiting, seconds) = await TimeLimit.within(.seconds(10)) {
                try await database.withConnection { connection in
                    try await connection.query("SELECT 1", logger: logger).collect().count
                }
            }
            #expect(Self.isUnavailable(waiting), "\(String(describing: waiting))")
            #expect(seconds > 0.9 && seconds < 2.5)
            #expect(try await holding.value == 1)
            // Free again: the next use gets it.
            #expect(try await database.withConnection { try await $0.query("SELECT 1", logger: logger).collect().count } == 1)
        }
        try await TestDatabase.shared.dropDatabase(url: url)
    }

    @Test("a caller cancelled while it waits for a connection stops waiting")
    func cancelledWhileWaiting() async throws {
        let url = try await TestDatabase.shared.newDatabase()
        let logger = logger
        try await TestDatabase.withPool(url, connections: 1, connectionWait: .seconds(30), logger: logger) { database in
            let holding = Self.holding(database, for: 2, logger: logger)
            try await Task.sleep(for: .milliseconds(300))
            let waiter = Task {
                try await database.withConnection { connection in
                    try await connection.query("SELECT 1", logger: logger).collect().count
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            waiter.cancel()
            let (outcome, seconds) = await TimeLimit.within(.seconds(10)) { try await waiter.value }
            if case .success = outcome { Issue.record("a cancelled wait got its connection") }
            #expect(outcome != nil && seconds < 1.5, "a cancelled wait went on for \(seconds) s")
            #expect(try await holding.value == 1)
        }
        try await TestDatabase.shared.dropDatabase(url: url)
    }

    @Test("a database unreachable for longer than the pool keeps trying is an outage, and is used again once back")
    func unreachable() async throws {
        let url = try await TestDatabase.shared.newDatabase()
        let logger = logger
        try await TestDatabase.withPool(url, connections: 2, connectionWait: .seconds(1), logger: logger) { database in
            let query: @Sendable () async throws -> Int = {
                try await database.withConnection { try await $0.query("SELECT 1", logger: logger).collect().count }
            }
            #expect(try await query() == 1)
            try await TestDatabase.shared.setReachable(false, url: url)
            // Every use is told at once the database is unavailable (a 503),
            // for as long as it lasts; the pool's attempts to connect back
            // off, and past 15 s of them its circuit breaker could refuse
            // leases at once (`Database.isOutage` counts that too).
            let start = ContinuousClock.now
            var outcomes: [Result<Int, any Error>?] = []
            while ContinuousClock.now - start < .seconds(18) {
                outcomes.append(await TimeLimit.within(.seconds(10)) { try await query() }.outcome)
                try await Task.sleep(for: .milliseconds(500))
            }
            #expect(outcomes.allSatisfy { $0 != nil }, "a use still waiting after 10 s")
            for case .some(let outcome) in outcomes {
                if case .failure(let error) = outcome {
                    #expect(Database.isOutage(error), "\(String(reflecting: error))")
                } else {
                    Issue.record("answered while unreachable")
                }
            }
            try await TestDatabase.shared.setReachable(true, url: url)
            let back = ContinuousClock.now
            var answered = false
            while !answered, ContinuousClock.now - back < .seconds(30) {
                answered = (try? await query()) == 1
                if !answered { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(answered, "not back within 30 s")
            print("connections: database reachable again; first use \(ContinuousClock.now - back) later")
        }
        try await TestDatabase.shared.dropDatabase(url: url)
    }
}

import Foundation
import ParlaDatabase
import PostgresNIO

/// The counts behind rate limits, in fixed windows (migration 0039).
public struct RateCounterStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// One more hit on each key in its window (ending at `windowEnds`, in
    /// seconds since 1970); the count of each key after it, by key. One
    /// statement for all keys, taken in key order so that two requests
    /// counting the same keys cannot deadlock.
    public func hit(_ keys: [(key: String, windowEnds: Int)]) async throws -> [String: Int] {
        guard !keys.isEmpty else { return [:] }
        let names = keys.map(\.key)
        let ends = keys.map { Int64($0.windowEnds) }
        return try await database.withConnection { connection in
            var counts: [String: Int] = [:]
            let rows = try await connection.query(
                """
                INSERT INTO rate_counters (key, window_ends, hits)
                SELECT k, to_timestamp(e), 1 FROM unnest(\(names)::text[], \(ends)::bigint[]) AS t(k, e) ORDER BY k
                ON CONFLICT (key, window_ends) DO UPDATE SET hits = rate_counters.hits + 1
                RETURNING key, hits
                """, logger: database.logger)
            for try await (key, hits) in rows.decode((String, Int).self) { counts[key] = hits }
            return counts
        }
    }

    /// Forgets windows that have ended; how many rows went.
    @discardableResult
    public func sweep() async throws -> Int {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                "WITH gone AS (DELETE FROM rate_counters WHERE window_ends < now() RETURNING 1) SELECT count(*)::int FROM gone",
                logger: database.logger
            ).collect()
            return try rows.first?.decode(Int.self) ?? 0
        }
    }
}

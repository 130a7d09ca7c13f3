import Foundation
import ParlaCore
import ParlaGames
import ParlaTestSupport
import PostgresNIO
import Testing

@testable import ParlaStore

/// The board's order and buckets are defined once (`BoardPlace`,
/// `Metric.order`, `Metric.tenths`); PostgreSQL must agree with them, and
/// so must what the migrations made (indexes, `leaderboard_bucket`).
@Suite("games: leaderboard order")
struct LeaderboardOrderTests {
    typealias Metric = LeaderboardStore.Metric

    struct Entry {
        var learner: UUID, score: Int, scoreAt: Int64, seconds: Double, secondsAt: Int64
    }

    /// Entries with many ties: few scores, times on and beside tenths,
    /// three instants, and ids that differ in their last byte or across
    /// the sign of their first.
    static func entries(_ count: Int) -> [Entry] {
        var random = SystemRandomNumberGenerator()
        let times = [2.3, 2.34, 2.35, 2.399999, 2.4, 12.34, 29.99999, 30.0, 0.1, 0.7]
        let base: Int64 = 800_000_000_000_000
        var ids = (0..<count - 4).map { _ in UUID() }
        ids += [
            UUID(uuidString: "7fffffff-0000-0000-0000-000000000000")!, UUID(uuidString: "80000000-0000-0000-0000-000000000000")!,
            UUID(uuidString: "11111111-2222-3333-4444-555555555501")!, UUID(uuidString: "11111111-2222-3333-4444-555555555502")!,
        ]
        return ids.map { id in
            Entry(
                learner: id, score: Int(random.next() % 8), scoreAt: base + Int64(random.next() % 3) * 1_000,
                seconds: times[Int(random.next() % UInt64(times.count))], secondsAt: base + Int64(random.next() % 3) * 1_000)
        }
    }

    @Test("PostgreSQL's ORDER BY and ranks agree with BoardPlace and Metric.tenths, ties included")
    func orderAgrees() async throws {
        let app = try await TestApp.make()
        let entries = Self.entries(500)
        for metric in Metric.allCases {
            let sorted = entries.sorted {
                metric.place(learner: $0.learner, score: Int32($0.score), seconds: $0.seconds, scoreAt: $0.scoreAt, secondsAt: $0.secondsAt)
                    < metric.place(
                        learner: $1.learner, score: Int32($1.score), seconds: $1.seconds, scoreAt: $1.scoreAt, secondsAt: $1.secondsAt)
            }
            let ranked = LeaderboardStore.Metric.ranked(metric)(
                sorted.map { entry in
                    LeaderboardStore.Row(
                        rank: 0, learner: LearnerID(entry.learner), displayName: "", avatarID: "", score: entry.score,
                        seconds: entry.seconds, scoreAt: BoardRanks.date(entry.scoreAt), secondsAt: BoardRanks.date(entry.secondsAt))
                })
            let direction = metric == .score ? "DESC" : ""
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                """
                SELECT e.learner_id, rank() OVER (ORDER BY \(unescaped: metric.bucketSQL("e")) \(unescaped: direction))::integer
                FROM unnest(\(entries.map(\.learner)), \(entries.map(\.score)), \(entries.map { BoardRanks.date($0.scoreAt) }),
                            \(entries.map(\.seconds)), \(entries.map { BoardRanks.date($0.secondsAt) }))
                     AS e (learner_id, best_score, score_at, best_seconds, seconds_at)
                ORDER BY \(unescaped: metric.order)
                """)
            let fromSQL = try rows.map { try $0.decode((UUID, Int).self) }
            #expect(fromSQL.map(\.0) == sorted.map(\.learner), "\(metric): PostgreSQL sorts the board otherwise")
            #expect(fromSQL.map(\.1) == ranked.map(\.rank), "\(metric): PostgreSQL ranks the board otherwise")
        }
    }

    @Test("leaderboard_bucket (migration 0016) cuts times to the tenth as Metric.tenths does")
    func bucketsAgree() async throws {
        let app = try await TestApp.make()
        var random = SystemRandomNumberGenerator()
        let times =
            [0, 0.1, 0.3, 0.7, 2.3, 2.34, 12.34, 29.99999, 86_400.05, 1e6]
            + (0..<500).map { _ in Double(random.next() % 1_000_000) / 1_000 }
        let rows = try await TestDatabase.shared.rows(
            in: app.databaseURL,
            """
            SELECT t, leaderboard_bucket('time', 0, t), leaderboard_bucket('score', 7, t) FROM unnest(\(times)) AS t
            """)
        for row in rows {
            let (seconds, tenths, score) = try row.decode((Double, Int, Int).self)
            #expect(tenths == Int(Metric.tenths(seconds)), "\(seconds)")
            #expect(score == 7)
        }
        #expect(rows.count == times.count)
    }

    @Test("the indexes of migration 0013 are in the order SQL sorts by")
    func indexesFollowTheOrder() async throws {
        let app = try await TestApp.make()
        func normalized(_ text: String) -> String {
            text.filter { !" ()".contains($0) }.replacingOccurrences(of: "e.", with: "")
        }
        for (index, metric) in [("leaderboard_by_score", Metric.score), ("leaderboard_by_time", .time)] {
            let definition =
                try await TestDatabase.shared.rows(in: app.databaseURL, "SELECT pg_get_indexdef(\(index)::regclass)")
                .first?.decode(String.self) ?? ""
            #expect(normalized(definition).hasSuffix("language,kind,period," + normalized(metric.order)), "\(definition)")
        }
    }
}

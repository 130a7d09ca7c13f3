import Foundation
import ParlaLearning
import Testing

@testable import ParlaGames

@Suite("leaderboard ranks in memory")
struct BoardRanksTests {
    @Test("counts per bucket answer 'how many at most b' like a recount, in the tree and past it")
    func bucketCounts() {
        var random = SimulationRandom(seed: 7)
        var counts = BucketCounts()
        var held: [Int] = []
        for step in 0..<4000 {
            if held.isEmpty || random.next() % 3 != 0 {
                // Mostly small buckets, sometimes past the tree's limit.
                let bucket = random.next() % 50 == 0 ? BucketCounts.treeLimit + Int(random.next() % 1000) : Int(random.next() % 5000)
                held.append(bucket)
                counts.add(bucket, 1)
            } else {
                let bucket = held.remove(at: Int(random.next() % UInt64(held.count)))
                counts.add(bucket, -1)
            }
            if step % 97 == 0 {
                for probe in [
                    -1, 0, 1, 63, 64, 1023, 1024, 2047, 4999, 5000, BucketCounts.treeLimit - 1, BucketCounts.treeLimit,
                    BucketCounts.treeLimit + 500, Int(Int32.max),
                ] {
                    #expect(counts.atMost(probe) == held.filter { $0 <= probe }.count, "step \(step), at most \(probe)")
                }
                #expect(counts.total == held.count)
            }
        }
    }

    /// A random best, with many ties in score, time and instant.
    static func best(_ random: inout SimulationRandom) -> BoardRanks.Best {
        let seconds = Double(random.next() % 400) / 7
        return BoardRanks.Best(
            score: Int32(random.next() % 60), tenths: LeaderboardMetric.tenths(seconds), seconds: seconds,
            scoreAt: Int64(random.next() % 5), secondsAt: Int64(random.next() % 5))
    }

    @Test("a board's ranks equal a full ranking; changes applied twice or out of order leave the same board")
    func boardRanks() {
        var random = SimulationRandom(seed: 11)
        let learners = (0..<300).map { _ in UUID() }
        var changes: [(UUID, BoardRanks.Best?)] = []
        for _ in 0..<2000 {
            let learner = learners[Int(random.next() % 300)]
            changes.append((learner, random.next() % 40 == 0 ? nil : Self.best(&random)))
        }
        // What each change means on its own: the best so far, until a departure.
        var expected: [UUID: BoardRanks.Best] = [:]
        var board = BoardRanks()
        for (learner, best) in changes {
            if let best {
                let old = expected[learner]
                var merged = old ?? best
                if let old, best.score > old.score { (merged.score, merged.scoreAt) = (best.score, best.scoreAt) }
                if let old, best.seconds < old.seconds {
                    (merged.seconds, merged.tenths, merged.secondsAt) = (best.seconds, best.tenths, best.secondsAt)
                }
                expected[learner] = merged
                board.improve(learner, to: best)
            } else {
                expected[learner] = nil
                board.remove(learner)
            }
        }
        #expect(board.learners == expected)
        #expect(board.total == expected.count)
        for (learner, best) in expected {
            #expect(board.rank(.score, of: learner) == 1 + expected.values.filter { $0.score > best.score }.count)
            #expect(board.rank(.time, of: learner) == 1 + expected.values.filter { $0.tenths < best.tenths }.count)
        }
        // Improvements alone commute and repeat harmlessly, in their values
        // and ranks (of two equal bests, the first applied keeps its instant,
        // as in the table; the table's notification then sets the instant).
        let improvements = changes.filter { $0.1 != nil }
        var forward = BoardRanks(), backward = BoardRanks()
        for (learner, best) in improvements { forward.improve(learner, to: best!) }
        for (learner, best) in (improvements + improvements).reversed() { backward.improve(learner, to: best!) }
        #expect(
            forward.learners.mapValues { [Double($0.score), $0.seconds] } == backward.learners.mapValues { [Double($0.score), $0.seconds] })
        for learner in learners {
            #expect(forward.rank(.score, of: learner) == backward.rank(.score, of: learner))
            #expect(forward.rank(.time, of: learner) == backward.rank(.time, of: learner))
        }
        #expect(board.rank(.score, of: UUID()) == nil)
        // A correction for the worse is set as it is.
        let first = expected.keys.sorted { $0.uuidString < $1.uuidString }[0]
        let worse = BoardRanks.Best(score: 0, tenths: 99_999, seconds: 9999.9, scoreAt: 1, secondsAt: 1)
        board.set(first, to: worse)
        #expect(board.learners[first] == worse)
        #expect(board.rank(.score, of: first) == 1 + expected.filter { $0.key != first && $0.value.score > 0 }.count)
        #expect(board.rank(.time, of: first) == 1 + expected.filter { $0.key != first && $0.value.tenths < 99_999 }.count)
    }

    @Test("a page in memory is the board sorted as the table sorts it: best, then earliest, then by learner id's bytes")
    func pages() {
        var random = SimulationRandom(seed: 12)
        var board = BoardRanks()
        var held: [UUID: BoardRanks.Best] = [:]
        var seen: [UUID] = []
        for step in 0..<3000 {
            let learner = seen.isEmpty || random.next() % 4 != 0 ? UUID() : seen[Int(random.next() % UInt64(seen.count))]
            seen.append(learner)
            switch random.next() % 10 {
            case 0:
                board.remove(learner)
                held[learner] = nil
            case 1, 2:
                let best = Self.best(&random)
                board.set(learner, to: best)
                held[learner] = best
            default:
                let best = Self.best(&random)
                board.improve(learner, to: best)
                held[learner] = held[learner].map { $0.improved(by: best) } ?? best
            }
            guard step % 300 == 0 || step == 2999 else { continue }
            // Read whole, the same board.
            let read = BoardRanks(entries: held.map { ($0, $1) })
            for metric in LeaderboardMetric.allCases {
                func key(_ entry: (UUID, BoardRanks.Best)) -> (Double, Int64, String) {
                    // A uuid's string is its bytes in hex: sorting it sorts the bytes.
                    metric == .score
                        ? (Double(-entry.1.score), entry.1.scoreAt, entry.0.uuidString.lowercased())
                        : (entry.1.seconds, entry.1.secondsAt, entry.0.uuidString.lowercased())
                }
                let sorted: [UUID] = held.map { ($0, $1) }.sorted { key($0) < key($1) }.map(\.0)
                let probes: [UUID?] = [
                    sorted.first, sorted.dropFirst(5).first, sorted.last, sorted.dropFirst(sorted.count / 2).first, UUID(),
                ]
                for probe in probes {
                    let page = board.page(metric, limit: 7, learner: probe)
                    #expect(page == read.page(metric, limit: 7, learner: probe))
                    #expect(page.top.map(\.learner) == Array(sorted.prefix(7)))
                    #expect(page.top.map(\.rank) == page.top.map { board.rank(metric, of: $0.learner)! })
                    guard let probe, let at = sorted.firstIndex(of: probe) else {
                        #expect(page.own == nil && page.neighbours.isEmpty)
                        continue
                    }
                    #expect(page.own?.learner == probe && page.own?.best == held[probe])
                    let before = Array(sorted[max(0, at - 2)..<at]), after = Array(sorted[(at + 1)..<min(sorted.count, at + 3)])
                    #expect(page.neighbours.map(\.learner) == before + after)
                }
            }
        }
    }

    @Test("dates go to microseconds and back as PostgresNIO converts them")
    func microseconds() {
        for date in [Date(timeIntervalSince1970: 1_795_000_000.123456), Date(), Date(timeIntervalSince1970: 946_684_800)] {
            let back = BoardRanks.date(BoardRanks.microseconds(date))
            #expect(abs(back.timeIntervalSince(date)) < 0.000_001)
            #expect(BoardRanks.microseconds(back) == BoardRanks.microseconds(date))
        }
        // Microseconds read back as PostgresNIO makes a date of them, to the microsecond.
        var random = SimulationRandom(seed: 5)
        for _ in 0..<100_000 {
            let micros = Int64(random.next() % 3_155_760_000_000_000) - 100_000_000_000
            #expect(BoardRanks.microseconds(read: BoardRanks.date(micros)) == micros)
        }
    }
}

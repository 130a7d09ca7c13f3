import Crypto
import Foundation
import ParlaLearning
import PostgresNIO
import Testing

@testable import ParlaDatabase
@testable import ParlaKept
@testable import ParlaStore

@Suite("migration scripts")
struct SQLScriptTests {
    @Test func splitsOnlyBetweenStatements() {
        let script = """
            -- a comment; with a semicolon
            CREATE TABLE a (x text DEFAULT 'a;b');
            /* block; comment */
            CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;
            INSERT INTO "odd;name" VALUES (1);

            """
        #expect(
            SQLScript.statements(script) == [
                "CREATE TABLE a (x text DEFAULT 'a;b')",
                "CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql",
                "INSERT INTO \"odd;name\" VALUES (1)",
            ])
    }

    @Test func bundledMigrationsAreNumberedInOrder() throws {
        let migrations = try Database.bundledMigrations()
        #expect(!migrations.isEmpty)
        #expect(migrations.map(\.version) == migrations.map(\.version).sorted())
        #expect(Set(migrations.map(\.version)).count == migrations.count)
    }
}

@Suite("personal-data encryption")
struct CipherTests {
    let cipher = try! PersonalDataCipher(masterKey: SymmetricKey(size: .bits256))

    @Test func roundTripAndFreshNonces() throws {
        let sealed = try cipher.seal("Zoë O'Brien", as: .firstName)
        #expect(try cipher.openText(sealed, as: .firstName) == "Zoë O'Brien")
        #expect(try cipher.seal("Zoë O'Brien", as: .firstName) != sealed)
        #expect(!String(decoding: sealed, as: UTF8.self).contains("Zo"))
    }

    @Test func aCiphertextOpensOnlyInItsOwnColumn() throws {
        let sealed = try cipher.seal("zoe@example.com", as: .email)
        #expect(throws: (any Error).self) { try cipher.open(sealed, as: .firstName) }
        var tampered = sealed
        tampered[tampered.count - 1] ^= 1
        #expect(throws: (any Error).self) { try cipher.open(tampered, as: .email) }
    }

    @Test func blindIndexesAreDeterministicAndKeyed() throws {
        #expect(cipher.blindIndex("zoe@example.com") == cipher.blindIndex("zoe@example.com"))
        #expect(cipher.blindIndex("zoe@example.com") != cipher.blindIndex("zoé@example.com"))
        let other = try PersonalDataCipher(masterKey: SymmetricKey(size: .bits256))
        #expect(other.blindIndex("zoe@example.com") != cipher.blindIndex("zoe@example.com"))
    }

    @Test func keyFiles() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parla-key-\(UUID())/data.key").path
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        #expect(throws: (any Error).self) { try PersonalDataCipher.loadKey(at: path, create: false) }
        let made = try PersonalDataCipher.loadKey(at: path, create: true)
        let read = try PersonalDataCipher.loadKey(at: path, create: false)
        #expect(made == read)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(throws: (any Error).self) { try PersonalDataCipher.key(base64: "c2hvcnQ=") }
    }
}

@Suite("database URLs")
struct DatabaseURLTests {
    @Test func parses() throws {
        let tcp = try PostgresClient.Configuration(url: "postgres://parla:s%40cret@db.internal:6543/parla?sslmode=disable")
        #expect(tcp.host == "db.internal")
        #expect(tcp.port == 6543)
        #expect(tcp.username == "parla")
        #expect(tcp.password == "s@cret")
        #expect(tcp.database == "parla")
        let socket = try PostgresClient.Configuration(url: "postgresql://parla@localhost/app?host=/tmp/pg")
        #expect(socket.unixSocketPath == "/tmp/pg/.s.PGSQL.5432")
        for bad in ["mysql://x@y/z", "postgres://db.internal/parla", "not a url"] {
            #expect(throws: (any Error).self) { try PostgresClient.Configuration(url: bad) }
        }
    }
}

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
            score: Int32(random.next() % 60), tenths: LeaderboardStore.Metric.tenths(seconds), seconds: seconds,
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
            for metric in LeaderboardStore.Metric.allCases {
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

    @Test("notifications read as changes; anything else is refused")
    func changes() {
        let learner = UUID()
        func change(_ payload: String) -> LeaderboardRanks.Change? {
            LeaderboardRanks.Change(fields: payload.split(separator: "\t", omittingEmptySubsequences: false))
        }
        #expect(
            change("fr\tmatching\tall\t\(learner)\t295\t50\t5.04\t1000\t2000")
                == .init(
                    board: .init(language: "fr", kind: "matching", period: "all"), learner: learner,
                    best: .init(score: 295, tenths: 50, seconds: 5.04, scoreAt: 1000, secondsAt: 2000)))
        #expect(change("fr\tmatching\t2026-W48\t\(learner)\t-")?.best == nil)
        #expect(change("fr\tmatching\t2026-W48\t\(learner)\t-") != nil)
        #expect(change("fr\tmatching\tall\tnot-a-uuid\t1\t2\t0.2\t1\t1") == nil)
        #expect(change("fr\tmatching\tall\t\(learner)\t1\t2") == nil)
        #expect(change("fr\tmatching\tall\t\(learner)\tx\t2\t0.2\t1\t1") == nil)
        #expect(change("fr\tmatching\tall\t\(learner)\t1\t2\t0.2\t1") == nil)
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

@Suite("rows kept in memory")
struct MemoryCacheTests {
    @Test("rows are kept only while listening and only if nothing was dropped since their read began; tags drop them together")
    func keeping() {
        let account = UUID(), other = UUID()
        let cache = MemoryCache<String, UUID>(limit: 3) { [$0] }
        #expect(cache.stamp == nil)
        cache.keep(["a": account], since: cache.stamp)
        #expect(cache.value("a") == nil)
        cache.startedListening()
        let stamp = cache.stamp
        cache.keep(["a": account, "b": account, "c": other], since: stamp)
        #expect(cache.values(["a", "b", "c", "d"]).count == 3)
        // A read that began before a drop is not kept: its row may be the dropped one's old self.
        let before = cache.stamp
        cache.drop(tagged: account)
        #expect(cache.value("a") == nil && cache.value("b") == nil && cache.value("c") == other)
        cache.keep(["a": account], since: before)
        #expect(cache.value("a") == nil)
        cache.keep(["a": account], since: cache.stamp)
        #expect(cache.value("a") == account)
        cache.update("a") { $0 = other }
        cache.update("z") { $0 = other }
        #expect(cache.value("a") == other && cache.value("z") == nil)
        // Past the limit, everything goes and the new rows stay.
        cache.keep(["d": other, "e": other], since: cache.stamp)
        #expect(cache.values(["a", "c", "d", "e"]).keys.sorted() == ["d", "e"])
        cache.drop("d")
        #expect(cache.value("d") == nil && cache.value("e") == other)
        cache.stoppedListening()
        #expect(cache.value("e") == nil && cache.stamp == nil)
        cache.startedListening()
        #expect(cache.value("e") == nil)
    }

    @Test("a row dropped by its key stops only reads of that key; too many keys remembered stop every read")
    func droppedByKey() {
        let cache = MemoryCache<String, Int>(limit: 2)
        cache.startedListening()
        let before = cache.stamp
        cache.drop("a")
        cache.keep(["a": 1, "b": 2], since: before)
        #expect(cache.value("a") == nil && cache.value("b") == 2)
        // What is made from a row is added only if the row was not dropped since.
        let made = cache.stamp
        cache.update("b", since: made) { $0 += 10 }
        #expect(cache.value("b") == 12)
        cache.drop("b")
        cache.keep(["b": 2], since: made)
        cache.update("b", since: made) { $0 += 10 }
        #expect(cache.value("b") == nil)
        cache.keep(["b": 2], since: cache.stamp)
        let late = cache.stamp
        cache.drop("b")
        cache.keep(["b": 2], since: cache.stamp)
        cache.update("b", since: late) { $0 += 10 }
        #expect(cache.value("b") == 2)
        // Past `limit` keys dropped, which were is forgotten: every read under way is stopped.
        let under = cache.stamp
        for key in ["x", "y", "z"] { cache.drop(key) }
        cache.keep(["c": 3], since: under)
        #expect(cache.value("c") == nil)
        // Dropped by tag or all at once: likewise.
        let again = cache.stamp
        cache.dropAll()
        cache.keep(["c": 3], since: again)
        #expect(cache.value("c") == nil)
    }
}

import Crypto
import Foundation
import ParlaLearning
@testable import ParlaStore
import PostgresNIO
import Testing

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
        #expect(SQLScript.statements(script) == [
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
                for probe in [-1, 0, 1, 63, 64, 1023, 1024, 2047, 4999, 5000, BucketCounts.treeLimit - 1, BucketCounts.treeLimit,
                              BucketCounts.treeLimit + 500, Int(Int32.max)] {
                    #expect(counts.atMost(probe) == held.filter { $0 <= probe }.count, "step \(step), at most \(probe)")
                }
                #expect(counts.total == held.count)
            }
        }
    }

    @Test("a board's ranks equal a full ranking; changes applied twice or out of order leave the same board")
    func boardRanks() {
        var random = SimulationRandom(seed: 11)
        let learners = (0..<300).map { _ in UUID() }
        var changes: [(UUID, BoardRanks.Best?)] = []
        for _ in 0..<2000 {
            let learner = learners[Int(random.next() % 300)]
            changes.append((learner, random.next() % 40 == 0 ? nil
                : BoardRanks.Best(score: Int32(random.next() % 1500), tenths: Int32(random.next() % 3000))))
        }
        // What each change means on its own: the best so far, until a departure.
        var expected: [UUID: BoardRanks.Best] = [:]
        var board = BoardRanks()
        for (learner, best) in changes {
            if let best {
                let old = expected[learner]
                expected[learner] = old.map { .init(score: max($0.score, best.score), tenths: min($0.tenths, best.tenths)) } ?? best
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
        // Improvements alone commute and repeat harmlessly.
        let improvements = changes.filter { $0.1 != nil }
        var forward = BoardRanks(), backward = BoardRanks()
        for (learner, best) in improvements { forward.improve(learner, to: best!) }
        for (learner, best) in (improvements + improvements).reversed() { backward.improve(learner, to: best!) }
        #expect(forward.learners == backward.learners)
        for learner in learners {
            #expect(forward.rank(.score, of: learner) == backward.rank(.score, of: learner))
            #expect(forward.rank(.time, of: learner) == backward.rank(.time, of: learner))
        }
        #expect(board.rank(.score, of: UUID()) == nil)
        // A correction for the worse is set as it is.
        let first = expected.keys.sorted { $0.uuidString < $1.uuidString }[0]
        board.set(first, to: .init(score: 0, tenths: 99_999))
        #expect(board.learners[first] == .init(score: 0, tenths: 99_999))
        #expect(board.rank(.score, of: first) == 1 + expected.filter { $0.key != first && $0.value.score > 0 }.count)
        #expect(board.rank(.time, of: first) == 1 + expected.filter { $0.key != first && $0.value.tenths < 99_999 }.count)
    }

    @Test("notifications read as changes; anything else is refused")
    func changes() {
        let learner = UUID()
        #expect(LeaderboardRanks.Change(payload: "fr\tmatching\tall\t\(learner)\t295\t50")
            == .init(board: .init(language: "fr", kind: "matching", period: "all"), learner: learner, best: .init(score: 295, tenths: 50)))
        #expect(LeaderboardRanks.Change(payload: "fr\tmatching\t2026-W48\t\(learner)\t-\t-")?.best == nil)
        #expect(LeaderboardRanks.Change(payload: "fr\tmatching\t2026-W48\t\(learner)\t-\t-") != nil)
        #expect(LeaderboardRanks.Change(payload: "fr\tmatching\tall\tnot-a-uuid\t1\t2") == nil)
        #expect(LeaderboardRanks.Change(payload: "fr\tmatching\tall\t\(learner)\t1") == nil)
        #expect(LeaderboardRanks.Change(payload: "fr\tmatching\tall\t\(learner)\tx\t2") == nil)
    }
}

import Crypto
import Foundation
import ParlaCore
import ParlaLearning
import PostgresNIO
import Testing

@testable import ParlaDatabase
@testable import ParlaKept
@testable import ParlaLearningStore
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

@Suite("leaderboard changes heard")
struct LeaderboardChangeTests {
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

@Suite("a right answer's write")
struct AnswerWriteTests {
    @Test("its text is the same whatever the answer, so it runs prepared: only its values change")
    func textIsFixed() throws {
        let day = Date(timeIntervalSince1970: 1_800_000_000)
        let card = MemoryCard(phase: .review, step: nil, stability: 3, difficulty: 5, due: day + 86_400, lastReview: day)
        let answers = [
            AnswerLearning(
                itemID: "word:cat", skill: .listening, card: card, lapse: true,
                ability: SkillAbility(skill: .listening, theta: -0.5, responses: 9),
                abilityChange: -0.1,
                snapshots: [
                    .init(day: day, skill: .listening, theta: -0.5, level: .a2), .init(day: day, skill: nil, theta: 0.1, level: .b1),
                ],
                initialDifficulty: 0.25, difficultyChange: 0.125),
            AnswerLearning(
                itemID: "story:fr-story-01/2", skill: .reading, card: nil, lapse: false,
                ability: SkillAbility(skill: .reading, theta: 0, responses: 1),
                abilityChange: 0, snapshots: [], initialDifficulty: 0, difficultyChange: 0),
        ]
        for (number, learning) in answers.enumerated() {
            let record = LessonStore.Record(
                questionID: "q\(number)", questionType: "reading", areaKind: "grammarNote", areaID: "x", level: .b2, correct: number == 0,
                tries: number + 1, responseMilliseconds: 1234, learning: learning)
            let change = LessonStore.Change(state: Data("{\"n\":\(number)}".utf8), finished: number == 1, record: record)
            let query = try LessonStore.answerWrite(
                change, record: record, lesson: LessonID(UUID()), version: number, learner: LearnerID(UUID()), language: .german,
                cardReviews: number)
            #expect(!LessonStore.AnswerWrite.sql.isEmpty && query.query.sql == LessonStore.AnswerWrite.sql)
        }
    }
}

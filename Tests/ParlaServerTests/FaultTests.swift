import Foundation
import Logging
import ParlaAPI
import ParlaDatabase
import ParlaStore
import ParlaTestSupport
import PostgresNIO
import Synchronization
import Testing

/// Issue 20, item 3: writes go on while PostgreSQL goes away and comes
/// back. Every write the client saw acknowledged is there afterwards; in
/// the outage the server answers 503 with Retry-After, quickly, never 500
/// and never a hang; it recovers within seconds.
///
/// Part of `make test` (about 50 s: they stop PostgreSQL and servers on
/// purpose, on clusters of their own); alone: `make faults`.
@Suite("faults: nothing acknowledged is lost", .serialized)
struct FaultTests {
    /// A request body (answers are read as generated types).
    typealias JSON = [String: any Sendable]
    typealias Lesson = Components.Schemas.Lesson
    typealias Question = Components.Schemas.LessonQuestion
    let logger = Logger(label: "parla.tests.faults")

    /// What a writer reads of an answer.
    struct Reply: Sendable {
        var status: Int
        var bytes: [UInt8] = []
        /// Nil when absent, or when the client does not read headers.
        var retryAfter: String? = nil
        var retryAfterRead = false

        /// The body decoded as `type` (a generated API type), as
        /// `Client.Reply.decoded` reads it; nil when it is not one (a
        /// problem, or no answer at all).
        func decoded<Body: Decodable>(_ type: Body.Type) -> Body? {
            try? Client.Reply.decoded(type, from: bytes)
        }
    }
    /// POST path, JSON body, token: one request of a writer.
    typealias Post = @Sendable (String, JSON, String?) async throws -> Reply

    /// Writers' requests through the in-process test client.
    static func post(_ client: Client) -> Post {
        { path, json, token in
            let reply = try await client.post(path, token: token, json: json)
            return Reply(status: reply.status, bytes: reply.bytes, retryAfter: reply.header("Retry-After"), retryAfterRead: true)
        }
    }

    /// What the writers saw: acknowledged writes, and every answer's status,
    /// time and phase.
    final class Observations: Sendable {
        struct Answer: Sendable {
            var phase: String, status: Int?, seconds: Double, retryAfter: String?, retryAfterRead: Bool, what: String
            /// The phase when it was answered (a request spans two when one begins meanwhile).
            var endedIn: String
        }
        let accounts = Mutex<[UUID]>([])
        let answers = Mutex<[(lesson: UUID, question: String)]>([])
        let games = Mutex<[UUID]>([])
        let seen = Mutex<[Answer]>([])
        let phase = Mutex("before")
        let stopped = Atomic<Bool>(false)

        /// An answer, under the phase its request was sent in, and the one
        /// it was answered in: a request to the server being killed fails
        /// whether it was sent just before the kill or just before the
        /// next server took over.
        func note(_ reply: Reply?, seconds: Double, what: String, startedIn phase: String) {
            let answer = Answer(
                phase: phase, status: reply?.status, seconds: seconds, retryAfter: reply?.retryAfter,
                retryAfterRead: reply?.retryAfterRead ?? false, what: what, endedIn: self.phase.withLock { $0 })
            seen.withLock { $0.append(answer) }
        }
    }

    /// `request`, or nil when it has not answered within `limit` (it is
    /// left running: a hang is what the test looks for).
    static func within(_ limit: Duration, _ request: @escaping @Sendable () async throws -> Reply) async -> (Reply?, Double) {
        let (outcome, seconds) = await TimeLimit.within(limit, request)
        // A request that fails outright found no server: status 0.
        return (outcome.map { (try? $0.get()) ?? Reply(status: 0) }, seconds)
    }

    @Test("PostgreSQL stopped and started under a server taking sign-ups, lesson answers and game results")
    func databaseRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-fault-\(UUID().uuidString)").path
        let cluster = EmbeddedCluster(dataDirectory: directory, durable: true)
        try await cluster.start(logger: logger)
        defer {
            _ = try? cluster.stopBlocking()
            try? FileManager.default.removeItem(atPath: directory)
        }
        // The test template's schema and content, copied into this cluster.
        let template = try await TestDatabase.shared.newDatabase()
        let backup = directory + ".backup"
        defer { try? FileManager.default.removeItem(atPath: backup) }
        try await DatabaseBackup.dump(.url(template), to: backup)
        try await DatabaseBackup.restore(.cluster(cluster), from: backup)
        try await TestDatabase.shared.dropDatabase(url: template)
        let url = "postgres://\(EmbeddedCluster.superuser)@localhost/postgres?host=\(cluster.socketDirectory)"
        let seen = Observations()

        let app = TestApp(databaseURL: url) { $0.database.connectionWaitSeconds = 3 }
        try await app.run { client in
            let learner = try await client.signUp(email: "steady@example.com")
            try await client.startCourse("fr", for: learner)
            try await withThrowingTaskGroup(of: Void.self) { writers in
                let post = Self.post(client)
                writers.addTask { await Self.signUps(post, seen) }
                writers.addTask { await Self.lessonAnswers(post, learner.learnerID, learner.token, seen) }
                writers.addTask { await Self.gameResults(post, learner.learnerID, learner.token, seen) }

                try await Task.sleep(for: .seconds(3))
                seen.phase.withLock { $0 = "outage" }
                try await cluster.stop(logger: logger)
                try await Task.sleep(for: .seconds(5))
                seen.phase.withLock { $0 = "recovery" }
                let restarted = ContinuousClock.now
                try await cluster.start(logger: logger)
                let recovery = try await Self.firstWrite(after: restarted, seen)
                print("faults: PostgreSQL restarted; first acknowledged write \(recovery) later")
                #expect(recovery < .seconds(10), "no write acknowledged within 10 s of PostgreSQL's restart")
                seen.phase.withLock { $0 = "after" }
                try await Task.sleep(for: .seconds(3))
                seen.stopped.store(true, ordering: .relaxed)
                try await writers.waitForAll()
            }
            if seen.seen.withLock({ $0.contains { $0.status == nil } }) {
                let metrics = try await client.get("/metrics").text
                for line in metrics.split(separator: "\n") where line.hasPrefix("parla_db") || line.hasPrefix("http_server_active") {
                    print("faults: metric \(line)")
                }
                for row in try await TestDatabase.shared.rows(
                    in: url,
                    "SELECT pid::text || ' ' || coalesce(state,'') || ' ' || coalesce(wait_event_type,'') || ' ' || coalesce(wait_event,'') || ' ' || coalesce(xact_start::text,'') || ' ' || left(query, 300) FROM pg_stat_activity WHERE datname = 'postgres'"
                ) {
                    print("faults: activity \(try row.decode(String.self))")
                }
            }
        }
        for line in app.logs.all {
            let milliseconds = line.components(separatedBy: "\"duration_ms\": ").dropFirst().first.flatMap {
                Double($0.prefix { $0.isNumber || $0 == "." })
            }
            if line.contains("request failed") || (milliseconds ?? 0) > 5000 { print("faults: \(line.prefix(700))") }
        }
        Self.checkAnswers(seen, outage: "outage", unreachable: [], some503: true)
        try await Self.checkStored(seen, url: url)
    }

    @Test(
        "the server killed with SIGKILL and started again, then its embedded PostgreSQL killed under it",
        .enabled(if: ServerProcess.binary != nil, "needs .build/debug/parla: `make test` builds it"))
    func killed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-killed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try ServerProcess(arguments: [], directory: directory)
        try await first.waitUntilUp()
        let running = Running(first)
        let post: Post = { path, json, token in
            let body = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
            let (status, text) = try await running.server.request("POST", path, json: body, token: token)
            return Reply(status: status, bytes: Array(text.utf8))
        }
        let signedUp = try await post(
            "/v1/accounts",
            [
                "firstName": "Steady", "lastName": "Learner", "email": "steady@example.com", "password": "correct horse battery",
                "acceptTerms": true,
            ], nil)
        let signedIn = try #require(signedUp.decoded(Components.Schemas.SignedIn.self))
        let token = signedIn.session.token
        let learner = try #require(signedIn.learners.first).id
        #expect(try await post("/v1/learners/\(learner)/courses", ["language": "fr", "start": "beginning"], token).status == 201)
        let seen = Observations()
        try await withThrowingTaskGroup(of: Void.self) { writers in
            writers.addTask { await Self.signUps(post, seen) }
            writers.addTask { await Self.lessonAnswers(post, learner, token, seen) }
            writers.addTask { await Self.gameResults(post, learner, token, seen) }
            try await Task.sleep(for: .seconds(3))

            // The server dies mid-request; its cluster lives on, orphaned.
            seen.phase.withLock { $0 = "killed" }
            kill(first.pid, SIGKILL)
            _ = try? await first.terminate(timeout: .seconds(10))  // reaps it
            try await Task.sleep(for: .seconds(1))
            let second = try ServerProcess(arguments: [], directory: directory)
            try await second.waitUntilUp()
            running.server = second
            seen.phase.withLock { $0 = "restarted" }
            let restarted = ContinuousClock.now
            print(
                "faults: server restarted; first acknowledged write \(try await Self.firstWrite(after: restarted, seen)) after it answered")
            try await Task.sleep(for: .seconds(2))

            // Its PostgreSQL dies under it: the server starts it again.
            seen.phase.withLock { $0 = "cluster killed" }
            let pidFile = directory + "/.parla/postgres/postmaster.pid"
            let postmaster = try #require(
                String(contentsOfFile: pidFile, encoding: .utf8).split(separator: "\n").first.flatMap { pid_t($0) })
            let killedAt = ContinuousClock.now
            kill(postmaster, SIGKILL)
            let recovery = try await Self.firstWrite(after: killedAt, seen)
            print("faults: embedded PostgreSQL killed; first acknowledged write \(recovery) later")
            #expect(recovery < .seconds(15), "no write acknowledged within 15 s of the cluster's death")
            seen.phase.withLock { $0 = "after" }
            try await Task.sleep(for: .seconds(2))
            seen.stopped.store(true, ordering: .relaxed)
            try await writers.waitForAll()
        }
        if seen.seen.withLock({ $0.contains { $0.status == nil || $0.seconds > 8 } }) {
            // What the server and its cluster said, to tell where the time went.
            for line in running.server.log.split(separator: "\n") where !line.contains("\"info\"") {
                print("faults: server \(line.prefix(500))")
            }
            let postgresLog = (try? String(contentsOfFile: directory + "/.parla/postgres/server.log", encoding: .utf8)) ?? ""
            for line in postgresLog.split(separator: "\n").suffix(60) { print("faults: postgres \(line.prefix(300))") }
        }
        // Only while no server ran may a request find no one to answer it.
        // The cluster is back within the connection wait or soon after: its
        // outage may pass with no 503 at all.
        Self.checkAnswers(seen, outage: "cluster killed", unreachable: ["killed"], some503: false)
        let cluster = EmbeddedCluster(dataDirectory: directory + "/.parla/postgres")
        try await Self.checkStored(seen, url: "postgres://\(EmbeddedCluster.superuser)@localhost/postgres?host=\(cluster.socketDirectory)")
        #expect(try await running.server.terminate() == 0)
    }

    /// The server the process test's writers talk to (the second after the first is killed).
    final class Running: Sendable {
        private let current: Mutex<ServerProcess>
        init(_ server: ServerProcess) { current = Mutex(server) }
        var server: ServerProcess {
            get { current.withLock { $0 } }
            set { current.withLock { $0 = newValue } }
        }
    }

    /// How long after `start` a sign-up was next acknowledged (at most 30 s).
    static func firstWrite(after start: ContinuousClock.Instant, _ seen: Observations) async throws -> Duration {
        let before = seen.accounts.withLock { $0.count }
        while seen.accounts.withLock({ $0.count }) == before, ContinuousClock.now - start < .seconds(30) {
            try await Task.sleep(for: .milliseconds(50))
        }
        return ContinuousClock.now - start
    }

    /// What the clients were told: an answer to every request within 10 s,
    /// no 5xx but 503 (with Retry-After when the header was read), answers
    /// in the `outage` phase quickly (503s among them, when `some503`); no connection at all only
    /// in the `unreachable` phases.
    static func checkAnswers(_ seen: Observations, outage: String, unreachable: Set<String>, some503: Bool) {
        let answers = seen.seen.withLock { $0 }
        let inOutage = answers.filter { $0.phase == outage }
        let byPhase = Dictionary(grouping: answers, by: \.phase).mapValues {
            Dictionary(grouping: $0, by: { $0.status ?? -1 }).mapValues(\.count)
        }
        print("faults: \(answers.count) answers, statuses by phase: \(byPhase)")
        #expect(
            answers.allSatisfy { $0.status != nil },
            "no answer within 10 s: \(answers.filter { $0.status == nil }.map { "\($0.what) in \($0.phase)" })")
        #expect(
            answers.allSatisfy { $0.status != 0 || unreachable.contains($0.phase) || unreachable.contains($0.endedIn) },
            "no connection outside \(unreachable)")
        #expect(answers.allSatisfy { ($0.status ?? 0) < 500 || $0.status == 503 }, "a 5xx other than 503")
        #expect(answers.filter { $0.status == 503 && $0.phase != outage }.count <= 3, "503s outside the outage")
        if some503 { #expect(inOutage.contains { $0.status == 503 }, "no 503 in the outage") }
        #expect(answers.allSatisfy { $0.status != 503 || !$0.retryAfterRead || $0.retryAfter != nil }, "a 503 without Retry-After")
        #expect((inOutage.map(\.seconds).max() ?? 0) < 8, "an answer in the outage took \(inOutage.map(\.seconds).max() ?? 0) s")
    }

    /// Everything acknowledged is in the database at `url`.
    static func checkStored(_ seen: Observations, url: String) async throws {
        let accounts = seen.accounts.withLock { $0 }, lessons = seen.answers.withLock { $0 }, games = seen.games.withLock { $0 }
        print("faults: acknowledged \(accounts.count) sign-ups, \(lessons.count) lesson answers, \(games.count) game results")
        #expect(accounts.count > 3 && lessons.count > 3 && games.count > 3)
        let stored = try await TestDatabase.shared.rows(in: url, "SELECT id FROM accounts").map { try $0.decode(UUID.self) }
        #expect(Set(accounts).isSubset(of: Set(stored)), "acknowledged sign-ups missing")
        let storedAnswers = try await TestDatabase.shared.rows(in: url, "SELECT lesson_id, question_id FROM lesson_answers")
            .map { try $0.decode((UUID, String).self) }.map { "\($0.0)/\($0.1)" }
        #expect(Set(lessons.map { "\($0.lesson)/\($0.question)" }).isSubset(of: Set(storedAnswers)), "acknowledged answers missing")
        let finished = try await TestDatabase.shared.rows(in: url, "SELECT id FROM games WHERE finished_at IS NOT NULL")
            .map { try $0.decode(UUID.self) }
        #expect(Set(games).isSubset(of: Set(finished)), "acknowledged game results missing")
    }

    // MARK: The writers

    static func signUps(_ post: @escaping Post, _ seen: Observations) async {
        var number = 0
        while !seen.stopped.load(ordering: .relaxed) {
            number += 1
            let json: JSON = [
                "firstName": "Ana", "lastName": "Faults", "email": "ana\(number)@example.com", "password": "correct horse battery",
                "acceptTerms": true, "uiLanguage": "en",
            ]
            let startedIn = seen.phase.withLock { $0 }
            let (reply, seconds) = await within(.seconds(10)) { try await post("/v1/accounts", json, nil) }
            seen.note(reply, seconds: seconds, what: "sign-up", startedIn: startedIn)
            if let reply, reply.status == 201,
                let id = reply.decoded(Components.Schemas.SignedIn.self).flatMap({ UUID(uuidString: $0.account.id) })
            {
                seen.accounts.withLock { $0.append(id) }
            }
            await pause(reply)
        }
    }

    static func lessonAnswers(_ post: @escaping Post, _ learner: String, _ token: String, _ seen: Observations) async {
        var lesson: (id: String, question: Question)?
        while !seen.stopped.load(ordering: .relaxed) {
            guard let current = lesson else {
                let startedIn = seen.phase.withLock { $0 }
                let (reply, seconds) = await within(.seconds(10)) {
                    try await post(
                        "/v1/learners/\(learner)/lessons",
                        ["language": "fr", "mode": "teacher", "length": 50, "types": ["translationFromTarget"]],
                        token)
                }
                seen.note(reply, seconds: seconds, what: "lesson start", startedIn: startedIn)
                if let reply, reply.status == 200 || reply.status == 201, let started = reply.decoded(Lesson.self),
                    let question = started.question
                {
                    lesson = (started.id, question)
                }
                await pause(reply)
                continue
            }
            let questionID = current.question.id
            guard let option = try? TeacherModeTests.rightOption(current.question) else {
                lesson = nil
                continue
            }
            let startedIn = seen.phase.withLock { $0 }
            let (reply, seconds) = await within(.seconds(10)) {
                try await post(
                    "/v1/learners/\(learner)/lessons/\(current.id)/answers",
                    ["questionId": questionID, "optionId": option, "responseTimeMs": 1500],
                    token)
            }
            seen.note(reply, seconds: seconds, what: "lesson answer", startedIn: startedIn)
            if let reply, reply.status == 200, let result = reply.decoded(Components.Schemas.LessonAnswerResult.self), result.correct {
                seen.answers.withLock { $0.append((UUID(uuidString: current.id)!, questionID)) }
                lesson = result.lesson.question.map { (current.id, $0) }
            } else if let reply, reply.status != 503 {
                lesson = nil  // finished, expired or refused: a new lesson
            }
            await pause(reply)
        }
    }

    static func gameResults(_ post: @escaping Post, _ learner: String, _ token: String, _ seen: Observations) async {
        while !seen.stopped.load(ordering: .relaxed) {
            // An offline game of three pairs played perfectly, its log sent.
            let startedIn = seen.phase.withLock { $0 }
            let (dealt, seconds) = await within(.seconds(10)) {
                try await post(
                    "/v1/learners/\(learner)/games",
                    ["language": "fr", "kind": "matching", "pairs": 3, "faces": "wordTranslation", "offline": true],
                    token)
            }
            seen.note(dealt, seconds: seconds, what: "game start", startedIn: startedIn)
            guard let dealt, dealt.status == 201, let game = dealt.decoded(Components.Schemas.Game.self) else {
                await pause(dealt)
                continue
            }
            let id = game.id
            var faces: [Int: Set<String>] = [:]
            for card in game.cards {
                guard let concepts = try? GameTests.concepts(of: card) else { continue }
                faces[card.position] = concepts
            }
            let log: [JSON] = GameTests.pairs(faces).flatMap { $0 }.enumerated().map { ["position": $1, "at": Double($0)] }
            let logStartedIn = seen.phase.withLock { $0 }
            let (reply, logSeconds) = await within(.seconds(10)) {
                try await post("/v1/learners/\(learner)/games/\(id)/log", ["flips": log], token)
            }
            seen.note(reply, seconds: logSeconds, what: "game log", startedIn: logStartedIn)
            if let reply, reply.status == 200 { seen.games.withLock { $0.append(UUID(uuidString: id)!) } }
            await pause(reply)
        }
    }

    /// A client told to wait does, a little (Retry-After is in seconds; the
    /// test keeps asking sooner to see how the server answers).
    static func pause(_ reply: Reply?) async {
        try? await Task.sleep(for: .milliseconds(reply?.status == 503 ? 200 : 20))
    }
}

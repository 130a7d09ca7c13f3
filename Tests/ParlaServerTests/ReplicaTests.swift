import Foundation
import Logging
import ParlaDatabase
import ParlaStore
import ParlaTestSupport
import PostgresNIO
import Testing

/// Read-only routes on a PostgreSQL streaming replica (issue 20, item 6):
/// a primary cluster of the test's own, a replica made from it with
/// `pg_basebackup`, a server given both (`database.readURL`).
@Suite("read replica")
struct ReplicaTests {
    typealias JSON = [String: any Sendable]
    let logger = Logger(label: "parla.tests.replica")

    static func url(_ cluster: EmbeddedCluster) -> String {
        "postgres://\(EmbeddedCluster.superuser)@localhost/postgres?host=\(cluster.socketDirectory)"
    }

    func value(_ cluster: EmbeddedCluster, _ query: PostgresQuery) async throws -> String {
        try await TestDatabase.shared.rows(in: Self.url(cluster), query)[0].decode(String.self)
    }

    /// Whether the replica has replayed everything the primary has written so
    /// far (the insert position: without synchronous commit, a commit may
    /// not be written out yet).
    func caughtUp(_ replica: EmbeddedCluster, with primary: EmbeddedCluster) async throws -> Bool {
        let written = try await value(primary, "SELECT pg_current_wal_insert_lsn()::text")
        return try await value(replica, "SELECT (pg_last_wal_replay_lsn() >= \(written)::pg_lsn)::text") == "true"
    }

    @Test("a class overview is read from the streaming replica, the class itself from the primary; paused replay shows which is which")
    func overviewFromReplica() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-replica-\(UUID().uuidString)").path
        let primary = EmbeddedCluster(dataDirectory: directory + "/primary", durable: false)
        let replica = EmbeddedCluster(dataDirectory: directory + "/replica", durable: false)
        try await primary.start(logger: logger)
        defer {
            _ = try? replica.stopBlocking()
            _ = try? primary.stopBlocking()
            try? FileManager.default.removeItem(atPath: directory)
        }
        // The test template's schema and content, copied into the primary.
        let template = try await TestDatabase.shared.newDatabase()
        let backup = directory + "/template.backup"
        try await DatabaseBackup.dump(.url(template), to: backup)
        try await DatabaseBackup.restore(.cluster(primary), from: backup)
        try await TestDatabase.shared.dropDatabase(url: template)
        try await replica.createReplica(of: primary)
        do { try await replica.start(logger: logger) } catch {
            let log = (try? String(contentsOfFile: replica.dataDirectory + "/server.log", encoding: .utf8)) ?? ""
            Issue.record("the replica did not start: \(error)\n\(log.suffix(3000))")
            throw error
        }
        #expect(try await value(replica, "SELECT pg_is_in_recovery()::text") == "true")

        let app = TestApp(databaseURL: Self.url(primary)) { $0.database.readURL = Self.url(replica) }
        try await app.run { client in
            let (teacher, classID, code) = try await client.teacherWithClass()
            func join(_ email: String) async throws {
                let parent = try await client.signUp(email: email)
                let joined = try await client.post(
                    "/v1/learners/\(parent.learnerID)/classes", token: parent.token, json: ["joinCode": code, "password": parent.password])
                #expect(joined.status == 201, "\(joined.text)")
            }
            func overviewCount() async throws -> Int? {
                let overview = try await client.get("/v1/classes/\(classID)/overview", token: teacher.token)
                return (overview.json["learners"] as? [JSON])?.count
            }
            func classCount() async throws -> Int? {
                (try await client.get("/v1/classes/\(classID)", token: teacher.token).json["members"] as? [JSON])?.count
            }
            try await join("first@example.com")
            #expect(try await eventually { try await caughtUp(replica, with: primary) })
            #expect(try await overviewCount() == 1)

            // Replay paused: the primary has the second learner, the replica not yet.
            try await TestDatabase.shared.execute(in: Self.url(replica), "SELECT pg_wal_replay_pause()")
            try await join("second@example.com")
            #expect(try await classCount() == 2)
            #expect(try await overviewCount() == 1)
            // Replay resumed: the overview catches up.
            try await TestDatabase.shared.execute(in: Self.url(replica), "SELECT pg_wal_replay_resume()")
            #expect(try await eventually { try await overviewCount() == 2 })
        }
    }
}

import Foundation
import ParlaTestSupport
import Testing

/// The real binary, as `make run` starts it: embedded PostgreSQL, a key
/// file made on first start, and a clean stop on SIGTERM.
@Suite(
    "parla serve process", .serialized,
    .enabled(if: ServerProcess.binary != nil, "needs .build/debug/parla: `make test` builds it"))
struct ProcessTests {
    @Test("first start needs no configuration; SIGTERM stops the server and its cluster; data survives a restart")
    func lifecycle() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-process-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let first = try ServerProcess(arguments: [], directory: directory)
        try await first.waitUntilUp()
        #expect(try await first.request("GET", "/ready").status == 200)
        let signUp = try await first.request(
            "POST", "/v1/accounts",
            json: """
                {"firstName": "Maëlle", "lastName": "Rivière", "email": "maelle@example.fr", "password": "un mot de passe sûr", "acceptTerms": true}
                """)
        #expect(signUp.status == 201, "\(signUp.body)")

        let keyFile = directory + "/.parla/personal-data.key"
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(FileManager.default.fileExists(atPath: directory + "/.parla/postgres/postmaster.pid"))

        #expect(try await first.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: directory + "/.parla/postgres/postmaster.pid"), "cluster still running")
        // Logs are JSON lines with a request id, and hold no personal data.
        let lines = first.log.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(lines.contains { $0.contains("\"request_id\"") && $0.contains("/v1/accounts") })
        #expect(!first.log.contains("Maëlle") && !first.log.contains("maelle@"))
        // On a fresh database, the background services waited for the
        // migrations: no warning at all while it started.
        let warnings = lines.filter { $0.contains("\"level\":\"warning\"") || $0.contains("\"level\":\"error\"") }
        #expect(warnings.isEmpty, "\(warnings.prefix(3))")

        // The second start reads the project's own Config/parla.json (flags
        // and environment still place its files in `directory`).
        let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Config/parla.json").path
        let second = try ServerProcess(arguments: ["--config", config], directory: directory)
        try await second.waitUntilUp()
        let signIn = try await second.request(
            "POST", "/v1/sessions",
            json: """
                {"email": "MAELLE@example.fr", "password": "un mot de passe sûr"}
                """)
        #expect(signIn.status == 201, "\(signIn.body)")
        #expect(signIn.body.contains("Rivière"))

        // SIGTERM while a sign-up is hashing its password: the request
        // still completes before the server stops.
        let inFlight = try await second.send(
            "POST", "/v1/accounts",
            json: """
                {"firstName": "Olivier", "lastName": "Durand", "email": "olivier@example.fr", "password": "encore un secret", "acceptTerms": true}
                """)
        try await Task.sleep(for: .milliseconds(50))  // let the server read it
        #expect(try await second.terminate() == 0)
        #expect(try await inFlight.response().status == 201)
    }

    @Test("a command beside the server borrows its cluster and leaves it running; a killed cluster is started again")
    func clusterOwnership() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-cluster-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pidFile = directory + "/.parla/postgres/postmaster.pid"

        // Alone, a command starts the cluster and stops it again.
        let migrated = try await ServerProcess.command(["migrate"], directory: directory)
        #expect(migrated.status == 0, "\(migrated.output)")
        #expect(!FileManager.default.fileExists(atPath: pidFile), "a command left the cluster it started running")

        let server = try ServerProcess(arguments: [], directory: directory)
        try await server.waitUntilUp()
        let signUp = try await server.request(
            "POST", "/v1/accounts",
            json: """
                {"firstName": "Giulia", "lastName": "Conti", "email": "giulia@example.it", "password": "una parola segreta", "acceptTerms": true}
                """)
        #expect(signUp.status == 201, "\(signUp.body)")
        let signedIn = try JSONDecoder().decode(SignedInBody.self, from: Data(signUp.body.utf8))
        let token = signedIn.session.token

        // Beside the server, commands borrow its cluster.
        for arguments in [["grant", "--account", signedIn.learners[0].id, "--product", "water"], ["migrate"]] {
            let run = try await ServerProcess.command(arguments, directory: directory)
            #expect(run.status == 0, "\(arguments): \(run.output)")
            #expect(!run.output.contains("embedded PostgreSQL stopped"), "\(run.output)")
        }
        #expect(FileManager.default.fileExists(atPath: pidFile))
        #expect(try await server.request("GET", "/ready").status == 200)
        #expect(try await server.request("GET", "/v1/learners", token: token).status == 200)

        // The postmaster killed under the server: it is started again and
        // data routes answer within seconds.
        let postmaster = try #require(String(contentsOfFile: pidFile, encoding: .utf8).split(separator: "\n").first.flatMap { pid_t($0) })
        kill(postmaster, SIGKILL)
        // Its old backends may still answer for a moment: recovered means
        // restarted (the counter says so, once pg_ctl returns) and answering.
        func restarts() async throws -> Double {
            let metrics = try await server.request("GET", "/metrics").body
            return metrics.split(separator: "\n").first { $0.hasPrefix("parla_embedded_cluster_restarts_total ") }
                .flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
        }
        let deadline = ContinuousClock.now + .seconds(30)
        var (restarted, learners) = (0.0, 0)
        while ContinuousClock.now < deadline {
            restarted = (try? await restarts()) ?? 0
            learners = (try? await server.request("GET", "/v1/learners", token: token).status) ?? 0
            if restarted >= 1, learners == 200 { break }
            try await Task.sleep(for: .milliseconds(250))
        }
        #expect(restarted >= 1 && learners == 200, "not started again, or data routes did not recover: \(server.log.suffix(3000))")
        #expect(try await server.request("GET", "/ready").status == 200)
        #expect(server.log.contains("starting it again"))

        // The server owns the cluster it started again, and stops it.
        #expect(try await server.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: pidFile), "cluster still running")
    }

    @Test("parla backup beside a running server; parla restore onto a new machine (its key copied) brings every account back")
    func backupAndRestore() async throws {
        let temporary = FileManager.default.temporaryDirectory
        let (old, new) = (
            temporary.appendingPathComponent("parla-old-\(UUID().uuidString)").path,
            temporary.appendingPathComponent("parla-new-\(UUID().uuidString)").path
        )
        for directory in [old, new] { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        defer { for directory in [old, new] { try? FileManager.default.removeItem(atPath: directory) } }
        let backup = old + "/parla.backup"

        let server = try ServerProcess(arguments: [], directory: old)
        try await server.waitUntilUp()
        let signUp = try await server.request(
            "POST", "/v1/accounts",
            json: """
                {"firstName": "Sigrún", "lastName": "Jónsdóttir", "email": "sigrun@example.is", "password": "lykilorð sem virkar", "acceptTerms": true}
                """)
        #expect(signUp.status == 201, "\(signUp.body)")
        let token = try JSONDecoder().decode(SignedInBody.self, from: Data(signUp.body.utf8)).session.token
        let learner = try await server.request("POST", "/v1/learners", json: #"{"displayName": "Freyja", "age": 9}"#, token: token)
        #expect(learner.status == 201, "\(learner.body)")
        // While the server runs.
        let dumped = try await ServerProcess.command(["backup", "--to", backup], directory: old)
        #expect(dumped.status == 0, "\(dumped.output)")
        #expect(try await server.terminate() == 0)
        // The file holds no personal field in clear.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: backup))
        #expect(bytes.count > 10_000)
        for secret in ["Sigrún", "sigrun@", "Freyja", "Jónsdóttir"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in clear")
        }

        // The new machine: the key copied beside its (empty) data.
        try FileManager.default.createDirectory(atPath: new + "/.parla", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: old + "/.parla/personal-data.key", toPath: new + "/.parla/personal-data.key")
        let unconfirmed = try await ServerProcess.command(["restore", "--from", backup], directory: new)
        #expect(unconfirmed.status != 0 && unconfirmed.output.contains("--replace"))
        let restored = try await ServerProcess.command(["restore", "--from", backup, "--replace"], directory: new)
        #expect(restored.status == 0, "\(restored.output)")
        let revived = try ServerProcess(arguments: [], directory: new)
        try await revived.waitUntilUp()
        let signIn = try await revived.request(
            "POST", "/v1/sessions", json: #"{"email": "sigrun@example.is", "password": "lykilorð sem virkar"}"#)
        #expect(signIn.status == 201, "\(signIn.body)")
        #expect(signIn.body.contains("Jónsdóttir") && signIn.body.contains("Freyja"))
        #expect(try await revived.terminate() == 0)
    }
}

/// What the process tests read of a sign-up.
private struct SignedInBody: Decodable {
    struct Learner: Decodable { var id: String }
    struct Session: Decodable { var token: String }
    var learners: [Learner]
    var session: Session
}

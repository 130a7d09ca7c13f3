import Foundation
import ParlaTestSupport
import Testing

/// The real binary, as `make run` starts it: embedded PostgreSQL, a key
/// file made on first start, and a clean stop on SIGTERM.
@Suite("parla serve process", .serialized,
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
        let signUp = try await first.request("POST", "/v1/accounts", json: """
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

        // The second start reads the project's own Config/parla.json (flags
        // and environment still place its files in `directory`).
        let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Config/parla.json").path
        let second = try ServerProcess(arguments: ["--config", config], directory: directory)
        try await second.waitUntilUp()
        let signIn = try await second.request("POST", "/v1/sessions", json: """
            {"email": "MAELLE@example.fr", "password": "un mot de passe sûr"}
            """)
        #expect(signIn.status == 201, "\(signIn.body)")
        #expect(signIn.body.contains("Rivière"))

        // SIGTERM while a sign-up is hashing its password: the request
        // still completes before the server stops.
        let inFlight = try await second.send("POST", "/v1/accounts", json: """
            {"firstName": "Olivier", "lastName": "Durand", "email": "olivier@example.fr", "password": "encore un secret", "acceptTerms": true}
            """)
        try await Task.sleep(for: .milliseconds(50))  // let the server read it
        #expect(try await second.terminate() == 0)
        #expect(try await inFlight.response().status == 201)
    }
}

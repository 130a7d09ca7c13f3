import Foundation
import Logging
import ParlaOperations
import ParlaServer
import ParlaTestSupport
import PostgresNIO
import Testing

/// What is stored, and what is logged, must not give personal data away.
@Suite("security")
struct SecurityTests {
    @Test("personal fields are encrypted at rest: no plaintext in any column; tokens and passwords only as hashes")
    func encryptedAtRest() async throws {
        // The server's own bcrypt cost, not the tests' least one.
        let app = try await TestApp.make { $0.security.bcryptCost = ServerSettings().security.bcryptCost }
        let signedUp = try await app.run { client in
            let signedUp = try await client.signUp(
                firstName: "Ingrid", lastName: "Bergström", email: "ingrid.b@example.se", device: "Ingrids iPhone")
            _ = try await client.send(
                .put, "/v1/learners/\(signedUp.learnerID)/picture", token: signedUp.token,
                body: Images.png(width: 40, height: 40, rgb: (1, 2, 3)), headers: ["Content-Type": "image/png"])
            // A bug report, its screenshot, and support's note on it.
            let report = try await client.post(
                "/v1/support/reports", token: signedUp.token,
                json: ["text": "Ingrid's lesson froze twice.", "appVersion": "2.1", "platform": "ios", "device": "Ingrids iPad"])
            let id = try #require(report.json["id"] as? String)
            _ = try await client.send(
                .put, "/v1/support/reports/\(id)/screenshot", token: signedUp.token,
                body: Images.png(width: 40, height: 40, rgb: (4, 5, 6)), headers: ["Content-Type": "image/png"])
            return signedUp
        }
        _ = try await SupportDesk.with(app.settings, logger: Logger(label: "parla.test")) {
            try await $0.role(.support, for: signedUp.email, revoke: false)
        }
        let secret = try await app.run { client in
            let secret = try await client.turnOnTwoFactor(token: signedUp.token).secret
            let queue = try await client.get("/v1/support/queue", token: signedUp.token)
            let id = try #require((queue.json["reports"] as? [[String: any Sendable]])?.first?["id"] as? String)
            _ = try await client.patch(
                "/v1/support/reports/\(id)", token: signedUp.token, json: ["status": "closed", "note": "Ingrid called."])
            return secret
        }
        let secrets = ["Ingrid", "Bergstr", "ingrid.b", "example.se", "Ingrids iPhone", "Ingrids iPad", signedUp.password, signedUp.token]
        let dump = try await TestDatabase.shared.rows(
            in: app.databaseURL,
            """
            SELECT (SELECT string_agg(t::text, '|') FROM accounts t) || (SELECT string_agg(t::text, '|') FROM sessions t)
                || (SELECT string_agg(t::text, '|') FROM learners t) || (SELECT string_agg(t::text, '|') FROM learner_pictures t)
                || (SELECT string_agg(t::text, '|') FROM support_reports t) || (SELECT string_agg(t::text, '|') FROM support_screenshots t)
                || (SELECT string_agg(t::text, '|') FROM two_factor t)
            """)
        let text = try #require(try dump[0].decode(String?.self))
        // bytea prints as hex; look for the secrets both as text and as hex.
        for secret in secrets {
            let hex = secret.utf8.map { String(format: "%02x", $0) }.joined()
            #expect(!text.contains(secret), "\(secret) stored in clear")
            #expect(!text.contains(hex), "\(secret) stored in clear (bytea)")
        }
        #expect(!text.contains("89504e47"), "picture stored in clear")
        #expect(!text.contains(secret.map { String(format: "%02x", $0) }.joined()), "two-factor secret stored in clear")
        let hashes = try await TestDatabase.shared.rows(in: app.databaseURL, "SELECT password_hash FROM accounts")
        #expect(try hashes[0].decode(String.self).hasPrefix("$2b$12$"))
    }

    @Test("no password, token, name or email reaches the logs")
    func cleanLogs() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let signedUp = try await client.signUp(firstName: "Gunnhild", lastName: "Quist", email: "gunnhild.quist@example.no")
            _ = try await client.post("/v1/sessions", json: ["email": signedUp.email, "password": "a wrong password"])
            _ = try await client.post("/v1/sessions", json: ["email": signedUp.email, "password": signedUp.password])
            _ = try await client.patch(
                "/v1/me", token: signedUp.token,
                json: ["firstName": "Gunnvor", "newPassword": "the next secret", "currentPassword": signedUp.password])
            _ = try await client.get("/v1/me", token: signedUp.token)
            _ = try await client.send(
                .post, "/v1/accounts", body: Array("{\"password\": \"in broken json".utf8), headers: ["Content-Type": "application/json"])
        }
        let logs = app.logs.all.joined(separator: "\n")
        #expect(logs.contains("request"))  // the request log is there
        for secret in [
            "Gunnhild", "Gunnvor", "Quist", "gunnhild.quist", "correct horse battery", "a wrong password", "the next secret",
            "in broken json",
        ] {
            #expect(!logs.contains(secret), "\(secret) in logs")
        }
    }

    @Test("every answer carries the security headers, problems too; pages keep their own policy; HSTS over TLS")
    func headers() async throws {
        try await TestApp.make { $0.http.secureCookies = true }.run { client in
            for reply in [
                try await client.get("/health"), try await client.get("/v1/me"), try await client.get("/v1/languages/fr/grammar"),
            ] {
                #expect(reply.header("X-Content-Type-Options") == "nosniff" && reply.header("X-Frame-Options") == "DENY")
                #expect(reply.header("Content-Security-Policy") == "default-src 'none'; frame-ancestors 'none'")
                #expect(reply.header("Referrer-Policy") == "no-referrer")
                #expect(reply.header("Strict-Transport-Security")?.hasPrefix("max-age=31536000") == true)
                #expect(reply.header("Access-Control-Allow-Origin") == nil)
            }
            let page = try await client.get("/teach")
            #expect(page.header("Content-Security-Policy")?.contains("form-action 'self'") == true)
            #expect(page.header("Referrer-Policy") == "same-origin")
        }
        let plain = try await TestApp.make().run { client in try await client.get("/health") }
        #expect(plain.header("Strict-Transport-Security") == nil)
    }

    @Test("CORS: the web origins in configuration may call the API, preflight included; others get no CORS header")
    func cors() async throws {
        try await TestApp.make { $0.http.corsOrigins = ["https://app.parla.example"] }.run { client in
            let preflight = try await client.send(
                .options, "/v1/accounts",
                headers: [
                    "Origin": "https://app.parla.example", "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "content-type",
                ])
            #expect(preflight.status == 204 && preflight.header("Access-Control-Allow-Origin") == "https://app.parla.example")
            #expect(preflight.header("Access-Control-Allow-Methods")?.contains("PATCH") == true)
            #expect(preflight.header("Access-Control-Allow-Headers")?.contains("Authorization") == true)
            let allowed = try await client.get("/v1/languages", headers: ["Origin": "https://app.parla.example"])
            #expect(allowed.status == 200 && allowed.header("Access-Control-Allow-Origin") == "https://app.parla.example")
            #expect(allowed.header("Access-Control-Expose-Headers")?.contains("X-Request-Id") == true)
            #expect(allowed.header("Vary")?.contains("Origin") == true)
            let other = try await client.get("/v1/languages", headers: ["Origin": "https://evil.example"])
            #expect(other.status == 200 && other.header("Access-Control-Allow-Origin") == nil)
            let otherPreflight = try await client.send(
                .options, "/v1/accounts", headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "POST"])
            #expect(
                otherPreflight.header("Access-Control-Allow-Origin") == nil && otherPreflight.header("Access-Control-Allow-Methods") == nil)
        }
    }
}

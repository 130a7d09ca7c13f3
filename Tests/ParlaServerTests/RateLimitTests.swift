import Foundation
import Logging
import ParlaCore
import ParlaServer
import ParlaStore
import ParlaTestSupport
import Testing

/// Rate limits per client address and per account (issue 20, item 5),
/// over real sockets: an in-process request has no address.
@Suite("rate limits")
struct RateLimitTests {
    static func registration(_ n: Int) -> [String: any Sendable] {
        [
            "firstName": "Ada", "lastName": "Lovelace", "email": "ada\(n)@example.com", "password": "correct horse battery",
            "acceptTerms": true, "uiLanguage": "en",
        ]
    }

    /// A day's window for a test's limit, begun well before its end: counts
    /// are kept in fixed windows, and a test crossing into the next window
    /// would see its count start again (a minute's window failed that way).
    static func daily(_ count: Int) async throws -> RateLimit {
        let limit = RateLimit(count: count, seconds: 86_400)
        let left = limit.retryAfter(at: Date().timeIntervalSince1970)
        if left < 120 { try await Task.sleep(for: .seconds(left + 1)) }
        return limit
    }

    @Test(
        "sign-ups per address: over the limit is 429 too_many_requests with Retry-After, localized; a forged X-Forwarded-For changes nothing"
    )
    func signUps() async throws {
        let limit = try await Self.daily(3)
        let app = try await TestApp.make { $0.rateLimits.policy.perAddress[.signUp] = limit }
        try await app.runLive { client, _ in
            for n in 1...3 { #expect(try await client.post("/v1/accounts", json: Self.registration(n)).status == 201) }
            let refused = try await client.post("/v1/accounts", json: Self.registration(4), headers: ["Accept-Language": "fr"])
            #expect(refused.status == 429)
            #expect(refused.code == "too_many_requests")
            #expect((refused.json["detail"] as? String)?.contains("Trop de demandes") == true)
            let wait = try #require(refused.header("Retry-After").flatMap(Int.init))
            #expect((1...86_400).contains(wait))
            // Nothing was made by the refused request.
            let made = try await TestDatabase.shared.rows(in: app.databaseURL, "SELECT count(*)::int FROM accounts")
            #expect(try made[0].decode(Int.self) == 3)
            // No proxy is trusted: the header is the client's word, ignored.
            let forged = try await client.post(
                "/v1/accounts", json: Self.registration(5), headers: ["X-Forwarded-For": "198.51.100.\(Int.random(in: 1...200))"])
            #expect(forged.status == 429)
            // Guests have a bucket of their own.
            #expect(try await client.post("/v1/guests", json: ["acceptTerms": true]).status == 201)
        }
    }

    @Test("behind a trusted proxy each client has its own count; sign-in and password resets are limited, IPv6 per /64")
    func behindProxy() async throws {
        let (signIns, resets) = (try await Self.daily(2), try await Self.daily(1))
        let app = try await TestApp.make {
            $0.http.trustedProxies = ["127.0.0.1"]
            $0.rateLimits.policy.perAddress[.signIn] = signIns
            $0.rateLimits.policy.perAddress[.passwordReset] = resets
        }
        try await app.runLive { client, _ in
            let signedUp = try await client.signUp()
            let signIn: [String: any Sendable] = ["email": signedUp.email, "password": signedUp.password]
            func from(_ address: String) -> [String: String] { ["X-Forwarded-For": address] }
            #expect(try await client.post("/v1/sessions", json: signIn, headers: from("203.0.113.5")).status == 201)
            #expect(try await client.post("/v1/sessions", json: signIn, headers: from("203.0.113.5")).status == 201)
            #expect(try await client.post("/v1/sessions", json: signIn, headers: from("203.0.113.5")).code == "too_many_requests")
            // A forged entry before the proxy's own does not escape the count.
            #expect(try await client.post("/v1/sessions", json: signIn, headers: from("1.1.1.1, 203.0.113.5")).status == 429)
            // Another client behind the same proxy is not held back.
            #expect(try await client.post("/v1/sessions", json: signIn, headers: from("203.0.113.6")).status == 201)
            // Social sign-in counts as sign-in.
            #expect(
                try await client.post(
                    "/v1/sessions/social", json: ["provider": "google", "idToken": "x"], headers: from("203.0.113.5")
                ).status == 429)
            // One IPv6 subscriber (a /64) is one client.
            #expect(try await client.post("/v1/sessions", json: signIn, headers: from("2001:db8:7:7::1")).status == 201)
            #expect(try await client.post("/v1/sessions", json: signIn, headers: from("2001:db8:7:7::2")).status == 201)
            #expect(try await client.post("/v1/sessions", json: signIn, headers: from("2001:db8:7:7:ffff::3")).status == 429)
            // Password resets: asking and setting share one count.
            let reset: [String: any Sendable] = ["email": signedUp.email]
            #expect(try await client.post("/v1/password-resets", json: reset, headers: from("203.0.113.7")).status == 202)
            let confirm: [String: any Sendable] = ["token": "not-a-token", "newPassword": "another long secret"]
            #expect(try await client.post("/v1/password-resets/confirm", json: confirm, headers: from("203.0.113.7")).status == 429)
        }
    }

    @Test("recordings per account: the account over its count is refused before scoring, another account is not")
    func recordings() async throws {
        let limit = try await Self.daily(2)
        let app = try await TestApp.make { $0.rateLimits.policy.perAccount[.recording] = limit }
        try await app.runLive { client, _ in
            let first = try await client.signUp(email: "first@example.com")
            let second = try await client.signUp(email: "second@example.com")
            let wav = ["Content-Type": "audio/wav"]
            func attempt(_ who: Client.SignedUp) async throws -> Client.Reply {
                try await client.send(
                    .post, "/v1/learners/\(who.learnerID)/speech/attempts?language=en&text=hello", token: who.token,
                    body: Array("not audio".utf8), headers: wav)
            }
            #expect(try await attempt(first).code == "unsupported_audio")
            #expect(try await attempt(first).code == "unsupported_audio")
            let refused = try await attempt(first)
            #expect(refused.code == "too_many_requests")
            #expect(refused.header("Retry-After") != nil)
            // Alignments are recordings too.
            #expect(
                try await client.send(
                    .post, "/v1/speech/alignments?language=en&text=hello", token: first.token, body: Array("x".utf8), headers: wav
                ).code == "too_many_requests")
            #expect(try await attempt(second).code == "unsupported_audio")
        }
    }

    @Test("counts of windows that have ended are swept; the table holds no address")
    func sweep() async throws {
        let app = try await TestApp.make()
        // The migrations are applied by a server's first start.
        try await app.runLive { client, _ in _ = try await client.signUp() }
        try await TestDatabase.withPool(app.databaseURL, connections: 1, logger: Logger(label: "parla.tests.limits")) { database in
            let store = RateCounterStore(database: database)
            let now = Int(Date().timeIntervalSince1970)
            let counts = try await store.hit([("old", now - 10), ("current", now + 60)])
            #expect(counts == ["old": 1, "current": 1])
            #expect(try await store.hit([("current", now + 60)]) == ["current": 2])
            #expect(try await store.sweep() >= 1)
            #expect(try await store.hit([("current", now + 60)]) == ["current": 3])
        }
        let keys = try await TestDatabase.shared.rows(in: app.databaseURL, "SELECT string_agg(key, ',') FROM rate_counters")
        let text = try keys[0].decode(String?.self) ?? ""
        #expect(!text.contains("127.0.0.1"))
        #expect(text.split(separator: ",").contains { $0.count == 64 })
    }
}

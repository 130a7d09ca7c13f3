import Foundation
import ParlaAPI
import ParlaDatabase
import ParlaTestSupport
import Testing

/// T2: signing in and out, on one device or several.
@Suite("T2 sessions")
struct SessionTests {
    typealias SignedIn = Components.Schemas.SignedIn
    typealias Me = Components.Schemas.Me
    /// The body of `GET /v1/sessions` (an inline schema: no `Components.Schemas` type).
    typealias Sessions = Operations.ListSessions.Output.Ok.Body.JsonPayload

    @Test("T2.1 a registered email is recognized however it is typed")
    func emailRecognized() async throws {
        try await TestApp.make().run { client in
            let account = try await client.signUp(email: "Zoe@Example.com")
            for typed in ["zoe@example.com", "  ZOE@EXAMPLE.COM ", "Zoe@Example.com"] {
                let reply = try await client.post("/v1/sessions", json: ["email": typed, "password": account.password])
                #expect(reply.status == 201, "\(typed): \(reply.text)")
            }
        }
    }

    @Test("T2.2 an invalid email or a wrong password is refused, and neither says which")
    func rejected() async throws {
        try await TestApp.make().run { client in
            let account = try await client.signUp()
            let malformed = try await client.post("/v1/sessions", json: ["email": "zoe@", "password": account.password])
            #expect(malformed.status == 422)
            #expect(malformed.fieldErrors == ["email:invalid_email"])
            let wrongPassword = try await client.post("/v1/sessions", json: ["email": account.email, "password": "not the password"])
            let unknownEmail = try await client.post("/v1/sessions", json: ["email": "nobody@example.com", "password": account.password])
            #expect(wrongPassword.status == 401)
            #expect(unknownEmail.status == 401)
            #expect(wrongPassword.code == "invalid_credentials")
            #expect(
                try wrongPassword.decoded(Components.Schemas.Problem.self).detail
                    == unknownEmail.decoded(Components.Schemas.Problem.self).detail)
            let missing = try await client.post("/v1/sessions", json: ["email": account.email])
            #expect(missing.fieldErrors == ["password:required"])
        }
    }

    @Test("T2.3 the right email and password sign in and return the account")
    func signIn() async throws {
        try await TestApp.make().run { client in
            let account = try await client.signUp()
            let reply = try await client.post(
                "/v1/sessions", json: ["email": account.email, "password": account.password, "deviceName": "Tablet"])
            #expect(reply.status == 201)
            let signedIn = try reply.decoded(SignedIn.self)
            let token = signedIn.session.token
            #expect(token != account.token)
            #expect(signedIn.session.session.deviceName == "Tablet")
            #expect(signedIn.account.id == account.accountID)
            #expect(signedIn.learners.count == 1)
            #expect(try await client.get("/v1/me", token: token).status == 200)
        }
    }

    @Test("T2.4 leaving and coming back: the token still works and the profile is unchanged, even after a restart")
    func returning() async throws {
        let app = try await TestApp.make()
        let (account, before) = try await app.run { client in
            let account = try await client.signUp()
            _ = try await client.patch("/v1/learners/\(account.learnerID)", token: account.token, json: ["targetLanguages": ["fr", "es"]])
            return (account, try await client.get("/v1/me", token: account.token).text)
        }
        // A new server process on the same database: the app is reopened.
        try await TestApp(databaseURL: app.databaseURL).run { client in
            let after = try await client.get("/v1/me", token: account.token)
            #expect(after.status == 200)
            #expect(after.text == before)
        }
    }

    @Test("T2.5 two servers on one database accept the same token; a second device sees the same profile")
    func twoDevices() async throws {
        let app = try await TestApp.make()
        let account = try await app.run { client in try await client.signUp(device: "Phone") }
        let second = TestApp(databaseURL: app.databaseURL)
        try await app.run { first in
            try await second.run { other in
                let one = try await first.get("/v1/me", token: account.token)
                let two = try await other.get("/v1/me", token: account.token)
                #expect(one.status == 200)
                #expect(one.text == two.text)
                let tablet = try await other.post(
                    "/v1/sessions", json: ["email": account.email, "password": account.password, "deviceName": "Tablet"])
                let tabletToken = try tablet.decoded(SignedIn.self).session.token
                let fromTablet = try await first.get("/v1/me", token: tabletToken)
                #expect(try fromTablet.decoded(Me.self).account == one.decoded(Me.self).account)
                let sessions = try await first.get("/v1/sessions", token: account.token).decoded(Sessions.self).sessions
                let devices = sessions.compactMap(\.deviceName)
                #expect(Set(devices) == ["Phone", "Tablet"])
                let current = sessions.filter(\.current)
                #expect(current.count == 1)
                #expect(current.first?.deviceName == "Phone")
            }
        }
    }

    @Test("T2.6 signing out ends the token at once; another device can be signed out too")
    func signOut() async throws {
        try await TestApp.make().run { client in
            let account = try await client.signUp(device: "Phone")
            let tablet = try await client.post(
                "/v1/sessions", json: ["email": account.email, "password": account.password, "deviceName": "Tablet"]
            ).decoded(SignedIn.self)
            let tabletToken = tablet.session.token
            let tabletID = tablet.session.session.id

            #expect(try await client.delete("/v1/sessions/current", token: account.token).status == 204)
            let after = try await client.get("/v1/me", token: account.token)
            #expect(after.status == 401)
            #expect(after.code == "authentication_required")
            #expect(after.header("WWW-Authenticate") == "Bearer")
            #expect(try await client.get("/v1/me", token: tabletToken).status == 200)

            // Sign in again on the phone and sign the tablet out from there.
            let phone = try await client.post("/v1/sessions", json: ["email": account.email, "password": account.password])
            let phoneToken = try phone.decoded(SignedIn.self).session.token
            #expect(try await client.delete("/v1/sessions/\(tabletID)", token: phoneToken).status == 204)
            #expect(try await client.get("/v1/me", token: tabletToken).status == 401)
            #expect(try await client.delete("/v1/sessions/\(tabletID)", token: phoneToken).code == "session_not_found")
        }
    }

    @Test("a server that keeps a token in memory lets it go when it is signed out on another server, or deleted in SQL")
    func endedElsewhere() async throws {
        let app = try await TestApp.make()
        let account = try await app.run { client in try await client.signUp(device: "Phone") }
        let second = TestApp(databaseURL: app.databaseURL)
        try await app.run { first in
            try await second.run { other in
                // Both servers have accepted (and keep) the token.
                #expect(try await first.get("/v1/sessions", token: account.token).status == 200)
                #expect(try await other.get("/v1/sessions", token: account.token).status == 200)
                #expect(try await first.delete("/v1/sessions/current", token: account.token).status == 204)
                #expect(try await first.get("/v1/sessions", token: account.token).status == 401)
                #expect(try await eventually { try await other.get("/v1/sessions", token: account.token).status == 401 })

                let tablet = try await other.post(
                    "/v1/sessions", json: ["email": account.email, "password": account.password, "deviceName": "Tablet"])
                let tabletToken = try tablet.decoded(SignedIn.self).session.token
                #expect(try await first.get("/v1/sessions", token: tabletToken).status == 200)
                #expect(try await other.get("/v1/sessions", token: tabletToken).status == 200)
                try await TestDatabase.shared.execute(in: app.databaseURL, "DELETE FROM sessions")
                #expect(try await eventually { try await first.get("/v1/sessions", token: tabletToken).status == 401 })
                #expect(try await eventually { try await other.get("/v1/sessions", token: tabletToken).status == 401 })

                // A password change signs the other devices out at once on the server that made it.
                let phone = try await first.post("/v1/sessions", json: ["email": account.email, "password": account.password])
                let phoneToken = try phone.decoded(SignedIn.self).session.token
                let laptop = try await first.post("/v1/sessions", json: ["email": account.email, "password": account.password])
                let laptopToken = try laptop.decoded(SignedIn.self).session.token
                #expect(try await first.get("/v1/sessions", token: laptopToken).status == 200)
                let change = try await first.patch(
                    "/v1/me", token: phoneToken,
                    json: ["currentPassword": account.password, "newPassword": "another long password"])
                #expect(change.status == 200, "\(change.text)")
                #expect(try await first.get("/v1/sessions", token: laptopToken).status == 401)
                #expect(try await first.get("/v1/sessions", token: phoneToken).status == 200)
            }
        }
    }

    @Test("a server that keeps a profile in memory shows its own changes at once, and those of another server or of SQL soon after")
    func profileChangedElsewhere() async throws {
        let app = try await TestApp.make()
        let account = try await app.run { client in try await client.signUp() }
        let second = TestApp(databaseURL: app.databaseURL)
        try await app.run { first in
            try await second.run { other in
                let before = try await Self.profile(first, account)
                #expect(try await Self.profile(other, account) == before)
                #expect(before.hasSuffix(" en"), "\(before)")

                // The account edited where its profile is kept: the answer shows the edit.
                let edited = try await first.patch("/v1/me", token: account.token, json: ["firstName": "Giulia"])
                #expect(try edited.decoded(Me.self).account.firstName == "Giulia", "\(edited.text)")

                // A course started here shows here at once, and there soon.
                try await first.startCourse("it", for: account)
                let withCourse = try await Self.profile(first, account)
                #expect(withCourse.contains("it=A1"), "\(withCourse)")
                #expect(try await eventually { try await Self.profile(other, account) == withCourse })

                // Renamed there: here soon.
                let renamed = try await other.patch(
                    "/v1/learners/\(account.learnerID)", token: account.token, json: ["displayName": "Renamed"])
                #expect(renamed.status == 200, "\(renamed.text)")
                #expect(try await Self.profile(other, account).contains("Renamed"))
                #expect(try await eventually { try await Self.profile(first, account).contains("Renamed") })

                // Changed in SQL: the account, the course's level, a new learner.
                try await TestDatabase.shared.execute(in: app.databaseURL, "UPDATE accounts SET ui_language = 'fr'")
                #expect(try await eventually { try await Self.profile(first, account).hasSuffix(" fr") })
                #expect(try await eventually { try await Self.profile(other, account).hasSuffix(" fr") })
                try await TestDatabase.shared.execute(
                    in: app.databaseURL,
                    """
                    INSERT INTO ability_history (learner_id, language, skill, day, theta, level)
                    SELECT id, 'it', 'overall', current_date, 1.5, 'B2' FROM learners
                    """)
                #expect(try await eventually { try await Self.profile(first, account).contains("it=B2") })
                #expect(try await eventually { try await Self.profile(other, account).contains("it=B2") })
                let added = try await first.post("/v1/learners", token: account.token, json: ["displayName": "Kid", "age": 9])
                #expect(added.status == 201, "\(added.text)")
                #expect(try await Self.profile(first, account).hasPrefix("2 "))
                #expect(try await eventually { try await Self.profile(other, account).hasPrefix("2 ") })
            }
        }
    }

    /// How many learners, the first one's display name and course levels, and the account's UI language, as `/v1/me` shows them.
    static func profile(_ client: Client, _ account: Client.SignedUp) async throws -> String {
        let me = try await client.get("/v1/me", token: account.token).decoded(Me.self)
        let first = me.learners.first { $0.id == account.learnerID }
        // The raw values, as the JSON has them ("it=A1").
        let levels = (first?.progress ?? []).map { "\($0.language.rawValue)=\($0.level?.rawValue ?? "")" }
        return "\(me.learners.count) \(first?.displayName ?? "") \(levels.joined(separator: ",")) \(me.account.uiLanguage.rawValue)"
    }

    @Test("another account's session cannot be signed out")
    func foreignSession() async throws {
        try await TestApp.make().run { client in
            let anna = try await client.signUp(email: "anna@example.com")
            let ben = try await client.signUp(email: "ben@example.com")
            let sessions = try await client.get("/v1/sessions", token: anna.token).decoded(Sessions.self)
            let annaSession = try #require(sessions.sessions.first?.id)
            let reply = try await client.delete("/v1/sessions/\(annaSession)", token: ben.token)
            #expect(reply.status == 404)
            #expect(try await client.get("/v1/me", token: anna.token).status == 200)
        }
    }

    @Test(
        "requests without a valid bearer token are refused",
        arguments: [nil, "", "Bearer", "Basic abc", "Bearer not-a-token", "Bearer " + String(repeating: "a", count: 300)])
    func missingToken(_ header: String?) async throws {
        try await TestApp.make().run { client in
            let reply = try await client.get("/v1/me", headers: header.map { ["Authorization": $0] } ?? [:])
            #expect(reply.status == 401)
            #expect(reply.code == "authentication_required")
        }
    }

    @Test("after 10 failed sign-ins within 15 minutes the email is refused with 429 and Retry-After")
    func throttling() async throws {
        try await TestApp.make().run { client in
            let account = try await client.signUp()
            for attempt in 1...10 {
                let reply = try await client.post("/v1/sessions", json: ["email": account.email, "password": "wrong password \(attempt)"])
                #expect(reply.status == 401)
            }
            let locked = try await client.post("/v1/sessions", json: ["email": account.email.uppercased(), "password": account.password])
            #expect(locked.status == 429)
            #expect(locked.code == "too_many_attempts")
            let retryAfter = try #require(locked.header("Retry-After").flatMap(Int.init))
            #expect((1...900).contains(retryAfter))
            // Another email is not affected.
            let other = try await client.post("/v1/sessions", json: ["email": "someone@example.com", "password": "whatever it is"])
            #expect(other.status == 401)
        }
    }

    @Test("a correct sign-in clears earlier failures")
    func failuresCleared() async throws {
        try await TestApp.make().run { client in
            let account = try await client.signUp()
            for _ in 1...9 { _ = try await client.post("/v1/sessions", json: ["email": account.email, "password": "wrong password!"]) }
            #expect(try await client.post("/v1/sessions", json: ["email": account.email, "password": account.password]).status == 201)
            _ = try await client.post("/v1/sessions", json: ["email": account.email, "password": "wrong password!"])
            #expect(try await client.post("/v1/sessions", json: ["email": account.email, "password": account.password]).status == 201)
        }
    }
}

/// Expiry is the database's business; these tests move its clock by hand.
@Suite("T2 token expiry")
struct TokenExpiryTests {
    @Test("a token expires 30 days after its last use, and each use pushes the expiry back")
    func slidingExpiry() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let signedUp = try await client.signUp()
            try await TestDatabase.shared.execute(
                in: app.databaseURL,
                """
                UPDATE sessions SET last_used_at = now() - interval '29 days', expires_at = now() + interval '1 day'
                """)
            #expect(try await client.get("/v1/me", token: signedUp.token).status == 200)
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                "SELECT extract(epoch FROM expires_at - now())::int FROM sessions")
            #expect(try rows[0].decode(Int.self) > 29 * 24 * 3600)

            // Cut short in SQL: the servers that keep the session hear of it at that commit.
            try await TestDatabase.shared.execute(in: app.databaseURL, "UPDATE sessions SET expires_at = now() - interval '1 second'")
            #expect(try await eventually { try await client.get("/v1/me", token: signedUp.token).status == 401 })
            #expect(try await client.get("/v1/sessions", token: signedUp.token).status == 401)
        }
    }

    /// Issue 32, item 12: however much it is used, a session ends
    /// `accounts.sessionMaxDays` after sign-in.
    @Test("a session ends 90 days after sign-in however much it is used; answers with personal data are never stored")
    func absoluteLifetime() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let signedUp = try await client.signUp()
            let me = try await client.get("/v1/me", token: signedUp.token)
            #expect(me.header("Cache-Control") == "no-store")
            #expect(try await client.get("/v1/learners/\(signedUp.learnerID)", token: signedUp.token).header("Cache-Control") == "no-store")
            // Public content still says how it may be kept.
            #expect(try await client.get("/v1/languages").header("Cache-Control") == "public, max-age=300")

            // Used every day for 89 days (its expiry a day off, as if last slid yesterday): the next slide stops at the 90th.
            try await TestDatabase.shared.execute(
                in: app.databaseURL,
                """
                UPDATE sessions SET created_at = now() - interval '89 days', last_used_at = now() - interval '2 minutes',
                    expires_at = now() + interval '1 day'
                """)
            // The servers hear of the shortened expiry at its commit; until then the kept session is not touched.
            #expect(
                try await eventually {
                    guard try await client.get("/v1/me", token: signedUp.token).status == 200 else { return false }
                    let rows = try await TestDatabase.shared.rows(
                        in: app.databaseURL,
                        "SELECT extract(epoch FROM expires_at - created_at)::int, last_used_at > now() - interval '1 minute' FROM sessions")
                    let (lifetime, touched) = try rows[0].decode((Int, Bool).self)
                    return touched && lifetime <= 90 * 86400 && lifetime > 89 * 86400
                })

            // Past it, the token is refused even though its sliding expiry has not come (12 hours off).
            try await TestDatabase.shared.execute(
                in: app.databaseURL,
                """
                UPDATE sessions SET created_at = now() - interval '91 days', last_used_at = now() - interval '2 minutes',
                    expires_at = now() + interval '12 hours'
                """)
            #expect(try await eventually { try await client.get("/v1/me", token: signedUp.token).status == 401 })
        }
    }
}

import Foundation
import ParlaAPI
import ParlaIdentity
import ParlaServer
import ParlaTestSupport
import Testing

/// Issue 19, item 3 (seed 001): start without an account, claim it later.
@Suite("guests")
struct GuestTests {
    typealias SignedIn = Components.Schemas.SignedIn
    typealias Me = Components.Schemas.Me
    typealias Entitlements = Components.Schemas.Entitlements
    /// The body of `GET /v1/learners/{id}/courses` (an inline schema: no `Components.Schemas` type).
    typealias Courses = Operations.ListCourses.Output.Ok.Body.JsonPayload

    struct Guest {
        var token: String
        var accountID: String
        var learnerID: String
    }

    static func startAsGuest(_ client: Client, language: String = "fr") async throws -> Guest {
        let reply = try await client.post("/v1/guests", json: ["uiLanguage": language, "deviceName": "Pixel 8", "acceptTerms": true])
        #expect(reply.status == 201, "\(reply.text)")
        let signedIn = try reply.decoded(SignedIn.self)
        let learner = try #require(signedIn.learners.first)
        return Guest(token: signedIn.session.token, accountID: signedIn.account.id, learnerID: learner.id)
    }

    /// What a guest learns: a course and a saved word.
    static func learn(_ client: Client, _ guest: Guest) async throws {
        let base = "/v1/learners/\(guest.learnerID)"
        #expect(try await client.post("\(base)/courses", token: guest.token, json: ["language": "es", "start": "beginning"]).status == 201)
        #expect(
            try await client.post("\(base)/saved", token: guest.token, json: ["language": "es", "kind": "word", "id": "cat"]).status == 201)
    }

    /// Whether `token` sees the guest's learner with what it learned.
    static func hasProgress(_ client: Client, _ guest: Guest, token: String) async throws -> Bool {
        let base = "/v1/learners/\(guest.learnerID)"
        let courses = try await client.get("\(base)/courses", token: token)
        let saved = try await client.get("\(base)/saved?language=es", token: token)
        // A token that does not see the learner gets an error body: no progress, not a failure to decode.
        guard courses.status == 200 && saved.status == 200 else { return false }
        return try courses.decoded(Courses.self).courses.first?.language == .es
            && saved.decoded(Components.Schemas.SavedList.self).items.first?.id == "cat"
    }

    @Test("a guest learns at once, without a name or an email; it changes only its language, cannot teach; it may leave without a password")
    func guest() async throws {
        try await TestApp.make().run { client in
            let guest = try await Self.startAsGuest(client)
            let me = try await client.get("/v1/me", token: guest.token).decoded(Me.self)
            #expect(me.account.guest && me.account.email == nil && me.account.firstName == nil)
            #expect(me.account.uiLanguage == .fr)
            #expect(me.learners.first?.displayName != nil)
            try await Self.learn(client, guest)
            #expect(try await Self.hasProgress(client, guest, token: guest.token))
            // Only the language changes before signing up.
            #expect(try await client.patch("/v1/me", token: guest.token, json: ["firstName": "Zoë"]).code == "sign_up_required")
            #expect(try await client.patch("/v1/me", token: guest.token, json: ["uiLanguage": "de"]).status == 200)
            let teach = try await client.send(.put, "/v1/me/teacher", token: guest.token, json: ["displayName": "Ms Z"])
            #expect(teach.status == 403 && teach.code == "sign_up_required")
            #expect(try await client.post("/v1/me/email-verification", token: guest.token, json: [:]).code == "sign_up_required")
            // Bad input is named.
            let bad = try await client.post("/v1/guests", json: ["uiLanguage": "xx", "acceptTerms": true])
            #expect(bad.fieldErrors == ["uiLanguage:invalid_language"])
            // No password to give.
            #expect(try await client.delete("/v1/me", token: guest.token, json: [:]).status == 204)
            #expect(try await client.get("/v1/me", token: guest.token).status == 401)
        }
    }

    @Test("seed 001: skipping sign-up does not skip the terms; a guest is asked again when they change, as an account is")
    func guestTerms() async throws {
        let app = try await TestApp.make()
        let (guest, member) = try await app.run { client in
            let missing = try await client.post("/v1/guests", json: ["uiLanguage": "fr"])
            #expect(missing.status == 422 && missing.fieldErrors == ["acceptTerms:required"])
            let refused = try await client.post("/v1/guests", json: ["acceptTerms": false], headers: ["Accept-Language": "de"])
            #expect(refused.status == 422 && refused.fieldErrors == ["acceptTerms:terms_not_accepted"])
            #expect(try refused.decoded(Components.Schemas.Problem.self).errors?.first?.message != nil)
            let guest = try await Self.startAsGuest(client)
            let account = try await client.get("/v1/me", token: guest.token).decoded(Me.self).account
            #expect(account.termsVersion == app.settings.accounts.termsVersion && account.termsAcceptedAt != nil)
            #expect(account.termsToAccept == nil)
            return (guest, try await client.signUp())
        }
        // New terms: the guest and the account are both asked, and accept with PATCH /v1/me.
        let newer = TestApp(databaseURL: app.databaseURL) { $0.accounts.termsVersion = "2027-02-01" }
        try await newer.run { client in
            for token in [guest.token, member.token] {
                let before = try await client.get("/v1/me", token: token).decoded(Me.self).account
                #expect(before.termsToAccept == "2027-02-01" && before.termsVersion == app.settings.accounts.termsVersion)
                #expect(try await client.patch("/v1/me", token: token, json: ["acceptTerms": false]).code == "validation_failed")
                let accepted = try await client.patch("/v1/me", token: token, json: ["acceptTerms": true])
                #expect(accepted.status == 200, "\(accepted.text)")
                let after = try accepted.decoded(Me.self).account
                #expect(after.termsToAccept == nil && after.termsVersion == "2027-02-01")
            }
        }
    }

    @Test("signing up with a guest's token claims it: same account and learners, all progress kept, a new token")
    func claimBySignUp() async throws {
        try await TestApp.make().run { client in
            let guest = try await Self.startAsGuest(client)
            try await Self.learn(client, guest)
            let form: [String: any Sendable] = [
                "firstName": "Zoë", "lastName": "Martin", "email": "zoe@example.com", "password": "correct horse battery",
                "acceptTerms": true,
            ]
            let claimed = try await client.post("/v1/accounts", token: guest.token, json: form)
            #expect(claimed.status == 201, "\(claimed.text)")
            let claim = try claimed.decoded(SignedIn.self)
            #expect(claim.account.id == guest.accountID && !claim.account.guest)
            #expect(claim.account.email == "zoe@example.com" && !claim.account.emailVerified)
            #expect(claim.learners.map(\.id) == [guest.learnerID])
            let token = claim.session.token
            #expect(try await Self.hasProgress(client, guest, token: token))
            // The guest's token ended; signing in works like for anyone.
            #expect(try await client.get("/v1/me", token: guest.token).status == 401)
            // Its stale token on a sign-up claims nothing: the email is the account's now.
            #expect(try await client.post("/v1/accounts", token: guest.token, json: form).code == "email_taken")
            let signIn = try await client.post("/v1/sessions", json: ["email": "zoe@example.com", "password": "correct horse battery"])
            #expect(try signIn.decoded(SignedIn.self).account.id == guest.accountID)
            // A guest on another device signs in with the password: its learner joins the account.
            let third = try await Self.startAsGuest(client)
            try await Self.learn(client, third)
            let joined = try await client.post(
                "/v1/sessions", token: third.token, json: ["email": "zoe@example.com", "password": "correct horse battery"]
            ).decoded(SignedIn.self)
            #expect(Set(joined.learners.map(\.id)) == [guest.learnerID, third.learnerID])
            let joinedToken = joined.session.token
            #expect(try await Self.hasProgress(client, third, token: joinedToken))
            #expect(try await client.get("/v1/me", token: third.token).status == 401)
            // A person's token on a sign-up is someone else signing up, not a claim.
            let other = try await client.post(
                "/v1/accounts", token: token,
                json: form.merging(["email": "max@example.com", "firstName": "Max"]) { $1 })
            #expect(other.status == 201)
            #expect(try other.decoded(SignedIn.self).account.id != guest.accountID)
            // An email in use is refused, and the guest stays a guest.
            let second = try await Self.startAsGuest(client)
            let taken = try await client.post("/v1/accounts", token: second.token, json: form)
            #expect(taken.status == 409 && taken.code == "email_taken")
            #expect(try await client.get("/v1/me", token: second.token).decoded(Me.self).account.guest)
        }
    }

    @Test("social sign-in with a guest's token: a new identity becomes the guest; a known one takes in the guest's learners")
    func claimBySocialSignIn() async throws {
        try await TestIdentityProvider().run { provider in
            let app = try await TestApp.make {
                $0.identityProviders[.google] = IdentityProviderSettings(
                    provider: .google, issuers: [provider.issuer], audiences: [provider.audience], jwksURL: provider.jwksURL,
                    rootCertificates: [provider.certificates.caFile])
            }
            try await app.run { client in
                func signIn(_ subject: String, guest: Guest) async throws -> Client.Reply {
                    let token = try await provider.token(subject: subject, email: "\(subject)@gmail.com")
                    return try await client.post(
                        "/v1/sessions/social", token: guest.token,
                        json: [
                            "provider": "google", "idToken": token, "nonce": SocialSignInTests.nonce, "acceptTerms": true,
                            "firstName": "Zoë",
                        ])
                }
                let first = try await Self.startAsGuest(client)
                try await Self.learn(client, first)
                let made = try await signIn("zoe", guest: first)
                #expect(made.status == 201, "\(made.text)")
                let madeIn = try made.decoded(SignedIn.self)
                #expect(madeIn.account.id == first.accountID)
                let token = madeIn.session.token
                #expect(try await Self.hasProgress(client, first, token: token))

                // On another device, a guest learns, then signs in to the account it already has.
                let second = try await Self.startAsGuest(client)
                try await Self.learn(client, second)
                let merged = try await signIn("zoe", guest: second)
                #expect(merged.status == 200, "\(merged.text)")
                let mergedIn = try merged.decoded(SignedIn.self)
                #expect(mergedIn.account.id == first.accountID)
                #expect(Set(mergedIn.learners.map(\.id)) == [first.learnerID, second.learnerID])
                let mergedToken = mergedIn.session.token
                #expect(try await Self.hasProgress(client, second, token: mergedToken))
                #expect(try await client.get("/v1/me", token: second.token).status == 401)
                let rows = try await TestDatabase.shared.rows(
                    in: app.databaseURL, "SELECT count(*)::int FROM accounts WHERE id = \(UUID(uuidString: second.accountID)!)")
                #expect(try rows[0].decode(Int.self) == 0)
            }
        }
    }

    @Test("guests unused for accounts.guestIdleDays are erased with all they hold; people and active guests stay")
    func idleGuests() async throws {
        let app = try await TestApp.make { $0.accounts.guestSweepSeconds = 0.2 }
        let (idle, active, person) = try await app.run { client in
            let idle = try await Self.startAsGuest(client)
            try await Self.learn(client, idle)
            return (idle, try await Self.startAsGuest(client), try await client.signUp())
        }
        // 31 days pass for the idle guest and the person, not for the active guest.
        for account in [idle.accountID, person.accountID] {
            let id = UUID(uuidString: account)!
            try await TestDatabase.shared.execute(
                in: app.databaseURL, "UPDATE accounts SET created_at = now() - interval '31 days' WHERE id = \(id)")
            try await TestDatabase.shared.execute(
                in: app.databaseURL, "UPDATE sessions SET last_used_at = now() - interval '31 days' WHERE account_id = \(id)")
        }
        try await TestDatabase.shared.execute(
            in: app.databaseURL,
            "UPDATE accounts SET created_at = now() - interval '31 days' WHERE id = \(UUID(uuidString: active.accountID)!)")
        try await app.run { client in
            #expect(
                try await eventually {
                    let rows = try await TestDatabase.shared.rows(
                        in: app.databaseURL, "SELECT count(*)::int FROM accounts WHERE id = \(UUID(uuidString: idle.accountID)!)")
                    return try rows[0].decode(Int.self) == 0
                })
            #expect(try await client.get("/v1/me", token: idle.token).status == 401)
            let learners = try await TestDatabase.shared.rows(
                in: app.databaseURL, "SELECT count(*)::int FROM learners WHERE id = \(UUID(uuidString: idle.learnerID)!)")
            #expect(try learners[0].decode(Int.self) == 0)
            #expect(try await client.get("/v1/me", token: active.token).status == 200)
            #expect(try await client.get("/v1/me", token: person.token).status == 200)
        }
    }

    @Test("a guest's purchase, tied by the app to the guest's id, stays the account's once the guest joins it")
    func purchaseFollowsTheGuest() async throws {
        let store = try TestAppStore()
        let root = try store.writeRoot()
        try await TestApp.make { $0.purchases.appStore.rootCertificates = [root] }.run { client in
            let zoe = try await client.signUp()
            let guest = try await Self.startAsGuest(client)
            let transaction = try store.transaction(
                id: "2000000001", product: "app.parla.list.water", accountToken: UUID(uuidString: guest.accountID))
            let bought = try await client.post("/v1/purchases/app-store", token: guest.token, json: ["signedTransaction": transaction])
            #expect(bought.status == 200, "\(bought.text)")
            #expect(try bought.decoded(Entitlements.self).lists.contains("water"), "\(bought.text)")
            let joined = try await client.post(
                "/v1/sessions", token: guest.token, json: ["email": zoe.email, "password": zoe.password])
            let token = try joined.decoded(SignedIn.self).session.token
            // The app restores with the same signed transaction: still the account's, and the list open.
            let restored = try await client.post("/v1/purchases/app-store", token: token, json: ["signedTransaction": transaction])
            #expect(restored.status == 200, "\(restored.text)")
            #expect(try restored.decoded(Entitlements.self).lists.contains("water"), "\(restored.text)")
            // Anyone else is refused it.
            let stranger = try await client.signUp(email: "stranger@example.com")
            #expect(
                try await client.post("/v1/purchases/app-store", token: stranger.token, json: ["signedTransaction": transaction]).code
                    == "purchase_foreign")
        }
    }
}

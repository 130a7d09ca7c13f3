import Foundation
import ParlaAPI
import ParlaCore
import ParlaIdentity
import ParlaMail
import ParlaServer
import ParlaTestSupport
import Testing

/// Issue 32, items 14 and 15: an account made with a provider is a whole
/// account (it joins a class, sets a password, sees and unlinks its
/// sign-ins, never the last), and Facebook Login signs in beside Apple and
/// Google, each provider a local server publishing its keys over HTTPS.
@Suite("linked identities")
struct LinkedIdentityTests {
    /// A request body (answers are read as generated types).
    typealias JSON = [String: any Sendable]
    typealias SignedIn = Components.Schemas.SignedIn
    typealias LinkedIdentity = Components.Schemas.LinkedIdentity
    typealias Provider = Components.Schemas.LinkedIdentity.ProviderPayload
    static let nonce = "n-0S6_WzA2Mj"

    func settings(_ provider: TestIdentityProvider, as name: IdentityProvider) -> IdentityProviderSettings {
        IdentityProviderSettings(
            provider: name, issuers: [provider.issuer], audiences: [provider.audience], jwksURL: provider.jwksURL,
            rootCertificates: [provider.certificates.caFile])
    }

    /// Runs `body` against a server that signs in with a local Apple and a
    /// local Google.
    func withAppleAndGoogle(_ body: @escaping @Sendable (Client, TestIdentityProvider, TestIdentityProvider) async throws -> Void)
        async throws
    {
        try await TestIdentityProvider().run { apple in
            try await TestIdentityProvider(issuer: "https://accounts.google.com", audience: "123.apps.googleusercontent.com").run {
                google in
                try await TestApp.make {
                    $0.identityProviders[.apple] = settings(apple, as: .apple)
                    $0.identityProviders[.google] = settings(google, as: .google)
                }.run { client in try await body(client, apple, google) }
            }
        }
    }

    func signIn(_ client: Client, _ provider: String, _ token: String, extra: JSON = [:]) async throws -> Client.Reply {
        var json: JSON = ["provider": provider, "idToken": token, "nonce": Self.nonce]
        json.merge(extra) { $1 }
        return try await client.post("/v1/sessions/social", json: json)
    }

    func sessionToken(_ reply: Client.Reply) throws -> String {
        try #require(try? reply.decoded(SignedIn.self), "\(reply.text)").session.token
    }

    func proof(_ provider: TestIdentityProvider, _ name: String, _ subject: String) async throws -> JSON {
        ["provider": name, "idToken": try await provider.token(subject: subject), "nonce": Self.nonce]
    }

    func identities(_ client: Client, _ token: String) async throws -> (hasPassword: Bool, providers: [Provider], ids: [String]) {
        let reply = try await client.get("/v1/me/identities", token: token)
        #expect(reply.status == 200, "\(reply.text)")
        let ways = try reply.decoded(Components.Schemas.WaysIn.self)
        return (ways.hasPassword, ways.identities.map(\.provider), ways.identities.map(\.id))
    }

    @Test("an Apple-made account links Google, unlinks Apple, never its last sign-in, and sets a first password with a fresh sign-in")
    func waysIn() async throws {
        try await withAppleAndGoogle { client, apple, google in
            let created = try await signIn(
                client, "apple", try await apple.token(subject: "001.zoe", email: "zoe@privaterelay.appleid.com"),
                extra: ["acceptTerms": true, "firstName": "Zoë"])
            #expect(created.status == 201, "\(created.text)")
            let token = try sessionToken(created)
            var ways = try await identities(client, token)
            #expect(ways.hasPassword == false && ways.providers == [.apple])
            let appleID = try #require(ways.ids.first)

            // The only way in stays, whatever proof comes with it.
            let last = try await client.delete(
                "/v1/me/identities/\(appleID)", token: token, json: ["reauthentication": try await proof(apple, "apple", "001.zoe")])
            #expect(last.status == 409 && last.code == "last_way_in", "\(last.text)")

            // The same person on a tablet: its session ends when a way in is added.
            let tablet = try sessionToken(try await signIn(client, "apple", try await apple.token(subject: "001.zoe")))

            // Linking Google needs the owner's proof: a fresh Apple sign-in,
            // taken once; an old one proves nothing.
            let googleToken = try await google.token(subject: "g-42")
            let stale = try await client.post(
                "/v1/me/identities", token: token,
                json: [
                    "provider": "google", "idToken": googleToken, "nonce": Self.nonce,
                    "reauthentication": [
                        "provider": "apple", "idToken": try await apple.token(subject: "001.zoe", issuedAgo: 1200), "nonce": Self.nonce,
                    ] as JSON,
                ])
            #expect(stale.status == 401 && stale.code == "invalid_id_token", "\(stale.text)")
            let unproven = try await client.post(
                "/v1/me/identities", token: token, json: ["provider": "google", "idToken": googleToken, "nonce": Self.nonce])
            #expect(unproven.status == 422 && unproven.fieldErrors == ["reauthentication:required"], "\(unproven.text)")
            let appleProof = try await proof(apple, "apple", "001.zoe")
            let linked = try await client.post(
                "/v1/me/identities", token: token,
                json: ["provider": "google", "idToken": googleToken, "nonce": Self.nonce, "reauthentication": appleProof])
            let linkedIdentity = try #require(try? linked.decoded(LinkedIdentity.self), "\(linked.text)")
            #expect(linked.status == 200 && linkedIdentity.provider == .google, "\(linked.text)")
            #expect(try await client.get("/v1/me/identities", token: tablet).status == 401)
            // The same proof, again: spent.
            let replayed = try await client.post(
                "/v1/me/identities", token: token,
                json: [
                    "provider": "google", "idToken": try await google.token(subject: "g-42"), "nonce": Self.nonce,
                    "reauthentication": appleProof,
                ])
            #expect(replayed.status == 401 && replayed.code == "invalid_id_token", "\(replayed.text)")
            // Again: nothing changes.
            let again = try await client.post(
                "/v1/me/identities", token: token,
                json: [
                    "provider": "google", "idToken": try await google.token(subject: "g-42"), "nonce": Self.nonce,
                    "reauthentication": try await proof(apple, "apple", "001.zoe"),
                ])
            #expect(try again.status == 200 && again.decoded(LinkedIdentity.self).id == linkedIdentity.id)
            ways = try await identities(client, token)
            #expect(ways.providers == [.apple, .google])
            // Google now signs in to the same account.
            let viaGoogle = try await signIn(client, "google", try await google.token(subject: "g-42"))
            #expect(
                try viaGoogle.status == 200
                    && viaGoogle.decoded(SignedIn.self).account.id == created.decoded(SignedIn.self).account.id)

            // Someone else cannot take the Google identity.
            let other = try await client.signUp(email: "max@example.com")
            let stolen = try await client.post(
                "/v1/me/identities", token: other.token,
                json: [
                    "provider": "google", "idToken": try await google.token(subject: "g-42"), "nonce": Self.nonce,
                    "currentPassword": other.password,
                ])
            #expect(stolen.status == 409 && stolen.code == "identity_linked_elsewhere", "\(stolen.text)")
            // Nor unlink one that is not theirs.
            let notTheirs = try await client.delete(
                "/v1/me/identities/\(appleID)", token: other.token, json: ["currentPassword": other.password])
            #expect(notTheirs.status == 404 && notTheirs.code == "identity_not_found")

            // With Google linked, Apple may go (proved by Google).
            let unlinked = try await client.delete(
                "/v1/me/identities/\(appleID)", token: token, json: ["reauthentication": try await proof(google, "google", "g-42")])
            #expect(unlinked.status == 204, "\(unlinked.text)")
            ways = try await identities(client, token)
            #expect(ways.providers == [.google])
            // Apple's identity is free again: signing in with it makes a new account.
            let fresh = try await signIn(
                client, "apple", try await apple.token(subject: "001.zoe", email: "zoe.new@privaterelay.appleid.com"),
                extra: ["acceptTerms": true, "firstName": "Zoë"])
            #expect(fresh.status == 201, "\(fresh.text)")

            // A first password, with a fresh Google sign-in as the proof.
            let password = "a long and private phrase"
            let bare = try await client.patch("/v1/me", token: token, json: ["newPassword": password])
            #expect(bare.status == 422 && bare.fieldErrors == ["reauthentication:required"], "\(bare.text)")
            let set = try await client.patch(
                "/v1/me", token: token, json: ["newPassword": password, "reauthentication": try await proof(google, "google", "g-42")])
            #expect(set.status == 200, "\(set.text)")
            #expect(try await identities(client, token).hasPassword == true)
            // Now Google may go too: the password is a way in.
            let googleID = try #require(try await identities(client, token).ids.first)
            let wrong = try await client.delete("/v1/me/identities/\(googleID)", token: token, json: ["currentPassword": "not it at all"])
            #expect(wrong.status == 403 && wrong.code == "wrong_current_password")
            #expect(
                try await client.delete("/v1/me/identities/\(googleID)", token: token, json: ["currentPassword": password]).status == 204)
            let byPassword = try await client.post(
                "/v1/sessions", json: ["email": "zoe@privaterelay.appleid.com", "password": password])
            #expect(byPassword.status == 201, "\(byPassword.text)")
            let malformed = try await client.delete("/v1/me/identities/not-a-uuid", token: token, json: ["currentPassword": password])
            #expect(malformed.status == 404 && malformed.code == "identity_not_found")
        }
    }

    @Test("an account made with Apple joins its child's class with a fresh Apple sign-in as its consent")
    func joinsClass() async throws {
        try await withAppleAndGoogle { client, apple, _ in
            let teacher = try await client.signUp(email: "teacher@example.com")
            #expect(
                try await client.send(.put, "/v1/me/teacher", token: teacher.token, json: ["displayName": "Mme Dupont"]).status == 200)
            let made = try await client.post("/v1/classes", token: teacher.token, json: ["name": "4e B", "language": "fr", "level": "A2"])
            let code = try #require(try made.decoded(Components.Schemas.SchoolClass.self).joinCode)

            let created = try await signIn(
                client, "apple", try await apple.token(subject: "001.parent", email: "parent@privaterelay.appleid.com"),
                extra: ["acceptTerms": true, "firstName": "Léa"])
            let token = try sessionToken(created)
            let learner = try #require(try created.decoded(SignedIn.self).learners.first).id
            let path = "/v1/learners/\(learner)/classes"
            let bare = try await client.post(path, token: token, json: ["joinCode": code])
            #expect(bare.status == 422 && bare.fieldErrors == ["reauthentication:required"], "\(bare.text)")
            let someoneElse = try await client.post(
                path, token: token, json: ["joinCode": code, "reauthentication": try await proof(apple, "apple", "999.stranger")])
            #expect(someoneElse.status == 401 && someoneElse.code == "invalid_id_token")
            let joined = try await client.post(
                path, token: token, json: ["joinCode": code, "reauthentication": try await proof(apple, "apple", "001.parent")])
            #expect(joined.status == 201, "\(joined.text)")
            // A password account still consents with its password, and must give it.
            let parent = try await client.signUp(email: "parent@example.com")
            let noPassword = try await client.post(
                "/v1/learners/\(parent.learnerID)/classes", token: parent.token, json: ["joinCode": code])
            #expect(noPassword.status == 422 && noPassword.fieldErrors == ["password:required"], "\(noPassword.text)")
        }
    }

    @Test("Facebook Limited Login: its token makes an account and signs in to it; its email, unverified, never links by itself")
    func facebook() async throws {
        try await TestIdentityProvider(issuer: "https://www.facebook.com", audience: "1234567890").run { facebook in
            try await TestApp.make { $0.identityProviders[.facebook] = settings(facebook, as: .facebook) }.run { client in
                // Limited Login's token has no email_verified claim.
                let first = try await facebook.token(subject: "10158", email: "zoe@example.com", emailVerified: nil)
                let created = try await signIn(client, "facebook", first, extra: ["acceptTerms": true, "firstName": "Zoë"])
                #expect(created.status == 201, "\(created.text)")
                #expect(try created.decoded(SignedIn.self).account.emailVerified == false)
                let again = try await signIn(client, "facebook", try await facebook.token(subject: "10158"))
                #expect(again.status == 200)
                let token = try sessionToken(again)
                #expect(try await identities(client, token).providers == [.facebook])

                // Someone's Facebook naming an address that has a Parla account is not a way into it.
                _ = try await client.signUp(email: "max@example.com")
                let claimed = try await signIn(
                    client, "facebook", try await facebook.token(subject: "2077", email: "max@example.com", emailVerified: nil),
                    extra: ["password": "correct horse battery", "acceptTerms": true])
                #expect(claimed.status == 409 && claimed.code == "email_taken", "\(claimed.text)")

                // Without the email permission the token names no address: the app asks for one.
                let noEmail = try await facebook.token(subject: "3141")
                let asked = try await signIn(client, "facebook", noEmail, extra: ["acceptTerms": true, "firstName": "Ana"])
                #expect(asked.status == 422 && asked.fieldErrors == ["email:required"], "\(asked.text)")
                let typed = try await signIn(
                    client, "facebook", try await facebook.token(subject: "3141"),
                    extra: ["acceptTerms": true, "firstName": "Ana", "email": "ana@example.com"])
                #expect(typed.status == 201, "\(typed.text)")
                let typedAccount = try typed.decoded(SignedIn.self).account
                #expect(typedAccount.email == "ana@example.com")
                #expect(typedAccount.emailVerified == false)
                // An address that has an account is not taken that way.
                let taken = try await signIn(
                    client, "facebook", try await facebook.token(subject: "2718"),
                    extra: ["acceptTerms": true, "firstName": "Max", "email": "max@example.com"])
                #expect(taken.status == 409 && taken.code == "email_taken", "\(taken.text)")

                // Another app's token, another issuer, another nonce.
                for bad in [
                    try await facebook.token(subject: "10158", audience: "999"),
                    try await facebook.token(subject: "10158", issuer: "https://accounts.google.com"),
                    try await facebook.token(subject: "10158", nonce: "other"),
                ] {
                    let refused = try await signIn(client, "facebook", bad)
                    #expect(refused.status == 401 && refused.code == "invalid_id_token", "\(refused.text)")
                }
                // Apple is not set up here.
                let apple = try await signIn(client, "apple", try await facebook.token(subject: "10158"))
                #expect(apple.status == 501 && apple.code == "identity_provider_not_configured")
            }
        }
    }

    @Test("an account made by naming someone else's address is theirs once they reset its password: the sign-in that made it goes")
    func unverifiedAddressTakenBack() async throws {
        let smtp = try await TestSMTPServer()
        defer { Task { await smtp.stop() } }
        try await TestIdentityProvider(issuer: "https://www.facebook.com", audience: "1234567890").run { facebook in
            let app = try await TestApp.make {
                $0.identityProviders[.facebook] = settings(facebook, as: .facebook)
                $0.mail.smtp = SMTPSettings(
                    host: "localhost", port: smtp.port, security: .startTLS, username: smtp.options.username,
                    password: smtp.options.password, rootCertificates: smtp.certificates.map { [$0.caFile] } ?? [],
                    timeout: .seconds(10))
                $0.mail.retrySeconds = 0.2
                $0.mail.pollSeconds = 0.2
            }
            try await app.run { client in
                // Someone's Facebook names the address; Facebook does not say it was checked.
                let made = try await signIn(
                    client, "facebook", try await facebook.token(subject: "666", email: "lea@example.com", emailVerified: nil),
                    extra: ["acceptTerms": true, "firstName": "Léa"])
                #expect(made.status == 201, "\(made.text)")
                // The address's owner resets the password with the link that reached her.
                #expect(try await client.post("/v1/password-resets", json: ["email": "lea@example.com"]).status == 202)
                let reset = try #require(try await smtp.waitFor(2).first { $0.mail.link?.contains("reset-password") == true })
                let confirmed = try await client.post(
                    "/v1/password-resets/confirm", json: ["token": try #require(reset.mail.token), "newPassword": "my own long secret"])
                #expect(confirmed.status == 204, "\(confirmed.text)")
                // The Facebook sign-in that made the account no longer opens it.
                let again = try await signIn(
                    client, "facebook", try await facebook.token(subject: "666", email: "lea@example.com", emailVerified: nil))
                #expect(again.status == 409 && again.code == "email_taken", "\(again.text)")
                let owner = try await client.post("/v1/sessions", json: ["email": "lea@example.com", "password": "my own long secret"])
                #expect(owner.status == 201)
                #expect(try await identities(client, try sessionToken(owner)).providers.isEmpty)
            }
        }
    }

    @Test("Facebook's own issuers and key address are the defaults")
    func facebookDefaults() {
        let settings = IdentityProviderSettings.facebook(audiences: ["1234567890"])
        #expect(settings.issuers == ["https://www.facebook.com", "https://limited.facebook.com"])
        #expect(settings.jwksURL == "https://limited.facebook.com/.well-known/oauth/openid/jwks/")
        #expect(ServerSettings().identityProviders[.facebook]?.audiences.isEmpty == true)
    }
}

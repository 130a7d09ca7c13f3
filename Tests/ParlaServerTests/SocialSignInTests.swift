import Crypto
import Foundation
import JWTKit
import ParlaAPI
import ParlaIdentity
import ParlaServer
import ParlaTestSupport
import Testing
import _CryptoExtras

/// Issue 19, item 2: Sign in with Apple and Google, their keys served over
/// HTTPS by a local provider.
@Suite("social sign-in")
struct SocialSignInTests {
    typealias SignedIn = Components.Schemas.SignedIn
    static let nonce = "n-0S6_WzA2Mj"

    func app(_ provider: TestIdentityProvider, as name: IdentityProvider = .apple) async throws -> TestApp {
        try await TestApp.make {
            $0.identityProviders[name] = IdentityProviderSettings(
                provider: name, issuers: [provider.issuer], audiences: [provider.audience], jwksURL: provider.jwksURL,
                rootCertificates: [provider.certificates.caFile])
        }
    }

    func signIn(_ client: Client, _ token: String, provider: String = "apple", extra: [String: any Sendable] = [:]) async throws
        -> Client.Reply
    {
        var json: [String: any Sendable] = ["provider": provider, "idToken": token, "nonce": Self.nonce, "deviceName": "iPhone"]
        json.merge(extra) { $1 }
        return try await client.post("/v1/sessions/social", json: json)
    }

    /// The signed-in account's id.
    func accountID(_ reply: Client.Reply) throws -> String { try reply.decoded(SignedIn.self).account.id }

    @Test("a first Apple sign-in makes an account without a password; the next one signs in to it")
    func firstAndNext() async throws {
        try await TestIdentityProvider().run { provider in
            try await app(provider).run { client in
                let token = try await provider.token(subject: "001234.abcd", email: "zoe@privaterelay.appleid.com")
                let created = try await signIn(client, token, extra: ["acceptTerms": true, "firstName": "Zoë", "uiLanguage": "fr"])
                #expect(created.status == 201, "\(created.text)")
                let signedIn = try created.decoded(SignedIn.self)
                let account = signedIn.account
                #expect(account.emailVerified == true && account.firstName == "Zoë")
                #expect(account.uiLanguage == .fr && signedIn.learners.count == 1)
                // No password: signing in with one fails like a wrong one.
                let withPassword = try await client.post(
                    "/v1/sessions", json: ["email": "zoe@privaterelay.appleid.com", "password": "correct horse battery"])
                #expect(withPassword.status == 401)
                let again = try await signIn(client, try await provider.token(subject: "001234.abcd"))
                #expect(try again.status == 200 && accountID(again) == accountID(created))
                // Apple's apps give Apple the nonce's SHA-256: either form is accepted.
                let hashed = SHA256.hash(data: Data(Self.nonce.utf8)).map { String(format: "%02x", $0) }.joined()
                let viaHash = try await signIn(client, try await provider.token(subject: "001234.abcd", nonce: hashed))
                #expect(viaHash.status == 200)
            }
        }
    }

    /// Issue 32, item 11: an account without a password proves it is its
    /// owner by a fresh sign-in with its provider before its email changes.
    @Test("an account made with Apple changes its email only with a fresh Apple sign-in of its own identity")
    func socialEmailChange() async throws {
        try await TestIdentityProvider().run { provider in
            try await app(provider).run { client in
                let created = try await signIn(
                    client, try await provider.token(subject: "001234.abcd", email: "zoe@privaterelay.appleid.com"),
                    extra: ["acceptTerms": true, "firstName": "Zoë"])
                let token = try created.decoded(SignedIn.self).session.token
                let bare = try await client.patch("/v1/me", token: token, json: ["email": "zoe@example.com"])
                #expect(bare.status == 422 && bare.fieldErrors == ["reauthentication:required"], "\(bare.text)")
                func proof(_ subject: String) async throws -> [String: any Sendable] {
                    ["provider": "apple", "idToken": try await provider.token(subject: subject), "nonce": Self.nonce]
                }
                let someoneElse = try await client.patch(
                    "/v1/me", token: token, json: ["email": "zoe@example.com", "reauthentication": try await proof("999.other")])
                #expect(someoneElse.status == 401 && someoneElse.code == "invalid_id_token")
                let changed = try await client.patch(
                    "/v1/me", token: token, json: ["email": "zoe@example.com", "reauthentication": try await proof("001234.abcd")])
                #expect(changed.status == 200, "\(changed.text)")
                #expect(try changed.decoded(Components.Schemas.Me.self).account.email == "zoe@example.com")
            }
        }
    }

    @Test("a token for another app, from another issuer, expired, without our nonce, or not signed by the provider is refused")
    func refused() async throws {
        try await TestIdentityProvider().run { provider in
            try await app(provider).run { client in
                let forged = try JWTKit.Insecure.RSA.PrivateKey(backing: try _RSA.Signing.PrivateKey(keySize: .bits2048))
                let bad = [
                    try await provider.token(subject: "s1", audience: "com.other.app"),
                    try await provider.token(subject: "s1", issuer: "https://evil.example.com"),
                    try await provider.token(subject: "s1", expiresIn: -120),
                    try await provider.token(subject: "s1", nonce: "another-nonce"),
                    try await provider.token(subject: "s1", nonce: nil),
                    try await provider.token(subject: "s1", signingKey: forged),
                    "not.a.token", "eyJhbGciOiJub25lIiwia2lkIjoieCJ9.eyJzdWIiOiJzMSJ9.",
                ]
                for token in bad {
                    let reply = try await signIn(client, token, extra: ["acceptTerms": true, "firstName": "Zoë"])
                    #expect(reply.status == 401 && reply.code == "invalid_id_token", "\(token.prefix(30)): \(reply.text)")
                }
                let missing = try await client.post("/v1/sessions/social", json: ["provider": "myspace"])
                #expect(missing.fieldErrors == ["provider:invalid_provider", "idToken:required", "nonce:required"])
                // A provider this server was not set up for says so, with no retry advice; garbage is still garbage.
                let google = try await signIn(client, try await provider.token(subject: "s1"), provider: "google")
                #expect(google.status == 501 && google.code == "identity_provider_not_configured", "\(google.text)")
                #expect(google.header("Retry-After") == nil)
                let garbage = try await signIn(client, "not-a-token", provider: "google")
                #expect(garbage.status == 401 && garbage.code == "invalid_id_token")
            }
        }
    }

    @Test("the provider's keys are fetched once and kept, and again when a token names a new key")
    func keyRotation() async throws {
        try await TestIdentityProvider().run { provider in
            try await app(provider).run { client in
                let first = try await signIn(
                    client, try await provider.token(subject: "s2", email: "max@example.com"),
                    extra: ["acceptTerms": true, "firstName": "Max"])
                #expect(first.status == 201)
                #expect(try await signIn(client, try await provider.token(subject: "s2")).status == 200)
                #expect(provider.fetches == 1)
                try provider.rotate()
                #expect(try await signIn(client, try await provider.token(subject: "s2")).status == 200)
                #expect(provider.fetches == 2)
                // A made-up key id right after a fetch fetches nothing more.
                let unknown = try await signIn(client, try await provider.token(subject: "s2", kid: "made-up"))
                #expect(unknown.code == "invalid_id_token" && provider.fetches == 2)
            }
        }
    }

    @Test("an account with the token's verified email is linked only once its password is given")
    func linking() async throws {
        try await TestIdentityProvider(issuer: "https://accounts.google.com", audience: "123.apps.googleusercontent.com").run { provider in
            try await app(provider, as: .google).run { client in
                let existing = try await client.signUp(email: "zoe@example.com")
                let token = try await provider.token(subject: "10769150350006150715113082367", email: "Zoe@example.com", givenName: "Zoë")
                let asked = try await signIn(client, token, provider: "google", extra: ["acceptTerms": true])
                #expect(asked.status == 409 && asked.code == "link_required")
                let wrong = try await signIn(client, token, provider: "google", extra: ["password": "not the password"])
                #expect(wrong.status == 401 && wrong.code == "invalid_credentials")
                let linked = try await signIn(client, token, provider: "google", extra: ["password": existing.password])
                #expect(try linked.status == 200 && accountID(linked) == existing.accountID)
                let next = try await signIn(client, try await provider.token(subject: "10769150350006150715113082367"), provider: "google")
                #expect(try next.status == 200 && accountID(next) == existing.accountID)
                // An email the provider has not verified proves nothing.
                let unverified = try await signIn(
                    client, try await provider.token(subject: "other", email: "zoe@example.com", emailVerified: false), provider: "google",
                    extra: ["password": existing.password])
                #expect(unverified.status == 409 && unverified.code == "email_taken")
            }
        }
    }

    @Test("a new account needs the terms and a name; an unverified email is sent a link")
    func newAccountRules() async throws {
        try await TestIdentityProvider().run { provider in
            let app = try await app(provider)
            try await app.run { client in
                let token = try await provider.token(subject: "s3", email: "ana@example.com", emailVerified: false)
                let refused = try await signIn(client, token)
                #expect(refused.status == 422 && refused.fieldErrors == ["firstName:required", "acceptTerms:required"], "\(refused.text)")
                let created = try await signIn(client, token, extra: ["acceptTerms": true, "firstName": "Ana"])
                #expect(created.status == 201)
                #expect(try created.decoded(SignedIn.self).account.emailVerified == false)
                let folder = app.settings.mail.outboxDirectory
                #expect(
                    try await eventually {
                        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains {
                            $0.contains("email_verification")
                        }
                    })
                let noEmail = try await signIn(
                    client, try await provider.token(subject: "s4"), extra: ["acceptTerms": true, "firstName": "Leo"])
                #expect(noEmail.fieldErrors == ["email:required"])
            }
        }
    }
}

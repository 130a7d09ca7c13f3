import Crypto
import Foundation
import JWTKit
import ParlaIdentity
import ParlaServer
import ParlaTestSupport
import Testing

/// Issue 32, item 14: an account made with Apple or Google signs in to
/// `/teach` with the provider's authorization-code flow (PKCE), against
/// the local provider, every redirect followed by hand.
@Suite("web sign-in with a provider")
struct WebSignInTests {
    static let webClient = "web.parla"
    static let nonce = "n-0S6_WzA2Mj"

    /// The app with `provider` as Google (or Apple, posting its callback),
    /// its web client set up as `web` says.
    func app(_ provider: TestIdentityProvider, as name: IdentityProvider = .google, web: WebSignInSettings? = nil) async throws
        -> TestApp
    {
        let web =
            web
            ?? WebSignInSettings(
                authorizationURL: provider.authorizationURL, tokenURL: provider.tokenURL, clientID: Self.webClient,
                clientSecret: .secret("web-secret"), rootCertificates: [provider.certificates.caFile])
        provider.codeFlow.expect(clientID: web.clientID, .secret("web-secret"))
        return try await TestApp.make {
            var settings = IdentityProviderSettings(
                provider: name, issuers: [provider.issuer], audiences: [provider.audience, web.clientID], jwksURL: provider.jwksURL,
                rootCertificates: [provider.certificates.caFile])
            settings.web = web
            $0.identityProviders[name] = settings
        }
    }

    /// An account made by the app's own sign-in with the provider, as `subject`.
    func socialAccount(_ client: Client, _ provider: TestIdentityProvider, subject: String, name: String = "google") async throws {
        let token = try await provider.token(subject: subject, email: "\(subject)@example.com")
        let made = try await client.post(
            "/v1/sessions/social",
            json: ["provider": name, "idToken": token, "nonce": Self.nonce, "acceptTerms": true, "firstName": "Zoë"])
        #expect(made.status == 201, "\(made.text)")
    }

    /// A browser's cookies for the app, kept by hand (paths ignored).
    struct Cookies {
        var values: [String: String] = [:]
        var header: [String: String] { values.isEmpty ? [:] : ["Cookie": values.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")] }

        mutating func keep(_ reply: Client.Reply) {
            for line in reply.headers[values: .setCookie] {
                let pair = line.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    .map(String.init)
                guard pair.count == 2 else { continue }
                values[pair[0]] = line.lowercased().contains("max-age=0") ? nil : pair[1]
            }
        }

        /// The Set-Cookie line of `name` in `reply`.
        static func line(_ name: String, in reply: Client.Reply) -> String? {
            reply.headers[values: .setCookie].first { $0.hasPrefix(name + "=") }
        }
    }

    /// How the provider sent the browser back: the callback's path (and
    /// query), and for a form post its body.
    struct Callback {
        var path: String
        var form: String?
    }

    /// Starts a sign-in with `name` and visits the provider as the browser
    /// would (`tamper` may change where it is sent); the way back.
    func start(
        _ client: Client, _ provider: TestIdentityProvider, _ cookies: inout Cookies, name: String = "google",
        tamper: (String) -> String = { $0 }
    ) async throws -> Callback {
        let start = try await client.get("/teach/sign-in/\(name)", headers: cookies.header)
        #expect(start.status == 302, "\(start.text)")
        cookies.keep(start)
        let answer = try await provider.visit(tamper(try #require(start.header("Location"))))
        if answer.status == 302 {
            let location = try #require(answer.location)
            let back = try #require(URLComponents(string: location))
            return Callback(path: back.percentEncodedPath + "?" + (back.percentEncodedQuery ?? ""))
        }
        #expect(answer.status == 200, "\(answer.page)")
        let action = try #require(answer.page.firstMatch(of: /action="([^"]+)"/)?.1)
        let fields = answer.page.matches(of: /name="([^"]+)" value="([^"]*)"/).map { (String($0.1), String($0.2)) }
        return Callback(path: try #require(URLComponents(string: String(action))).path, form: AuthorizationCodeFlow.formEncoded(fields))
    }

    /// The app's answer to the provider's callback, with the browser's cookies.
    func finish(_ client: Client, _ callback: Callback, _ cookies: inout Cookies) async throws -> Client.Reply {
        let reply: Client.Reply
        if let form = callback.form {
            var headers = cookies.header
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            reply = try await client.send(.post, callback.path, body: Array(form.utf8), headers: headers)
        } else {
            reply = try await client.get(callback.path, headers: cookies.header)
        }
        cookies.keep(reply)
        return reply
    }

    /// The whole sign-in; the reply to the callback.
    func signIn(_ client: Client, _ provider: TestIdentityProvider, _ cookies: inout Cookies, name: String = "google") async throws
        -> Client.Reply
    {
        let callback = try await start(client, provider, &cookies, name: name)
        return try await finish(client, callback, &cookies)
    }

    /// Whether `cookies` open the dashboard's home (not the sign-in page).
    func seesHome(_ client: Client, _ cookies: Cookies) async throws -> Bool {
        let home = try await client.get("/teach", headers: cookies.header)
        return home.status == 200 && home.text.contains("Your classes") && !home.text.contains("name=\"password\"")
    }

    @Test("RFC 7636's example verifier has its example S256 challenge")
    func challenge() {
        #expect(
            AuthorizationCodeFlow.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test("an account made with Google in the app signs in to /teach with Google and sees its page")
    func socialAccountSignsIn() async throws {
        try await TestIdentityProvider(issuer: "https://accounts.google.com", audience: "123.apps.googleusercontent.com").run { provider in
            let app = try await app(provider)
            try await app.run { client in
                try await socialAccount(client, provider, subject: "g-1")
                let page = try await client.get("/teach")
                #expect(page.text.contains("href=\"/teach/sign-in/google\"") && page.text.contains("Sign in with Google"))
                #expect(!page.text.contains("/teach/sign-in/apple") && !page.text.contains("/teach/sign-in/facebook"))
                let french = try await client.get("/teach", headers: ["Accept-Language": "fr"])
                #expect(french.text.contains("Se connecter avec Google"))

                provider.codeFlow.approve(as: "g-1")
                var cookies = Cookies()
                let callback = try await start(client, provider, &cookies)
                // What the provider was asked: a code, openid email, S256, our way back, a nonce.
                let asked = try #require(provider.codeFlow.authorizations.last)
                #expect(asked["response_type"] == "code" && asked["scope"] == "openid email" && asked["client_id"] == Self.webClient)
                #expect(asked["code_challenge_method"] == "S256" && asked["code_challenge"]?.count == 43)
                #expect(asked["redirect_uri"] == "http://127.0.0.1:8080/teach/sign-in/google/callback")
                #expect(asked["nonce"]?.isEmpty == false && asked["response_mode"] == nil && asked["code_verifier"] == nil)
                #expect(
                    Cookies.line("parla_teach_attempt", in: try await client.get("/teach/sign-in/google"))?.contains("SameSite=Lax") == true
                )

                let reply = try await finish(client, callback, &cookies)
                #expect(reply.status == 200 && reply.text.contains("url=/teach"), "\(reply.text)")
                #expect(cookies.values["parla_teach"] != nil && cookies.values["parla_teach_attempt"] == nil)
                #expect(try await seesHome(client, cookies))
                #expect(provider.codeFlow.exchanges == 1)
                // The code, the state and the tokens stay out of the logs.
                let code = try #require(callback.path.firstMatch(of: /code=([^&]+)/)?.1)
                let state = try #require(callback.path.firstMatch(of: /state=([^&]+)/)?.1)
                #expect(!app.logs.all.contains { $0.contains(code) || $0.contains(state) || $0.contains("eyJ") })

                // The same callback again is refused: a state is good once.
                let replayed = try await finish(client, callback, &cookies)
                #expect(replayed.status == 400 && replayed.text.contains("expired or was already used"))
            }
        }
    }

    @Test("a made-up state, another browser, a wrong verifier, an unlinked identity, a refusal, a provider down: the page says why")
    func refused() async throws {
        try await TestIdentityProvider(issuer: "https://accounts.google.com", audience: "123.apps.googleusercontent.com").run { provider in
            try await app(provider).run { client in
                try await socialAccount(client, provider, subject: "g-1")
                provider.codeFlow.approve(as: "g-1")

                // A state the app never gave.
                var cookies = Cookies()
                let callback = try await start(client, provider, &cookies)
                let madeUp = callback.path.replacing(/state=[^&]+/, with: "state=made-up")
                let unknown = try await finish(client, Callback(path: madeUp), &cookies)
                #expect(
                    unknown.status == 400 && unknown.text.contains("expired or was already used") && unknown.text.contains("role=\"alert\"")
                )

                // Another browser with the callback URL gets nothing, and the attempt stays its own browser's.
                var stranger = Cookies()
                let stolen = try await finish(client, callback, &stranger)
                #expect(stolen.status == 400 && stranger.values["parla_teach"] == nil)
                var other = Cookies(values: ["parla_teach_attempt": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"])
                #expect(try await finish(client, callback, &other).status == 400)
                let own = try await finish(client, callback, &cookies)
                #expect(own.status == 200)
                #expect(try await seesHome(client, cookies))

                // A challenge swapped on the way to the provider: our verifier does not match it.
                var swapped = Cookies()
                let forged = try await start(client, provider, &swapped) { url in
                    url.replacing(
                        /code_challenge=[^&]+/,
                        with: "code_challenge=\(AuthorizationCodeFlow.challenge(for: String(repeating: "x", count: 43)))")
                }
                let wrongVerifier = try await finish(client, forged, &swapped)
                #expect(
                    wrongVerifier.status == 401 && wrongVerifier.text.contains("could not confirm who you are"), "\(wrongVerifier.text)")
                #expect(swapped.values["parla_teach"] == nil)

                // An identity no account is linked to: the web makes no account.
                provider.codeFlow.approve(as: "g-nobody")
                var nobody = Cookies()
                let unlinked = try await signIn(client, provider, &nobody)
                #expect(unlinked.status == 401 && unlinked.text.contains("No Parla account is linked"))
                let later = try await client.post(
                    "/v1/sessions/social",
                    json: ["provider": "google", "idToken": try await provider.token(subject: "g-nobody"), "nonce": Self.nonce])
                // Still no account: the app's sign-in would make one, and asks for the terms.
                #expect(later.status == 422, "\(later.text)")

                // The person says no at the provider.
                provider.codeFlow.deny()
                var denied = Cookies()
                let cancelled = try await signIn(client, provider, &denied)
                #expect(cancelled.status == 401 && cancelled.text.contains("The sign-in was cancelled."))

                // The token endpoint fails: a page that says so, never a 500.
                provider.codeFlow.approve(as: "g-1")
                provider.codeFlow.failTokens(with: 503)
                var failing = Cookies()
                let down = try await signIn(client, provider, &failing)
                #expect(down.status == 502 && down.text.contains("cannot be reached"))
                provider.codeFlow.failTokens(with: nil)
                // In French too.
                var french = Cookies()
                let frenchCallback = try await start(client, provider, &french)
                let frenchReply = try await client.get(
                    frenchCallback.path.replacing(/state=[^&]+/, with: "state=x"),
                    headers: french.header.merging(["Accept-Language": "fr"]) { $1 })
                #expect(frenchReply.text.contains("a expiré ou a déjà été utilisée"))
            }
        }
    }

    @Test("a token endpoint out of reach is said on the page")
    func unreachable() async throws {
        try await TestIdentityProvider(issuer: "https://accounts.google.com", audience: "123.apps.googleusercontent.com").run { provider in
            let web = WebSignInSettings(
                authorizationURL: provider.authorizationURL, tokenURL: "https://127.0.0.1:1/token", clientID: Self.webClient,
                clientSecret: .secret("web-secret"), rootCertificates: [provider.certificates.caFile])
            try await app(provider, web: web).run { client in
                try await socialAccount(client, provider, subject: "g-1")
                provider.codeFlow.approve(as: "g-1")
                var cookies = Cookies()
                let reply = try await signIn(client, provider, &cookies)
                #expect(reply.status == 502 && reply.text.contains("cannot be reached"), "\(reply.text)")
            }
        }
    }

    @Test("an account with two-factor sign-in gives its code after the provider; wrong codes are refused and counted")
    func twoFactor() async throws {
        try await TestIdentityProvider(issuer: "https://accounts.google.com", audience: "123.apps.googleusercontent.com").run { provider in
            try await app(provider).run { client in
                // An account with a password, Google linked to it by the app, two-factor on.
                let existing = try await client.signUp(email: "zoe@example.com")
                let linked = try await client.post(
                    "/v1/sessions/social",
                    json: [
                        "provider": "google", "nonce": Self.nonce, "password": existing.password,
                        "idToken": try await provider.token(subject: "g-2", email: "zoe@example.com"),
                    ])
                #expect(linked.status == 200, "\(linked.text)")
                let (secret, _) = try await client.turnOnTwoFactor(token: existing.token)

                provider.codeFlow.approve(as: "g-2")
                var cookies = Cookies()
                let asked = try await signIn(client, provider, &cookies)
                #expect(asked.status == 200 && asked.text.contains("Enter your code"), "\(asked.text)")
                #expect(cookies.values["parla_teach"] == nil && cookies.values["parla_teach_code"] != nil)
                let csrf = String(try #require(asked.text.firstMatch(of: /name="csrf" value="([^"]+)"/)?.1))
                func enter(_ code: String, csrf: String, _ cookies: Cookies) async throws -> Client.Reply {
                    var headers = cookies.header
                    headers["Content-Type"] = "application/x-www-form-urlencoded"
                    return try await client.send(
                        .post, "/teach/sign-in/code",
                        body: Array(AuthorizationCodeFlow.formEncoded([("csrf", csrf), ("oneTimeCode", code)]).utf8),
                        headers: headers)
                }
                let wrong = try await enter("000000", csrf: csrf, cookies)
                #expect(wrong.status == 401 && wrong.text.contains("This code is wrong"), "\(wrong.text)")
                // Without the wait's cookie, or with another CSRF token, nothing.
                #expect(try await enter("000000", csrf: csrf, Cookies()).text.contains("expired or was already used"))
                #expect(try await enter("000000", csrf: "forged", cookies).text.contains("expired or was already used"))

                let code = OneTimeCode.code(secret, step: OneTimeCode.step(at: Date()) + 1)
                let waiting = cookies
                let right = try await enter(code, csrf: csrf, cookies)
                #expect(right.status == 303 && right.header("Location") == "/teach", "\(right.text)")
                cookies.keep(right)
                #expect(cookies.values["parla_teach_code"] == nil)
                #expect(try await seesHome(client, cookies))
                // The wait is over: its cookie opens nothing again.
                #expect(try await enter(code, csrf: csrf, waiting).text.contains("expired or was already used"))

                // Wrong codes count as failed sign-ins of the account: after the limit, 429's words.
                var throttled = Cookies()
                let next = try await signIn(client, provider, &throttled)
                let nextCSRF = String(try #require(next.text.firstMatch(of: /name="csrf" value="([^"]+)"/)?.1))
                // The whole sign-in above cleared the count: ten wrong codes are
                // refused as wrong, then no code is even tried.
                var statuses: [Int] = []
                for _ in 0..<10 { statuses.append(try await enter("000000", csrf: nextCSRF, throttled).status) }
                #expect(statuses == Array(repeating: 401, count: 10), "\(statuses)")
                let last = try await enter("000000", csrf: nextCSRF, throttled)
                #expect(last.status == 429 && last.text.contains("Too many"), "\(last.status) \(last.text)")
            }
        }
    }

    @Test("Apple's way: the callback is posted from Apple's site, and the client secret is an ES256 JWT we sign")
    func apple() async throws {
        try await TestIdentityProvider().run { provider in
            let key = P256.Signing.PrivateKey()
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("parla-apple-\(UUID().uuidString).p8").path
            try key.pemRepresentation.write(toFile: file, atomically: true, encoding: .utf8)
            var web = WebSignInSettings.apple(clientID: "app.parla.web", teamID: "TEAM123456", keyID: "KEY1234567", privateKeyFile: file)
            (web.authorizationURL, web.tokenURL, web.rootCertificates) = (
                provider.authorizationURL, provider.tokenURL, [provider.certificates.caFile]
            )
            let app = try await app(provider, as: .apple, web: web)
            let publicKey = try ES256PublicKey(pem: key.publicKey.pemRepresentation)
            provider.codeFlow.expect(clientID: "app.parla.web", .appleKey(publicKey, teamID: "TEAM123456", keyID: "KEY1234567"))
            try await app.run { client in
                try await socialAccount(client, provider, subject: "001234.abcd", name: "apple")
                provider.codeFlow.approve(as: "001234.abcd")
                var cookies = Cookies()
                let start = try await client.get("/teach/sign-in/apple")
                // Apple posts back cross-site: only a SameSite=None (so Secure) cookie comes with it.
                let line = try #require(Cookies.line("parla_teach_attempt", in: start))
                #expect(line.contains("SameSite=None") && line.contains("Secure") && line.contains("HttpOnly"))
                let callback = try await self.start(client, provider, &cookies, name: "apple")
                #expect(callback.form != nil && provider.codeFlow.authorizations.last?["response_mode"] == "form_post")
                let reply = try await finish(client, callback, &cookies)
                #expect(reply.status == 200 && cookies.values["parla_teach"] != nil, "\(reply.text)")
                #expect(try await seesHome(client, cookies))

                // Signed with another key, the client secret is refused.
                provider.codeFlow.expect(
                    clientID: "app.parla.web",
                    .appleKey(
                        try ES256PublicKey(pem: P256.Signing.PrivateKey().publicKey.pemRepresentation), teamID: "TEAM123456",
                        keyID: "KEY1234567"))
                var other = Cookies()
                let refused = try await signIn(client, provider, &other, name: "apple")
                #expect(refused.status == 401 && refused.text.contains("could not confirm who you are"))
            }
        }
    }
}

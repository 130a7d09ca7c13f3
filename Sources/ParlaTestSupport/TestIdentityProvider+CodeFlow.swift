import AsyncHTTPClient
import Foundation
import Hummingbird
import JWTKit
import NIOCore
import NIOSSL
import ParlaIdentity
import Synchronization

/// The test provider's web sign-in, as Google's and Apple's are to a
/// browser and a server: `/authorize` approves at once as the person the
/// test chose (or says `access_denied`), sending the browser back with a
/// code by redirect or, Apple's way, by a form that posts itself; `/token`
/// gives the id_token for a code once, to our client only (Google's
/// secret, or Apple's ES256 client-secret JWT checked against the public
/// key the test gives), and only for the verifier whose S256 challenge
/// `/authorize` was given.
public final class TestCodeFlow: Sendable {
    /// How the client proves it is our web client at `/token`.
    public enum ClientCheck: Sendable {
        case secret(String)
        case appleKey(ES256PublicKey, teamID: String, keyID: String)
    }

    /// What `/authorize` answers next.
    public enum Answer: Sendable {
        case approve(subject: String, email: String?)
        case deny
    }

    struct Grant {
        var subject: String, email: String?, nonce: String?, challenge: String, redirectURI: String
    }

    struct State {
        var clientID = "web.parla"
        var check = ClientCheck.secret("web-secret")
        var answer = Answer.deny
        var grants: [String: Grant] = [:]
        var tokenStatus: Int?
        var authorizations: [[String: String]] = []
        var exchanges = 0
    }
    private let state = Mutex(State())

    init() {}

    /// Our web client at the provider, and how it proves it.
    public func expect(clientID: String, _ check: ClientCheck) {
        state.withLock { ($0.clientID, $0.check) = (clientID, check) }
    }

    /// `/authorize` approves as `subject` from now on.
    public func approve(as subject: String, email: String? = nil) {
        state.withLock { $0.answer = .approve(subject: subject, email: email) }
    }

    /// `/authorize` says `access_denied` from now on.
    public func deny() { state.withLock { $0.answer = .deny } }

    /// `/token` answers this status (a 5xx: the provider is down); nil: as it should.
    public func failTokens(with status: Int?) { state.withLock { $0.tokenStatus = status } }

    /// The query of every `/authorize` request, in order.
    public var authorizations: [[String: String]] { state.withLock { $0.authorizations } }
    /// How many codes `/token` exchanged.
    public var exchanges: Int { state.withLock { $0.exchanges } }

    func register(on router: Router<BasicRequestContext>, provider: TestIdentityProvider) {
        router.get("/authorize") { request, _ -> Response in
            var query: [String: String] = [:]
            for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
            let answer = self.state.withLock { state -> Answer? in
                state.authorizations.append(query)
                return query["client_id"] == state.clientID ? state.answer : nil
            }
            guard let answer, let redirect = query["redirect_uri"], query["response_type"] == "code",
                query["code_challenge_method"] == "S256", let challenge = query["code_challenge"], let stateValue = query["state"]
            else { return Response(status: .badRequest) }
            var fields = [("state", stateValue)]
            switch answer {
            case .deny:
                fields.append(("error", "access_denied"))
            case .approve(let subject, let email):
                let code = UUID().uuidString
                self.state.withLock {
                    $0.grants[code] = Grant(
                        subject: subject, email: email, nonce: query["nonce"], challenge: challenge, redirectURI: redirect)
                }
                fields.append(("code", code))
            }
            guard query["response_mode"] == "form_post" else {
                let separator = redirect.contains("?") ? "&" : "?"
                return Response(status: .found, headers: [.location: redirect + separator + AuthorizationCodeFlow.formEncoded(fields)])
            }
            let inputs = fields.map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\($0.1)\">" }.joined()
            let page = """
                <!doctype html><html><body onload="document.forms[0].submit()">\
                <form method="post" action="\(redirect)">\(inputs)<noscript><button>Continue</button></noscript></form></body></html>
                """
            return Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        router.post("/token") { request, _ -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 64 * 1024))
            let form = (try? URLEncodedFormDecoder().decode(TokenRequest.self, from: body)) ?? TokenRequest()
            let (clientID, check, failing) = self.state.withLock { ($0.clientID, $0.check, $0.tokenStatus) }
            if let failing { return Self.error("server_error", status: failing) }
            guard form.grant_type == "authorization_code" else { return Self.error("unsupported_grant_type") }
            guard form.client_id == clientID, await Self.holds(form.client_secret, check, clientID: clientID) else {
                return Self.error("invalid_client", status: 401)
            }
            // A code is spent by its first exchange, right or wrong.
            guard let code = form.code, let grant = self.state.withLock({ $0.grants.removeValue(forKey: code) }),
                grant.redirectURI == form.redirect_uri, let verifier = form.code_verifier,
                AuthorizationCodeFlow.challenge(for: verifier) == grant.challenge
            else { return Self.error("invalid_grant") }
            self.state.withLock { $0.exchanges += 1 }
            let idToken = try await provider.token(subject: grant.subject, email: grant.email, nonce: grant.nonce, audience: clientID)
            let json = try JSONSerialization.data(withJSONObject: [
                "id_token": idToken, "access_token": UUID().uuidString, "token_type": "Bearer", "expires_in": 3600,
            ])
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: json)))
        }
    }

    struct TokenRequest: Decodable {
        var grant_type: String?, code: String?, redirect_uri: String?, client_id: String?, client_secret: String?, code_verifier: String?
    }

    static func error(_ code: String, status: Int = 400) -> Response {
        Response(
            status: .init(code: status), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: "{\"error\":\"\(code)\"}")))
    }

    /// Whether `secret` proves our client: the same string, or Apple's JWT
    /// signed by the key of `keyID` for our team, our client and Apple.
    static func holds(_ secret: String?, _ check: ClientCheck, clientID: String) async -> Bool {
        guard let secret else { return false }
        switch check {
        case .secret(let expected):
            return secret == expected
        case .appleKey(let key, let teamID, let keyID):
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: key, kid: JWKIdentifier(string: keyID))
            guard let claims = try? await keys.verify(secret, as: ClientSecretClaims.self) else { return false }
            return claims.iss.value == teamID && claims.sub.value == clientID && claims.aud.value == ["https://appleid.apple.com"]
                && claims.exp.value.timeIntervalSince(claims.iat.value) <= 3600
        }
    }
}

extension TestIdentityProvider {
    /// Where a browser is sent to sign in, once `run` has started the server.
    public var authorizationURL: String { jwksURL.replacingOccurrences(of: "/auth/keys", with: "/authorize") }
    /// Where a code is exchanged for an id_token.
    public var tokenURL: String { jwksURL.replacingOccurrences(of: "/auth/keys", with: "/token") }
}

extension TestIdentityProvider {
    /// What a browser gets from this provider at `url` (its CA trusted,
    /// redirects not followed): the status, where it redirects, the page.
    public func visit(_ url: String) async throws -> (status: Int, location: String?, page: String) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificates.caFile))
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.redirectConfiguration = .disallow
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
            let page = String(buffer: try await response.body.collect(upTo: 1024 * 1024))
            try await http.shutdown()
            return (Int(response.status.code), response.headers.first(name: "Location"), page)
        } catch {
            try? await http.shutdown()
            throw error
        }
    }
}

import AsyncHTTPClient
import Crypto
import Foundation
import JWTKit
import NIOCore
import NIOSSL

/// What a browser needs to sign in with a provider on the web: OpenID
/// Connect's authorization-code flow with PKCE (RFC 7636), the id_token
/// it brings checked by the provider's `IdentityVerifier` like an app's.
///
/// Who we are at the provider for the web is not the app: Google gives a
/// web client its own id and secret; Apple a Services ID, and instead of
/// a secret, a key we sign a short-lived JWT with. The web client id must
/// be one of the provider's audiences, or its id_tokens are refused.
public struct WebSignInSettings: Sendable {
    public var authorizationURL: String
    public var tokenURL: String
    public var clientID: String
    public var clientSecret: ClientSecret
    /// Apple answers with a cross-site POST (`response_mode=form_post`),
    /// Google with a redirect carrying the code in its query.
    public var formPost: Bool
    /// PEM roots for the token endpoint's TLS; empty: the system's.
    public var rootCertificates: [String]

    public enum ClientSecret: Sendable, Equatable {
        /// A secret the provider gave us (Google).
        case secret(String)
        /// Apple: a JWT we sign (ES256) for each exchange with the key of
        /// `keyID`, its `.p8` PEM file at `privateKeyFile`.
        case appleKey(teamID: String, keyID: String, privateKeyFile: String)
    }

    public init(
        authorizationURL: String, tokenURL: String, clientID: String, clientSecret: ClientSecret, formPost: Bool = false,
        rootCertificates: [String] = []
    ) {
        (self.authorizationURL, self.tokenURL, self.clientID, self.clientSecret) = (authorizationURL, tokenURL, clientID, clientSecret)
        (self.formPost, self.rootCertificates) = (formPost, rootCertificates)
    }

    public static func google(clientID: String, secret: String) -> Self {
        Self(
            authorizationURL: "https://accounts.google.com/o/oauth2/v2/auth", tokenURL: "https://oauth2.googleapis.com/token",
            clientID: clientID, clientSecret: .secret(secret))
    }

    public static func apple(clientID: String, teamID: String, keyID: String, privateKeyFile: String) -> Self {
        Self(
            authorizationURL: "https://appleid.apple.com/auth/authorize", tokenURL: "https://appleid.apple.com/auth/token",
            clientID: clientID, clientSecret: .appleKey(teamID: teamID, keyID: keyID, privateKeyFile: privateKeyFile),
            formPost: true)
    }
}

/// The flow's pure parts: where the browser is sent, and PKCE's challenge.
public enum AuthorizationCodeFlow {
    /// The S256 challenge of a code verifier: BASE64URL(SHA-256(verifier)).
    public static func challenge(for verifier: String) -> String {
        base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    /// The provider's authorization endpoint, asked for a code for us
    /// (openid email), bound to `state`, `nonce` and the verifier's challenge.
    public static func authorizationURL(
        _ settings: WebSignInSettings, redirectURI: String, state: String, nonce: String, challenge: String
    ) -> String {
        var fields = [
            ("response_type", "code"), ("client_id", settings.clientID), ("redirect_uri", redirectURI),
            ("scope", "openid email"), ("state", state), ("nonce", nonce),
            ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ]
        if settings.formPost { fields.append(("response_mode", "form_post")) }
        let separator = settings.authorizationURL.contains("?") ? "&" : "?"
        return settings.authorizationURL + separator + formEncoded(fields)
    }

    /// `application/x-www-form-urlencoded`, as a query or a POST body.
    public static func formEncoded(_ fields: [(String, String)]) -> String {
        fields.map { "\(escaped($0.0))=\(escaped($0.1))" }.joined(separator: "&")
    }

    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func escaped(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// Why a code could not be exchanged for an id_token. Neither case
/// carries the code, the secret or the provider's answer body (they
/// could hold tokens): only what the log may say.
public enum CodeExchangeFailure: Error, Equatable, CustomStringConvertible {
    /// The provider answered 4xx: the code, the verifier or our client
    /// was refused (`error` is the OAuth error code it named, if any).
    case refused(status: Int, error: String?)
    /// The provider could not be reached, answered 5xx, or answered
    /// something that is not a token response.
    case unavailable(String)

    public var description: String {
        switch self {
        case .refused(let status, let error): "token endpoint refused the code: HTTP \(status) \(error ?? "")"
        case .unavailable(let why): "token endpoint unavailable: \(why)"
        }
    }
}

/// Exchanges an authorization code at the provider's token endpoint for
/// the id_token it answers with (which the caller still has to verify).
public final class AuthorizationCodeClient: Sendable {
    public let settings: WebSignInSettings
    private let http: HTTPClient
    /// Apple's signing key, read once at start so a bad file stops the start.
    private let appleKey: ES256PrivateKey?

    /// How long Apple's client-secret JWT is good for: one exchange needs
    /// seconds; Apple allows up to six months, which would make it a
    /// long-lived secret.
    static let clientSecretLifetime: TimeInterval = 300

    public init(settings: WebSignInSettings) throws {
        self.settings = settings
        if case .appleKey(_, _, let file) = settings.clientSecret {
            appleKey = try ES256PrivateKey(pem: String(contentsOfFile: file, encoding: .utf8))
        } else {
            appleKey = nil
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        if !settings.rootCertificates.isEmpty {
            tls.trustRoots = .certificates(try settings.rootCertificates.flatMap { try NIOSSLCertificate.fromPEMFile($0) })
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
        configuration.redirectConfiguration = .disallow
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    public func shutdown() async throws {
        try await http.shutdown()
    }

    /// The id_token the provider gives for `code`, proving with `verifier`
    /// that we are who asked for it.
    public func exchange(code: String, redirectURI: String, verifier: String, now: Date = Date()) async throws(CodeExchangeFailure)
        -> String
    {
        let secret: String
        do {
            secret = try await clientSecret(now: now)
        } catch {
            throw .unavailable("client secret: \(error)")
        }
        var request = HTTPClientRequest(url: settings.tokenURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(
            ByteBuffer(
                string: AuthorizationCodeFlow.formEncoded([
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
                    ("client_id", settings.clientID), ("client_secret", secret), ("code_verifier", verifier),
                ])))
        let status: Int
        let body: ByteBuffer
        do {
            let response = try await http.execute(request, timeout: .seconds(10))
            status = Int(response.status.code)
            body = try await response.body.collect(upTo: 256 * 1024)
        } catch {
            throw .unavailable("\(type(of: error))")
        }
        let answer = try? JSONDecoder().decode(TokenResponse.self, from: Data(body.readableBytesView))
        switch status {
        case 200:
            guard let token = answer?.idToken, !token.isEmpty else { throw .unavailable("no id_token in the answer") }
            return token
        case 400..<500: throw .refused(status: status, error: answer?.error)
        default: throw .unavailable("HTTP \(status)")
        }
    }

    /// What `client_secret` says: Google's configured secret, or for Apple
    /// a fresh ES256 JWT (iss our team, sub our client id, aud Apple).
    func clientSecret(now: Date) async throws -> String {
        switch settings.clientSecret {
        case .secret(let secret):
            return secret
        case .appleKey(let teamID, let keyID, _):
            guard let appleKey else { throw CodeExchangeFailure.unavailable("no Apple key") }
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: appleKey, kid: JWKIdentifier(string: keyID))
            let claims = ClientSecretClaims(
                iss: IssuerClaim(value: teamID), sub: SubjectClaim(value: settings.clientID),
                aud: AudienceClaim(value: ["https://appleid.apple.com"]), iat: IssuedAtClaim(value: now),
                exp: ExpirationClaim(value: now.addingTimeInterval(Self.clientSecretLifetime)))
            return try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
        }
    }

    struct TokenResponse: Decodable {
        enum CodingKeys: String, CodingKey { case idToken = "id_token", error }
        var idToken: String?
        var error: String?
    }
}

/// The claims of Apple's client secret, as its documentation lists them.
public struct ClientSecretClaims: JWTPayload {
    public var iss: IssuerClaim, sub: SubjectClaim, aud: AudienceClaim, iat: IssuedAtClaim, exp: ExpirationClaim

    public init(iss: IssuerClaim, sub: SubjectClaim, aud: AudienceClaim, iat: IssuedAtClaim, exp: ExpirationClaim) {
        (self.iss, self.sub, self.aud, self.iat, self.exp) = (iss, sub, aud, iat, exp)
    }

    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

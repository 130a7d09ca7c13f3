import Crypto
import Foundation
import Hummingbird
import HummingbirdTLS
import JWTKit
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import _CryptoExtras

/// A local OpenID Connect provider, as Apple's and Google's are to a
/// server: its keys published as a JWKS over HTTPS (a certificate from a
/// CA of its own), and `id_token`s it signs with them (RS256, key id in
/// the header). It can rotate its key, as providers do.
public final class TestIdentityProvider: Sendable {
    public let issuer: String
    public let audience: String
    public let certificates: TestCertificates
    /// The web sign-in's endpoints (`/authorize`, `/token`) and what they do.
    public let codeFlow = TestCodeFlow()

    struct SigningKey: Sendable {
        var kid: String
        var key: JWTKit.Insecure.RSA.PrivateKey
    }

    struct State {
        var port = 0
        var keys: [SigningKey] = []
        var fetches = 0
    }
    private let state = Mutex(State())

    public init(issuer: String = "https://appleid.apple.com", audience: String = "app.parla") throws {
        (self.issuer, self.audience) = (issuer, audience)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-identity-\(UUID().uuidString)")
        certificates = try TestCertificates(name: "Identity", directory: directory)
        try rotate()
    }

    /// A new signing key, published beside the old ones.
    @discardableResult
    public func rotate() throws -> String {
        let key = try JWTKit.Insecure.RSA.PrivateKey(backing: try _RSA.Signing.PrivateKey(keySize: .bits2048))
        let kid = "test-\(UUID().uuidString.prefix(8))"
        state.withLock { $0.keys.append(SigningKey(kid: kid, key: key)) }
        return kid
    }

    /// How many times the keys were fetched.
    public var fetches: Int { state.withLock { $0.fetches } }
    /// The JWKS's address, once `run` has started the server.
    public var jwksURL: String { "https://localhost:\(state.withLock { $0.port })/auth/keys" }

    /// An `id_token` about `subject`, signed with the newest key unless told
    /// otherwise; every claim can be changed to make a bad one.
    /// `emailVerified` nil leaves the claim out, as Facebook does.
    public func token(
        subject: String, email: String? = nil, emailVerified: Bool? = true, nonce: String? = "n-0S6_WzA2Mj",
        givenName: String? = nil, familyName: String? = nil, issuer: String? = nil, audience: String? = nil,
        expiresIn: TimeInterval = 600, issuedAgo: TimeInterval = 0, kid: String? = nil, signingKey: JWTKit.Insecure.RSA.PrivateKey? = nil
    ) async throws -> String {
        let newest = state.withLock { $0.keys.last! }
        let chosen = kid.flatMap { kid in state.withLock { $0.keys.first { $0.kid == kid } } } ?? newest
        let claims = Claims(
            iss: IssuerClaim(value: issuer ?? self.issuer), sub: SubjectClaim(value: subject),
            aud: AudienceClaim(value: [audience ?? self.audience]), exp: ExpirationClaim(value: Date().addingTimeInterval(expiresIn)),
            iat: IssuedAtClaim(value: Date().addingTimeInterval(-issuedAgo)), jti: UUID().uuidString, nonce: nonce, email: email,
            email_verified: email == nil ? nil : emailVerified.map { $0 ? "true" : "false" },
            given_name: givenName, family_name: familyName)
        let keys = JWTKeyCollection()
        await keys.add(rsa: signingKey ?? chosen.key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid ?? chosen.kid))
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid ?? chosen.kid))
    }

    /// Apple sends `email_verified` as a string.
    struct Claims: JWTPayload {
        var iss: IssuerClaim, sub: SubjectClaim, aud: AudienceClaim, exp: ExpirationClaim, iat: IssuedAtClaim
        /// Each token its own, as a provider's are (two in one second differ).
        var jti: String
        var nonce: String?, email: String?, email_verified: String?, given_name: String?, family_name: String?
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// Runs `body` with the server listening on a port of its own.
    public func run<Value: Sendable>(_ body: @Sendable (TestIdentityProvider) async throws -> Value) async throws -> Value {
        let router = Router()
        router.get("/auth/keys") { _, _ -> Response in
            let keys = self.state.withLock { state -> [SigningKey] in
                state.fetches += 1
                return state.keys
            }
            let jwks = try keys.map { signing -> [String: String] in
                let (modulus, exponent) = try signing.key.publicKey.getKeyPrimitives()
                return ["kty": "RSA", "kid": signing.kid, "use": "sig", "alg": "RS256", "n": modulus.base64URL, "e": exponent.base64URL]
            }
            let data = try JSONSerialization.data(withJSONObject: ["keys": jwks])
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        codeFlow.register(on: router, provider: self)
        return try await serve(
            router, certificates: certificates.serverConfiguration, label: "parla.test.identity",
            listening: { port in self.state.withLock { $0.port = port } }
        ) { try await body(self) }
    }
}

extension Data {
    fileprivate var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

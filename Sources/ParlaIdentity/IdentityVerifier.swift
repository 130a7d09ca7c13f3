import AsyncHTTPClient
import Crypto
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOSSL

/// Who signs people in for us: Sign in with Apple, Google Sign-In,
/// Facebook Login (its Limited Login's OpenID Connect token).
public enum IdentityProvider: String, Sendable, CaseIterable {
    case apple, google, facebook
}

/// One provider's OpenID Connect facts: the issuers its tokens name, the
/// audiences (our client ids) they must be for, and where its keys are.
public struct IdentityProviderSettings: Sendable {
    public var provider: IdentityProvider
    public var issuers: Set<String>
    /// Our client ids at the provider; none turns the provider off.
    public var audiences: Set<String>
    public var jwksURL: String
    /// PEM roots for the JWKS host's TLS; empty: the system's.
    public var rootCertificates: [String]
    /// Sign-in on the web dashboard (`AuthorizationCodeFlow`); nil: the
    /// dashboard does not offer this provider.
    public var web: WebSignInSettings?

    public init(
        provider: IdentityProvider, issuers: Set<String>, audiences: Set<String>, jwksURL: String, rootCertificates: [String] = []
    ) {
        (self.provider, self.issuers, self.audiences, self.jwksURL) = (provider, issuers, audiences, jwksURL)
        self.rootCertificates = rootCertificates
    }

    public static func apple(audiences: Set<String>) -> Self {
        Self(provider: .apple, issuers: ["https://appleid.apple.com"], audiences: audiences, jwksURL: "https://appleid.apple.com/auth/keys")
    }

    public static func google(audiences: Set<String>) -> Self {
        Self(
            provider: .google, issuers: ["https://accounts.google.com", "accounts.google.com"], audiences: audiences,
            jwksURL: "https://www.googleapis.com/oauth2/v3/certs")
    }

    /// Facebook Limited Login: an id_token signed with the keys of
    /// `limited.facebook.com`, for the app's id, carrying the nonce the app
    /// gave the SDK as it was given. Facebook says nothing about whether
    /// the email was checked, so it is taken as unverified.
    public static func facebook(audiences: Set<String>) -> Self {
        Self(
            provider: .facebook, issuers: ["https://www.facebook.com", "https://limited.facebook.com"], audiences: audiences,
            jwksURL: "https://limited.facebook.com/.well-known/oauth/openid/jwks/")
    }
}

/// What a valid `id_token` says about the person.
public struct VerifiedIdentity: Sendable, Equatable {
    public var provider: IdentityProvider
    /// The provider's stable id for the person (`sub`).
    public var subject: String
    public var email: String?
    public var emailVerified: Bool
    public var givenName: String?
    public var familyName: String?
    /// When the provider issued the token (nil: it did not say), and when
    /// it ends: a proof of a fresh sign-in reads both.
    public var issuedAt: Date?
    public var expiresAt: Date
}

public enum IdentityFailure: Error, Equatable, CustomStringConvertible {
    /// The token is not one we accept: why, for the log.
    case invalidToken(String)
    /// The provider's keys could not be read.
    case unavailable(String)

    public var description: String {
        switch self {
        case .invalidToken(let why): "invalid id_token: \(why)"
        case .unavailable(let why): "identity provider unavailable: \(why)"
        }
    }
}

/// The claims of an OpenID Connect ID token that sign-in reads. Apple
/// sends `email_verified` as a string, Google as a boolean: `BoolClaim`
/// takes both.
struct IdentityClaims: JWTPayload {
    enum CodingKeys: String, CodingKey {
        case issuer = "iss", subject = "sub", audience = "aud", expires = "exp", issuedAt = "iat", nonce, email
        case emailVerified = "email_verified", givenName = "given_name", familyName = "family_name"
    }

    var issuer: IssuerClaim
    var subject: SubjectClaim
    var audience: AudienceClaim
    var expires: ExpirationClaim
    var issuedAt: IssuedAtClaim?
    var nonce: String?
    var email: String?
    var emailVerified: BoolClaim?
    var givenName: String?
    var familyName: String?

    /// Claims are checked by `IdentityVerifier`, against its settings.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Verifies a provider's `id_token`: its signature against the provider's
/// JWKS (fetched over HTTPS, kept, fetched again for a key id it does not
/// know), then issuer, audience, expiry, issue time and nonce.
public final class IdentityVerifier: Sendable {
    public let settings: IdentityProviderSettings
    private let keys: JWKSCache
    private let http: HTTPClient

    /// Clock skew allowed on `exp` and `iat`.
    static let leeway: TimeInterval = 60

    public init(settings: IdentityProviderSettings, logger: Logger) throws {
        self.settings = settings
        var tls = TLSConfiguration.makeClientConfiguration()
        if !settings.rootCertificates.isEmpty {
            tls.trustRoots = .certificates(try settings.rootCertificates.flatMap { try NIOSSLCertificate.fromPEMFile($0) })
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        keys = JWKSCache(url: settings.jwksURL, http: http, logger: logger)
    }

    public func shutdown() async throws {
        try await http.shutdown()
    }

    /// The person the token is about. `nonce` is what the app sent with its
    /// request: the token must carry it, or its SHA-256 in hex (Apple's apps
    /// hash the nonce they give Apple).
    public func verify(_ token: String, nonce: String?, now: Date = Date()) async throws(IdentityFailure) -> VerifiedIdentity {
        guard !settings.audiences.isEmpty else { throw .unavailable("\(settings.provider.rawValue) sign-in is not configured") }
        let header = try Self.header(token)
        guard let kid = header.kid else { throw .invalidToken("no key id") }
        guard ["RS256", "ES256"].contains(header.alg) else { throw .invalidToken("algorithm \(header.alg)") }
        let claims: IdentityClaims
        do {
            let collection = try await keys.collection(knowing: kid)
            claims = try await collection.verify(token, as: IdentityClaims.self)
        } catch let failure as IdentityFailure {
            throw failure
        } catch {
            throw .invalidToken("signature: \(error)")
        }
        guard settings.issuers.contains(claims.issuer.value) else { throw .invalidToken("issuer \(claims.issuer.value)") }
        guard !settings.audiences.isDisjoint(with: claims.audience.value) else { throw .invalidToken("audience") }
        guard claims.expires.value.addingTimeInterval(Self.leeway) > now else { throw .invalidToken("expired") }
        if let issued = claims.issuedAt?.value, issued > now.addingTimeInterval(Self.leeway) { throw .invalidToken("issued in the future") }
        guard let nonce, !nonce.isEmpty else { throw .invalidToken("no nonce given") }
        let hashed = SHA256.hash(data: Data(nonce.utf8)).map { String(format: "%02x", $0) }.joined()
        guard claims.nonce == nonce || claims.nonce == hashed else { throw .invalidToken("nonce") }
        return VerifiedIdentity(
            provider: settings.provider, subject: claims.subject.value, email: claims.email,
            emailVerified: claims.emailVerified?.value ?? false, givenName: claims.givenName, familyName: claims.familyName,
            issuedAt: claims.issuedAt?.value, expiresAt: claims.expires.value)
    }

    /// The token's header, read (by jwt-kit's parser) before any key is chosen.
    static func header(_ token: String) throws(IdentityFailure) -> (kid: String?, alg: String) {
        guard token.utf8.count <= 16 * 1024,
            let (header, _, _) = try? DefaultJWTParser().parse(Array(token.utf8), as: IdentityClaims.self), let alg = header.alg
        else { throw .invalidToken("not a JWS with a readable header and claims") }
        return (header.kid, alg)
    }
}

/// The provider's keys, fetched on first use, again after a day, and again
/// when a token names a key id not among them (the provider rotated its
/// keys), at most once a minute so that made-up key ids cannot make us
/// fetch on every request.
actor JWKSCache {
    let url: String
    let http: HTTPClient
    let logger: Logger
    private var collection: JWTKeyCollection?
    private var kids: Set<String> = []
    private var fetchedAt: ContinuousClock.Instant?
    /// The last fetch an unknown key id caused.
    private var lastForced: ContinuousClock.Instant?

    static let maximumAge: Duration = .seconds(86400)
    static let minimumInterval: Duration = .seconds(60)

    init(url: String, http: HTTPClient, logger: Logger) {
        (self.url, self.http, self.logger) = (url, http, logger)
    }

    func collection(knowing kid: String) async throws -> JWTKeyCollection {
        let now = ContinuousClock.now
        if let collection, let fetchedAt, fetchedAt.duration(to: now) < Self.maximumAge {
            if kids.contains(kid) { return collection }
            // An unknown key id: fetch again, unless one did so just now.
            if let lastForced, lastForced.duration(to: now) < Self.minimumInterval { return collection }
            lastForced = now
        }
        try await refresh()
        return collection!
    }

    private func refresh() async throws {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await http.execute(request, timeout: .seconds(10))
            body = try await response.body.collect(upTo: 1024 * 1024)
        } catch {
            throw IdentityFailure.unavailable("keys at \(url): \(error)")
        }
        guard response.status == .ok else { throw IdentityFailure.unavailable("keys at \(url): HTTP \(response.status.code)") }
        do {
            let jwks = try JSONDecoder().decode(JWKS.self, from: Data(body.readableBytesView))
            let fresh = JWTKeyCollection()
            for key in jwks.keys where key.keyIdentifier != nil {
                // A key of a type we cannot use is skipped, not fatal.
                _ = try? await fresh.add(jwk: key)
            }
            collection = fresh
            kids = Set(jwks.keys.compactMap { $0.keyIdentifier?.string })
            fetchedAt = ContinuousClock.now
            logger.info("identity keys fetched", metadata: ["url": "\(url)", "keys": "\(kids.count)"])
        } catch {
            throw IdentityFailure.unavailable("keys at \(url): \(error)")
        }
    }
}

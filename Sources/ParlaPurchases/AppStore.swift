import Crypto
import Foundation
import JWTKit
import ParlaCommerce
import ParlaCore
import SwiftASN1
import Synchronization
@_spi(FixedExpiryValidationTime) import X509

/// How the App Store's signed data is checked: the roots its certificate
/// chains must lead to (Apple Root CA - G3 in production; a test's own
/// root in tests), the app's bundle id, the environments accepted.
public struct AppStoreSettings: Sendable {
    public var rootCertificates: [Certificate]
    public var bundleID: String
    /// "Production", and "Sandbox" where test purchases count (not in production).
    public var environments: Set<String>
    /// Buyers of the app before this version own the legacy product (seed 000).
    public var legacyBeforeVersion: AppVersion?

    public init(rootCertificates: [Certificate], bundleID: String, environments: Set<String>, legacyBeforeVersion: AppVersion?) {
        (self.rootCertificates, self.bundleID, self.environments) = (rootCertificates, bundleID, environments)
        self.legacyBeforeVersion = legacyBeforeVersion
    }

    /// Reads PEM files (several certificates each, if need be).
    public static func certificates(pemFiles paths: [String]) throws -> [Certificate] {
        try paths.flatMap { path in
            let text = try String(contentsOfFile: path, encoding: .utf8)
            return try PEMDocument.parseMultiple(pemString: text).map { try Certificate(pemDocument: $0) }
        }
    }
}

/// Verifies what the App Store signs: StoreKit 2 transactions, app
/// transactions and Server Notifications V2. Each is a JWS (ES256) whose
/// `x5c` chain must lead to a configured root through Apple's intermediate
/// and leaf (their marker extensions checked), valid now; then its bundle
/// id and environment must be ours. A chain once verified is kept (until
/// its first certificate expires): verifying the next transaction signed
/// by it costs one signature check.
public final class AppStoreVerifier: Sendable {
    public let settings: AppStoreSettings
    private let verifier: X5CVerifier
    private let chains = Mutex<[Data: VerifiedChain]>([:])
    static let keptChains = 64

    struct VerifiedChain: Sendable {
        let keys: JWTKeyCollection
        let notAfter: Date
    }

    public init(settings: AppStoreSettings) throws {
        self.settings = settings
        verifier = try X5CVerifier(rootCertificates: settings.rootCertificates)
    }

    /// A rejected signed payload: why, for the log (never the payload).
    public struct Rejection: Error, CustomStringConvertible {
        public var description: String
    }

    // MARK: Signed data

    /// The payload of `jws`, once its chain and signature hold.
    func verify<Payload: JWTPayload>(_ jws: String, as _: Payload.Type, at now: Date = Date()) async throws -> Payload {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Data(base64URL: String(parts[0])),
            let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else { throw Rejection(description: "not a compact JWS") }
        guard header.alg == "ES256" else { throw Rejection(description: "algorithm \(header.alg) is not ES256") }
        guard let x5c = header.x5c, (2...4).contains(x5c.count) else { throw Rejection(description: "no certificate chain") }
        let key = Data(SHA256.hash(data: Data(x5c.joined(separator: ".").utf8)))
        let kept = chains.withLock { $0[key] }.flatMap { $0.notAfter > now ? $0 : nil }
        let chain: VerifiedChain
        if let kept {
            chain = kept
        } else {
            chain = try await verifyChain(x5c, at: now, key: key)
        }
        do {
            return try await chain.keys.verify(jws, as: Payload.self)
        } catch {
            throw Rejection(description: "signature or payload: \(error)")
        }
    }

    private struct Header: Decodable {
        var alg: String
        var x5c: [String]?
    }

    private func verifyChain(_ x5c: [String], at now: Date, key: Data) async throws -> VerifiedChain {
        let certificates = try x5c.map { text -> Certificate in
            guard let der = Data(base64Encoded: text) else { throw Rejection(description: "a certificate is not base64") }
            return try Certificate(derEncoded: [UInt8](der))
        }
        let result = try await verifier.verifyChain(certificates: certificates) {
            AppleMarkerPolicy()
            RFC5280Policy(fixedExpiryValidationTime: now)
        }
        guard case .validCertificate = result else { throw Rejection(description: "certificate chain: \(result)") }
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PublicKey(certificate: try certificates[0].serializeAsPEM().pemString))
        let chain = VerifiedChain(keys: keys, notAfter: certificates.map(\.notValidAfter).min() ?? now)
        chains.withLock { kept in
            if kept.count >= Self.keptChains { kept.removeAll() }
            kept[key] = chain
        }
        return chain
    }

    private func checkApp(bundleID: String?, environment: String?) throws {
        guard bundleID == settings.bundleID else { throw Rejection(description: "bundle id \(bundleID ?? "none")") }
        guard let environment, settings.environments.contains(environment) else {
            throw Rejection(description: "environment \(environment ?? "none")")
        }
    }

    // MARK: Transactions

    /// A StoreKit 2 signed transaction, as the catalogue's product.
    /// `productNotFound` when Parla sells no such product.
    public func transaction(
        _ jws: String, catalogue: Catalogue, renewal: RenewalInfo? = nil, at now: Date = Date()
    ) async throws -> StoreTransaction {
        let payload = try await verify(jws, as: TransactionPayload.self, at: now)
        try checkApp(bundleID: payload.bundleId, environment: payload.environment)
        guard let product = catalogue.product(store: .appStore, storeProduct: payload.productId) else {
            throw ParlaError(.productNotFound)
        }
        let expires = payload.expiresDate.map(Date.init(milliseconds:))
        return StoreTransaction(
            store: .appStore, transactionID: payload.transactionId,
            originalTransactionID: payload.originalTransactionId ?? payload.transactionId,
            storeProduct: payload.productId, product: product.id, purchased: Date(milliseconds: payload.purchaseDate),
            expires: expires, graceEnds: renewal?.gracePeriodExpiresDate.map(Date.init(milliseconds:)),
            revoked: payload.revocationDate.map(Date.init(milliseconds:)),
            renews: renewal.map { $0.autoRenewStatus == 1 } ?? (expires != nil),
            environment: payload.environment ?? "", accountToken: payload.appAccountToken.flatMap(UUID.init(uuidString:)),
            payload: jws)
    }

    /// An App Store Server Notification V2: what happened, and the
    /// transaction as it stands now (with its renewal's grace and status).
    public func notification(_ signedPayload: String, catalogue: Catalogue, at now: Date = Date()) async throws -> Notification {
        let payload = try await verify(signedPayload, as: NotificationPayload.self, at: now)
        try checkApp(bundleID: payload.data?.bundleId, environment: payload.data?.environment)
        var renewal: RenewalInfo?
        if let signed = payload.data?.signedRenewalInfo { renewal = try await verify(signed, as: RenewalInfo.self, at: now) }
        var transaction: StoreTransaction?
        if let signed = payload.data?.signedTransactionInfo {
            do {
                transaction = try await self.transaction(signed, catalogue: catalogue, renewal: renewal, at: now)
            } catch let error as ParlaError where error.code == .productNotFound {
                transaction = nil  // not a product of ours: nothing to change
            }
        }
        return Notification(
            id: payload.notificationUUID, type: payload.notificationType, subtype: payload.subtype, transaction: transaction)
    }

    public struct Notification: Sendable {
        public var id: String
        /// DID_RENEW, EXPIRED, REFUND, REVOKE, DID_FAIL_TO_RENEW, ...
        public var type: String
        public var subtype: String?
        public var transaction: StoreTransaction?
    }

    /// StoreKit 2's signed `AppTransaction`: whether its buyer bought the
    /// app before `legacyBeforeVersion` (then owns the legacy product).
    public func isLegacyBuyer(_ jws: String, at now: Date = Date()) async throws -> (eligible: Bool, originalVersion: String) {
        let payload = try await verify(jws, as: AppTransactionPayload.self, at: now)
        try checkApp(bundleID: payload.bundleId, environment: payload.receiptType ?? payload.environment)
        guard let before = settings.legacyBeforeVersion, let original = AppVersion(payload.originalApplicationVersion) else {
            return (false, payload.originalApplicationVersion)
        }
        return (original < before, payload.originalApplicationVersion)
    }
}

// MARK: Apple's payloads (App Store Server API's JWSTransactionDecodedPayload and friends)

/// Dates are milliseconds since 1970.
struct TransactionPayload: JWTPayload {
    var transactionId: String
    var originalTransactionId: String?
    var bundleId: String
    var productId: String
    var purchaseDate: Int64
    var expiresDate: Int64?
    var revocationDate: Int64?
    var environment: String?
    var appAccountToken: String?
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

public struct RenewalInfo: JWTPayload {
    var autoRenewStatus: Int?
    var gracePeriodExpiresDate: Int64?
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}

struct NotificationPayload: JWTPayload {
    struct Data: Codable, Sendable {
        var bundleId: String?
        var environment: String?
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
    }
    var notificationType: String
    var subtype: String?
    var notificationUUID: String
    var data: Data?
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

struct AppTransactionPayload: JWTPayload {
    var bundleId: String
    var originalApplicationVersion: String
    var receiptType: String?
    var environment: String?
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Apple's marks: the leaf is a Mac App Store receipt signing certificate
/// (1.2.840.113635.100.6.11.1), the intermediate the WWDR CA's
/// (1.2.840.113635.100.6.2.1). A chain from the right root without them is
/// not the App Store's.
struct AppleMarkerPolicy: VerifierPolicy {
    static let leaf: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    static let intermediate: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [Self.leaf, Self.intermediate]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        guard chain.count >= 3 else { return .failsToMeetPolicy(reason: "the chain has no intermediate") }
        guard chain[0].extensions[oid: Self.leaf] != nil else { return .failsToMeetPolicy(reason: "the leaf lacks Apple's mark") }
        guard chain[1].extensions[oid: Self.intermediate] != nil else {
            return .failsToMeetPolicy(reason: "the intermediate lacks Apple's mark")
        }
        return .meetsPolicy
    }
}

extension Date {
    init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}

extension Data {
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}

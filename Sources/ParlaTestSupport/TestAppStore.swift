import Crypto
import Foundation
import SwiftASN1
import X509

/// A stand-in for the App Store's signing: a root CA of its own, an
/// intermediate and a leaf marked as Apple marks them, and JWS (ES256 with
/// the `x5c` chain) signed by the leaf, in the shapes StoreKit 2 and App
/// Store Server Notifications V2 send. The server trusts the root through
/// its configuration, as it trusts Apple's in production.
public struct TestAppStore: Sendable {
    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    let leafKey: P256.Signing.PrivateKey
    public let bundleID: String

    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    /// `marked`: whether the intermediate and leaf carry Apple's marker
    /// extensions (a chain without them must be refused).
    public init(bundleID: String = "app.parla", marked: Bool = true, name: String = "Parla Test Root CA") throws {
        self.bundleID = bundleID
        let now = Date()
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName(name) }
        let intermediateName = try DistinguishedName { CommonName("Parla Test WWDR") }
        let leafName = try DistinguishedName { CommonName("Parla Test StoreKit Signing") }
        let marker: [UInt8] = [0x05, 0x00]  // ASN.1 NULL, as Apple's markers hold
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey), notValidBefore: now - 3600,
            notValidAfter: now + 10 * 365 * 86400, issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            }, issuerPrivateKey: .init(rootKey))
        intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey), notValidBefore: now - 3600,
            notValidAfter: now + 5 * 365 * 86400, issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true))
                if marked { Certificate.Extension(oid: Self.intermediateMarker, critical: false, value: marker[...]) }
            }, issuerPrivateKey: .init(rootKey))
        leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey), notValidBefore: now - 3600,
            notValidAfter: now + 2 * 365 * 86400, issuer: intermediateName, subject: leafName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                if marked { Certificate.Extension(oid: Self.leafMarker, critical: false, value: marker[...]) }
            }, issuerPrivateKey: .init(intermediateKey))
    }

    /// The root as a PEM file, for `purchases.appStore.rootCertificates`.
    public func writeRoot() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parla-test-root-\(UUID().uuidString).pem").path
        try root.serializeAsPEM().pemString.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A compact JWS of `payload`, signed by the leaf, the chain in `x5c`.
    public func sign(_ payload: [String: any Sendable]) throws -> String {
        func der(_ certificate: Certificate) throws -> String {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return Data(serializer.serializedBytes).base64EncodedString()
        }
        let header: [String: Any] = ["alg": "ES256", "x5c": [try der(leaf), try der(intermediate), try der(root)]]
        let signingInput =
            Self.base64URL(try JSONSerialization.data(withJSONObject: header)) + "."
            + Self.base64URL(try JSONSerialization.data(withJSONObject: payload))
        let signature = try leafKey.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Self.base64URL(signature.rawRepresentation)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// A StoreKit 2 transaction (App Store Server API's JWSTransactionDecodedPayload).
    public func transaction(
        id: String, original: String? = nil, product: String, purchased: Date = Date(), expires: Date? = nil,
        revoked: Date? = nil, environment: String = "Production", bundleID: String? = nil, accountToken: UUID? = nil
    ) throws -> String {
        var payload: [String: any Sendable] = [
            "transactionId": id, "originalTransactionId": original ?? id, "bundleId": bundleID ?? self.bundleID,
            "productId": product, "purchaseDate": Self.milliseconds(purchased), "originalPurchaseDate": Self.milliseconds(purchased),
            "quantity": 1, "type": expires == nil ? "Non-Consumable" : "Auto-Renewable Subscription",
            "inAppOwnershipType": "PURCHASED", "signedDate": Self.milliseconds(Date()), "environment": environment,
            "storefront": "USA", "transactionReason": "PURCHASE",
        ]
        if let expires { payload["expiresDate"] = Self.milliseconds(expires) }
        if let revoked {
            payload["revocationDate"] = Self.milliseconds(revoked)
            payload["revocationReason"] = 0
        }
        if let accountToken { payload["appAccountToken"] = accountToken.uuidString.lowercased() }
        return try sign(payload)
    }

    /// A subscription's renewal info (JWSRenewalInfoDecodedPayload).
    public func renewal(original: String, product: String, renews: Bool, graceEnds: Date? = nil) throws -> String {
        var payload: [String: any Sendable] = [
            "originalTransactionId": original, "autoRenewProductId": product, "productId": product,
            "autoRenewStatus": renews ? 1 : 0, "signedDate": Self.milliseconds(Date()), "environment": "Production",
        ]
        if let graceEnds { payload["gracePeriodExpiresDate"] = Self.milliseconds(graceEnds) }
        return try sign(payload)
    }

    /// An App Store Server Notification V2's `signedPayload`.
    public func notification(
        _ type: String, subtype: String? = nil, transaction: String?, renewal: String? = nil, id: UUID = UUID(),
        environment: String = "Production"
    ) throws -> String {
        var data: [String: any Sendable] = ["bundleId": bundleID, "environment": environment, "appAppleId": 1_234_567_890]
        if let transaction { data["signedTransactionInfo"] = transaction }
        if let renewal { data["signedRenewalInfo"] = renewal }
        var payload: [String: any Sendable] = [
            "notificationType": type, "notificationUUID": id.uuidString.lowercased(), "version": "2.0",
            "signedDate": Self.milliseconds(Date()), "data": data,
        ]
        if let subtype { payload["subtype"] = subtype }
        return try sign(payload)
    }

    /// StoreKit 2's AppTransaction: the app as its buyer first got it.
    public func appTransaction(originalVersion: String, environment: String = "Production") throws -> String {
        try sign([
            "bundleId": bundleID, "applicationVersion": "2.1", "originalApplicationVersion": originalVersion,
            "originalPurchaseDate": Self.milliseconds(Date(timeIntervalSince1970: 1_300_000_000)), "receiptType": environment,
            "receiptCreationDate": Self.milliseconds(Date()), "signedDate": Self.milliseconds(Date()), "appAppleId": 1_234_567_890,
        ])
    }
}

import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL
import ParlaCommerce
import ParlaCore
import Synchronization

/// How Parla reaches the Google Play Developer API: the app's package, a
/// service account's key (the JSON file Google gives), the API's base URL.
public struct GooglePlaySettings: Sendable {
    public var packageName: String
    public var serviceAccount: ServiceAccount
    /// `https://androidpublisher.googleapis.com` in production.
    public var baseURL: String

    public init(packageName: String, serviceAccount: ServiceAccount, baseURL: String) {
        (self.packageName, self.serviceAccount, self.baseURL) = (packageName, serviceAccount, baseURL)
    }

    /// The fields of a service account key file that sign in.
    public struct ServiceAccount: Sendable, Decodable {
        public var clientEmail: String
        public var privateKey: String
        public var tokenURI: String

        enum CodingKeys: String, CodingKey {
            case clientEmail = "client_email", privateKey = "private_key", tokenURI = "token_uri"
        }

        public init(clientEmail: String, privateKey: String, tokenURI: String) {
            (self.clientEmail, self.privateKey, self.tokenURI) = (clientEmail, privateKey, tokenURI)
        }

        public static func read(_ path: String) throws -> ServiceAccount {
            try JSONDecoder().decode(ServiceAccount.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        }
    }
}

/// Checks Google Play purchase tokens with the Play Developer API
/// (purchases.products.get, purchases.subscriptionsv2.get), acknowledges
/// new purchases (Play refunds what is not acknowledged within three days),
/// and signs in as the service account with OAuth 2.0's JWT bearer grant
/// (RS256), keeping the access token until shortly before it expires.
public final class GooglePlayClient: Sendable {
    public let settings: GooglePlaySettings
    let http: HTTPClient
    let signer: JWTKeyCollection
    private let accessToken = Mutex<(token: String, expires: Date)?>(nil)
    let logger: Logger

    /// `trusting`: PEM files of the roots the API's TLS certificate must
    /// chain to; none: the system's (production).
    public init(settings: GooglePlaySettings, trusting roots: [String] = [], logger: Logger) async throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        if !roots.isEmpty { tls.trustRoots = .certificates(try roots.flatMap { try NIOSSLCertificate.fromPEMFile($0) }) }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        (self.settings, self.logger) = (settings, logger)
        signer = JWTKeyCollection()
        await signer.add(rsa: try Insecure.RSA.PrivateKey(pem: settings.serviceAccount.privateKey), digestAlgorithm: .sha256)
    }

    public func shutdown() async throws { try await http.shutdown() }

    /// The API refused, or could not be reached.
    public struct Failure: Error, CustomStringConvertible {
        /// The HTTP status, when an answer came.
        public var status: Int?
        public var description: String
    }

    // MARK: Purchases

    /// What a purchase token is now, as the catalogue's product: a one-time
    /// product or a subscription (the catalogue says which).
    /// `productNotFound` when Parla sells no such product.
    public func transaction(
        product storeProduct: String, token: String, catalogue: Catalogue, at now: Date = Date()
    ) async throws -> StoreTransaction {
        guard let product = catalogue.product(store: .googlePlay, storeProduct: storeProduct) else {
            throw ParlaError(.productNotFound)
        }
        let escapedToken = Self.pathSegment(token)
        let package = Self.pathSegment(settings.packageName)
        if product.billing.isSubscription {
            let path = "/androidpublisher/v3/applications/\(package)/purchases/subscriptionsv2/tokens/\(escapedToken)"
            let (subscription, raw) = try await get(path, as: SubscriptionPurchase.self)
            guard let line = subscription.lineItems?.first(where: { $0.productId == storeProduct }) else {
                throw Failure(status: nil, description: "the subscription holds no \(storeProduct)")
            }
            let expires = line.expiryTime.flatMap(Self.time)
            let state = subscription.subscriptionState ?? ""
            if subscription.acknowledgementState == "ACKNOWLEDGEMENT_STATE_PENDING" {
                try await post(
                    "/androidpublisher/v3/applications/\(package)/purchases/subscriptions/\(Self.pathSegment(storeProduct))/tokens/\(escapedToken):acknowledge"
                )
            }
            return StoreTransaction(
                store: .googlePlay, transactionID: subscription.latestOrderId ?? token, originalTransactionID: token,
                storeProduct: storeProduct, product: product.id, purchased: subscription.startTime.flatMap(Self.time) ?? now,
                expires: ["SUBSCRIPTION_STATE_EXPIRED", "SUBSCRIPTION_STATE_ON_HOLD", "SUBSCRIPTION_STATE_PAUSED"].contains(state)
                    ? min(expires ?? now, now) : expires,
                graceEnds: state == "SUBSCRIPTION_STATE_IN_GRACE_PERIOD" ? expires : nil,
                renews: ["SUBSCRIPTION_STATE_ACTIVE", "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"].contains(state),
                environment: subscription.testPurchase == nil ? "Production" : "Sandbox",
                accountToken: subscription.externalAccountIdentifiers?.obfuscatedExternalAccountId.flatMap(UUID.init(uuidString:)),
                payload: raw)
        }
        let path =
            "/androidpublisher/v3/applications/\(package)/purchases/products/\(Self.pathSegment(storeProduct))/tokens/\(escapedToken)"
        let (purchase, raw) = try await get(path, as: ProductPurchase.self)
        // 0 purchased, 1 canceled (refunded), 2 pending (not paid yet).
        guard purchase.purchaseState != 2 else { throw ParlaError(.purchaseInvalid) }
        if purchase.purchaseState == 0, purchase.acknowledgementState == 0 {
            try await post("\(path):acknowledge")
        }
        return StoreTransaction(
            store: .googlePlay, transactionID: purchase.orderId ?? token, originalTransactionID: token, storeProduct: storeProduct,
            product: product.id, purchased: purchase.purchaseTimeMillis.flatMap(Int64.init).map(Date.init(milliseconds:)) ?? now,
            revoked: purchase.purchaseState == 1 ? now : nil, environment: purchase.purchaseType == 0 ? "Sandbox" : "Production",
            accountToken: purchase.obfuscatedExternalAccountId.flatMap(UUID.init(uuidString:)), payload: raw)
    }

    /// A real-time developer notification, as Pub/Sub pushes it (the
    /// message's data is the notification in base64): which purchase
    /// token it is about and what happened. It carries no signature: the
    /// push is authenticated by its endpoint's secret, and the purchase is
    /// read again from the API, which is the word that counts.
    public struct Notification: Sendable {
        public var messageID: String
        public var token: String
        public var product: String
        /// "subscription 2" (renewed), "one-time 1" (purchased), "voided", "test".
        public var kind: String
        /// Voided (refunded or charged back) or revoked: access ends now.
        public var ended: Bool
    }

    /// `data`: the Pub/Sub message's data (base64 of the notification's JSON).
    public static func notification(data: String, messageID: String) throws -> Notification? {
        struct Developer: Decodable {
            struct Item: Decodable {
                var notificationType: Int?
                var purchaseToken: String
                var subscriptionId: String?
                var sku: String?
            }
            struct Voided: Decodable {
                var purchaseToken: String
            }
            var subscriptionNotification: Item?
            var oneTimeProductNotification: Item?
            var voidedPurchaseNotification: Voided?
        }
        guard let json = Data(base64Encoded: data) else { throw Failure(status: nil, description: "data is not base64") }
        let developer = try JSONDecoder().decode(Developer.self, from: json)
        let id = messageID
        if let item = developer.subscriptionNotification {
            // 12: revoked, 13: expired.
            return Notification(
                messageID: id, token: item.purchaseToken, product: item.subscriptionId ?? "",
                kind: "subscription \(item.notificationType ?? 0)", ended: item.notificationType == 12)
        }
        if let item = developer.oneTimeProductNotification {
            return Notification(
                messageID: id, token: item.purchaseToken, product: item.sku ?? "", kind: "one-time \(item.notificationType ?? 0)",
                ended: false)
        }
        if let voided = developer.voidedPurchaseNotification {
            return Notification(messageID: id, token: voided.purchaseToken, product: "", kind: "voided", ended: true)
        }
        return nil
    }

    // MARK: The API

    private func get<Body: Decodable>(_ path: String, as _: Body.Type) async throws -> (Body, String) {
        var request = HTTPClientRequest(url: settings.baseURL + path)
        request.headers.add(name: "Authorization", value: "Bearer \(try await token())")
        let response = try await send(request)
        let bytes = try await response.body.collect(upTo: 1 << 20)
        let text = String(buffer: bytes)
        guard response.status == .ok else {
            if response.status == .notFound || response.status == .badRequest || response.status == .gone {
                throw ParlaError(.purchaseInvalid)
            }
            throw Failure(status: Int(response.status.code), description: "GET \(path.prefix(80)): \(response.status)")
        }
        do {
            return (try JSONDecoder().decode(Body.self, from: Data(buffer: bytes)), text)
        } catch {
            throw Failure(status: 200, description: "the API's answer could not be read: \(error)")
        }
    }

    private func post(_ path: String) async throws {
        var request = HTTPClientRequest(url: settings.baseURL + path)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(try await token())")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: "{}"))
        let response = try await send(request)
        _ = try await response.body.collect(upTo: 1 << 16)
        guard response.status == .ok || response.status == .noContent else {
            throw Failure(status: Int(response.status.code), description: "POST \(path.prefix(80)): \(response.status)")
        }
    }

    private func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        do {
            return try await http.execute(request, timeout: .seconds(10))
        } catch {
            throw Failure(status: nil, description: "\(error)")
        }
    }

    /// An access token for the API's scope, kept until a minute before it ends.
    func token() async throws -> String {
        if let kept = accessToken.withLock({ $0 }), kept.expires > Date().addingTimeInterval(60) { return kept.token }
        let now = Date()
        let account = settings.serviceAccount
        let assertion = try await signer.sign(
            ServiceAccountClaims(
                iss: .init(value: account.clientEmail), scope: "https://www.googleapis.com/auth/androidpublisher",
                aud: .init(value: [account.tokenURI]), iat: .init(value: now), exp: .init(value: now.addingTimeInterval(3600))))
        var request = HTTPClientRequest(url: account.tokenURI)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(
            ByteBuffer(string: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"))
        let response = try await send(request)
        let bytes = try await response.body.collect(upTo: 1 << 16)
        guard response.status == .ok, let granted = try? JSONDecoder().decode(AccessToken.self, from: Data(buffer: bytes)) else {
            throw Failure(status: Int(response.status.code), description: "the service account's sign-in was refused: \(response.status)")
        }
        accessToken.withLock { $0 = (granted.access_token, now.addingTimeInterval(Double(granted.expires_in))) }
        return granted.access_token
    }

    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }

    static func time(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}

struct ServiceAccountClaims: JWTPayload {
    var iss: IssuerClaim
    var scope: String
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
}

struct AccessToken: Decodable {
    var access_token: String
    var expires_in: Int
}

/// purchases.products.get's ProductPurchase.
struct ProductPurchase: Decodable {
    var purchaseTimeMillis: String?
    var purchaseState: Int?
    var acknowledgementState: Int?
    var orderId: String?
    var purchaseType: Int?
    var obfuscatedExternalAccountId: String?
}

/// purchases.subscriptionsv2.get's SubscriptionPurchaseV2.
struct SubscriptionPurchase: Decodable {
    struct LineItem: Decodable {
        var productId: String
        var expiryTime: String?
    }
    struct AccountIdentifiers: Decodable {
        var obfuscatedExternalAccountId: String?
    }
    var lineItems: [LineItem]?
    var startTime: String?
    var subscriptionState: String?
    var latestOrderId: String?
    var acknowledgementState: String?
    var externalAccountIdentifiers: AccountIdentifiers?
    var testPurchase: [String: String]?
}

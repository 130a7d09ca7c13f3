import Crypto
import Foundation
import Hummingbird
import HummingbirdTLS
import JWTKit
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import SwiftASN1
import Synchronization
import X509
import _CryptoExtras

/// A local HTTPS server that answers as Google's do: the OAuth 2.0 token
/// endpoint (a JWT bearer assertion, RS256, checked against the service
/// account's public key) and the Play Developer API's purchases.products,
/// purchases.subscriptionsv2 and acknowledge calls, over TLS with a
/// certificate from a CA of its own. A test sets the purchases it knows.
public final class TestGooglePlay: Sendable {
    /// The CA the server's certificate chains to, for `purchases.googlePlay.rootCertificates`.
    public let caFile: String
    /// A service account key file, as the Play Console gives it.
    public let serviceAccountFile: String
    public let packageName: String
    let serverConfiguration: TLSConfiguration
    let accountKey: JWTKit.Insecure.RSA.PublicKey
    let clientEmail = "parla-tests@parla-test.iam.gserviceaccount.com"

    struct State {
        var port = 0
        var products: [String: [String: any Sendable]] = [:]
        var subscriptions: [String: [String: any Sendable]] = [:]
        var acknowledged: Set<String> = []
        var tokensIssued = 0
    }
    private let state = Mutex(State())

    public init(packageName: String = "app.parla") throws {
        self.packageName = packageName
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-google-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

        // The TLS side: a CA, and a certificate for localhost and 127.0.0.1.
        let certificates = try TestCertificates(name: "Google", directory: directory)
        caFile = certificates.caFile
        serverConfiguration = certificates.serverConfiguration

        // The service account.
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        accountKey = try JWTKit.Insecure.RSA.PublicKey(pem: rsa.publicKey.pemRepresentation)
        serviceAccountFile = directory.appendingPathComponent("service-account.json").path
        privateKeyPEM = rsa.pemRepresentation
    }

    let privateKeyPEM: String

    /// The API's base URL, once `run` has started the server.
    public var baseURL: String { "https://localhost:\(state.withLock { $0.port })" }
    public var tokensIssued: Int { state.withLock { $0.tokensIssued } }
    public func isAcknowledged(_ token: String) -> Bool { state.withLock { $0.acknowledged.contains(token) } }

    /// A one-time product's purchase: state 0 purchased, 1 canceled (refunded), 2 pending.
    public func setProduct(
        token: String, product: String, state purchaseState: Int = 0, orderID: String, account: String? = nil, test: Bool = false
    ) {
        var purchase: [String: any Sendable] = [
            "kind": "androidpublisher#productPurchase", "purchaseTimeMillis": String(Int64(Date().timeIntervalSince1970 * 1000)),
            "purchaseState": purchaseState, "consumptionState": 0, "orderId": orderID, "acknowledgementState": 0,
            "productId": product, "quantity": 1, "regionCode": "US",
        ]
        if test { purchase["purchaseType"] = 0 }
        if let account { purchase["obfuscatedExternalAccountId"] = account }
        state.withLock {
            $0.products[token] = purchase
            $0.acknowledged.remove(token)
        }
    }

    /// A subscription: SUBSCRIPTION_STATE_ACTIVE, _IN_GRACE_PERIOD, _CANCELED, _EXPIRED...
    public func setSubscription(
        token: String, product: String, state subscriptionState: String, expires: Date, orderID: String, account: String? = nil
    ) {
        let formatter = ISO8601DateFormatter()
        var subscription: [String: any Sendable] = [
            "kind": "androidpublisher#subscriptionPurchaseV2", "regionCode": "US",
            "startTime": formatter.string(from: Date().addingTimeInterval(-86400)), "subscriptionState": subscriptionState,
            "latestOrderId": orderID, "acknowledgementState": "ACKNOWLEDGEMENT_STATE_PENDING",
            "lineItems": [["productId": product, "expiryTime": formatter.string(from: expires)] as [String: any Sendable]],
        ]
        if let account { subscription["externalAccountIdentifiers"] = ["obfuscatedExternalAccountId": account] }
        state.withLock { $0.subscriptions[token] = subscription }
    }

    /// A Pub/Sub push of a real-time developer notification, as its body.
    public static func push(_ notification: [String: any Sendable], packageName: String = "app.parla") throws -> [String: any Sendable] {
        var developer = notification
        developer["version"] = "1.0"
        developer["packageName"] = packageName
        developer["eventTimeMillis"] = String(Int64(Date().timeIntervalSince1970 * 1000))
        let data = try JSONSerialization.data(withJSONObject: developer).base64EncodedString()
        return [
            "message": ["data": data, "messageId": UUID().uuidString, "publishTime": ISO8601DateFormatter().string(from: Date())],
            "subscription": "projects/parla-test/subscriptions/play",
        ]
    }

    /// Runs `body` with the server listening on a port of its own.
    public func run<Value: Sendable>(_ body: @Sendable (TestGooglePlay) async throws -> Value) async throws -> Value {
        try await serve(
            await router(), certificates: serverConfiguration, label: "parla.test.google-play",
            listening: { port in
                self.state.withLock { $0.port = port }
                // The key file names the token endpoint on the port now known.
                try """
                {"type": "service_account", "project_id": "parla-test", "client_email": "\(self.clientEmail)",
                 "private_key": \(String(decoding: try JSONSerialization.data(withJSONObject: [self.privateKeyPEM]), as: UTF8.self).dropFirst().dropLast()),
                 "token_uri": "https://localhost:\(port)/token"}
                """.write(toFile: self.serviceAccountFile, atomically: true, encoding: .utf8)
            }
        ) { try await body(self) }
    }

    struct TokenRequest: Decodable {
        var grant_type: String
        var assertion: String
    }

    struct Assertion: JWTPayload {
        var iss: IssuerClaim
        var scope: String
        var aud: AudienceClaim
        var exp: ExpirationClaim
        func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
    }

    private func router() async -> Router<BasicRequestContext> {
        let router = Router()
        let keys = JWTKeyCollection()
        await keys.add(rsa: accountKey, digestAlgorithm: .sha256)
        let clientEmail = clientEmail
        router.post("/token") { request, context -> Response in
            let form = String(buffer: try await request.body.collect(upTo: 1 << 16))
            let fields = try? URLEncodedFormDecoder().decode(TokenRequest.self, from: form)
            guard fields?.grant_type == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = fields?.assertion,
                let claims = try? await keys.verify(assertion, as: Assertion.self), claims.iss.value == clientEmail,
                claims.scope == "https://www.googleapis.com/auth/androidpublisher",
                claims.aud.value.contains("https://localhost:\(self.state.withLock { $0.port })/token")
            else { return Self.json(["error": "invalid_grant"], status: .badRequest) }
            let token = self.state.withLock { state -> String in
                state.tokensIssued += 1
                return "ya29.test-\(state.tokensIssued)"
            }
            return Self.json(["access_token": token, "expires_in": 3599, "token_type": "Bearer"])
        }
        let api = router.group("androidpublisher/v3/applications/:package/purchases")
        api.get("products/:product/tokens/:token") { request, context -> Response in
            guard self.authorized(request), context.parameters.get("package") == self.packageName else {
                return Self.json([:], status: .unauthorized)
            }
            guard let token = context.parameters.get("token"), let purchase = self.state.withLock({ $0.products[token] }) else {
                return Self.notFound
            }
            var answer = purchase
            answer["acknowledgementState"] = self.state.withLock { $0.acknowledged.contains(token) } ? 1 : 0
            return Self.json(answer)
        }
        // purchases.products.acknowledge and purchases.subscriptions.acknowledge: `<token>:acknowledge`.
        let acknowledge: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, context in
            guard self.authorized(request), let path = context.parameters.get("token"), path.hasSuffix(":acknowledge") else {
                return Self.json([:], status: .unauthorized)
            }
            let token = String(path.dropLast(":acknowledge".count))
            self.state.withLock { _ = $0.acknowledged.insert(token) }
            return Self.json([:])
        }
        api.post("products/:product/tokens/:token", use: acknowledge)
        api.post("subscriptions/:product/tokens/:token", use: acknowledge)
        api.get("subscriptionsv2/tokens/:token") { request, context -> Response in
            guard self.authorized(request) else { return Self.json([:], status: .unauthorized) }
            guard let token = context.parameters.get("token"), let subscription = self.state.withLock({ $0.subscriptions[token] }) else {
                return Self.notFound
            }
            var answer = subscription
            if self.state.withLock({ $0.acknowledged.contains(token) }) {
                answer["acknowledgementState"] = "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"
            }
            return Self.json(answer)
        }
        return router
    }

    private func authorized(_ request: Request) -> Bool {
        request.headers[.authorization]?.hasPrefix("Bearer ya29.test-") == true
    }

    static var notFound: Response {
        json(
            ["error": ["code": 404, "message": "The purchase token was not found.", "status": "NOT_FOUND"] as [String: any Sendable]],
            status: .notFound)
    }

    static func json(_ object: [String: any Sendable], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

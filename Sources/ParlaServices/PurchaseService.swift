import Foundation
import Logging
import ParlaCommerce
import ParlaCore
import ParlaPurchases
import ParlaStore

/// Store purchases, verified and recorded for the account: a transaction
/// an app sends, a restore, an old app's buyer's claim, and the stores'
/// notifications (renewals, grace, expiry, refunds, revocations).
package struct PurchaseService: Sendable {
    package let entitlements: EntitlementService
    package let store: EntitlementStore
    /// Nil when no App Store root is configured.
    package let appStore: AppStoreVerifier?
    /// Nil when no Google Play service account is configured.
    package let googlePlay: GooglePlayClient?
    /// What Google Play's notification pushes must carry.
    package let googlePlaySecret: String?
    package let logger: Logger

    /// The verifier for `jws`: garbage is `purchase_invalid` (422) whatever
    /// is configured; a well-formed payload with no App Store root set up
    /// is `store_not_configured` (501), never "try again".
    private func appStoreVerifier(for jws: String) throws -> AppStoreVerifier {
        guard SignedToken.hasCompactShape(jws) else { throw ParlaError(.purchaseInvalid) }
        guard let appStore else { throw ParlaError(.storeNotConfigured) }
        return appStore
    }

    /// Runs a check of signed data: a rejection is `purchase_invalid`, its
    /// reason logged (never the payload).
    private func verified<T>(_ what: String, _ check: () async throws -> T) async throws -> T {
        do {
            return try await check()
        } catch let rejection as AppStoreVerifier.Rejection {
            logger.notice("store payload refused", metadata: ["what": "\(what)", "reason": "\(rejection.description)"])
            throw ParlaError(.purchaseInvalid)
        } catch let failure as GooglePlayClient.Failure {
            // Google's API failed us, not the client: try again later.
            logger.warning("Google Play API", metadata: ["what": "\(what)", "status": "\(failure.status ?? 0)", "reason": "\(failure)"])
            throw ParlaError(.storeUnavailable)
        }
    }

    private func googlePlayClient() throws -> GooglePlayClient {
        guard let googlePlay else { throw ParlaError(.storeNotConfigured) }
        return googlePlay
    }

    /// A Google Play purchase token from the app, checked with the Play
    /// Developer API, for the caller's account.
    package func recordGooglePlay(product: String, token: String, for account: AccountID) async throws {
        let client = try googlePlayClient()
        let catalogue = try entitlements.catalogue()
        let transaction = try await verified("purchase token") {
            try await client.transaction(product: product, token: token, catalogue: catalogue)
        }
        if let owner = transaction.accountToken, try await !store.names(owner, account) { throw ParlaError(.purchaseForeign) }
        try await store.record(transaction, for: account)
    }

    /// A real-time developer notification pushed by Pub/Sub: the purchase is
    /// read again from the API (the notification is only a hint), or, when
    /// voided or revoked, its entitlement ends now. False when the push's
    /// secret is wrong (the endpoint answers 403 then).
    package func receiveGooglePlay(data: String, messageID: String, secret: String?) async throws -> Bool {
        let client = try googlePlayClient()
        guard let expected = googlePlaySecret, let secret, secretsMatch(secret, expected) else { return false }
        let notification: GooglePlayClient.Notification?
        do {
            notification = try GooglePlayClient.notification(data: data, messageID: messageID)
        } catch {
            throw ParlaError(.malformedRequest)
        }
        guard let notification,
            try await store.receivedNotification(
                store: .googlePlay, id: notification.messageID, kind: notification.kind, payload: data)
        else { return true }
        if notification.ended {
            let account = try await store.revoke(storeKey: "\(Store.googlePlay.rawValue):\(notification.token)", at: Date())
            logger.info(
                "store notification",
                metadata: ["store": "google-play", "kind": "\(notification.kind)", "account": "\(account.map(\.description) ?? "unknown")"])
            return true
        }
        let catalogue = try entitlements.catalogue()
        let transaction = try await verified("notification") {
            try await client.transaction(product: notification.product, token: notification.token, catalogue: catalogue)
        }
        let account = try await store.record(transaction, for: nil)
        logger.info(
            "store notification",
            metadata: ["store": "google-play", "kind": "\(notification.kind)", "account": "\(account.map(\.description) ?? "unknown")"])
        return true
    }

    /// A StoreKit 2 signed transaction from the app, for the caller's account.
    package func recordAppStore(_ jws: String, for account: AccountID) async throws {
        let verifier = try appStoreVerifier(for: jws)
        let catalogue = try entitlements.catalogue()
        let transaction = try await verified("transaction") { try await verifier.transaction(jws, catalogue: catalogue) }
        // The app tied the purchase to an account: it must be this one.
        if let token = transaction.accountToken, try await !store.names(token, account) { throw ParlaError(.purchaseForeign) }
        try await store.record(transaction, for: account)
    }

    /// Seed 000: a buyer of the old app keeps its 175 words.
    package func claimLegacy(_ jws: String, for account: AccountID) async throws {
        let verifier = try appStoreVerifier(for: jws)
        let (eligible, version) = try await verified("app transaction") { try await verifier.isLegacyBuyer(jws) }
        guard eligible else { throw ParlaError(.legacyNotEligible) }
        try await store.grant(
            "legacy-picture-dictionary-175", to: account, source: .legacy, note: "App Store, first bought at version \(version)")
    }

    /// An App Store Server Notification V2, taken once.
    package func receiveAppStore(_ signedPayload: String) async throws {
        let verifier = try appStoreVerifier(for: signedPayload)
        let catalogue = try entitlements.catalogue()
        let notification = try await verified("notification") { try await verifier.notification(signedPayload, catalogue: catalogue) }
        guard
            try await store.receivedNotification(
                store: .appStore, id: notification.id,
                kind: [notification.type, notification.subtype].compactMap { $0 }
                    .joined(separator: "/"), payload: signedPayload)
        else { return }
        guard let transaction = notification.transaction else { return }
        let account = try await store.record(transaction, for: nil)
        logger.info(
            "store notification",
            metadata: [
                "store": "app-store", "type": "\(notification.type)", "product": "\(transaction.product)",
                "account": "\(account.map(\.description) ?? "unknown")",
            ])
    }

    package init(
        entitlements: EntitlementService, store: EntitlementStore, appStore: AppStoreVerifier?, googlePlay: GooglePlayClient?,
        googlePlaySecret: String?, logger: Logger
    ) {
        self.entitlements = entitlements
        self.store = store
        self.appStore = appStore
        self.googlePlay = googlePlay
        self.googlePlaySecret = googlePlaySecret
        self.logger = logger
    }
}

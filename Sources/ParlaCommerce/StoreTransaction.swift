import Foundation

/// A store's word on one purchase, once its signature or its API has been
/// checked (`ParlaPurchases`): what the entitlement of its chain becomes.
public struct StoreTransaction: Sendable, Equatable {
    public var store: Store
    /// This transaction, and the chain it renews (the first purchase's id;
    /// Google Play's purchase token).
    public var transactionID: String
    public var originalTransactionID: String
    /// The store's product id, and the catalogue's product it sells.
    public var storeProduct: String
    public var product: String
    public var purchased: Date
    /// A subscription period's end.
    public var expires: Date?
    /// A subscription's grace after a failed renewal.
    public var graceEnds: Date?
    /// Refunded or revoked.
    public var revoked: Date?
    public var renews: Bool
    /// "Production", "Sandbox" (the App Store's words; Google Play's test purchases are "Sandbox").
    public var environment: String
    /// The account the app tied the purchase to (StoreKit's appAccountToken,
    /// Google Play's obfuscated account id), when it did.
    public var accountToken: UUID?
    /// The signed payload or API answer, kept for audit.
    public var payload: String

    public init(
        store: Store, transactionID: String, originalTransactionID: String, storeProduct: String, product: String,
        purchased: Date, expires: Date? = nil, graceEnds: Date? = nil, revoked: Date? = nil, renews: Bool = false,
        environment: String, accountToken: UUID? = nil, payload: String
    ) {
        (self.store, self.transactionID, self.originalTransactionID) = (store, transactionID, originalTransactionID)
        (self.storeProduct, self.product, self.purchased, self.expires) = (storeProduct, product, purchased, expires)
        (self.graceEnds, self.revoked, self.renews, self.environment) = (graceEnds, revoked, renews, environment)
        (self.accountToken, self.payload) = (accountToken, payload)
    }

    /// The entitlement row a chain is kept under.
    public var storeKey: String { "\(store.rawValue):\(originalTransactionID)" }
}

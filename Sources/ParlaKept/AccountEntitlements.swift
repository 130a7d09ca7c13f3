import Foundation
import ParlaCommerce
import ParlaCore
import ParlaStore

/// Accounts' entitlements this server has read, so that a content page
/// needs no query for them. Dropped at the commit of a change to the
/// account's entitlements (a purchase, a renewal, a refund, a grant, on any
/// server or in SQL): "entitlements id" (`Kept`). Validity in time needs no
/// notification: the rule reads each entitlement's dates.
public final class AccountEntitlements: ChangeSubscriber, Sendable {
    let cache: MemoryCache<UUID, [Entitlement]>
    let feed: ChangeFeed
    public let store: EntitlementStore
    /// False: read every time (`entitlements.keepInMemory`).
    let keeps: Bool

    public init(store: EntitlementStore, feed: ChangeFeed, keeps: Bool = true, limit: Int = 100_000) {
        (self.store, self.feed, self.keeps) = (store, feed, keeps)
        cache = MemoryCache(limit: limit)
        feed.subscribe(self)
    }

    public var changeKind: String { "entitlements" }
    public var hearsOwnWrites: Bool { true }
    public func startedListening() { cache.startedListening() }
    public func stoppedListening() { cache.stoppedListening() }

    /// "entitlements id": that account's changed; "entitlements *": many did.
    public func received(_ fields: [Substring]) -> Bool { cache.drop(notified: fields) }

    /// Everything the account was ever entitled to, including what lapsed
    /// (the rule needs them: a trial counts once used). From memory only
    /// while the feed has heard from the database lately: a refund must not
    /// be missed behind a half-open connection.
    public func entitlements(of account: AccountID) async throws -> [Entitlement] {
        if keeps, feed.isHearing, let kept = cache.value(account.uuid) { return kept }
        let stamp = keeps ? cache.stamp : nil
        let read = try await store.entitlements(of: account)
        cache.keep([account.uuid: read], since: stamp)
        return read
    }
}

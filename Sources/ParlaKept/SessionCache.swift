import Foundation
import ParlaCore
import ParlaStore

/// The sessions this server has seen, by token hash, so that an
/// authenticated request needs no query. A session ended (here, on another
/// server or in SQL) is dropped at its commit: "session id" (`Kept`).
public final class SessionCache: ChangeSubscriber, Sendable {
    let cache: MemoryCache<[UInt8], DeviceSession>
    let feed: ChangeFeed
    let store: AccountStore

    public init(store: AccountStore, feed: ChangeFeed, limit: Int = 100_000) {
        (self.store, self.feed) = (store, feed)
        cache = MemoryCache(limit: limit) { [$0.id.uuid, $0.accountID.uuid] }
        feed.subscribe(self)
    }

    public var changeKind: String { "session" }
    public var hearsOwnWrites: Bool { true }
    public func startedListening() { cache.startedListening() }
    public func stoppedListening() { cache.stoppedListening() }

    /// "session id": that session ended; "session *": many did.
    public func received(_ fields: [Substring]) -> Bool {
        guard fields.count == 1 else { return false }
        if fields[0] == "*" {
            cache.dropAll()
            return true
        }
        guard let id = UUIDText.parse(String(fields[0])) else { return false }
        cache.drop(tagged: id)
        return true
    }

    /// The session kept for a token hash, only while the feed has heard
    /// from the database lately: a half-open connection must not keep a
    /// signed-out token alive until it is found deaf.
    func kept(_ tokenHash: [UInt8]) -> DeviceSession? {
        feed.isHearing ? cache.value(tokenHash) : nil
    }

    /// The live session a token hash belongs to: from memory while it is
    /// kept there and has not expired (no query, but for the once-a-minute
    /// touch that slides its expiry), else read (then kept).
    public func session(tokenHash: [UInt8]) async throws -> DeviceSession? {
        if let kept = kept(tokenHash), kept.expiresAt > Date() {
            guard kept.lastUsedAt < Date().addingTimeInterval(-60) else { return kept }
            guard let touched = try await store.touch(kept) else {
                cache.drop(tokenHash)
                return nil
            }
            cache.update(tokenHash) { $0 = touched }
            return touched
        }
        let stamp = cache.stamp
        let found = try await store.session(tokenHash: tokenHash)
        if let found { cache.keep([tokenHash: found], since: stamp) }
        return found
    }

    /// Keeps a session read with its profile (`AccountProfiles`).
    func keep(_ session: DeviceSession, for tokenHash: [UInt8], since stamp: MemoryCache<[UInt8], DeviceSession>.Stamp?) {
        cache.keep([tokenHash: session], since: stamp)
    }
}

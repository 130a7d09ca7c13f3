import Foundation
import ParlaCore
import ParlaStore

/// An account with its learners, as `GET /v1/me` returns it.
public struct AccountProfile: Sendable {
    public var account: Account
    public var learners: [Learner]
}

/// The profiles this server has read, by account, so that the apps'
/// launch request needs no query. Dropped at the commit of a change to the
/// account, a learner of it, a picture, a course or a course's level or
/// start: "account id" (`Kept`), on this server at once (`ChangeFeed`).
public final class AccountProfiles: ChangeSubscriber, Sendable {
    let cache: MemoryCache<UUID, AccountProfile>
    let feed: ChangeFeed
    let store: AccountStore
    let sessions: SessionCache

    public init(store: AccountStore, sessions: SessionCache, feed: ChangeFeed, limit: Int = 100_000) {
        (self.store, self.sessions, self.feed) = (store, sessions, feed)
        cache = MemoryCache(limit: limit)
        feed.subscribe(self)
    }

    public var changeKind: String { "account" }
    public var hearsOwnWrites: Bool { true }
    public func startedListening() { cache.startedListening() }
    public func stoppedListening() { cache.stoppedListening() }

    /// "account id": its profile changed; "account *": many did.
    public func received(_ fields: [Substring]) -> Bool { cache.drop(notified: fields) }

    /// Only while the feed has heard from the database lately, as for sessions.
    func kept(_ account: AccountID) -> AccountProfile? {
        feed.isHearing ? cache.value(account.uuid) : nil
    }

    /// The account with its learner profiles: from memory, else in one round trip (then kept).
    public func profile(_ id: AccountID) async throws -> (Account, [Learner])? {
        if let kept = kept(id) { return (kept.account, kept.learners) }
        let stamp = cache.stamp
        let found = try await store.profile(id)
        if let found { cache.keep([id.uuid: AccountProfile(account: found.0, learners: found.1)], since: stamp) }
        return found
    }

    /// A session's account with its learners, from the token: what the apps
    /// ask for on every launch. From memory when both are kept there, else
    /// in one round trip (then both kept). Nil when the token is unknown or expired.
    public func profile(tokenHash: [UInt8]) async throws -> (DeviceSession, Account, [Learner])? {
        if sessions.kept(tokenHash) != nil {
            guard let session = try await sessions.session(tokenHash: tokenHash),
                let (account, learners) = try await profile(session.accountID)
            else { return nil }
            return (session, account, learners)
        }
        let (sessionStamp, profileStamp) = (sessions.cache.stamp, cache.stamp)
        let found = try await store.profile(tokenHash: tokenHash)
        if let (session, account, learners) = found {
            sessions.keep(session, for: tokenHash, since: sessionStamp)
            cache.keep([session.accountID.uuid: AccountProfile(account: account, learners: learners)], since: profileStamp)
        }
        return found
    }
}

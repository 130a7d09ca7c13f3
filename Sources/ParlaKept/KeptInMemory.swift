import Foundation
import Logging
import ParlaDatabase
import ParlaStore

/// What one server keeps in memory (the rows of `Kept`), in step with the
/// tables through one listening connection (`feed`).
public struct KeptInMemory: Sendable {
    public let feed: ChangeFeed
    public let sessions: SessionCache
    public let profiles: AccountProfiles
    public let learners: LearnerDirectory
    public let entitlements: AccountEntitlements
    public let ranks: LeaderboardRanks
    /// Nil when every class overview is read afresh (`teaching.keepOverviews`).
    public let classes: ClassOverviews?

    /// `keepsEntitlements`, `keepsClassOverviews`: their settings (`Kept`).
    public init(
        database: Database, accounts: AccountStore, learners: LearnerStore, entitlements: EntitlementStore,
        leaderboards: LeaderboardStore, keepsEntitlements: Bool, keepsClassOverviews: Bool, logger: Logger
    ) {
        feed = ChangeFeed(database: database, logger: logger)
        sessions = SessionCache(store: accounts, feed: feed)
        profiles = AccountProfiles(store: accounts, sessions: sessions, feed: feed)
        self.learners = LearnerDirectory(store: learners, feed: feed)
        self.entitlements = AccountEntitlements(store: entitlements, feed: feed, keeps: keepsEntitlements)
        ranks = LeaderboardRanks(store: leaderboards, feed: feed, logger: logger)
        classes = keepsClassOverviews ? ClassOverviews(feed: feed) : nil
    }
}

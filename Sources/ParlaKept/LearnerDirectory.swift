import Foundation
import ParlaCore
import ParlaStore

/// Learners' cards this server has read, so that a leaderboard page in
/// memory, and the access rule, need no query; dropped at the commit of a
/// learner renamed, given another avatar, moved or deleted: "learner id" (`Kept`).
public final class LearnerDirectory: ChangeSubscriber, Sendable {
    let cache: MemoryCache<UUID, LearnerCard>
    let store: LearnerStore

    public init(store: LearnerStore, feed: ChangeFeed, limit: Int = 200_000) {
        self.store = store
        cache = MemoryCache(limit: limit)
        feed.subscribe(self)
    }

    public var changeKind: String { "learner" }
    public var hearsOwnWrites: Bool { true }
    public func startedListening() { cache.startedListening() }
    public func stoppedListening() { cache.stoppedListening() }

    /// "learner id": their card changed or they left; "learner *": many did.
    public func received(_ fields: [Substring]) -> Bool { cache.drop(notified: fields) }

    /// The cards of `learners`, from memory where kept, the rest in one
    /// query (then kept). Learners that do not exist are missing.
    public func cards(_ learners: Set<UUID>) async throws -> [UUID: LearnerCard] {
        var found = cache.values(learners)
        let missing = learners.subtracting(found.keys)
        guard !missing.isEmpty else { return found }
        let stamp = cache.stamp
        let read = try await store.cards(missing)
        cache.keep(read, since: stamp)
        found.merge(read) { kept, _ in kept }
        return found
    }
}

import Foundation
import ParlaCore

/// Who may touch which learner, decided once per request: the caller's
/// account and a learner id become an `AuthorizedLearner` by the access
/// rule (`AuthorizedLearner.resolve`), whose account comes from the learner
/// directory this server keeps in memory (one query when not kept). This is
/// the only place a learner's account is compared with the caller's. A
/// learner deleted here leaves the directory at once
/// (`LeaderboardStore.removed`), on other servers with its notification;
/// its account's sessions end with it.
public struct LearnerAccess: Sendable {
    let directory: LearnerDirectory

    public init(directory: LearnerDirectory) { self.directory = directory }

    /// The learner as `caller` may reach it for `intent`; `learner_not_found`
    /// when it may not, or when there is no such learner.
    public func learner(_ id: LearnerID, caller: AccountID, for intent: AuthorizedLearner.Intent) async throws -> AuthorizedLearner {
        let owner = try await directory.cards([id.uuid])[id.uuid]?.account
        guard let authorized = AuthorizedLearner.resolve(id, ownedBy: owner, caller: caller, for: intent) else {
            throw ParlaError(.learnerNotFound)
        }
        return authorized
    }
}

import Foundation
import ParlaCore
import ParlaStore

/// Who may touch which learner, decided once per request: the caller's
/// account and a learner id become an `AuthorizedLearner` by the access
/// rule (`AuthorizedLearner.resolve`), whose account comes from the learner
/// directory this server keeps in memory (one query when not kept), and
/// whose teachers from the classes. This is the only place a learner's
/// account is compared with the caller's. A learner deleted leaves the
/// directory at its commit ("learner id", `Kept`); its account's sessions
/// end with it.
public struct LearnerAccess: Sendable {
    let directory: LearnerDirectory
    /// Whether a caller teaches a learner; nil: nobody teaches.
    let classes: ClassStore?

    public init(directory: LearnerDirectory, classes: ClassStore? = nil) { (self.directory, self.classes) = (directory, classes) }

    /// The learner as `caller` may reach it for `intent`; `learner_not_found`
    /// when it may not, or when there is no such learner. A read of another
    /// account's learner asks (one query) whether the caller teaches it.
    public func learner(_ id: LearnerID, caller: AccountID, for intent: AuthorizedLearner.Intent) async throws -> AuthorizedLearner {
        let owner = try await directory.cards([id.uuid])[id.uuid]?.account
        var teaching: AuthorizedLearner.Teaching?
        if let owner, owner != caller, intent == .read, let classes { teaching = try await classes.teaching(id, by: caller) }
        guard let authorized = AuthorizedLearner.resolve(id, ownedBy: owner, caller: caller, teaching: teaching, for: intent) else {
            throw ParlaError(.learnerNotFound)
        }
        return authorized
    }
}

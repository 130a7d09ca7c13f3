import Foundation

/// A learner that a request may reach, and how. Made once per request by
/// the access rule (`AuthorizedLearner.resolve`, applied by ParlaStore's
/// `LearnerAccess`), then handed to services and stores, which never check
/// accounts again: a foreign or unknown learner is turned away there, as
/// `learner_not_found`, and nowhere else.
public struct AuthorizedLearner: Sendable, Hashable, CustomStringConvertible {
    public enum Role: String, Sendable {
        /// One of the caller's account's own profiles (a family's): reads and writes.
        case owner
    }

    /// What a request does with the learner.
    public enum Intent: Sendable {
        case read, write
    }

    public let id: LearnerID
    /// The account the learner belongs to.
    public let account: AccountID
    public let role: Role

    /// Only the access rule makes one (and tests, through it).
    package init(id: LearnerID, account: AccountID, role: Role) {
        (self.id, self.account, self.role) = (id, account, role)
    }

    public var uuid: UUID { id.uuid }
    public var description: String { id.description }

    /// The access rule: how `caller` may reach `learner`, a profile of the
    /// account `owner` (nil: no such learner), for `intent`; nil when it
    /// may not. Today an account reaches its own learners only; a teacher's
    /// read-only reach to its classes' learners is the next role.
    public static func resolve(
        _ learner: LearnerID, ownedBy owner: AccountID?, caller: AccountID,
        for intent: Intent
    ) -> AuthorizedLearner? {
        guard let owner, owner == caller else { return nil }
        return AuthorizedLearner(id: learner, account: owner, role: .owner)
    }
}

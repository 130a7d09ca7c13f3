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
        /// A learner of one of the caller's classes: its learning records, read only.
        case teacher
    }

    /// What a request does with the learner.
    public enum Intent: Sendable {
        /// Reads its profile and learning records (proficiency, placements,
        /// lessons, attempts, games): what its teachers may do too.
        case read
        /// Acts as the learner without changing it (its friends, a profile
        /// seen through its eyes): its own account only.
        case actAs
        case write
    }

    /// A teacher's tie to a learner: the learner is a member of one of the
    /// teacher's classes, and whether it shares its recordings with one.
    public struct Teaching: Sendable, Equatable {
        public var sharesRecordings: Bool
        public init(sharesRecordings: Bool) { self.sharesRecordings = sharesRecordings }
    }

    public let id: LearnerID
    /// The account the learner belongs to.
    public let account: AccountID
    public let role: Role
    /// Whether the caller may hear the learner's kept recordings: its own
    /// account, or a teacher the learner shares them with.
    public let mayHearRecordings: Bool

    /// Only the access rule makes one (and tests, through it).
    package init(id: LearnerID, account: AccountID, role: Role, mayHearRecordings: Bool = true) {
        (self.id, self.account, self.role, self.mayHearRecordings) = (id, account, role, mayHearRecordings)
    }

    public var uuid: UUID { id.uuid }
    public var description: String { id.description }

    /// The access rule: how `caller` may reach `learner`, a profile of the
    /// account `owner` (nil: no such learner), for `intent`; nil when it
    /// may not. An account reaches its own learners for anything; a teacher
    /// (`teaching`: the learner is in one of the caller's classes) reads
    /// them, and nothing more.
    public static func resolve(
        _ learner: LearnerID, ownedBy owner: AccountID?, caller: AccountID, teaching: Teaching? = nil,
        for intent: Intent
    ) -> AuthorizedLearner? {
        guard let owner else { return nil }
        if owner == caller { return AuthorizedLearner(id: learner, account: owner, role: .owner) }
        guard let teaching, intent == .read else { return nil }
        return AuthorizedLearner(id: learner, account: owner, role: .teacher, mayHearRecordings: teaching.sharesRecordings)
    }
}

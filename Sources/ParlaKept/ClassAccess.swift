import Foundation
import ParlaCore
import ParlaStore

/// Whose class is whose, decided once per request: the caller's account
/// and a class id become an `AuthorizedClass` by the access rule
/// (`AuthorizedClass.resolve`), whose teacher comes from the overview this
/// server keeps (`ClassOverviews`, no query) or else from the class's row
/// (one query by its key). This is the only place a class's teacher is
/// compared with the caller.
public struct ClassAccess: Sendable {
    let classes: ClassStore
    let overviews: ClassOverviews?

    public init(classes: ClassStore, overviews: ClassOverviews?) { (self.classes, self.overviews) = (classes, overviews) }

    /// The class as `caller` may reach it: its teacher only;
    /// `class_not_found` for anyone else, or when there is no such class.
    public func schoolClass(_ id: ClassID, caller: AccountID) async throws -> AuthorizedClass {
        let teacher: AccountID?
        if let kept = overviews?.overview(id, on: Date()) {
            teacher = kept.schoolClass.teacher
        } else {
            teacher = try await classes.teacher(of: id)
        }
        guard let authorized = AuthorizedClass.resolve(id, taughtBy: teacher, caller: caller) else { throw ParlaError(.classNotFound) }
        return authorized
    }
}

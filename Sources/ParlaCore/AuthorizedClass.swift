import Foundation

/// A class that a request may reach: its teacher's. Made once per request
/// by the access rule (`AuthorizedClass.resolve`, applied by ParlaKept's
/// `ClassAccess`), then handed to services and stores, which never compare
/// teachers again: anyone else's class, or none, is `class_not_found`
/// there, and nowhere else.
public struct AuthorizedClass: Sendable, Hashable, CustomStringConvertible {
    public let id: ClassID
    /// The account that teaches it (the caller).
    public let teacher: AccountID

    /// Only the access rule makes one (and tests, through it).
    package init(id: ClassID, teacher: AccountID) { (self.id, self.teacher) = (id, teacher) }

    public var uuid: UUID { id.uuid }
    public var description: String { id.description }

    /// The access rule: `caller` reaches class `id`, taught by `teacher`
    /// (nil: no such class), only as its teacher.
    public static func resolve(_ id: ClassID, taughtBy teacher: AccountID?, caller: AccountID) -> AuthorizedClass? {
        guard let teacher, teacher == caller else { return nil }
        return AuthorizedClass(id: id, teacher: teacher)
    }
}

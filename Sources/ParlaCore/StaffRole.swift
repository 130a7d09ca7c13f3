/// What the people running the service may do beyond their own learners,
/// kept per account in the database and given with `parla role`: support
/// answers bug reports; an admin reads the service's reports and does all
/// that support does.
public enum StaffRole: String, Sendable, CaseIterable {
    case support, admin

    /// Work that needs a role.
    public enum Duty: Sendable {
        /// List, read and answer bug reports.
        case supportReports
        /// Read what is touched most, across every learner.
        case analyticsReport
    }

    /// Whether an account with `roles` may do `duty`.
    public static func allows(_ roles: Set<StaffRole>, _ duty: Duty) -> Bool {
        if roles.contains(.admin) { return true }
        switch duty {
        case .supportReports: return roles.contains(.support)
        case .analyticsReport: return false
        }
    }
}

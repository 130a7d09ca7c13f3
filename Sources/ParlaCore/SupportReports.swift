/// Bug reports and their handling (seed 004, BF 3): a learner describes a
/// problem, with the app's version, the device and maybe a screenshot; it
/// gets a reference number and an acknowledgment by email; support works
/// through the reports and sets their status, which the reporter sees.
public enum SupportReport {
    /// A report's description: long enough to say something, short enough
    /// to read.
    public static let textLengths = 10...5000
    /// A device's name as the app reports it (`iPhone 15, iOS 18.1`).
    public static let longestDevice = 100
    /// Reports one account may file in a day: enough for a bad day,
    /// not enough to flood the queue.
    public static let dailyLimit = 20

    public enum Status: String, Sendable, CaseIterable {
        case open
        case inProgress = "in_progress"
        case resolved
        case closed
    }

    public enum Platform: String, Sendable, CaseIterable {
        case ios, android, web
    }

    /// What a reporter sends, checked.
    public struct Submission: Sendable, Equatable {
        public var text: String
        public var appVersion: String
        public var platform: Platform
        public var device: String
    }

    /// The reference a reporter quotes: `PR-` and the report's number,
    /// six digits at least.
    public static func reference(_ number: Int) -> String {
        let digits = String(number)
        return "PR-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// Every problem at once. The text keeps its lines (trailing spaces and
    /// blank lines around it trimmed); the rest is one line.
    public static func validate(text: String?, appVersion: String?, platform: String?, device: String?) throws(ParlaError)
        -> Submission
    {
        var errors = FieldErrors()
        let trimmed = text.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let trimmed {
            if !textLengths.contains(trimmed.count) { errors.add("text", .invalidReportText) }
        } else {
            errors.add("text", .required)
        }
        if let appVersion {
            if AppVersion(appVersion) == nil { errors.add("appVersion", .invalidAppVersion) }
        } else {
            errors.add("appVersion", .required)
        }
        let chosen = platform.flatMap(Platform.init(rawValue:))
        if platform == nil { errors.add("platform", .required) } else if chosen == nil { errors.add("platform", .validationFailed) }
        let deviceName = device?.trimmingCharacters(in: .whitespaces)
        if let deviceName {
            if deviceName.isEmpty || deviceName.count > longestDevice { errors.add("device", .validationFailed) }
        } else {
            errors.add("device", .required)
        }
        try errors.throwIfAny()
        return Submission(text: trimmed!, appVersion: AppVersion(appVersion!)!.description, platform: chosen!, device: deviceName!)
    }

    /// A status support may set.
    public static func status(_ raw: String?) throws(ParlaError) -> Status {
        guard let raw else { throw ParlaError.validation([FieldError("status", .required)]) }
        guard let status = Status(rawValue: raw) else { throw ParlaError.validation([FieldError("status", .invalidReportStatus)]) }
        return status
    }
}

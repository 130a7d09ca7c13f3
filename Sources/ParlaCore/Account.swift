import Foundation

/// A person who signed up, or a guest who has not yet (seed 001: start at
/// once): the owner of one or more learner profiles. A guest has no name,
/// email or terms until it is claimed by signing up or by social sign-in.
public struct Account: Sendable, Equatable {
    public var id: AccountID
    public var firstName: String?
    public var lastName: String?
    public var email: String?
    public var uiLanguage: Language
    public var termsVersion: String?
    public var termsAcceptedAt: Date?
    public var createdAt: Date
    /// When the current email was confirmed; nil until it is (an
    /// unverified email still signs in).
    public var emailVerifiedAt: Date?
    /// One device's account, not signed up (yet).
    public var isGuest: Bool

    public init(
        id: AccountID, firstName: String?, lastName: String?, email: String?, uiLanguage: Language,
        termsVersion: String?, termsAcceptedAt: Date?, createdAt: Date, emailVerifiedAt: Date? = nil, isGuest: Bool = false
    ) {
        self.emailVerifiedAt = emailVerifiedAt
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.uiLanguage = uiLanguage
        self.termsVersion = termsVersion
        self.termsAcceptedAt = termsAcceptedAt
        self.createdAt = createdAt
        self.isGuest = isGuest
    }
}

/// One signed-in device.
public struct DeviceSession: Sendable, Equatable {
    public var id: SessionID
    public var accountID: AccountID
    public var deviceName: String?
    public var createdAt: Date
    public var lastUsedAt: Date
    public var expiresAt: Date

    public init(id: SessionID, accountID: AccountID, deviceName: String?, createdAt: Date, lastUsedAt: Date, expiresAt: Date) {
        self.id = id
        self.accountID = accountID
        self.deviceName = deviceName
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
    }

    /// Tokens expire this long after their last use.
    public static let slidingLifetime: TimeInterval = 30 * 24 * 3600
    /// However much it is used, a session ends this long after sign-in
    /// (`accounts.sessionMaxDays`): a stolen token does not live for ever.
    public static let defaultAbsoluteLifetime: TimeInterval = 90 * 24 * 3600
}

/// One person learning under an account: a parent, a child.
public struct Learner: Sendable, Equatable {
    public var id: LearnerID
    public var accountID: AccountID
    public var displayName: String
    public var age: Int?
    public var avatarID: String
    public var nativeLanguage: Language
    /// Every language the learner studies: those chosen in its profile,
    /// then those of its courses (`LanguageProgress.studied`).
    public var targetLanguages: [Language]
    /// One entry per target language, in the same order.
    public var progress: [LanguageProgress]
    public var picture: PictureInfo?
    public var createdAt: Date
    /// Whether the learner's speech recordings are kept with their scores
    /// (off by default: a voice is personal data).
    public var keepRecordings: Bool
    /// Whether anyone may see the learner's public profile (off by
    /// default: then only friends may).
    public var publicProfile: Bool
    public var letterCase: LetterCase

    public init(
        id: LearnerID, accountID: AccountID, displayName: String, age: Int?, avatarID: String,
        nativeLanguage: Language, targetLanguages: [Language], picture: PictureInfo?, createdAt: Date,
        keepRecordings: Bool = false, publicProfile: Bool = false, letterCase: LetterCase = .lower, courses: [LanguageProgress] = []
    ) {
        self.letterCase = letterCase
        (self.targetLanguages, self.progress) = LanguageProgress.studied(chosen: targetLanguages, courses: courses)
        self.keepRecordings = keepRecordings
        self.publicProfile = publicProfile
        self.id = id
        self.accountID = accountID
        self.displayName = displayName
        self.age = age
        self.avatarID = avatarID
        self.nativeLanguage = nativeLanguage
        self.picture = picture
        self.createdAt = createdAt
    }
}

/// Where a learner stands in a language it studies (T3.2: the chosen
/// language shows in the profile, with its level).
public struct LanguageProgress: Sendable, Equatable {
    public enum Status: String, Sendable {
        /// Nothing answered yet, neither in a lesson nor in placement.
        case notStarted = "not_started"
        case inProgress = "in_progress"
    }

    public var language: Language
    public var status: Status
    /// The learner's latest overall level, else the course's starting
    /// level; nil while a placement test has not said where to start.
    public var level: CEFRLevel?

    public init(language: Language, status: Status, level: CEFRLevel?) {
        (self.language, self.status, self.level) = (language, status, level)
    }

    /// The languages a learner studies and its progress in each: the ones
    /// it chose in its profile, in its order, then those it has a course in
    /// (starting a course is choosing a language), each once.
    public static func studied(chosen: [Language], courses: [LanguageProgress]) -> ([Language], [LanguageProgress]) {
        var languages: [Language] = []
        for language in chosen + courses.map(\.language) where !languages.contains(language) { languages.append(language) }
        let progress = languages.map { language in
            courses.first { $0.language == language } ?? LanguageProgress(language: language, status: .notStarted, level: nil)
        }
        return (languages, progress)
    }
}

/// What a stored profile picture is, without its bytes.
public struct PictureInfo: Sendable, Equatable {
    public var mediaType: ImageFormat
    public var width: Int
    public var height: Int
    public init(mediaType: ImageFormat, width: Int, height: Int) {
        self.mediaType = mediaType
        self.width = width
        self.height = height
    }
}

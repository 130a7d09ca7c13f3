import Foundation
import OpenAPIRuntime
import ParlaAPI
import ParlaCore
import ParlaDatabase
import ParlaKept
import ParlaServices
import ParlaStore

/// Implements the generated `APIProtocol`, one file per feature: each
/// handler decodes, authenticates, calls a service and encodes. Errors are
/// thrown as they are and mapped once, by `ProblemMiddleware`.
struct APIHandler: APIProtocol {
    let database: Database
    let authenticator: Authenticator
    let accounts: AccountService
    let learners: LearnerService
    let content: ContentService
    let speech: SpeechService
    let courses: CourseService
    let placements: PlacementService
    let proficiency: ProficiencyService
    let lessons: LessonService
    let packs: PackService
    let games: GameService
    let spellings: SpellingService
    let artSpace: ArtSpaceService
    let leaderboards: LeaderboardService
    let friends: FriendService
    let profiles: ProfileService
    let access: LearnerAccess
    let classAccess: ClassAccess
    /// What accounts may use now, their plans and the trial.
    let plans: EntitlementService
    let purchases: PurchaseService
    let classes: ClassService
    let analytics: AnalyticsService
    /// The staff roles of accounts (support, admin).
    let staffRoles: StaffRoles
    /// Second factors: every staff route needs a session signed in with one.
    let twoFactor: TwoFactorService
    let support: SupportService
    /// What the service asks of the apps, per platform.
    var clients: [AppPlatform: ClientRelease] = [:]

    var language: Language { RequestScope.here.language }

    func caller() async throws -> Caller { try await authenticator.caller() }

    /// The learner a request names, as the caller may reach it for
    /// `intent`: how every handler authorizes a learner (`LearnerAccess`).
    /// The caller is authenticated first (401 before 404).
    func authorized(_ rawLearner: String, for intent: AuthorizedLearner.Intent, as known: Caller? = nil) async throws
        -> AuthorizedLearner
    {
        let caller = if let known { known } else { try await caller() }
        let id: LearnerID = try parseID(rawLearner, orElse: .learnerNotFound)
        return try await access.learner(id, caller: caller.accountID, for: intent)
    }

    /// The class a request names, as the caller may reach it: as its
    /// teacher only (`ClassAccess`); how every teacher's route authorizes a class.
    func authorizedClass(_ rawClass: String, as caller: Caller) async throws -> AuthorizedClass {
        try await classAccess.schoolClass(try parseID(rawClass, orElse: .classNotFound), caller: caller.accountID)
    }

    /// The caller, when its account's staff roles allow `duty` and this
    /// session signed in with the account's second factor: how every staff
    /// route is guarded (403 `staff_role_required`,
    /// `two_factor_setup_required` or `two_factor_session_required`).
    @discardableResult
    func staff(_ duty: StaffRole.Duty) async throws -> Caller {
        let caller = try await caller()
        guard StaffRole.allows(try await staffRoles.roles(of: caller.accountID), duty) else { throw ParlaError(.staffRoleRequired) }
        try await twoFactor.requireForStaff(caller)
        return caller
    }
}

extension Optional {
    func asyncMap<Mapped>(_ transform: (Wrapped) async throws -> Mapped) async rethrows -> Mapped? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

/// A path id that is not a UUID names nothing: the thing is not found.
func parseID<Tag>(_ raw: String, orElse code: ErrorCode) throws -> Identifier<Tag> {
    guard let id = Identifier<Tag>(raw) else { throw ParlaError(code) }
    return id
}

/// A page of a history (lessons, games): its size, 1-100 (`default` when
/// absent), and the id its entries come before; either malformed is a 422.
func historyPage<Tag>(limit: Int?, before: String?, default size: Int = 20) throws -> (limit: Int, before: Identifier<Tag>?) {
    let limit = limit ?? size
    guard (1...100).contains(limit) else { throw ParlaError.validation([FieldError("limit", .validationFailed)]) }
    let before = try before.map { raw -> Identifier<Tag> in
        guard let id = Identifier<Tag>(raw) else { throw ParlaError.validation([FieldError("before", .malformedRequest)]) }
        return id
    }
    return (limit, before)
}

// MARK: Domain -> API

extension Components.Schemas.Language {
    init(_ language: Language) { self = Self(rawValue: language.code)! }
}

extension Components.Schemas.Account {
    /// `currentTerms`: the terms in force; an account (or guest) that
    /// accepted an older version is asked for them (`termsToAccept`).
    init(_ account: Account, currentTerms: String) {
        self.init(
            id: account.id.description, guest: account.isGuest, firstName: account.firstName, lastName: account.lastName,
            email: account.email, emailVerified: account.emailVerifiedAt != nil, uiLanguage: .init(account.uiLanguage),
            termsVersion: account.termsVersion,
            termsAcceptedAt: account.termsAcceptedAt, termsToAccept: account.termsVersion == currentTerms ? nil : currentTerms,
            createdAt: account.createdAt)
    }
}

extension Components.Schemas.Session {
    init(_ session: DeviceSession, current: SessionID?) {
        self.init(
            id: session.id.description, deviceName: session.deviceName, createdAt: session.createdAt,
            lastUsedAt: session.lastUsedAt, expiresAt: session.expiresAt, current: session.id == current)
    }
}

extension Components.Schemas.Picture {
    init(_ picture: PictureInfo?, learner: LearnerID) {
        let url = "/v1/learners/\(learner)/picture"
        if let picture {
            self.init(url: url, isDefault: false, mediaType: picture.mediaType.mediaType, width: picture.width, height: picture.height)
        } else {
            self.init(url: url, isDefault: true, mediaType: ImageFormat.png.mediaType, width: 256, height: 256)
        }
    }
}

extension Components.Schemas.Learner {
    init(_ learner: Learner) {
        self.init(
            id: learner.id.description, displayName: learner.displayName, age: learner.age, avatarId: learner.avatarID,
            nativeLanguage: .init(learner.nativeLanguage), targetLanguages: learner.targetLanguages.map { .init($0) },
            picture: .init(learner.picture, learner: learner.id),
            progress: learner.progress.map {
                .init(
                    language: .init($0.language), status: $0.status == .inProgress ? .inProgress : .notStarted,
                    level: $0.level.flatMap { .init(rawValue: $0.rawValue) })
            },
            keepRecordings: learner.keepRecordings, publicProfile: learner.publicProfile,
            letterCase: .init(rawValue: learner.letterCase.rawValue) ?? .lower, createdAt: learner.createdAt)
    }
}

extension Components.Schemas.SignedIn {
    init(_ signedIn: AccountService.SignedIn, currentTerms: String) {
        self.init(
            account: .init(signedIn.account, currentTerms: currentTerms), learners: signedIn.learners.map { .init($0) },
            session: .init(token: signedIn.token, session: .init(signedIn.session, current: signedIn.session.id)))
    }
}

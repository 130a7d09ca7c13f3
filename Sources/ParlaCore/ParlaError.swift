/// Every failure a client can see, with a stable machine-readable code.
///
/// Services throw `ParlaError`; the HTTP layer maps it to an RFC 9457
/// problem document in one place (`Problems.swift`, which also gives each
/// code its status), localizing `code.message`.
public struct ParlaError: Error, Sendable, Equatable {
    public var code: ErrorCode
    /// Field-level problems, all of them at once (validation).
    public var fieldErrors: [FieldError]
    /// Seconds a throttled client should wait.
    public var retryAfter: Int?
    /// The length of a resource a byte range missed (sent as `Content-Range`).
    public var resourceLength: Int?
    /// Where to get a newer app (`update_required`).
    public var storeURL: String?
    /// What a full saved list holds (`saved_list_full`).
    public var savedItems: [SavedList.Reference]?

    public init(_ code: ErrorCode, fieldErrors: [FieldError] = [], retryAfter: Int? = nil) {
        self.code = code
        self.fieldErrors = fieldErrors
        self.retryAfter = retryAfter
    }

    /// A `Range` that starts past the end of a resource of `length` bytes.
    public static func rangeNotSatisfiable(length: Int) -> ParlaError {
        var error = ParlaError(.rangeNotSatisfiable)
        error.resourceLength = length
        return error
    }

    /// An app too old to serve, with where to update it.
    public static func updateRequired(storeURL: String?) -> ParlaError {
        var error = ParlaError(.updateRequired)
        error.storeURL = storeURL
        return error
    }

    /// A saved list that has no room, with what it holds.
    public static func savedListFull(_ items: [SavedList.Reference]) -> ParlaError {
        var error = ParlaError(.savedListFull)
        error.savedItems = items
        return error
    }

    public static func validation(_ errors: [FieldError]) -> ParlaError {
        ParlaError(.validationFailed, fieldErrors: errors)
    }
}

public struct FieldError: Sendable, Equatable, CustomStringConvertible {
    /// The request field, as the client named it (`firstName`).
    public var field: String
    public var code: ErrorCode
    public init(_ field: String, _ code: ErrorCode) {
        self.field = field
        self.code = code
    }
    public var description: String { "\(field): \(code.rawValue)" }
}

/// Collects field errors so that a request reports every problem at once.
public struct FieldErrors: Sendable {
    public private(set) var errors: [FieldError] = []
    public init() {}
    public mutating func add(_ field: String, _ code: ErrorCode) { errors.append(FieldError(field, code)) }
    public func throwIfAny() throws(ParlaError) {
        if !errors.isEmpty { throw .validation(errors) }
    }
}

public enum ErrorCode: String, CaseIterable, Sendable, Codable {
    // Requests
    case malformedRequest = "malformed_request"
    case unsupportedMediaType = "unsupported_media_type"
    case notAcceptable = "not_acceptable"
    case payloadTooLarge = "payload_too_large"
    case routeNotFound = "not_found"
    case methodNotAllowed = "method_not_allowed"
    case validationFailed = "validation_failed"
    case required = "required"
    case controlCharacter = "control_character"
    // Accounts
    case invalidFirstName = "invalid_first_name"
    case invalidLastName = "invalid_last_name"
    case invalidEmail = "invalid_email"
    case invalidPassword = "invalid_password"
    case passwordIsEmail = "password_is_email"
    case termsNotAccepted = "terms_not_accepted"
    case invalidLanguage = "invalid_language"
    case emailTaken = "email_taken"
    case nothingToUpdate = "nothing_to_update"
    // Sessions
    case invalidCredentials = "invalid_credentials"
    case authenticationRequired = "authentication_required"
    case tooManyAttempts = "too_many_attempts"
    case tooManyRequests = "too_many_requests"
    case updateRequired = "update_required"
    case wrongCurrentPassword = "wrong_current_password"
    case sessionNotFound = "session_not_found"
    case invalidDeviceName = "invalid_device_name"
    // Email
    case invalidToken = "invalid_token"
    case emailAlreadyVerified = "email_already_verified"
    case tooManyEmails = "too_many_emails"
    // Social sign-in
    case invalidProvider = "invalid_provider"
    case invalidIdToken = "invalid_id_token"
    case linkRequired = "link_required"
    /// The identity is linked to another account.
    case identityLinkedElsewhere = "identity_linked_elsewhere"
    case identityNotFound = "identity_not_found"
    /// Unlinking it would leave the account no way in.
    case lastWayIn = "last_way_in"
    case identityProviderUnavailable = "identity_provider_unavailable"
    /// This server takes no sign-in from that provider: no retry helps.
    case identityProviderNotConfigured = "identity_provider_not_configured"
    // Guests
    case signUpRequired = "sign_up_required"
    // Intro tour
    case invalidTourStatus = "invalid_tour_status"
    case invalidTourStep = "invalid_tour_step"
    // Saved list
    case savedListFull = "saved_list_full"
    case savedItemNotFound = "saved_item_not_found"
    case invalidItemKind = "invalid_item_kind"
    // Analytics and staff
    case tooManyEvents = "too_many_events"
    case staffRoleRequired = "staff_role_required"
    // Two-factor sign-in
    /// Sign-in of an account with a second factor, without its code.
    case twoFactorRequired = "two_factor_required"
    case invalidOneTimeCode = "invalid_one_time_code"
    /// A staff route, for staff without a second factor yet.
    case twoFactorSetupRequired = "two_factor_setup_required"
    /// A staff route, from a session not signed in with the second factor.
    case twoFactorSessionRequired = "two_factor_session_required"
    case twoFactorAlreadyEnabled = "two_factor_already_enabled"
    case twoFactorNotEnabled = "two_factor_not_enabled"
    // Support
    case invalidReportText = "invalid_report_text"
    case invalidReportStatus = "invalid_report_status"
    case reportNotFound = "report_not_found"
    case tooManyReports = "too_many_reports"
    // Learners
    case learnerNotFound = "learner_not_found"
    case invalidDisplayName = "invalid_display_name"
    case invalidAge = "invalid_age"
    case invalidAvatar = "invalid_avatar"
    case learnerLimitReached = "learner_limit_reached"
    case lastLearner = "last_learner"
    case unsupportedImage = "unsupported_image"
    case invalidImageDimensions = "invalid_image_dimensions"
    // Content
    case languageNotFound = "language_not_found"
    case wordListNotFound = "word_list_not_found"
    case pageNotFound = "page_not_found"
    case wordNotFound = "word_not_found"
    case phraseNotFound = "phrase_not_found"
    case storyNotFound = "story_not_found"
    case alphabetNotFound = "alphabet_not_found"
    case grammarNoteNotFound = "grammar_note_not_found"
    case contentUnavailable = "content_unavailable"
    case assetNotFound = "asset_not_found"
    case rangeNotSatisfiable = "range_not_satisfiable"
    // Speech
    case unsupportedAudio = "unsupported_audio"
    case audioTooLarge = "audio_too_large"
    case audioTooLong = "audio_too_long"
    case audioTooShort = "audio_too_short"
    case noSpeech = "no_speech"
    case emptyText = "empty_text"
    case speechBusy = "speech_busy"
    case speechUnavailable = "speech_unavailable"
    case attemptNotFound = "attempt_not_found"
    case recordingNotKept = "recording_not_kept"
    case textOrPhraseRequired = "text_or_phrase_required"
    // Learning
    case courseExists = "course_exists"
    case courseNotFound = "course_not_found"
    case drawingNotFound = "drawing_not_found"
    case invalidTitle = "invalid_title"
    case artSpaceFull = "art_space_full"
    case variantNotFound = "variant_not_found"
    case placementNotFound = "placement_not_found"
    case placementFinished = "placement_finished"
    case notCurrentItem = "not_current_item"
    case optionNotFound = "option_not_found"
    case placementUnavailable = "placement_unavailable"
    case lessonNotFound = "lesson_not_found"
    case lessonExpired = "lesson_expired"
    case lessonFinished = "lesson_finished"
    case notCurrentQuestion = "not_current_question"
    case optionAlreadyTried = "option_already_tried"
    case targetNotFound = "target_not_found"
    case answerKindMismatch = "answer_kind_mismatch"
    case lessonUnavailable = "lesson_unavailable"
    case courseLessonNotFound = "course_lesson_not_found"
    case packNotFound = "pack_not_found"
    case packLocked = "pack_locked"
    // Games
    case gameNotFound = "game_not_found"
    case gameFinished = "game_finished"
    case gameBusy = "game_busy"
    case cardNotFound = "card_not_found"
    case cardAlreadyUp = "card_already_up"
    case gameRejected = "game_rejected"
    case lessonLogRejected = "lesson_log_rejected"
    case gameUnavailable = "game_unavailable"
    case flipTooFast = "flip_too_fast"
    case flipOutOfOrder = "flip_out_of_order"
    case gameUnfinished = "game_unfinished"
    case tileNotFound = "tile_not_found"
    case tileAlreadyPlaced = "tile_already_placed"
    case targetAlreadyFilled = "target_already_filled"
    case moveTooFast = "move_too_fast"
    case moveOutOfOrder = "move_out_of_order"
    // Friends
    case friendCodeNotFound = "friend_code_not_found"
    case cannotBefriendSelf = "cannot_befriend_self"
    case alreadyFriends = "already_friends"
    case friendRequestNotFound = "friend_request_not_found"
    case friendNotFound = "friend_not_found"
    case profileNotFound = "profile_not_found"
    // Plans and purchases
    case wordListLocked = "word_list_locked"
    case wordLocked = "word_locked"
    case planLimitReached = "plan_limit_reached"
    case trialAlreadyUsed = "trial_already_used"
    case trialNotAvailable = "trial_not_available"
    case purchaseInvalid = "purchase_invalid"
    case purchaseForeign = "purchase_foreign"
    case productNotFound = "product_not_found"
    case legacyNotEligible = "legacy_not_eligible"
    case storeUnavailable = "store_unavailable"
    /// This server takes no purchase from that store: no retry helps.
    case storeNotConfigured = "store_not_configured"
    case invalidAppVersion = "invalid_app_version"
    case invalidCurrency = "invalid_currency"
    // Teachers and classes
    case teacherRequired = "teacher_required"
    case invalidClassName = "invalid_class_name"
    case invalidLevel = "invalid_level"
    case invalidSchool = "invalid_school"
    case classNotFound = "class_not_found"
    case joinCodeNotFound = "join_code_not_found"
    case classLimitReached = "class_limit_reached"
    case classFull = "class_full"
    case alreadyInClass = "already_in_class"
    case assignmentNotFound = "assignment_not_found"
    // Operations
    case notReady = "not_ready"
    case databaseUnavailable = "database_unavailable"
    case internalError = "internal_error"
}

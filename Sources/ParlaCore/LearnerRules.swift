/// A learner profile as the client sent it (creation or edit).
public struct LearnerForm: Sendable {
    public var displayName: String?
    /// True: the learner's own name is forgotten (seed 004 T7.7).
    public var removeDisplayName: Bool?
    public var age: Int?
    public var removeAge: Bool?
    public var avatarID: String?
    public var nativeLanguage: String?
    public var targetLanguages: [String]?
    public var keepRecordings: Bool?
    public var publicProfile: Bool?
    public var letterCase: String?
    public init(
        displayName: String? = nil, removeDisplayName: Bool? = nil, age: Int? = nil, removeAge: Bool? = nil,
        avatarID: String? = nil, nativeLanguage: String? = nil, targetLanguages: [String]? = nil, keepRecordings: Bool? = nil,
        publicProfile: Bool? = nil, letterCase: String? = nil
    ) {
        (self.displayName, self.removeDisplayName, self.age, self.removeAge) = (displayName, removeDisplayName, age, removeAge)
        (self.avatarID, self.nativeLanguage, self.targetLanguages) = (avatarID, nativeLanguage, targetLanguages)
        (self.keepRecordings, self.publicProfile, self.letterCase) = (keepRecordings, publicProfile, letterCase)
    }
}

/// A learner profile's fields after validation; nil means "not given".
public struct LearnerFields: Sendable, Equatable {
    public var displayName: String?
    /// The learner's own name goes: it shows its default one again (seed
    /// 001: a portrait labelled by default).
    public var removeDisplayName = false
    public var age: Int?
    public var removeAge = false
    public var avatarID: String?
    public var nativeLanguage: Language?
    public var targetLanguages: [Language]?
    public var keepRecordings: Bool?
    public var publicProfile: Bool?
    public var letterCase: LetterCase?
    public init() {}
}

public enum LearnerRules {
    public static func validate(_ form: LearnerForm) throws(ParlaError) -> LearnerFields {
        var errors = FieldErrors()
        var fields = LearnerFields()
        if let raw = form.displayName {
            fields.displayName = Label.normalized(raw, maximumLength: LearnerProfileRules.displayNameLength)
            if fields.displayName == nil { errors.add("displayName", .invalidDisplayName) }
        }
        if form.removeDisplayName == true {
            // A name given and removed at once says two things.
            if form.displayName != nil { errors.add("removeDisplayName", .invalidDisplayName) }
            fields.removeDisplayName = true
        }
        if let age = form.age {
            if LearnerProfileRules.ages.contains(age) { fields.age = age } else { errors.add("age", .invalidAge) }
        }
        fields.removeAge = form.removeAge == true
        fields.keepRecordings = form.keepRecordings
        fields.publicProfile = form.publicProfile
        if let raw = form.letterCase {
            fields.letterCase = LetterCase(rawValue: raw)
            if fields.letterCase == nil { errors.add("letterCase", .validationFailed) }
        }
        if let avatar = form.avatarID {
            if Avatar.isKnown(avatar) { fields.avatarID = avatar } else { errors.add("avatarId", .invalidAvatar) }
        }
        if let raw = form.nativeLanguage {
            fields.nativeLanguage = Language(rawValue: raw)
            if fields.nativeLanguage == nil { errors.add("nativeLanguage", .invalidLanguage) }
        }
        if let raw = form.targetLanguages {
            let languages = raw.compactMap(Language.init(rawValue:))
            if languages.count == raw.count {
                // Keep the learner's order, drop repeats.
                var seen = Set<Language>()
                fields.targetLanguages = languages.filter { seen.insert($0).inserted }
            } else {
                errors.add("targetLanguages", .invalidLanguage)
            }
        }
        try errors.throwIfAny()
        return fields
    }
}

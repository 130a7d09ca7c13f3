/// Teachers' classes (issue 17): who may teach, what a class and its join
/// code are, and how a learner joins. Pure rules; `ClassStore` keeps them.

/// A join code: eight characters from an alphabet without look-alikes (no
/// 0/O, 1/I/L, 5/S, 2/Z, 8/B), shown as two groups of four (`KQ7M-X4TD`).
/// Typed with or without the dash, in either case.
public enum JoinCode {
    public static let shape = TypedCode(alphabet: "ACDEFGHJKMNPQRTUVWXY34679", length: 8)
    public static var alphabet: [Character] { shape.alphabet }

    public static func generate(using generator: inout some RandomNumberGenerator) -> String {
        String((0..<shape.length).map { _ in shape.alphabet.randomElement(using: &generator)! })
    }

    /// The stored form of what a learner typed; nil when it cannot be a code.
    public static func normalized(_ typed: String) -> String? { shape.read(typed) }

    /// As a teacher hands it out.
    public static func display(_ code: String) -> String { "\(code.prefix(4))-\(code.dropFirst(4))" }
}

/// A class as the teacher described it.
public struct ClassForm: Sendable {
    public var name: String?
    public var language: String?
    public var level: String?
    public init(name: String? = nil, language: String? = nil, level: String? = nil) {
        (self.name, self.language, self.level) = (name, language, level)
    }
}

public struct ClassFields: Sendable, Equatable {
    public var name: String?
    public var language: Language?
    public var level: CEFRLevel?
    public init() {}
}

public enum ClassRules {
    public static let nameLength = 60
    public static let teacherNameLength = 60
    public static let schoolLength = 100

    /// `creating`: every field is needed.
    public static func validate(_ form: ClassForm, creating: Bool) throws(ParlaError) -> ClassFields {
        var errors = FieldErrors()
        var fields = ClassFields()
        if let raw = form.name {
            fields.name = Label.normalized(raw, maximumLength: nameLength)
            if fields.name == nil { errors.add("name", .invalidClassName) }
        } else if creating {
            errors.add("name", .required)
        }
        if let raw = form.language {
            fields.language = Language(rawValue: raw)
            if fields.language == nil { errors.add("language", .invalidLanguage) }
        } else if creating {
            errors.add("language", .required)
        }
        if let raw = form.level {
            fields.level = CEFRLevel(rawValue: raw)
            if fields.level == nil { errors.add("level", .invalidLevel) }
        } else if creating {
            errors.add("level", .required)
        }
        try errors.throwIfAny()
        return fields
    }

    /// A teacher's name as its learners see it, and its school.
    public static func teacher(name: String?, school: String?) throws(ParlaError) -> (name: String, school: String?) {
        var errors = FieldErrors()
        let name = name.flatMap { Label.normalized($0, maximumLength: teacherNameLength) }
        if name == nil { errors.add("displayName", .invalidDisplayName) }
        var kept: String?
        if let school, !school.trimmingCharacters(in: .whitespaces).isEmpty {
            kept = Label.normalized(school, maximumLength: schoolLength)
            if kept == nil { errors.add("school", .invalidSchool) }
        }
        try errors.throwIfAny()
        return (name!, kept)
    }
}

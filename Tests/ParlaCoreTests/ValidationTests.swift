import ParlaCore
import Testing

@Suite("names")
struct PersonNameTests {
    @Test(arguments: ["Zoë", "Weiß", "Iñaki", "O'Brien", "N’Diaye", "Jean-Luc", "Anne Marie", "김민준", "さくら", "Ærø", "Łukasz", "Zoe\u{0308}"])
    func accepted(_ name: String) {
        #expect(PersonName.normalized(name) != nil)
    }

    @Test(arguments: [
        "", " ", "J0hn", "Anna!", "Ann  Marie", "-Ann", "Ann-", "'Ann", "Ann--Marie", "Ann_", "Ann.", "A\u{200B}nn", "😀", "Ann\tMarie",
        "\u{0308}Ann",
    ])
    func refused(_ name: String) {
        #expect(PersonName.normalized(name) == nil)
    }

    @Test func trimsAndComposes() {
        #expect(PersonName.normalized("  Zoe\u{0308} ") == "Zoë")
        #expect(PersonName.normalized(String(repeating: "a", count: 50)) != nil)
        #expect(PersonName.normalized(String(repeating: "a", count: 51)) == nil)
    }
}

@Suite("email addresses")
struct EmailTests {
    @Test(arguments: [
        "zoe@example.com", "zoe.smith+fr@mail.example.co.uk", "o'brien@example.ie", "x@ex-ample.io", "josé@correo.es", "a@b.cd",
    ])
    func accepted(_ address: String) {
        #expect(EmailAddress.normalized(address) == address)
    }

    @Test(arguments: [
        "", "zoe", "zoe@", "@example.com", "zoe@example", "zoe@.example.com", "zoe@example.com.", "zoe..x@example.com",
        ".zoe@example.com", "zoe.@example.com", "zo e@example.com", "zoe@exa mple.com", "zoe@-example.com",
        "zoe@example.c", "zoe@example.123", "zoe@ex_ample.com", "\"zoe\"@example.com", "zoe@@example.com",
    ])
    func refused(_ address: String) {
        #expect(EmailAddress.normalized(address) == nil)
    }

    @Test func trimmedAndCaseInsensitive() {
        #expect(EmailAddress.normalized("  Zoe@Example.COM\n") == "Zoe@Example.COM")
        #expect(EmailAddress.canonical("Zoe@Example.COM") == "zoe@example.com")
        #expect(EmailAddress.normalized(String(repeating: "a", count: 65) + "@example.com") == nil)
    }
}

@Suite("passwords")
struct PasswordTests {
    @Test func lengths() {
        #expect(PasswordPolicy.problems("123456789", email: nil) == [.invalidPassword])
        #expect(PasswordPolicy.problems("1234567890", email: nil) == [])
        #expect(PasswordPolicy.problems(String(repeating: "é", count: 128), email: nil) == [])
        #expect(PasswordPolicy.problems(String(repeating: "x", count: 129), email: nil) == [.invalidPassword])
    }

    @Test func notTheEmail() {
        #expect(PasswordPolicy.problems("Zoe@Example.com", email: "zoe@example.com") == [.passwordIsEmail])
        #expect(PasswordPolicy.problems("zoe@example.com!", email: "zoe@example.com") == [])
    }
}

@Suite("sign-up rules")
struct AccountRulesTests {
    @Test func reportsEverythingAtOnce() {
        #expect(
            throws: ParlaError.validation([
                FieldError("firstName", .required), FieldError("lastName", .invalidLastName), FieldError("email", .invalidEmail),
                FieldError("password", .invalidPassword), FieldError("acceptTerms", .termsNotAccepted),
                FieldError("uiLanguage", .invalidLanguage),
            ])
        ) {
            try AccountRules.validate(
                RegistrationForm(lastName: "L4st", email: "x", password: "short", acceptTerms: false, uiLanguage: "pt"),
                requestLanguage: .english)
        }
    }

    @Test func normalizes() throws {
        let registration = try AccountRules.validate(
            RegistrationForm(
                firstName: " Zoë ", lastName: "O'Brien", email: " Zoe@Example.com ", password: "long enough!",
                acceptTerms: true, deviceName: "  Pixel  "), requestLanguage: .german)
        #expect(registration.firstName == "Zoë")
        #expect(registration.email == "Zoe@Example.com")
        #expect(registration.uiLanguage == .german)
        #expect(registration.deviceName == "Pixel")
    }

    @Test func updates() throws {
        #expect(throws: ParlaError(.nothingToUpdate)) { try AccountRules.validate(AccountRules.UpdateForm(), currentEmail: "a@b.cd") }
        #expect(throws: ParlaError.validation([FieldError("newPassword", .passwordIsEmail), FieldError("currentPassword", .required)])) {
            try AccountRules.validate(AccountRules.UpdateForm(newPassword: "ZOE@Example.com"), currentEmail: "zoe@example.com")
        }
        // An account made with a provider proves it is its owner there.
        #expect(throws: ParlaError.validation([FieldError("reauthentication", .required)])) {
            try AccountRules.validate(AccountRules.UpdateForm(newPassword: "a long new secret"), currentEmail: nil, hasPassword: false)
        }
        let update = try AccountRules.validate(AccountRules.UpdateForm(lastName: "Núñez", uiLanguage: "es"), currentEmail: "a@b.cd")
        #expect(update.lastName == "Núñez")
        #expect(update.uiLanguage == .spanish)
        #expect(update.firstName == nil)
    }
}

@Suite("learner rules")
struct LearnerRulesTests {
    @Test func validates() throws {
        let fields = try LearnerRules.validate(
            LearnerForm(
                displayName: " Léo ", age: 7, avatarID: "cap-chef", nativeLanguage: "fr",
                targetLanguages: ["en", "de", "en"]))
        #expect(fields.displayName == "Léo")
        #expect(fields.targetLanguages == [.english, .german])
        #expect(throws: ParlaError.validation([FieldError("age", .invalidAge)])) { try LearnerRules.validate(LearnerForm(age: 121)) }
        #expect(throws: ParlaError.validation([FieldError("age", .invalidAge)])) { try LearnerRules.validate(LearnerForm(age: 2)) }
        #expect(throws: ParlaError.validation([FieldError("displayName", .invalidDisplayName)])) {
            try LearnerRules.validate(LearnerForm(displayName: "bad\u{0007}bell"))
        }
    }

    @Test func defaultPicturesAreStableAndSpread() {
        var counts = [Int](repeating: 0, count: DefaultPicture.count + 1)
        for _ in 0..<600 {
            let id = LearnerID.generate()
            let number = DefaultPicture.number(for: id)
            #expect(number == DefaultPicture.number(for: id))
            counts[number] += 1
        }
        #expect(counts[0] == 0)
        #expect(counts.dropFirst().allSatisfy { $0 > 50 })
    }
}

@Suite("classes and the access rule")
struct ClassRuleTests {
    @Test("join codes: eight characters without look-alikes, typed any way")
    func joinCodes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let code = JoinCode.generate(using: &generator)
            #expect(code.count == 8 && code.allSatisfy(JoinCode.alphabet.contains))
            #expect(JoinCode.normalized(JoinCode.display(code).lowercased()) == code)
        }
        #expect(!JoinCode.alphabet.contains { "0O1IL5S2Z8B".contains($0) })
        #expect(JoinCode.normalized("ACDE-FGH") == nil && JoinCode.normalized("ACDE-FGHO") == nil)
    }

    @Test("a teacher reads its class's learner and does nothing else; an owner does everything; a stranger nothing")
    func accessRule() {
        let (learner, owner, teacher) = (LearnerID.generate(), AccountID.generate(), AccountID.generate())
        let teaching = AuthorizedLearner.Teaching(sharesRecordings: false)
        for intent in [AuthorizedLearner.Intent.read, .actAs, .write] {
            #expect(AuthorizedLearner.resolve(learner, ownedBy: owner, caller: owner, for: intent)?.role == .owner)
            #expect(AuthorizedLearner.resolve(learner, ownedBy: owner, caller: teacher, for: intent) == nil)
        }
        let read = AuthorizedLearner.resolve(learner, ownedBy: owner, caller: teacher, teaching: teaching, for: .read)
        #expect(read?.role == .teacher && read?.mayHearRecordings == false && read?.account == owner)
        #expect(AuthorizedLearner.resolve(learner, ownedBy: owner, caller: teacher, teaching: teaching, for: .write) == nil)
        #expect(AuthorizedLearner.resolve(learner, ownedBy: owner, caller: teacher, teaching: teaching, for: .actAs) == nil)
        #expect(AuthorizedLearner.resolve(learner, ownedBy: nil, caller: teacher, teaching: teaching, for: .read) == nil)
    }

    @Test("a class needs a name, a language and a level; every problem at once")
    func classForm() {
        #expect(
            throws: ParlaError.validation([
                FieldError("name", .required), FieldError("language", .required), FieldError("level", .required),
            ])
        ) {
            try ClassRules.validate(ClassForm(), creating: true)
        }
        #expect((try? ClassRules.validate(ClassForm(name: " 4e B ", language: "fr", level: "A2"), creating: true))?.name == "4e B")
        #expect((try? ClassRules.validate(ClassForm(level: "B1"), creating: false))?.level == .b1)
    }
}

@Suite("secrets")
struct SecretTests {
    @Test("secrets match only byte for byte, whatever their lengths")
    func matching() {
        #expect(secretsMatch("a1b2", "a1b2"))
        #expect(!secretsMatch("a1b2", "a1b3") && !secretsMatch("a1b2", "a1b") && !secretsMatch("", "x"))
    }
}

@Suite("ways into an account")
struct WaysInTests {
    @Test("a linked sign-in may go while a password or another sign-in stays")
    func unlinking() {
        #expect(AccountRules.mayUnlinkIdentity(hasPassword: true, linkedIdentities: 1))
        #expect(AccountRules.mayUnlinkIdentity(hasPassword: false, linkedIdentities: 2))
        #expect(!AccountRules.mayUnlinkIdentity(hasPassword: false, linkedIdentities: 1))
    }
}

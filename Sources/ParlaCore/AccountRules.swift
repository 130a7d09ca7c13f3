/// Sign-up as the client sent it: every field may be missing.
public struct RegistrationForm: Sendable {
    public var firstName: String?, lastName: String?, email: String?, password: String?
    public var acceptTerms: Bool?
    public var uiLanguage: String?
    public var deviceName: String?
    public init(
        firstName: String? = nil, lastName: String? = nil, email: String? = nil, password: String? = nil,
        acceptTerms: Bool? = nil, uiLanguage: String? = nil, deviceName: String? = nil
    ) {
        (self.firstName, self.lastName, self.email, self.password) = (firstName, lastName, email, password)
        (self.acceptTerms, self.uiLanguage, self.deviceName) = (acceptTerms, uiLanguage, deviceName)
    }
}

/// Sign-up after validation: normalized and complete.
public struct Registration: Sendable, Equatable {
    public var firstName: String, lastName: String, email: String, password: String
    public var uiLanguage: Language
    public var deviceName: String?
}

/// The rules of T1: every field problem is reported at once.
public enum AccountRules {
    public static func validate(_ form: RegistrationForm, requestLanguage: Language) throws(ParlaError) -> Registration {
        var errors = FieldErrors()
        let firstName = name(form.firstName, field: "firstName", invalid: .invalidFirstName, into: &errors)
        let lastName = name(form.lastName, field: "lastName", invalid: .invalidLastName, into: &errors)
        let email = emailAddress(form.email, field: "email", into: &errors)
        if let password = form.password {
            for problem in PasswordPolicy.problems(password, email: email) { errors.add("password", problem) }
        } else {
            errors.add("password", .required)
        }
        let (uiLanguage, device) = consent(form.acceptTerms, form.uiLanguage, form.deviceName, requestLanguage, into: &errors)
        try errors.throwIfAny()
        return Registration(
            firstName: firstName!, lastName: lastName!, email: email!, password: form.password!,
            uiLanguage: uiLanguage, deviceName: device)
    }

    /// A guest (seed 001): skipping sign-up does not skip the terms; its
    /// language (the request's unless chosen) and its device; nothing else
    /// is asked.
    public static func validateGuest(
        acceptTerms: Bool?, uiLanguage: String?, deviceName device: String?, requestLanguage: Language
    ) throws(ParlaError) -> (Language, String?) {
        var errors = FieldErrors()
        let (chosen, name) = consent(acceptTerms, uiLanguage, device, requestLanguage, into: &errors)
        try errors.throwIfAny()
        return (chosen, name)
    }

    /// What every new account needs besides its names and email: the terms
    /// accepted, its language (the request's unless chosen), the device.
    static func consent(
        _ acceptTerms: Bool?, _ uiLanguage: String?, _ device: String?, _ requestLanguage: Language, into errors: inout FieldErrors
    ) -> (Language, String?) {
        if acceptTerms != true { errors.add("acceptTerms", acceptTerms == nil ? .required : .termsNotAccepted) }
        var chosen = requestLanguage
        if let raw = uiLanguage, let language = language(raw, field: "uiLanguage", into: &errors) { chosen = language }
        return (chosen, deviceName(device, into: &errors))
    }

    static func name(_ raw: String?, field: String, invalid: ErrorCode, into errors: inout FieldErrors) -> String? {
        guard let raw else {
            errors.add(field, .required)
            return nil
        }
        guard let name = PersonName.normalized(raw) else {
            errors.add(field, invalid)
            return nil
        }
        return name
    }

    static func emailAddress(_ raw: String?, field: String, into errors: inout FieldErrors) -> String? {
        guard let raw else {
            errors.add(field, .required)
            return nil
        }
        guard let email = EmailAddress.normalized(raw) else {
            errors.add(field, .invalidEmail)
            return nil
        }
        return email
    }

    static func language(_ raw: String, field: String, into errors: inout FieldErrors) -> Language? {
        guard let language = Language(rawValue: raw) else {
            errors.add(field, .invalidLanguage)
            return nil
        }
        return language
    }

    static func deviceName(_ raw: String?, into errors: inout FieldErrors) -> String? {
        guard let raw else { return nil }
        guard let device = Label.normalized(raw, maximumLength: 100) else {
            errors.add("deviceName", .invalidDeviceName)
            return nil
        }
        return device
    }

    /// Sign-in: the email must at least look like one (T2.2) before any
    /// account is looked up.
    public static func validateSignIn(email: String?, password: String?, deviceName: String?) throws(ParlaError)
        -> (email: String, password: String, deviceName: String?)
    {
        var errors = FieldErrors()
        let address = emailAddress(email, field: "email", into: &errors)
        if password == nil || password?.isEmpty == true { errors.add("password", .required) }
        let device = Self.deviceName(deviceName, into: &errors)
        try errors.throwIfAny()
        return (address!, password!, device)
    }

    /// The owner's proof for an account without a password: a fresh
    /// sign-in with a provider linked to it, its id_token and the nonce the
    /// app sent.
    public struct Reauthentication: Sendable {
        public var provider: String, idToken: String, nonce: String
        public init(provider: String, idToken: String, nonce: String) {
            (self.provider, self.idToken, self.nonce) = (provider, idToken, nonce)
        }
    }

    /// Social sign-in as the client sent it.
    public struct SocialForm: Sendable {
        public var provider: String?, idToken: String?, nonce: String?, deviceName: String?
        /// For a first sign-in (a new account): the names (Apple gives them
        /// to the app only once), the terms, the language.
        public var firstName: String?, lastName: String?, acceptTerms: Bool?, uiLanguage: String?
        /// For linking to an account that has the token's email.
        public var password: String?
        /// For an account with two-factor sign-in: its code.
        public var oneTimeCode: String?
        /// For a new account whose token names no email (Facebook without
        /// the email permission, or registered by phone): the address the
        /// person types, confirmed by a link.
        public var email: String?
        public init(
            provider: String? = nil, idToken: String? = nil, nonce: String? = nil, deviceName: String? = nil,
            firstName: String? = nil, lastName: String? = nil, acceptTerms: Bool? = nil, uiLanguage: String? = nil,
            password: String? = nil, oneTimeCode: String? = nil, email: String? = nil
        ) {
            (self.provider, self.idToken, self.nonce, self.deviceName) = (provider, idToken, nonce, deviceName)
            (self.firstName, self.lastName, self.acceptTerms, self.uiLanguage) = (firstName, lastName, acceptTerms, uiLanguage)
            (self.password, self.oneTimeCode, self.email) = (password, oneTimeCode, email)
        }
    }

    /// A social sign-in's token, nonce and device; the provider's name is
    /// returned as given, once known to be one of `providers`.
    public static func validateSocial(_ form: SocialForm, providers: [String]) throws(ParlaError)
        -> (provider: String, idToken: String, nonce: String, deviceName: String?)
    {
        var errors = FieldErrors()
        if let provider = form.provider {
            if !providers.contains(provider) { errors.add("provider", .invalidProvider) }
        } else {
            errors.add("provider", .required)
        }
        if form.idToken?.isEmpty != false { errors.add("idToken", .required) }
        if form.nonce?.isEmpty != false { errors.add("nonce", .required) }
        let device = deviceName(form.deviceName, into: &errors)
        try errors.throwIfAny()
        return (form.provider!, form.idToken!, form.nonce!, device)
    }

    /// A new account from a social sign-in: names from the form, else from
    /// the token; the email from the token, else from the form; the terms
    /// accepted.
    public static func validateSocialRegistration(
        _ form: SocialForm, givenName: String?, familyName: String?, email: String?, requestLanguage: Language
    ) throws(ParlaError) -> Registration {
        var errors = FieldErrors()
        let firstName = name(form.firstName ?? givenName, field: "firstName", invalid: .invalidFirstName, into: &errors)
        // Apple may give no family name: an account may have none.
        let rawLastName = form.lastName ?? familyName
        let lastName =
            rawLastName.map { name($0, field: "lastName", invalid: .invalidLastName, into: &errors) } ?? ""
        let address = emailAddress(email ?? form.email, field: "email", into: &errors)
        let (uiLanguage, device) = consent(form.acceptTerms, form.uiLanguage, form.deviceName, requestLanguage, into: &errors)
        try errors.throwIfAny()
        return Registration(
            firstName: firstName!, lastName: lastName ?? "", email: address!, password: "", uiLanguage: uiLanguage, deviceName: device)
    }

    /// A password-reset request: an address, which need not be anyone's.
    public static func validateResetRequest(email: String?) throws(ParlaError) -> String {
        var errors = FieldErrors()
        let address = emailAddress(email, field: "email", into: &errors)
        try errors.throwIfAny()
        return address!
    }

    /// A reset's token and new password, both present.
    public static func validateReset(token: String?, newPassword: String?) throws(ParlaError) -> (token: String, password: String) {
        var errors = FieldErrors()
        if token == nil || token?.isEmpty == true { errors.add("token", .required) }
        if newPassword == nil { errors.add("newPassword", .required) }
        try errors.throwIfAny()
        return (token!, newPassword!)
    }

    /// A new password against the policy, for the account's email.
    public static func validateNewPassword(_ password: String, email: String) throws(ParlaError) {
        var errors = FieldErrors()
        for problem in PasswordPolicy.problems(password, email: email) { errors.add("newPassword", problem) }
        try errors.throwIfAny()
    }

    /// An account edit as the client sent it.
    public struct UpdateForm: Sendable {
        public var firstName: String?, lastName: String?, email: String?, uiLanguage: String?
        public var newPassword: String?, currentPassword: String?
        /// True: the current terms are accepted (an account or a guest asked
        /// again after the terms changed).
        public var acceptTerms: Bool?
        /// A fresh sign-in with a provider linked to the account: how an
        /// account without a password proves it is its owner (an email
        /// change).
        public var reauthentication: Reauthentication?
        public init(
            firstName: String? = nil, lastName: String? = nil, email: String? = nil, uiLanguage: String? = nil,
            newPassword: String? = nil, currentPassword: String? = nil, acceptTerms: Bool? = nil,
            reauthentication: Reauthentication? = nil
        ) {
            (self.firstName, self.lastName, self.email, self.uiLanguage) = (firstName, lastName, email, uiLanguage)
            (self.newPassword, self.currentPassword, self.acceptTerms) = (newPassword, currentPassword, acceptTerms)
            self.reauthentication = reauthentication
        }
    }

    /// The edit, validated: nil fields stay as they are.
    public struct Update: Sendable, Equatable {
        public var firstName: String?, lastName: String?, email: String?
        public var uiLanguage: Language?
        public var newPassword: String?
        public var acceptsTerms = false
        public init() {}
    }

    /// An account's ways in are its password and its linked identities
    /// (Apple, Google, Facebook). One may go only while another stays: an
    /// account nobody can open is lost to its owner.
    public static func mayUnlinkIdentity(hasPassword: Bool, linkedIdentities: Int) -> Bool {
        hasPassword || linkedIdentities > 1
    }

    /// `currentEmail` is the account's: the new password may not equal it
    /// (nor the new email, when both change). `hasPassword`: whether the
    /// account has one, which says what proves its owner for a new one.
    public static func validate(_ form: UpdateForm, currentEmail: String?, hasPassword: Bool = true) throws(ParlaError) -> Update {
        var errors = FieldErrors()
        var update = Update()
        if let raw = form.firstName { update.firstName = name(raw, field: "firstName", invalid: .invalidFirstName, into: &errors) }
        if let raw = form.lastName { update.lastName = name(raw, field: "lastName", invalid: .invalidLastName, into: &errors) }
        if let raw = form.email { update.email = emailAddress(raw, field: "email", into: &errors) }
        if let raw = form.uiLanguage { update.uiLanguage = language(raw, field: "uiLanguage", into: &errors) }
        // Terms are accepted, never withdrawn here: that is erasing the account.
        if let accept = form.acceptTerms {
            if accept { update.acceptsTerms = true } else { errors.add("acceptTerms", .termsNotAccepted) }
        }
        if let password = form.newPassword {
            for problem in PasswordPolicy.problems(password, email: update.email ?? currentEmail) { errors.add("newPassword", problem) }
            // The owner's proof: the password, or for an account without
            // one (made with a provider), a fresh sign-in there.
            if form.currentPassword == nil, form.reauthentication == nil || hasPassword {
                errors.add(hasPassword ? "currentPassword" : "reauthentication", .required)
            }
            update.newPassword = password
        }
        try errors.throwIfAny()
        if update == Update() { throw ParlaError(.nothingToUpdate) }
        return update
    }
}

import Foundation
import Logging
import ParlaCore
import ParlaIdentity
import ParlaKept
import ParlaStore
import ServiceLifecycle

/// Sign-up, sign-in, devices and the account itself.
package struct AccountService: Sendable {
    package let accounts: AccountStore
    /// Profiles as kept in memory: `GET /v1/me` and who is signed in.
    package let profiles: AccountProfiles
    package let learners: LearnerStore
    package let hasher: PasswordHasher
    package let termsVersion: String
    package let leaderboards: LeaderboardService
    package let mail: AccountMail
    /// The identity providers configured (`auth.<provider>.audiences`).
    package let identities: [IdentityProvider: IdentityVerifier]
    /// Counted first in each way in, before any bcrypt work.
    package let limits: RateLimiter
    /// An account with a second factor signs in with its code too.
    package let twoFactor: TwoFactorService
    package let logger: Logger

    /// After this many failed sign-ins for one email within the window, the
    /// email is refused until the oldest failure leaves the window.
    package static let maximumFailures = 10
    package static let failureWindow: TimeInterval = 15 * 60

    package struct SignedIn: Sendable {
        package var account: Account
        package var learners: [Learner]
        package var session: DeviceSession
        package var token: String
    }

    /// Sign-up; by a guest (`claiming` its account), the guest becomes
    /// the account, keeping every learner and their progress.
    package func signUp(_ form: RegistrationForm, language: Language, claiming guest: Caller? = nil) async throws -> SignedIn {
        try await limits.admit(.signUp)
        let registration = try AccountRules.validate(form, requestLanguage: language)
        let hash = try await hasher.hash(registration.password)
        if let guest { return try await claim(guest.accountID, registration, passwordHash: hash) }
        return try await create(registration, passwordHash: hash)
    }

    /// Start without an account (seed 001): a guest account for this
    /// device with one learner, named as a new profile is, signed in.
    package func startAsGuest(acceptTerms: Bool?, uiLanguage: String?, deviceName: String?, language: Language) async throws -> SignedIn {
        try await limits.admit(.guest)
        let (uiLanguage, device) = try AccountRules.validateGuest(
            acceptTerms: acceptTerms, uiLanguage: uiLanguage, deviceName: deviceName, requestLanguage: language)
        let token = SessionToken.generate()
        let firstLearner = LearnerStore.NewLearner(
            displayName: Wording.defaultLearnerName(number: 1).text(in: uiLanguage), age: nil, avatarID: Avatar.defaultID,
            nativeLanguage: uiLanguage, targetLanguages: [])
        let (account, learner, session) = try await accounts.createGuest(
            uiLanguage: uiLanguage, termsVersion: termsVersion, firstLearner: firstLearner,
            session: .init(tokenHash: token.hash, deviceName: device))
        return SignedIn(account: account, learners: [learner], session: session, token: token.value)
    }

    /// The guest becomes the account `registration` describes (same id,
    /// same learners), signed in on the device with a new token.
    private func claim(
        _ guest: AccountID, _ registration: Registration, passwordHash: String?, identity: ProviderIdentity? = nil,
        emailVerified: Bool = false
    ) async throws -> SignedIn {
        let (new, verification) = newAccount(registration, passwordHash: passwordHash, identity: identity, emailVerified: emailVerified)
        let token = SessionToken.generate()
        guard
            let (account, session) = try await accounts.claim(
                guest, as: new, session: .init(tokenHash: token.hash, deviceName: registration.deviceName), verification: verification)
        else { throw ParlaError(.authenticationRequired) }
        if verification != nil { mail.queued() }
        let (_, learners) = try await me(account.id)
        return SignedIn(account: account, learners: learners, session: session, token: token.value)
    }

    /// A guest signing in to an account it has: the guest's learners join
    /// the account and the guest is erased.
    private func merge(_ guest: Caller?, into account: AccountID) async throws {
        guard let guest, guest.accountID != account else { return }
        _ = try await accounts.merge(guest.accountID, into: account)
    }

    /// What a sign-up writes, and the link that confirms an email nobody
    /// vouched for.
    private func newAccount(_ registration: Registration, passwordHash: String?, identity: ProviderIdentity?, emailVerified: Bool)
        -> (AccountStore.NewAccount, EmailChallenge?)
    {
        var new = AccountStore.NewAccount(
            firstName: registration.firstName, lastName: registration.lastName, email: registration.email, passwordHash: passwordHash,
            uiLanguage: registration.uiLanguage, termsVersion: termsVersion)
        new.emailVerified = emailVerified
        new.identity = identity
        let verification =
            emailVerified
            ? nil
            : mail.challenge(
                .emailVerification, firstName: registration.firstName, email: registration.email, language: registration.uiLanguage)
        return (new, verification)
    }

    /// A new account with its first learner (named after the account) and
    /// a session on the registering device. An email nobody vouched for is
    /// sent a link to confirm it.
    private func create(
        _ registration: Registration, passwordHash: String?, identity: ProviderIdentity? = nil, emailVerified: Bool = false
    ) async throws -> SignedIn {
        let (new, verification) = newAccount(registration, passwordHash: passwordHash, identity: identity, emailVerified: emailVerified)
        let token = SessionToken.generate()
        let firstLearner = LearnerStore.NewLearner(
            displayName: String(registration.firstName.prefix(LearnerProfileRules.displayNameLength)),
            age: nil, avatarID: Avatar.defaultID, nativeLanguage: registration.uiLanguage, targetLanguages: [])
        let (account, learner, session) = try await accounts.create(
            new, firstLearner: firstLearner, session: AccountStore.NewSession(tokenHash: token.hash, deviceName: registration.deviceName),
            verification: verification)
        if verification != nil { mail.queued() }
        return SignedIn(account: account, learners: [learner], session: session, token: token.value)
    }

    /// A wrong email and a wrong password look the same from outside: same
    /// status, same code, same bcrypt work.
    /// A guest signing in (`claiming`) brings its learners to the account.
    /// An account with a second factor needs `oneTimeCode` as well (a
    /// wrong one counts as a failed sign-in).
    package func signIn(
        email: String?, password: String?, oneTimeCode: String? = nil, deviceName: String?, claiming guest: Caller? = nil
    ) async throws -> SignedIn {
        try await limits.admit(.signIn)
        let (email, password, device) = try AccountRules.validateSignIn(email: email, password: password, deviceName: deviceName)
        let account = try await checkCredentials(email: email, password: password)
        let passed = try await twoFactor.check(account, code: oneTimeCode)
        // Only a whole sign-in clears the failures: a right password with
        // wrong codes must not reset the count of guesses.
        try await accounts.clearFailures(email: email)
        try await merge(guest, into: account)
        return try await openSession(account, deviceName: device, secondFactor: passed)
    }

    /// The account the email and password belong to, throttled: after
    /// `maximumFailures` failures within the window the email is refused.
    private func checkCredentials(email: String, password: String) async throws -> AccountID {
        let failures = try await accounts.recentFailures(email: email, within: Self.failureWindow)
        if failures.count >= Self.maximumFailures {
            throw ParlaError(.tooManyAttempts, retryAfter: max(1, failures.secondsUntilOldestExpires))
        }
        // An account made by social sign-in has no password: like no account.
        guard let (accountID, storedHash) = try await accounts.credentials(email: email), let hash = storedHash else {
            try await hasher.verifyNothing()
            try await accounts.recordFailure(email: email, window: Self.failureWindow)
            throw ParlaError(.invalidCredentials)
        }
        guard try await hasher.verify(password, against: hash) else {
            try await accounts.recordFailure(email: email, window: Self.failureWindow)
            throw ParlaError(.invalidCredentials)
        }
        return accountID
    }

    /// A new session on a device, with the account it opens.
    package func openSession(_ accountID: AccountID, deviceName: String?, secondFactor: Bool = false) async throws -> SignedIn {
        let token = SessionToken.generate()
        let session = try await accounts.createSession(.init(tokenHash: token.hash, deviceName: deviceName), accountID: accountID)
        if secondFactor { try await twoFactor.passed(session.id) }
        let (account, learners) = try await me(accountID)
        return SignedIn(account: account, learners: learners, session: session, token: token.value)
    }

    /// Sign in with Apple or Google: the provider's `id_token` (checked by
    /// `IdentityVerifier`) signs in to the account its identity is linked
    /// to; else, when an account has the token's verified email, links to
    /// it once its password is given (409 `link_required` until then); else
    /// makes a new account without a password. `created` tells which.
    package func signIn(with form: AccountRules.SocialForm, language: Language, claiming guest: Caller? = nil) async throws
        -> (SignedIn, created: Bool)
    {
        try await limits.admit(.signIn)
        let request = try AccountRules.validateSocial(form, providers: IdentityProvider.allCases.map(\.rawValue))
        // Garbage is garbage whatever is configured; a provider this server
        // was not set up for says so, with no retry advice.
        let (person, identity) = try await verified(request.idToken, from: request.provider, nonce: request.nonce, for: "social sign-in")
        if let account = try await accounts.account(of: identity) {
            let passed = try await twoFactor.check(account, code: form.oneTimeCode)
            try await merge(guest, into: account)
            return (try await openSession(account, deviceName: request.deviceName, secondFactor: passed), false)
        }
        let email = person.email.flatMap(EmailAddress.normalized)
        if let email, try await accounts.credentials(email: email) != nil {
            // Only the account's owner may add a way in: its password, once.
            guard person.emailVerified else { throw ParlaError(.emailTaken) }
            guard let password = form.password, !password.isEmpty else { throw ParlaError(.linkRequired) }
            let account = try await checkCredentials(email: email, password: password)
            let passed = try await twoFactor.check(account, code: form.oneTimeCode)
            try await accounts.clearFailures(email: email)
            try await accounts.link(identity, to: account)
            try await merge(guest, into: account)
            return (try await openSession(account, deviceName: request.deviceName, secondFactor: passed), false)
        }
        let registration = try AccountRules.validateSocialRegistration(
            form, givenName: person.givenName, familyName: person.familyName, email: email ?? person.email, requestLanguage: language)
        // Only the provider's word confirms an address; one typed in the
        // app is confirmed by its link.
        let verified = person.email != nil && person.emailVerified
        if let guest {
            let signedIn = try await claim(guest.accountID, registration, passwordHash: nil, identity: identity, emailVerified: verified)
            return (signedIn, true)
        }
        return (try await create(registration, passwordHash: nil, identity: identity, emailVerified: verified), true)
    }

    package func me(_ accountID: AccountID) async throws -> (Account, [Learner]) {
        guard let profile = try await profiles.profile(accountID) else { throw ParlaError(.authenticationRequired) }
        return profile
    }

    /// All of the edit or none of it (T7.8, T7.11).
    package func update(_ caller: Caller, _ form: AccountRules.UpdateForm) async throws -> (Account, [Learner]) {
        guard let current = try await accounts.account(caller.accountID) else { throw ParlaError(.authenticationRequired) }
        // A guest has only a language to change; names, email and password come with signing up.
        if current.isGuest, form.firstName != nil || form.lastName != nil || form.email != nil || form.newPassword != nil {
            throw ParlaError(.signUpRequired)
        }
        // Only a new password asks whether there is an old one.
        var hasPassword = true
        if form.newPassword != nil { hasPassword = try await accounts.passwordHash(caller.accountID) != nil }
        let update = try AccountRules.validate(form, currentEmail: current.email, hasPassword: hasPassword)
        let newEmail = update.email.flatMap { EmailAddress.canonical($0) == current.email.map(EmailAddress.canonical) ? nil : $0 }
        // Whoever holds a session must prove again that the account is
        // theirs before taking its address (the way back in) or password.
        if newEmail != nil {
            try await reauthenticate(caller.accountID, currentPassword: form.currentPassword, reauthentication: form.reauthentication)
        }
        var newHash: String?
        if let newPassword = update.newPassword {
            // The same proof: an account made with a provider sets its
            // first password with a fresh sign-in there.
            if newEmail == nil {
                try await reauthenticate(caller.accountID, currentPassword: form.currentPassword, reauthentication: form.reauthentication)
            }
            newHash = try await hasher.hash(newPassword)
        }
        let language = update.uiLanguage ?? current.uiLanguage
        let firstName = update.firstName ?? current.firstName ?? ""
        // A new address is confirmed by a link sent to it, in the language
        // the account will have; the old one is told, with a link that
        // puts it back.
        let verification = newEmail.map { mail.challenge(.emailVerification, firstName: firstName, email: $0, language: language) }
        // Only an address that was confirmed gets the way back: an
        // unconfirmed one (a typo) may be a stranger's.
        var undo: EmailChallenge?
        if let old = current.email, current.emailVerifiedAt != nil, let new = newEmail {
            undo = mail.undoChallenge(firstName: firstName, oldEmail: old, newEmail: new, language: language)
        }
        try await accounts.update(
            caller.accountID,
            AccountStore.Changes(
                firstName: update.firstName, lastName: update.lastName, email: update.email,
                uiLanguage: update.uiLanguage, passwordHash: newHash, termsVersion: update.acceptsTerms ? termsVersion : nil),
            keepingSession: caller.sessionID,
            verification: verification, undo: undo, emailChanged: newEmail != nil)
        if verification != nil { mail.queued() }
        return try await me(caller.accountID)
    }

    /// The owner's proof for an email change: the current password, or for
    /// an account without one, a fresh sign-in with a provider linked to
    /// it (`reauthentication`). 422 `required` when neither is given,
    /// `wrong_current_password` or `invalid_id_token` when it does not hold.
    package func reauthenticate(
        _ account: AccountID, currentPassword: String?, reauthentication: AccountRules.Reauthentication?,
        passwordField: String = "currentPassword"
    ) async throws {
        if try await accounts.passwordHash(account) != nil {
            guard let password = currentPassword else { throw ParlaError.validation([FieldError(passwordField, .required)]) }
            return try await checkPassword(password, of: account)
        }
        guard let proof = reauthentication else { throw ParlaError.validation([FieldError("reauthentication", .required)]) }
        let identity = try await freshProof(proof.idToken, from: proof.provider, nonce: proof.nonce, for: "reauthentication")
        guard try await accounts.account(of: identity) == account else { throw ParlaError(.invalidIdToken) }
    }

    /// How old a provider's token may be to prove a fresh sign-in.
    package static let freshProofSeconds: TimeInterval = 600

    /// An id_token that proves something now (the owner's proof, a sign-in
    /// to link): issued in the last ten minutes and taken once, so a token
    /// seen before (a sign-in's, in a log or a stolen request) proves
    /// nothing again. `invalid_id_token` otherwise.
    package func freshProof(_ idToken: String, from provider: String, nonce: String, for purpose: String) async throws
        -> ProviderIdentity
    {
        let (person, identity) = try await verified(idToken, from: provider, nonce: nonce, for: purpose)
        guard let issued = person.issuedAt, issued.timeIntervalSinceNow > -Self.freshProofSeconds else {
            logger.notice("\(purpose) refused", metadata: ["provider": "\(provider)", "why": "not a fresh sign-in"])
            throw ParlaError(.invalidIdToken)
        }
        guard try await accounts.spendProof(SessionToken.hash(idToken), until: person.expiresAt) else {
            logger.notice("\(purpose) refused", metadata: ["provider": "\(provider)", "why": "token used before"])
            throw ParlaError(.invalidIdToken)
        }
        return identity
    }

    /// The old owner takes its address back (the link of `undoChallenge`):
    /// every session ends; `invalid_token` when the link is not live.
    package func undoEmailChange(token: String?) async throws {
        guard let token, !token.isEmpty else { throw ParlaError.validation([FieldError("token", .required)]) }
        guard try await accounts.undoEmailChange(tokenHash: SessionToken.hash(token)) != nil else { throw ParlaError(.invalidToken) }
    }

    /// Sends a reset link when an account has the email. The caller learns
    /// nothing either way, and a flood of requests sends at most
    /// `AccountMail.hourlyLimit` emails an hour.
    package func requestPasswordReset(email: String?) async throws {
        try await limits.admit(.passwordReset)
        let email = try AccountRules.validateResetRequest(email: email)
        guard let (accountID, _) = try await accounts.credentials(email: email), let account = try await accounts.account(accountID),
            let address = account.email
        else { return }
        let challenge = mail.challenge(.passwordReset, firstName: account.firstName ?? "", email: address, language: account.uiLanguage)
        if try await accounts.issue(challenge, to: accountID, limit: AccountMail.hourlyLimit) { mail.queued() }
    }

    /// Sets a new password with a reset link's token; every device is
    /// signed out.
    package func resetPassword(token: String?, newPassword: String?) async throws {
        try await limits.admit(.passwordReset)
        let (token, password) = try AccountRules.validateReset(token: token, newPassword: newPassword)
        let tokenHash = SessionToken.hash(token)
        guard let (_, email) = try await accounts.resetTarget(tokenHash: tokenHash) else { throw ParlaError(.invalidToken) }
        try AccountRules.validateNewPassword(password, email: email)
        let hash = try await hasher.hash(password)
        guard try await accounts.resetPassword(tokenHash: tokenHash, passwordHash: hash) != nil else { throw ParlaError(.invalidToken) }
    }

    package func verifyEmail(token: String?) async throws {
        guard let token, !token.isEmpty else { throw ParlaError.validation([FieldError("token", .required)]) }
        guard try await accounts.verifyEmail(tokenHash: SessionToken.hash(token)) != nil else { throw ParlaError(.invalidToken) }
    }

    package func resendEmailVerification(_ caller: Caller) async throws {
        guard let account = try await accounts.account(caller.accountID) else { throw ParlaError(.authenticationRequired) }
        guard let address = account.email else { throw ParlaError(.signUpRequired) }
        guard account.emailVerifiedAt == nil else { throw ParlaError(.emailAlreadyVerified) }
        let challenge = mail.challenge(.emailVerification, firstName: account.firstName ?? "", email: address, language: account.uiLanguage)
        guard try await accounts.issue(challenge, to: caller.accountID, limit: AccountMail.hourlyLimit) else {
            throw ParlaError(.tooManyEmails)
        }
        mail.queued()
    }

    /// Erases the account, once its password is given; a guest has none to give.
    package func delete(_ caller: Caller, password: String?) async throws {
        guard let account = try await accounts.account(caller.accountID) else { throw ParlaError(.authenticationRequired) }
        if !account.isGuest {
            guard let password, !password.isEmpty else { throw ParlaError.validation([FieldError("password", .required)]) }
            try await checkPassword(password, of: caller.accountID)
        }
        leaderboards.removed(try await accounts.delete(caller.accountID))
    }

    /// What a guest may not do (teach, join a class): 403 `sign_up_required`.
    package func requireSignedUp(_ caller: Caller) async throws {
        guard let (account, _) = try await profiles.profile(caller.accountID) else { throw ParlaError(.authenticationRequired) }
        if account.isGuest { throw ParlaError(.signUpRequired) }
    }

    /// The account's password, asked again behind a session: wrong ones
    /// count as failed sign-ins of its email (429 past the limit), so a
    /// stolen session cannot guess it without end.
    package func checkPassword(_ password: String, of accountID: AccountID) async throws {
        let email = try await accounts.account(accountID)?.email
        if let email {
            let failures = try await accounts.recentFailures(email: email, within: Self.failureWindow)
            if failures.count >= Self.maximumFailures {
                throw ParlaError(.tooManyAttempts, retryAfter: max(1, failures.secondsUntilOldestExpires))
            }
        }
        // An account made by social sign-in has no password to give (a
        // reset sets one).
        guard let hash = try await accounts.passwordHash(accountID), try await hasher.verify(password, against: hash) else {
            if let email { try await accounts.recordFailure(email: email, window: Self.failureWindow) }
            throw ParlaError(.wrongCurrentPassword)
        }
    }

    package func sessions(_ caller: Caller) async throws -> [DeviceSession] {
        try await accounts.sessions(caller.accountID)
    }

    package func signOut(_ caller: Caller, session: SessionID? = nil) async throws {
        guard try await accounts.deleteSession(session ?? caller.sessionID, accountID: caller.accountID) else {
            throw ParlaError(.sessionNotFound)
        }
    }

    package init(
        accounts: AccountStore, profiles: AccountProfiles, learners: LearnerStore, hasher: PasswordHasher, termsVersion: String,
        leaderboards: LeaderboardService, mail: AccountMail, identities: [IdentityProvider: IdentityVerifier], limits: RateLimiter,
        twoFactor: TwoFactorService, logger: Logger
    ) {
        self.accounts = accounts
        self.profiles = profiles
        self.learners = learners
        self.hasher = hasher
        self.termsVersion = termsVersion
        self.leaderboards = leaderboards
        self.mail = mail
        self.identities = identities
        self.limits = limits
        self.twoFactor = twoFactor
        self.logger = logger
    }
}

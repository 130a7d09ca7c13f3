import Crypto
import Foundation
import ParlaCore
import ParlaIdentity
import ParlaStore

/// Two-factor sign-in (issue 32, item 13): any account may turn it on;
/// staff (support, admin) must, and their routes answer only sessions that
/// signed in with it. Codes are TOTP (`OneTimeCode`, RFC 6238) from the
/// authenticator app that scanned the `otpauth://` URI, or one of ten
/// recovery codes, each good once and kept as SHA-256 hashes.
package struct TwoFactorService: Sendable {
    package let store: TwoFactorStore
    package let accounts: AccountStore
    package let roles: StaffRoles

    package struct Enrolment: Sendable {
        package var secret: String
        package var uri: String
        package var recoveryCodes: [String]
    }

    package struct Status: Sendable {
        package var enabled: Bool
        /// Staff must have it.
        package var required: Bool
        package var recoveryCodesLeft: Int
    }

    package func status(_ caller: Caller) async throws -> Status {
        let factor = try await store.factor(of: caller.accountID)
        let enabled = factor?.confirmed ?? false
        return Status(
            enabled: enabled, required: !(try await roles.roles(of: caller.accountID)).isEmpty,
            recoveryCodesLeft: enabled ? try await store.recoveryCodesLeft(caller.accountID) : 0)
    }

    /// A new secret, its URI for the app and the recovery codes, shown
    /// once; on only once a first code confirms it. A guest has no account
    /// to protect.
    package func enrol(_ caller: Caller) async throws -> Enrolment {
        guard let account = try await accounts.account(caller.accountID), let email = account.email else {
            throw ParlaError(.signUpRequired)
        }
        let secret = OneTimeCode.newSecret()
        let codes = OneTimeCode.newRecoveryCodes()
        let hashes = codes.map { Self.hash($0, of: caller.accountID) }
        guard try await store.begin(caller.accountID, secret: secret, recoveryCodeHashes: hashes) else {
            throw ParlaError(.twoFactorAlreadyEnabled)
        }
        return Enrolment(
            secret: OneTimeCode.base32(secret), uri: OneTimeCode.uri(secret: secret, label: email), recoveryCodes: codes)
    }

    /// The first code from the app turns the factor on: this session has
    /// passed it, and every other session ends (signed in without it).
    package func confirm(_ caller: Caller, code: String?) async throws -> Status {
        guard let factor = try await store.factor(of: caller.accountID), !factor.confirmed else {
            throw ParlaError(.twoFactorNotEnabled)
        }
        try await throttled(caller.accountID) {
            guard let code, let step = OneTimeCode.matchingStep(code, secret: factor.secret, at: Date(), after: factor.lastStep) else {
                return false
            }
            return try await store.use(step: step, of: caller.accountID, session: caller.sessionID)
        }
        try await accounts.endOtherSessions(of: caller.accountID, keeping: caller.sessionID)
        return try await status(caller)
    }

    /// Turns it off, with a code (an app's or a recovery code).
    package func disable(_ caller: Caller, code: String?) async throws {
        guard let factor = try await store.factor(of: caller.accountID), factor.confirmed else { throw ParlaError(.twoFactorNotEnabled) }
        try await throttled(caller.accountID) { try await passes(code, factor, of: caller.accountID) }
        try await store.remove(caller.accountID)
    }

    /// At sign-in, once the first factor held: whether the account needs
    /// its second (401 `two_factor_required` without a code,
    /// `invalid_one_time_code` for a wrong one). True when one was passed,
    /// to mark the new session.
    package func check(_ account: AccountID, code: String?) async throws -> Bool {
        guard let factor = try await store.factor(of: account), factor.confirmed else { return false }
        guard let code, !code.isEmpty else { throw ParlaError(.twoFactorRequired) }
        try await throttled(account) { try await passes(code, factor, of: account) }
        return true
    }

    /// Guesses at codes count as failed sign-ins of the account's email
    /// (`AccountService.maximumFailures` within its window, then 429), on
    /// every path: a right password does not reset them, only a whole
    /// sign-in does. Throws `invalid_one_time_code` when `guess` fails.
    private func throttled(_ account: AccountID, _ guess: () async throws -> Bool) async throws {
        guard let email = try await accounts.account(account)?.email else { throw ParlaError(.invalidOneTimeCode) }
        let failures = try await accounts.recentFailures(email: email, within: AccountService.failureWindow)
        if failures.count >= AccountService.maximumFailures {
            throw ParlaError(.tooManyAttempts, retryAfter: max(1, failures.secondsUntilOldestExpires))
        }
        guard try await guess() else {
            try await accounts.recordFailure(email: email, window: AccountService.failureWindow)
            throw ParlaError(.invalidOneTimeCode)
        }
    }

    /// The new session of a sign-in that passed the second factor.
    package func passed(_ session: SessionID) async throws { try await store.passed(session) }

    /// Staff routes: the account has the factor, and this session signed in with it.
    package func requireForStaff(_ caller: Caller) async throws {
        guard try await store.factor(of: caller.accountID)?.confirmed == true else { throw ParlaError(.twoFactorSetupRequired) }
        guard try await store.hasPassed(caller.sessionID) else { throw ParlaError(.twoFactorSessionRequired) }
    }

    /// A TOTP code of a later step than the last used, or an unused recovery code.
    private func passes(_ code: String?, _ factor: TwoFactorStore.Factor, of account: AccountID) async throws -> Bool {
        guard let code else { return false }
        if let step = OneTimeCode.matchingStep(code, secret: factor.secret, at: Date(), after: factor.lastStep) {
            return try await store.use(step: step, of: account, session: nil)
        }
        guard let recovery = OneTimeCode.normalizedRecoveryCode(code) else { return false }
        return try await store.useRecoveryCode(hash: Self.hash(recovery, of: account), of: account, session: nil)
    }

    /// A recovery code's hash, salted with its account: one brute-force
    /// run over a stolen table cannot test every account's codes at once.
    package static func hash(_ recoveryCode: String, of account: AccountID) -> [UInt8] {
        Array(SHA256.hash(data: Data((account.description + ":" + recoveryCode).utf8)))
    }

    package init(store: TwoFactorStore, accounts: AccountStore, roles: StaffRoles) {
        self.store = store
        self.accounts = accounts
        self.roles = roles
    }
}

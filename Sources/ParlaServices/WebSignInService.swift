import Crypto
import Foundation
import Logging
import ParlaCore
import ParlaIdentity
import ParlaStore

/// Sign-in to the web dashboard with Apple or Google (issue 32, item 14):
/// OpenID Connect's authorization-code flow with PKCE, ending in the same
/// session a password opens. Only an account already linked to the
/// identity (by the app's own sign-in) gets in: the web makes no account.
///
/// Design note, what binds a callback to its start. `begin` gives the
/// browser a secret in a cookie and keeps the hashes of the state and of
/// that secret (`WebSignInStore`); the PKCE verifier and the nonce are
/// HMACs of the state under that secret, so nothing stored could redeem a
/// code, and a callback URL (code and state) copied into another browser
/// lacks the secret. Apple posts its callback from its own site: a
/// SameSite=Lax cookie would not come with it, so that provider's cookie
/// is SameSite=None (and so Secure); it is HttpOnly, scoped to the
/// callback paths, and worth nothing without the state. The state is taken
/// once, whatever the outcome, and lives ten minutes.
package struct WebSignInService: Sendable {
    package let clients: [IdentityProvider: AuthorizationCodeClient]
    package let store: WebSignInStore
    package let accounts: AccountService
    /// Where the provider sends the browser back: the public base URL
    /// (`mail.linkBase`) + `/teach/sign-in/<provider>/callback`.
    package let publicBase: String
    package let logger: Logger

    package static let attemptLifetime: TimeInterval = 600
    /// How long an account may take to type its second factor's code.
    package static let codeLifetime: TimeInterval = 600

    /// The providers the sign-in page offers, in a stable order.
    package var offered: [IdentityProvider] { IdentityProvider.allCases.filter { clients[$0] != nil } }

    package func redirectURI(_ provider: IdentityProvider) -> String {
        publicBase.trimmingSuffix("/") + "/teach/sign-in/\(provider.rawValue)/callback"
    }

    package func isFormPost(_ provider: IdentityProvider) -> Bool { clients[provider]?.settings.formPost ?? false }

    /// A new attempt: where to send the browser, and the secret its cookie
    /// keeps (the one it has already, when it has one).
    package func begin(_ provider: IdentityProvider, browser: String?) async throws(WebSignInProblem) -> (location: String, browser: String)
    {
        guard let client = clients[provider] else { throw .notOffered }
        do {
            try await accounts.limits.admit(.signIn)
        } catch let error as ParlaError {
            throw .refused(error)
        } catch {
            throw .providerUnavailable
        }
        let secret = browser.flatMap { $0.utf8.count == 43 ? $0 : nil } ?? SessionToken.generate().value
        let state = SessionToken.generate().value
        do {
            try await store.begin(
                stateHash: SessionToken.hash(state), browserHash: SessionToken.hash(secret), provider: provider.rawValue,
                lifetime: Self.attemptLifetime)
        } catch {
            logger.error("web sign-in not started", metadata: ["provider": "\(provider.rawValue)", "why": "\(error)"])
            throw .providerUnavailable
        }
        let location = AuthorizationCodeFlow.authorizationURL(
            client.settings, redirectURI: redirectURI(provider), state: state, nonce: Self.derived("nonce", state, secret),
            challenge: AuthorizationCodeFlow.challenge(for: Self.derived("pkce", state, secret)))
        return (location, secret)
    }

    /// What the provider's callback brings (query or form).
    package struct Callback: Decodable {
        package var state: String?
        package var code: String?
        package var error: String?

        package init(state: String? = nil, code: String? = nil, error: String? = nil) {
            self.state = state
            self.code = code
            self.error = error
        }
    }

    package enum Outcome {
        case signedIn(AccountService.SignedIn)
        /// The account has a second factor: the browser's token for the wait.
        case needsCode(String)
    }

    /// Finishes an attempt: the state must be this browser's and live; the
    /// code is exchanged, its id_token verified with the attempt's nonce,
    /// and the identity's account signed in (or asked for its code).
    package func finish(_ provider: IdentityProvider, _ callback: Callback, browser: String?) async throws(WebSignInProblem) -> Outcome {
        guard let client = clients[provider] else { throw .notOffered }
        guard let state = callback.state, !state.isEmpty, let browser, !browser.isEmpty,
            (try? await store.take(
                stateHash: SessionToken.hash(state), browserHash: SessionToken.hash(browser), provider: provider.rawValue)) == true
        else { throw .attemptUnknown }
        if let error = callback.error {
            // The provider's own word (the person said no, or its error):
            // logged as its short code, never with the rest of the query.
            logger.notice(
                "web sign-in refused by the provider", metadata: ["provider": "\(provider.rawValue)", "error": "\(error.prefix(40))"])
            throw error == "access_denied" ? .cancelled : .providerRefused
        }
        guard let code = callback.code, !code.isEmpty else { throw .providerRefused }
        let idToken: String
        do {
            idToken = try await client.exchange(
                code: code, redirectURI: redirectURI(provider), verifier: Self.derived("pkce", state, browser))
        } catch {
            logger.notice("web sign-in code not exchanged", metadata: ["provider": "\(provider.rawValue)", "why": "\(error)"])
            if case .refused = error { throw .providerRefused }
            throw .providerUnavailable
        }
        do {
            let (_, identity) = try await accounts.verified(
                idToken, from: provider.rawValue, nonce: Self.derived("nonce", state, browser), for: "web sign-in")
            guard let account = try await accounts.accounts.account(of: identity) else { throw WebSignInProblem.notLinked }
            do {
                _ = try await accounts.twoFactor.check(account, code: nil)
            } catch let error as ParlaError where error.code == .twoFactorRequired {
                let token = SessionToken.generate().value
                try await store.awaitCode(tokenHash: SessionToken.hash(token), account: account, lifetime: Self.codeLifetime)
                return .needsCode(token)
            }
            return .signedIn(try await accounts.openSession(account, deviceName: Self.deviceName))
        } catch let problem as WebSignInProblem {
            throw problem
        } catch let error as ParlaError {
            switch error.code {
            case .identityProviderUnavailable: throw .providerUnavailable
            case .identityProviderNotConfigured: throw .notOffered
            case .invalidIdToken: throw .providerRefused
            default: throw .refused(error)
            }
        } catch {
            logger.error("web sign-in failed", metadata: ["provider": "\(provider.rawValue)", "why": "\(error)"])
            throw .providerUnavailable
        }
    }

    /// The second factor after a provider's sign-in: the waiting account's
    /// code, guessed at most as often as at any other sign-in
    /// (`TwoFactorService.check` counts the failures); the session it opens
    /// has passed the second factor, as staff routes require.
    package func finish(waiting token: String?, code: String?) async throws -> AccountService.SignedIn {
        try await accounts.limits.admit(.signIn)
        guard let token, !token.isEmpty, let account = try await store.waiting(tokenHash: SessionToken.hash(token)) else {
            throw WebSignInProblem.attemptUnknown
        }
        let passed = try await accounts.twoFactor.check(account, code: code)
        guard try await store.endWait(tokenHash: SessionToken.hash(token)) else { throw WebSignInProblem.attemptUnknown }
        // A whole sign-in clears the failures, as the password's does.
        if let email = try await accounts.accounts.account(account)?.email { try await accounts.accounts.clearFailures(email: email) }
        return try await accounts.openSession(account, deviceName: Self.deviceName, secondFactor: passed)
    }

    package static let deviceName = "Web dashboard"

    /// A secret of the attempt (`pkce`: the code verifier, `nonce`), from
    /// its state and the browser's secret: 43 URL-safe characters, as PKCE
    /// asks of a verifier.
    package static func derived(_ purpose: String, _ state: String, _ browser: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(purpose):\(state)".utf8), using: SymmetricKey(data: Data(browser.utf8)))
        return Data(mac).base64URLEncoded
    }

    package init(
        clients: [IdentityProvider: AuthorizationCodeClient], store: WebSignInStore, accounts: AccountService, publicBase: String,
        logger: Logger
    ) {
        self.clients = clients
        self.store = store
        self.accounts = accounts
        self.publicBase = publicBase
        self.logger = logger
    }
}

/// Why a web sign-in with a provider did not open a session; the sign-in
/// page says each in the visitor's words (`Dashboard.signInProblem`).
package enum WebSignInProblem: Error {
    /// The provider is not set up for the web here.
    case notOffered
    /// The state is unknown, used, expired or another browser's.
    case attemptUnknown
    /// The person said no at the provider (`access_denied`).
    case cancelled
    /// The provider refused our code, verifier, client or token.
    case providerRefused
    /// The provider (or we) could not be reached.
    case providerUnavailable
    /// No account is linked to the identity: the web makes none.
    case notLinked
    /// A refusal of the API's own (too many attempts).
    case refused(ParlaError)
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

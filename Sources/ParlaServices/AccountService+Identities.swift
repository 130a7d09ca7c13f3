import Foundation
import Logging
import ParlaCore
import ParlaIdentity
import ParlaKept
import ParlaStore
import ServiceLifecycle

/// The ways into an account: its password and the identities linked to it
/// (Apple, Google, Facebook), each link proven afresh.
extension AccountService {
    /// The account's ways in: whether it has a password, and its linked
    /// identities. A guest has neither.
    package func waysIn(_ caller: Caller) async throws -> (hasPassword: Bool, identities: [LinkedIdentity]) {
        (try await accounts.passwordHash(caller.accountID) != nil, try await accounts.identities(of: caller.accountID))
    }

    /// Links another provider's identity (its fresh `id_token`) to the
    /// signed-in account, once the owner proved it is theirs as for an
    /// email change. Linking one already linked here changes nothing; one
    /// linked to another account is 409 `identity_linked_elsewhere`.
    package func linkIdentity(
        _ caller: Caller, provider: String, idToken: String, nonce: String, currentPassword: String?,
        reauthentication: AccountRules.Reauthentication?
    ) async throws -> LinkedIdentity {
        guard let account = try await accounts.account(caller.accountID) else { throw ParlaError(.authenticationRequired) }
        guard !account.isGuest else { throw ParlaError(.signUpRequired) }
        try await reauthenticate(caller.accountID, currentPassword: currentPassword, reauthentication: reauthentication)
        let identity = try await freshProof(idToken, from: provider, nonce: nonce, for: "linking")
        let (owner, linked) = try await accounts.link(identity, to: caller.accountID)
        guard owner == caller.accountID else { throw ParlaError(.identityLinkedElsewhere) }
        // A new way in: whoever else holds a session signs in again.
        try await accounts.endOtherSessions(of: caller.accountID, keeping: caller.sessionID)
        return linked
    }

    /// Unlinks one identity, with the owner's proof; never the last way
    /// in (409 `last_way_in`).
    package func unlinkIdentity(
        _ caller: Caller, id: UUID, currentPassword: String?, reauthentication: AccountRules.Reauthentication?
    ) async throws {
        try await reauthenticate(caller.accountID, currentPassword: currentPassword, reauthentication: reauthentication)
        switch try await accounts.unlink(id, from: caller.accountID, mayUnlink: AccountRules.mayUnlinkIdentity) {
        case .unlinked:
            // Sessions opened with the unlinked sign-in end with it.
            try await accounts.endOtherSessions(of: caller.accountID, keeping: caller.sessionID)
        case .notFound: throw ParlaError(.identityNotFound)
        case .lastWayIn: throw ParlaError(.lastWayIn)
        }
    }

    /// The person an id_token is about, checked by its provider's verifier:
    /// garbage is `invalid_id_token` whatever is configured; a provider not
    /// set up here `identity_provider_not_configured`; keys out of reach
    /// `identity_provider_unavailable`. One check for sign-in and proof alike.
    package func verified(_ idToken: String, from provider: String, nonce: String, for purpose: String) async throws
        -> (person: VerifiedIdentity, identity: ProviderIdentity)
    {
        guard SignedToken.hasCompactShape(idToken) else { throw ParlaError(.invalidIdToken) }
        guard let provider = IdentityProvider(rawValue: provider), let verifier = identities[provider] else {
            throw ParlaError(.identityProviderNotConfigured)
        }
        do {
            let person = try await verifier.verify(idToken, nonce: nonce)
            return (person, ProviderIdentity(provider: provider.rawValue, subject: person.subject))
        } catch {
            logger.notice("\(purpose) refused", metadata: ["provider": "\(provider.rawValue)", "why": "\(error)"])
            if case .unavailable = error { throw ParlaError(.identityProviderUnavailable) }
            throw ParlaError(.invalidIdToken)
        }
    }
}

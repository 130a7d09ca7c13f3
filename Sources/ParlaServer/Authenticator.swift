import Foundation
import ParlaCore
import ParlaStore

/// The account and device behind a request's bearer token.
struct Caller: Sendable {
    var accountID: AccountID
    var sessionID: SessionID
}

/// Resolves `Authorization: Bearer <token>` against the sessions table on
/// every request: there is no token cache, so a signed-out token fails at
/// once on every server instance.
struct Authenticator: Sendable {
    let accounts: AccountStore

    func caller() async throws -> Caller {
        guard let header = RequestScope.here.authorization,
              let token = Self.bearerToken(header),
              let session = try await accounts.session(tokenHash: SessionToken.hash(token))
        else { throw ParlaError(.authenticationRequired) }
        return Caller(accountID: session.accountID, sessionID: session.id)
    }

    /// The caller with their account and learners, in one query: the
    /// launch screen's request, and the busiest one.
    func callerProfile() async throws -> (Caller, Account, [Learner]) {
        guard let header = RequestScope.here.authorization,
              let token = Self.bearerToken(header),
              let (session, account, learners) = try await accounts.profile(tokenHash: SessionToken.hash(token))
        else { throw ParlaError(.authenticationRequired) }
        return (Caller(accountID: session.accountID, sessionID: session.id), account, learners)
    }

    /// `Bearer <token>`, the scheme case-insensitive (RFC 9110 §11.1).
    static func bearerToken(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return (1...256).contains(token.utf8.count) ? token : nil
    }
}

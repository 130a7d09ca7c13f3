import Foundation
import ParlaCore
import ParlaKept
import ParlaServices
import ParlaStore

/// Resolves `Authorization: Bearer <token>` against the sessions, kept in
/// this server's memory once seen (`SessionCache`): a token signed out here
/// fails at once, and on the other servers as soon as the sessions table's
/// notification reaches them (at that commit; while notifications may be
/// missed, nothing is kept and every request reads the table).
struct Authenticator: Sendable {
    let sessions: SessionCache
    let profiles: AccountProfiles

    func caller() async throws -> Caller {
        guard let header = RequestScope.here.authorization,
            let token = Self.bearerToken(header),
            let session = try await sessions.session(tokenHash: SessionToken.hash(token))
        else { throw ParlaError(.authenticationRequired) }
        return Caller(accountID: session.accountID, sessionID: session.id)
    }

    /// The caller with their account and learners, in one query: the
    /// launch screen's request, and the busiest one.
    func callerProfile() async throws -> (Caller, Account, [Learner]) {
        guard let header = RequestScope.here.authorization,
            let token = Self.bearerToken(header),
            let (session, account, learners) = try await profiles.profile(tokenHash: SessionToken.hash(token))
        else { throw ParlaError(.authenticationRequired) }
        return (Caller(accountID: session.accountID, sessionID: session.id), account, learners)
    }

    /// The caller of a sign-up or sign-in that claims a guest: nil without
    /// a token, with a person's (that sign-up is someone else's) or with
    /// one that signs nothing in any more (an app's stale token must not
    /// keep it from signing in).
    func guestCaller() async throws -> Caller? {
        guard let header = RequestScope.here.authorization, let token = Self.bearerToken(header),
            let (session, account, _) = try await profiles.profile(tokenHash: SessionToken.hash(token)), account.isGuest
        else { return nil }
        return Caller(accountID: session.accountID, sessionID: session.id)
    }

    /// `Bearer <token>`, the scheme case-insensitive (RFC 9110 §11.1).
    /// Read byte by byte: it runs on every request.
    static func bearerToken(_ header: String) -> String? {
        var utf8 = Substring(header).utf8.drop { $0 == UInt8(ascii: " ") }
        guard utf8.count > 7, utf8.prefix(6).elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }),
            utf8.dropFirst(6).first == UInt8(ascii: " ")
        else { return nil }
        utf8 = utf8.dropFirst(7).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        while let last = utf8.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { utf8 = utf8.dropLast() }
        return (1...256).contains(utf8.count) ? String(Substring(utf8)) : nil
    }
}

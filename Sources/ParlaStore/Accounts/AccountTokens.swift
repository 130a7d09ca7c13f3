import Foundation
import ParlaCore
import PostgresNIO

/// A token sent by email, with the email that carries it: written together
/// in the transaction of the change that sends them.
public struct EmailChallenge: Sendable {
    public enum Purpose: String, Sendable {
        case passwordReset = "password_reset"
        case emailVerification = "email_verification"
        /// Sent to the old address when the email changes: puts it back.
        case emailChangeUndo = "email_change_undo"

        /// How long its token may be used.
        public var lifetime: TimeInterval {
            switch self {
            case .passwordReset, .emailVerification: 3600
            case .emailChangeUndo: 7 * 86400
            }
        }
    }

    public var purpose: Purpose
    /// SHA-256 of the token; the token itself is only in the email.
    public var tokenHash: [UInt8]
    public var mail: OutgoingMail

    public init(purpose: Purpose, tokenHash: [UInt8], mail: OutgoingMail) {
        (self.purpose, self.tokenHash, self.mail) = (purpose, tokenHash, mail)
    }
}

extension AccountStore {
    /// Records the challenge's token for the account's current email (an
    /// undo keeps that email itself) and queues its email, on an open
    /// transaction's connection.
    func insert(_ challenge: EmailChallenge, accountID: AccountID, on connection: PostgresConnection) async throws {
        let keepsEmail = challenge.purpose == .emailChangeUndo
        try await connection.query(
            """
            INSERT INTO account_tokens (token_hash, account_id, purpose, email_index, expires_at, previous_email)
            SELECT \(ByteBuffer(bytes: challenge.tokenHash)), id, \(challenge.purpose.rawValue), email_index,
                   now() + make_interval(secs => \(challenge.purpose.lifetime)), CASE WHEN \(keepsEmail) THEN email END
            FROM accounts WHERE id = \(accountID.uuid)
            """, logger: database.logger)
        var mail = challenge.mail
        mail.accountID = accountID
        try await OutboxStore(database: database, cipher: cipher).enqueue(mail, on: connection)
    }

    /// Sends a challenge unless `limit` of its purpose went to the account
    /// within the last hour; false when it held back.
    public func issue(_ challenge: EmailChallenge, to accountID: AccountID, limit: Int) async throws -> Bool {
        try await database.withTransaction { connection in
            // One issuer at a time per account, so the count holds.
            let rows = try await connection.query(
                """
                SELECT (SELECT count(*) FROM account_tokens
                        WHERE account_id = a.id AND purpose = \(challenge.purpose.rawValue)
                          AND created_at > now() - interval '1 hour')::int
                FROM accounts a WHERE a.id = \(accountID.uuid) FOR UPDATE
                """, logger: database.logger
            ).collect()
            guard let sent = try rows.first?.decode(Int.self), sent < limit else { return false }
            try await insert(challenge, accountID: accountID, on: connection)
            return true
        }
    }

    /// The account and current email a live password-reset token is for.
    public func resetTarget(tokenHash: [UInt8]) async throws -> (AccountID, email: String)? {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT a.id, a.email FROM account_tokens t JOIN accounts a ON a.id = t.account_id
                WHERE t.token_hash = \(ByteBuffer(bytes: tokenHash)) AND t.purpose = 'password_reset'
                  AND t.used_at IS NULL AND t.expires_at > now()
                """, logger: database.logger
            ).collect()
            guard let row = rows.first else { return nil }
            let (id, email) = try row.decode((UUID, ByteBuffer).self)
            return (AccountID(id), try cipher.openText(email.bytes, as: .email))
        }
    }

    /// Uses a token once: the account and the email index it was sent for,
    /// nil when the token is unknown, used or expired.
    private func use(_ purpose: EmailChallenge.Purpose, tokenHash: [UInt8], on connection: PostgresConnection) async throws
        -> (AccountID, emailIndex: ByteBuffer)?
    {
        let rows = try await connection.query(
            """
            UPDATE account_tokens SET used_at = now()
            WHERE token_hash = \(ByteBuffer(bytes: tokenHash)) AND purpose = \(purpose.rawValue)
              AND used_at IS NULL AND expires_at > now()
            RETURNING account_id, email_index
            """, logger: database.logger
        ).collect()
        guard let row = rows.first else { return nil }
        let (id, index) = try row.decode((UUID, ByteBuffer).self)
        return (AccountID(id), index)
    }

    /// Sets a new password with a reset token: every session of the account
    /// ends, every other reset token with them, and the email counts as
    /// confirmed (the link reached it). An account whose email nobody had
    /// confirmed was made by someone who merely named the address (a
    /// provider that does not check emails, Facebook): the address's owner
    /// takes it, and the sign-ins linked to it go. Nil when the token is
    /// not live.
    public func resetPassword(tokenHash: [UInt8], passwordHash: String) async throws -> AccountID? {
        let account = try await database.withTransaction { connection -> AccountID? in
            guard let (account, emailIndex) = try await use(.passwordReset, tokenHash: tokenHash, on: connection) else { return nil }
            try await connection.query(
                """
                DELETE FROM account_identities i USING accounts a
                WHERE i.account_id = a.id AND a.id = \(account.uuid) AND a.email_index = \(emailIndex) AND a.email_verified_at IS NULL
                """, logger: database.logger)
            try await connection.query(
                """
                UPDATE accounts SET password_hash = \(passwordHash), updated_at = now(),
                    email_verified_at = CASE WHEN email_index = \(emailIndex) THEN COALESCE(email_verified_at, now())
                                             ELSE email_verified_at END
                WHERE id = \(account.uuid)
                """, logger: database.logger)
            try await connection.query("DELETE FROM sessions WHERE account_id = \(account.uuid)", logger: database.logger)
            try await connection.query(
                """
                UPDATE account_tokens SET used_at = now()
                WHERE account_id = \(account.uuid) AND purpose = 'password_reset' AND used_at IS NULL
                """, logger: database.logger)
            return account
        }
        return account
    }

    /// Puts back the email an undo token was sent to (the change was not
    /// the owner's): the address counts as confirmed (the link reached it),
    /// every session ends, and every live token of the account with them.
    /// Nil when the token is not live; `email_taken` if another account
    /// took the address meanwhile.
    public func undoEmailChange(tokenHash: [UInt8]) async throws -> AccountID? {
        let account: AccountID?
        do {
            account = try await database.withTransaction { connection -> AccountID? in
                let rows = try await connection.query(
                    """
                    UPDATE account_tokens SET used_at = now()
                    WHERE token_hash = \(ByteBuffer(bytes: tokenHash)) AND purpose = 'email_change_undo'
                      AND used_at IS NULL AND expires_at > now()
                    RETURNING account_id, email_index, previous_email
                    """, logger: database.logger
                ).collect()
                guard let row = rows.first else { return nil }
                let (id, index, email) = try row.decode((UUID, ByteBuffer, ByteBuffer).self)
                try await connection.query(
                    """
                    UPDATE accounts SET email = \(email), email_index = \(index), email_verified_at = now(), updated_at = now()
                    WHERE id = \(id)
                    """, logger: database.logger)
                try await connection.query("DELETE FROM sessions WHERE account_id = \(id)", logger: database.logger)
                try await connection.query(
                    "UPDATE account_tokens SET used_at = now() WHERE account_id = \(id) AND used_at IS NULL", logger: database.logger)
                return AccountID(id)
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw ParlaError(.emailTaken)
        }
        return account
    }

    /// Confirms the email a verification token was sent to, if it is still
    /// the account's. Nil when the token is not live or the email changed.
    public func verifyEmail(tokenHash: [UInt8]) async throws -> AccountID? {
        let account = try await database.withTransaction { connection -> AccountID? in
            guard let (account, emailIndex) = try await use(.emailVerification, tokenHash: tokenHash, on: connection) else { return nil }
            let rows = try await connection.query(
                """
                UPDATE accounts SET email_verified_at = COALESCE(email_verified_at, now())
                WHERE id = \(account.uuid) AND email_index = \(emailIndex) RETURNING id
                """, logger: database.logger
            ).collect()
            return rows.isEmpty ? nil : account
        }
        return account
    }
}

import Foundation
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// Accounts' second factor (migration 0044): the TOTP secret, sealed; the
/// last step a code was used for; the recovery codes, hashed; and which
/// sessions passed it. The codes themselves are checked by
/// `ParlaIdentity.OneTimeCode`; this holds what they are checked against.
public struct TwoFactorStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    public init(database: Database, cipher: PersonalDataCipher) { (self.database, self.cipher) = (database, cipher) }

    public struct Factor: Sendable, Equatable {
        public var secret: [UInt8]
        public var confirmed: Bool
        public var lastStep: Int64
    }

    /// The account's factor, confirmed or waiting for its first code.
    public func factor(of account: AccountID) async throws -> Factor? {
        try await database.withConnection { connection in
            guard
                let row = try await connection.query(
                    "SELECT secret, confirmed_at IS NOT NULL, last_step FROM two_factor WHERE account_id = \(account.uuid)",
                    logger: database.logger
                ).collect().first
            else { return nil }
            let (sealed, confirmed, step) = try row.decode((ByteBuffer, Bool, Int64).self)
            return Factor(secret: try cipher.open(Array(buffer: sealed), as: .twoFactorSecret), confirmed: confirmed, lastStep: step)
        }
    }

    /// A new secret and recovery codes waiting for a first code (they
    /// replace one still waiting); false when a confirmed one exists.
    public func begin(_ account: AccountID, secret: [UInt8], recoveryCodeHashes: [[UInt8]]) async throws -> Bool {
        let sealed = ByteBuffer(bytes: try cipher.seal(secret, as: .twoFactorSecret))
        return try await database.withTransaction { connection in
            let rows = try await connection.query(
                """
                INSERT INTO two_factor (account_id, secret) VALUES (\(account.uuid), \(sealed))
                ON CONFLICT (account_id) DO UPDATE SET secret = EXCLUDED.secret, last_step = 0, created_at = now()
                WHERE two_factor.confirmed_at IS NULL
                RETURNING account_id
                """, logger: database.logger
            ).collect()
            guard !rows.isEmpty else { return false }
            try await connection.query("DELETE FROM recovery_codes WHERE account_id = \(account.uuid)", logger: database.logger)
            for hash in recoveryCodeHashes {
                try await connection.query(
                    "INSERT INTO recovery_codes (account_id, code_hash) VALUES (\(account.uuid), \(ByteBuffer(bytes: hash)))",
                    logger: database.logger)
            }
            return true
        }
    }

    /// Takes the code of `step`: only a step later than the last one used
    /// counts (a code works once), and the first confirms the factor.
    /// `session`, if given, has passed the second factor. False when the
    /// step was used already.
    public func use(step: Int64, of account: AccountID, session: SessionID?) async throws -> Bool {
        try await database.withTransaction { connection in
            let rows = try await connection.query(
                """
                UPDATE two_factor SET last_step = \(step), confirmed_at = COALESCE(confirmed_at, now())
                WHERE account_id = \(account.uuid) AND last_step < \(step)
                RETURNING account_id
                """, logger: database.logger
            ).collect()
            guard !rows.isEmpty else { return false }
            if let session { try await passed(session, on: connection) }
            return true
        }
    }

    /// Spends a recovery code of a confirmed factor, once.
    public func useRecoveryCode(hash: [UInt8], of account: AccountID, session: SessionID?) async throws -> Bool {
        try await database.withTransaction { connection in
            let rows = try await connection.query(
                """
                UPDATE recovery_codes SET used_at = now()
                WHERE account_id = \(account.uuid) AND code_hash = \(ByteBuffer(bytes: hash)) AND used_at IS NULL
                  AND EXISTS (SELECT 1 FROM two_factor WHERE account_id = \(account.uuid) AND confirmed_at IS NOT NULL)
                RETURNING account_id
                """, logger: database.logger
            ).collect()
            guard !rows.isEmpty else { return false }
            if let session { try await passed(session, on: connection) }
            return true
        }
    }

    /// Marks a session as signed in with both factors.
    public func passed(_ session: SessionID) async throws {
        try await database.withConnection { try await passed(session, on: $0) }
    }

    private func passed(_ session: SessionID, on connection: PostgresConnection) async throws {
        try await connection.query("UPDATE sessions SET second_factor_at = now() WHERE id = \(session.uuid)", logger: database.logger)
    }

    /// Whether the session passed the second factor of its account.
    public func hasPassed(_ session: SessionID) async throws -> Bool {
        try await database.withConnection { connection in
            try await connection.query(
                "SELECT second_factor_at IS NOT NULL FROM sessions WHERE id = \(session.uuid) AND expires_at > now()",
                logger: database.logger
            ).collect().first?.decode(Bool.self) ?? false
        }
    }

    /// Recovery codes not used yet.
    public func recoveryCodesLeft(_ account: AccountID) async throws -> Int {
        try await database.withConnection { connection in
            try await connection.query(
                "SELECT count(*)::int FROM recovery_codes WHERE account_id = \(account.uuid) AND used_at IS NULL",
                logger: database.logger
            ).collect().first?.decode(Int.self) ?? 0
        }
    }

    /// Turns the second factor off (the owner proved it with a code).
    public func remove(_ account: AccountID) async throws {
        try await database.withTransaction { connection in
            try await connection.query("DELETE FROM two_factor WHERE account_id = \(account.uuid)", logger: database.logger)
            try await connection.query("DELETE FROM recovery_codes WHERE account_id = \(account.uuid)", logger: database.logger)
        }
    }
}

import Foundation
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// The web dashboard's sign-ins with a provider in flight (migration 0046):
/// attempts waiting for the provider's callback, and accounts waiting for
/// their second factor's code. Both hold only hashes, live minutes, are
/// taken once (`DELETE ... RETURNING`), and expired rows are swept by the
/// next attempt.
public struct WebSignInStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Keeps an attempt of the browser whose cookie hashes to `browserHash`;
    /// sweeps away the expired ones, attempts and codes alike.
    public func begin(stateHash: [UInt8], browserHash: [UInt8], provider: String, lifetime: TimeInterval) async throws {
        try await database.withTransaction { connection in
            try await connection.query("DELETE FROM web_sign_ins WHERE expires_at < now()", logger: database.logger)
            try await connection.query("DELETE FROM web_sign_in_codes WHERE expires_at < now()", logger: database.logger)
            try await connection.query(
                """
                INSERT INTO web_sign_ins (state_hash, browser_hash, provider, expires_at)
                VALUES (\(ByteBuffer(bytes: stateHash)), \(ByteBuffer(bytes: browserHash)), \(provider),
                        now() + make_interval(secs => \(lifetime)))
                """, logger: database.logger)
        }
    }

    /// Takes the live attempt of this state, provider and browser, once.
    /// Another browser's try leaves it for its own (a stolen callback URL
    /// cannot spend it); false when there is none.
    public func take(stateHash: [UInt8], browserHash: [UInt8], provider: String) async throws -> Bool {
        try await database.withConnection { connection in
            try await !connection.query(
                """
                DELETE FROM web_sign_ins
                WHERE state_hash = \(ByteBuffer(bytes: stateHash)) AND browser_hash = \(ByteBuffer(bytes: browserHash))
                  AND provider = \(provider) AND expires_at > now()
                RETURNING state_hash
                """, logger: database.logger
            ).collect().isEmpty
        }
    }

    /// The account, known by its provider, now waits for its code.
    public func awaitCode(tokenHash: [UInt8], account: AccountID, lifetime: TimeInterval) async throws {
        try await database.withConnection { connection in
            try await connection.query(
                """
                INSERT INTO web_sign_in_codes (token_hash, account_id, expires_at)
                VALUES (\(ByteBuffer(bytes: tokenHash)), \(account.uuid), now() + make_interval(secs => \(lifetime)))
                """, logger: database.logger)
        }
    }

    /// The account waiting for its code under this token, if still live.
    public func waiting(tokenHash: [UInt8]) async throws -> AccountID? {
        try await database.withConnection { connection in
            try await connection.query(
                "SELECT account_id FROM web_sign_in_codes WHERE token_hash = \(ByteBuffer(bytes: tokenHash)) AND expires_at > now()",
                logger: database.logger
            ).collect().first.map { AccountID(try $0.decode(UUID.self)) }
        }
    }

    /// Ends the wait once the code held; false when it had ended already.
    public func endWait(tokenHash: [UInt8]) async throws -> Bool {
        try await database.withConnection { connection in
            try await !connection.query(
                """
                DELETE FROM web_sign_in_codes WHERE token_hash = \(ByteBuffer(bytes: tokenHash)) AND expires_at > now()
                RETURNING account_id
                """, logger: database.logger
            ).collect().isEmpty
        }
    }
}

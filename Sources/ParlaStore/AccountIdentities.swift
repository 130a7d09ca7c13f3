import Foundation
import ParlaCore
import PostgresNIO

/// A person at an identity provider: the provider and its stable id for
/// them (`sub`). Stored only as a blind index.
public struct ProviderIdentity: Sendable, Equatable {
    public var provider: String
    public var subject: String

    public init(provider: String, subject: String) {
        (self.provider, self.subject) = (provider, subject)
    }
}

extension AccountStore {
    private func index(_ identity: ProviderIdentity) -> ByteBuffer {
        ByteBuffer(bytes: cipher.blindIndex("identity:\(identity.provider):\(identity.subject)"))
    }

    /// The account an identity signs in to, if it is linked to one.
    public func account(of identity: ProviderIdentity) async throws -> AccountID? {
        try await database.withConnection { connection in
            try await connection.query(
                """
                UPDATE account_identities SET last_used_at = now()
                WHERE identity_index = \(index(identity)) RETURNING account_id
                """, logger: database.logger
            ).collect().first.map { AccountID(try $0.decode(UUID.self)) }
        }
    }

    /// Links the identity to an existing account (its password given).
    public func link(_ identity: ProviderIdentity, to account: AccountID) async throws {
        try await database.withConnection { try await link(identity, to: account, on: $0) }
    }

    func link(_ identity: ProviderIdentity, to account: AccountID, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO account_identities (identity_index, provider, account_id)
            VALUES (\(index(identity)), \(identity.provider), \(account.uuid))
            ON CONFLICT (identity_index) DO NOTHING
            """, logger: database.logger)
    }
}

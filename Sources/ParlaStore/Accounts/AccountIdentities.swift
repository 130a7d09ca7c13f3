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

/// An identity linked to an account, as its owner sees it.
public struct LinkedIdentity: Sendable, Equatable {
    public var id: UUID
    public var provider: String
    public var linkedAt: Date
    public var lastUsedAt: Date
}

/// What unlinking an identity did.
public enum UnlinkOutcome: Sendable, Equatable {
    case unlinked
    /// No such identity on this account.
    case notFound
    /// It is the account's last way in.
    case lastWayIn
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

    /// Links the identity to an account; an identity already linked stays
    /// where it is. Answers the link as it now stands, with the account it
    /// belongs to (another one, when it was linked there before).
    @discardableResult
    public func link(_ identity: ProviderIdentity, to account: AccountID) async throws -> (owner: AccountID, link: LinkedIdentity) {
        try await database.withConnection { try await link(identity, to: account, on: $0) }
    }

    @discardableResult
    func link(_ identity: ProviderIdentity, to account: AccountID, on connection: PostgresConnection) async throws
        -> (owner: AccountID, link: LinkedIdentity)
    {
        // DO UPDATE (to what it was) rather than DO NOTHING, so that the
        // row comes back either way.
        let row = try await connection.query(
            """
            INSERT INTO account_identities (identity_index, provider, account_id)
            VALUES (\(index(identity)), \(identity.provider), \(account.uuid))
            ON CONFLICT (identity_index) DO UPDATE SET last_used_at = account_identities.last_used_at
            RETURNING account_id, id, provider, created_at, last_used_at
            """, logger: database.logger
        ).collect().first
        // ON CONFLICT DO UPDATE always returns the row.
        guard let row else { throw ParlaError(.internalError) }
        let (owner, id, provider, linked, used) = try row.decode((UUID, UUID, String, Date, Date).self)
        return (AccountID(owner), LinkedIdentity(id: id, provider: provider, linkedAt: linked, lastUsedAt: used))
    }

    /// Takes a provider's token as a proof once (by its hash, kept until
    /// it ends): false when it was taken before. Ended ones go as new ones
    /// come.
    public func spendProof(_ tokenHash: [UInt8], until expiry: Date) async throws -> Bool {
        try await database.withConnection { connection in
            try await connection.query("DELETE FROM spent_id_tokens WHERE expires_at < now()", logger: database.logger)
            return try await !connection.query(
                """
                INSERT INTO spent_id_tokens (token_hash, expires_at) VALUES (\(ByteBuffer(bytes: tokenHash)), \(expiry))
                ON CONFLICT (token_hash) DO NOTHING RETURNING 1
                """, logger: database.logger
            ).collect().isEmpty
        }
    }

    /// The account's linked identities, oldest first.
    public func identities(of account: AccountID) async throws -> [LinkedIdentity] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT id, provider, created_at, last_used_at FROM account_identities
                WHERE account_id = \(account.uuid) ORDER BY created_at, id
                """, logger: database.logger
            ).collect().map { row in
                let (id, provider, linked, used) = try row.decode((UUID, String, Date, Date).self)
                return LinkedIdentity(id: id, provider: provider, linkedAt: linked, lastUsedAt: used)
            }
        }
    }

    /// Unlinks one identity, unless `mayUnlink` (told whether the account
    /// has a password and how many identities it has) says it is the last
    /// way in. The account's row is locked so that two unlinks at once
    /// cannot each leave the other as the last.
    public func unlink(
        _ id: UUID, from account: AccountID, mayUnlink: @escaping @Sendable (_ hasPassword: Bool, _ identities: Int) -> Bool
    ) async throws -> UnlinkOutcome {
        try await database.withTransaction { connection in
            guard
                let hasPassword = try await connection.query(
                    "SELECT password_hash IS NOT NULL FROM accounts WHERE id = \(account.uuid) FOR UPDATE", logger: database.logger
                ).collect().first.map({ try $0.decode(Bool.self) })
            else { return .notFound }
            let linked = try await connection.query(
                "SELECT id FROM account_identities WHERE account_id = \(account.uuid)", logger: database.logger
            ).collect().map { try $0.decode(UUID.self) }
            guard linked.contains(id) else { return .notFound }
            guard mayUnlink(hasPassword, linked.count) else { return .lastWayIn }
            try await connection.query(
                "DELETE FROM account_identities WHERE id = \(id) AND account_id = \(account.uuid)", logger: database.logger)
            return .unlinked
        }
    }
}

import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// An email about to be sent: written to the outbox in the transaction of
/// the change that sends it, delivered later by `claim`'s caller.
public struct OutgoingMail: Sendable {
    /// What it is (`password_reset`): all an operator sees of it.
    public var kind: String
    public var accountID: AccountID?
    public var sender: String
    public var recipient: String
    /// The whole message, RFC 5322, as it goes after DATA.
    public var message: [UInt8]

    public init(kind: String, accountID: AccountID?, sender: String, recipient: String, message: [UInt8]) {
        (self.kind, self.accountID, self.sender, self.recipient, self.message) = (kind, accountID, sender, recipient, message)
    }
}

/// The outbox: every email Parla sends, until it is sent or given up.
///
/// Delivery leases rows rather than holding a transaction over the network:
/// `claim` pushes each due row's next attempt past the lease and counts the
/// attempt, under `FOR UPDATE SKIP LOCKED`, so any number of workers (on
/// any number of servers) take disjoint rows, and a worker that dies
/// mid-delivery leaves its rows to be claimed again when the lease ends.
/// Delivery is therefore at least once.
public struct OutboxStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    public init(database: Database, cipher: PersonalDataCipher) {
        self.database = database
        self.cipher = cipher
    }

    /// Queues `mail` on the connection of an open transaction: it is sent
    /// only if that transaction commits.
    func enqueue(_ mail: OutgoingMail, on connection: PostgresConnection) async throws {
        let recipient = ByteBuffer(bytes: try cipher.seal(mail.recipient, as: .mailRecipient))
        let message = ByteBuffer(bytes: try cipher.seal(mail.message, as: .mailMessage))
        try await connection.query(
            """
            INSERT INTO outbox (id, kind, account_id, sender, recipient, message)
            VALUES (\(UUID()), \(mail.kind), \(mail.accountID?.uuid), \(mail.sender), \(recipient), \(message))
            """, logger: database.logger)
    }

    /// A message due for delivery, claimed for one lease.
    public struct Claimed: Sendable {
        public var id: UUID
        public var kind: String
        public var sender: String
        public var recipient: String
        public var message: [UInt8]
        /// Attempts so far, this one included.
        public var attempt: Int
    }

    /// Up to `limit` due messages, oldest first, each leased for `lease`
    /// seconds and its attempt counted.
    public func claim(limit: Int, lease: TimeInterval) async throws -> [Claimed] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                UPDATE outbox SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => \(lease))
                WHERE id IN (SELECT id FROM outbox
                             WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now()
                             ORDER BY next_attempt_at LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                RETURNING id, kind, sender, recipient, message, attempts
                """, logger: database.logger
            ).collect().compactMap { row -> Claimed? in
                let (id, kind, sender, recipient, message, attempts) = try row.decode(
                    (UUID, String, String, ByteBuffer, ByteBuffer?, Int).self)
                guard let message else { return nil }
                return Claimed(
                    id: id, kind: kind, sender: sender, recipient: try cipher.openText(recipient.bytes, as: .mailRecipient),
                    message: try cipher.open(message.bytes, as: .mailMessage), attempt: attempts)
            }
        }
    }

    /// Sent: the message (and any token in it) is erased; the row stays a
    /// while as a record that it went.
    public func delivered(_ id: UUID) async throws {
        try await database.withConnection { connection in
            try await connection.query(
                "UPDATE outbox SET sent_at = now(), message = NULL, last_error = NULL WHERE id = \(id)", logger: database.logger)
        }
    }

    /// Not sent this time: tried again `delay` seconds from now.
    public func retry(_ id: UUID, after delay: TimeInterval, error: String) async throws {
        try await database.withConnection { connection in
            try await connection.query(
                """
                UPDATE outbox SET next_attempt_at = now() + make_interval(secs => \(delay)), last_error = \(error)
                WHERE id = \(id)
                """, logger: database.logger)
        }
    }

    /// Given up: never tried again; the message is erased.
    public func failed(_ id: UUID, error: String) async throws {
        try await database.withConnection { connection in
            try await connection.query(
                "UPDATE outbox SET failed_at = now(), message = NULL, last_error = \(error) WHERE id = \(id)", logger: database.logger)
        }
    }

    /// Forgets sent and failed messages older than `age` seconds.
    public func prune(olderThan age: TimeInterval) async throws {
        try await database.withConnection { connection in
            try await connection.query(
                "DELETE FROM outbox WHERE COALESCE(sent_at, failed_at) < now() - make_interval(secs => \(age))", logger: database.logger)
        }
    }
}

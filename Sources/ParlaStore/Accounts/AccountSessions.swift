import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// An account's device sessions, and the count of failed sign-ins that
/// throttles guessing.
extension AccountStore {
    public struct NewSession: Sendable {
        public var tokenHash: [UInt8]
        public var deviceName: String?
        public init(tokenHash: [UInt8], deviceName: String?) {
            self.tokenHash = tokenHash
            self.deviceName = deviceName
        }
    }

    public func createSession(_ new: NewSession, accountID: AccountID) async throws -> DeviceSession {
        try await database.withConnection { try await insertSession(new, accountID: accountID, on: $0) }
    }

    func insertSession(_ new: NewSession, accountID: AccountID, on connection: PostgresConnection) async throws -> DeviceSession {
        let id = SessionID.generate()
        let device = try new.deviceName.map { ByteBuffer(bytes: try cipher.seal($0, as: .deviceName)) }
        let lifetime = Int(min(DeviceSession.slidingLifetime, sessionMaxLifetime))
        let rows = try await connection.query(
            """
            INSERT INTO sessions (id, account_id, token_hash, device_name, expires_at)
            VALUES (\(id.uuid), \(accountID.uuid), \(ByteBuffer(bytes: new.tokenHash)), \(device),
                    now() + make_interval(secs => \(lifetime)))
            RETURNING created_at, last_used_at, expires_at
            """, logger: database.logger
        ).collect()
        let (created, used, expires) = try rows[0].decode((Date, Date, Date).self)
        return DeviceSession(
            id: id, accountID: accountID, deviceName: new.deviceName, createdAt: created, lastUsedAt: used, expiresAt: expires)
    }

    /// The live session a token hash belongs to. Using a session pushes its
    /// expiry 30 days ahead (`touch`), at most once a minute per session.
    public func session(tokenHash: [UInt8]) async throws -> DeviceSession? {
        try await database.withConnection { connection -> DeviceSession? in
            var found: DeviceSession?
            for try await (id, account, created, used, expires)
                in try await connection.execute(SessionByToken(key: ByteBuffer(bytes: tokenHash)), logger: database.logger)
            {
                found = DeviceSession(
                    id: SessionID(id), accountID: AccountID(account), deviceName: nil,
                    createdAt: created, lastUsedAt: used, expiresAt: expires)
            }
            guard let found else { return nil }
            return try await touch(found, on: connection)
        }
    }

    /// A session in use, its expiry slid (`touch(_:on:)`); nil if it expired.
    public func touch(_ session: DeviceSession) async throws -> DeviceSession? {
        guard session.lastUsedAt < Date().addingTimeInterval(-60) else { return session }
        return try await database.withConnection { connection in try await touch(session, on: connection) }
    }

    /// Slides a session's expiry 30 days past now, at most once a minute,
    /// never past its absolute end (`sessionMaxLifetime` after sign-in; a
    /// guest's session is its only way in, so it has none):
    /// the session as the database then has it, nil if it expired meanwhile
    /// (the database's clock decides).
    func touch(_ session: DeviceSession, on connection: PostgresConnection) async throws -> DeviceSession? {
        guard session.lastUsedAt < Date().addingTimeInterval(-60) else { return session }
        let lifetime = Int(DeviceSession.slidingLifetime)
        let rows = try await connection.query(
            """
            UPDATE sessions s SET last_used_at = now(),
                expires_at = CASE WHEN a.guest THEN now() + make_interval(secs => \(lifetime))
                                  ELSE least(now() + make_interval(secs => \(lifetime)),
                                             s.created_at + make_interval(secs => \(Int(sessionMaxLifetime)))) END
            FROM accounts a
            WHERE s.id = \(session.id.uuid) AND a.id = s.account_id AND s.expires_at > now()
              AND (a.guest OR s.created_at + make_interval(secs => \(Int(sessionMaxLifetime))) > now())
            RETURNING s.last_used_at, s.expires_at
            """, logger: database.logger
        ).collect()
        guard let row = rows.first else { return nil }
        var touched = session
        (touched.lastUsedAt, touched.expiresAt) = try row.decode((Date, Date).self)
        return touched
    }

    /// Prepared once per connection: it runs on every authenticated request.
    struct SessionByToken: KeyedStatement {
        static let sql = """
            SELECT id, account_id, created_at, last_used_at, expires_at FROM sessions
            WHERE token_hash = $1 AND expires_at > now()
            """
        typealias Row = (UUID, UUID, Date, Date, Date)
        var key: ByteBuffer
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    public func sessions(_ accountID: AccountID) async throws -> [DeviceSession] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT id, device_name, created_at, last_used_at, expires_at FROM sessions
                WHERE account_id = \(accountID.uuid) AND expires_at > now()
                ORDER BY last_used_at DESC, created_at DESC
                """, logger: database.logger
            ).collect().map { row in
                let (id, device, created, used, expires) = try row.decode((UUID, ByteBuffer?, Date, Date, Date).self)
                return DeviceSession(
                    id: SessionID(id), accountID: accountID,
                    deviceName: try device.map { try cipher.openText($0.bytes, as: .deviceName) },
                    createdAt: created, lastUsedAt: used, expiresAt: expires)
            }
        }
    }

    /// Ends one of the account's sessions; false when there is no such session.
    public func deleteSession(_ id: SessionID, accountID: AccountID) async throws -> Bool {
        try await database.withTransaction { connection in
            try await connection.query(
                "DELETE FROM sessions WHERE id = \(id.uuid) AND account_id = \(accountID.uuid) RETURNING id",
                logger: database.logger
            ).collect().count == 1
        }
    }

    // MARK: Throttling sign-ins

    /// Failed sign-ins for an email within the window, and how many seconds
    /// until the oldest of them leaves it (the database's clock decides).
    public func recentFailures(email: String, within window: TimeInterval) async throws -> (count: Int, secondsUntilOldestExpires: Int) {
        let index = ByteBuffer(bytes: cipher.blindIndex(EmailAddress.canonical(email)))
        return try await database.withConnection { connection in
            let row = try await connection.query(
                """
                SELECT count(*)::int,
                       COALESCE(ceil(extract(epoch FROM min(failed_at) + make_interval(secs => \(window)) - now())), 0)::int
                FROM login_failures
                WHERE email_index = \(index) AND failed_at > now() - make_interval(secs => \(window))
                """, logger: database.logger
            ).collect()[0]
            let (count, seconds) = try row.decode((Int, Int).self)
            return (count, seconds)
        }
    }

    public func recordFailure(email: String, window: TimeInterval) async throws {
        let index = ByteBuffer(bytes: cipher.blindIndex(EmailAddress.canonical(email)))
        try await database.withConnection { connection in
            _ = try await connection.query(
                """
                WITH pruned AS (DELETE FROM login_failures
                                WHERE email_index = \(index) AND failed_at <= now() - make_interval(secs => \(window)))
                INSERT INTO login_failures (email_index) VALUES (\(index))
                """, logger: database.logger
            ).collect()
        }
    }

    public func clearFailures(email: String) async throws {
        let index = ByteBuffer(bytes: cipher.blindIndex(EmailAddress.canonical(email)))
        try await database.withConnection { connection in
            try await connection.query("DELETE FROM login_failures WHERE email_index = \(index)", logger: database.logger)
        }
    }
}

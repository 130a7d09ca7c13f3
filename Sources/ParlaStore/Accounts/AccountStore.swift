import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// Accounts, their sessions (devices) and sign-in throttling.
public struct AccountStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    /// How long a session may last from its sign-in, however much it is used.
    let sessionMaxLifetime: TimeInterval

    public init(
        database: Database, cipher: PersonalDataCipher, sessionMaxLifetime: TimeInterval = DeviceSession.defaultAbsoluteLifetime
    ) {
        self.database = database
        self.cipher = cipher
        self.sessionMaxLifetime = sessionMaxLifetime
    }

    /// What sign-up writes, already validated and normalized.
    public struct NewAccount: Sendable {
        public var firstName: String, lastName: String, email: String
        /// Nil for an account made by social sign-in.
        public var passwordHash: String?
        public var uiLanguage: Language
        public var termsVersion: String
        /// The email is confirmed already (a provider vouched for it).
        public var emailVerified = false
        /// The provider identity it signs in with, if any.
        public var identity: ProviderIdentity?
        public init(firstName: String, lastName: String, email: String, passwordHash: String?, uiLanguage: Language, termsVersion: String) {
            (self.firstName, self.lastName, self.email, self.passwordHash) = (firstName, lastName, email, passwordHash)
            (self.uiLanguage, self.termsVersion) = (uiLanguage, termsVersion)
        }
    }

    /// Creates the account, its first learner and its first session in one
    /// transaction. Throws `email_taken` when the email is in use.
    /// `verification`, when given, is recorded and its email queued in the
    /// same transaction.
    public func create(
        _ new: NewAccount, firstLearner: LearnerStore.NewLearner, session: NewSession, verification: EmailChallenge? = nil
    ) async throws -> (Account, Learner, DeviceSession) {
        let accountID = AccountID.generate()
        let emailIndex = cipher.blindIndex(EmailAddress.canonical(new.email))
        let firstName = try cipher.seal(new.firstName, as: .firstName)
        let lastName = try cipher.seal(new.lastName, as: .lastName)
        let email = try cipher.seal(new.email, as: .email)
        let learners = LearnerStore(database: database, cipher: cipher)
        do {
            return try await database.withTransaction { connection in
                let rows = try await connection.query(
                    """
                    INSERT INTO accounts (id, first_name, last_name, email, email_index, password_hash, ui_language,
                                          terms_version, terms_accepted_at, email_verified_at)
                    VALUES (\(accountID.uuid), \(ByteBuffer(bytes: firstName)), \(ByteBuffer(bytes: lastName)),
                            \(ByteBuffer(bytes: email)), \(ByteBuffer(bytes: emailIndex)), \(new.passwordHash),
                            \(new.uiLanguage.code), \(new.termsVersion), now(), CASE WHEN \(new.emailVerified) THEN now() END)
                    RETURNING terms_accepted_at, created_at, email_verified_at
                    """, logger: database.logger
                ).collect()
                let (acceptedAt, createdAt, verifiedAt) = try rows[0].decode((Date, Date, Date?).self)
                let account = Account(
                    id: accountID, firstName: new.firstName, lastName: new.lastName, email: new.email,
                    uiLanguage: new.uiLanguage, termsVersion: new.termsVersion,
                    termsAcceptedAt: acceptedAt, createdAt: createdAt, emailVerifiedAt: verifiedAt)
                if let identity = new.identity { try await link(identity, to: accountID, on: connection) }
                let learner = try await learners.insert(firstLearner, accountID: accountID, on: connection)
                let deviceSession = try await insertSession(session, accountID: accountID, on: connection)
                if let verification { try await insert(verification, accountID: accountID, on: connection) }
                return (account, learner, deviceSession)
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw ParlaError(.emailTaken)
        }
    }

    /// The emails of `accounts`, in one query (a guest has none).
    public func emails(of accounts: Set<AccountID>) async throws -> [AccountID: String] {
        guard !accounts.isEmpty else { return [:] }
        return try await database.withConnection { connection in
            var emails: [AccountID: String] = [:]
            for row in try await connection.query(
                "SELECT id, email FROM accounts WHERE id = ANY(\(accounts.map(\.uuid))) AND email IS NOT NULL", logger: database.logger
            ).collect() {
                let (id, email) = try row.decode((UUID, ByteBuffer).self)
                emails[AccountID(id)] = try cipher.openText(email.bytes, as: .email)
            }
            return emails
        }
    }

    public func account(_ id: AccountID) async throws -> Account? {
        try await database.withConnection { connection in
            for try await (first, last, email, language, terms, acceptedAt, createdAt, verifiedAt, guest)
                in try await connection.execute(AccountByID(key: id.uuid), logger: database.logger)
            {
                return Account(
                    id: id, firstName: try first.map { try cipher.openText($0.bytes, as: .firstName) },
                    lastName: try last.map { try cipher.openText($0.bytes, as: .lastName) },
                    email: try email.map { try cipher.openText($0.bytes, as: .email) },
                    uiLanguage: Language(rawValue: language) ?? .english, termsVersion: terms,
                    termsAcceptedAt: acceptedAt, createdAt: createdAt, emailVerifiedAt: verifiedAt, isGuest: guest)
            }
            return nil
        }
    }

    /// The account with its learner profiles, in one round trip.
    public func profile(_ id: AccountID) async throws -> (Account, [Learner])? {
        try await database.withConnection { connection in
            var rows: [PostgresRandomAccessRow] = []
            for try await row in try await connection.execute(ProfileByID(key: id.uuid), logger: database.logger) {
                rows.append(row.makeRandomAccess())
            }
            return try profile(rows, accountID: id)
        }
    }

    /// A session's account with its learners, from the token, in one round
    /// trip (the session touched). Nil when the token is unknown or expired.
    public func profile(tokenHash: [UInt8]) async throws -> (DeviceSession, Account, [Learner])? {
        try await database.withConnection { connection -> (DeviceSession, Account, [Learner])? in
            var rows: [PostgresRandomAccessRow] = []
            for try await row in try await connection.execute(ProfileByToken(key: ByteBuffer(bytes: tokenHash)), logger: database.logger) {
                rows.append(row.makeRandomAccess())
            }
            guard let first = rows.first else { return nil }
            let column = Self.profileColumnCount
            let read = DeviceSession(
                id: SessionID(try first[column].decode(UUID.self)), accountID: AccountID(try first[column + 1].decode(UUID.self)),
                deviceName: nil, createdAt: try first[column + 2].decode(Date.self), lastUsedAt: try first[column + 3].decode(Date.self),
                expiresAt: try first[column + 4].decode(Date.self))
            guard let session = try await touch(read, on: connection) else { return nil }
            guard let (account, learners) = try profile(rows, accountID: session.accountID) else { return nil }
            return (session, account, learners)
        }
    }

    /// The columns of an account and its learners, as the profile queries
    /// select them (then `LearnerStore.columns`, joined by `coursesJoin`).
    static let profileColumns = """
        a.first_name, a.last_name, a.email, a.ui_language, a.terms_version, a.terms_accepted_at, a.created_at,
        a.email_verified_at, a.guest, \(LearnerStore.columns)
        """
    static let profileColumnCount = 9 + LearnerStore.columnCount

    private func profile(_ rows: [PostgresRandomAccessRow], accountID: AccountID) throws -> (Account, [Learner])? {
        guard let first = rows.first else { return nil }
        let account = Account(
            id: accountID, firstName: try first[0].decode(ByteBuffer?.self).map { try cipher.openText($0.bytes, as: .firstName) },
            lastName: try first[1].decode(ByteBuffer?.self).map { try cipher.openText($0.bytes, as: .lastName) },
            email: try first[2].decode(ByteBuffer?.self).map { try cipher.openText($0.bytes, as: .email) },
            uiLanguage: Language(rawValue: try first[3].decode(String.self)) ?? .english, termsVersion: try first[4].decode(String?.self),
            termsAcceptedAt: try first[5].decode(Date?.self), createdAt: try first[6].decode(Date.self),
            emailVerifiedAt: try first[7].decode(Date?.self), isGuest: try first[8].decode(Bool.self))
        let learners = try rows.compactMap { row -> Learner? in
            guard try row[9].decode(UUID?.self) != nil else { return nil }
            return try LearnerStore.learner(row, from: 9, accountID: accountID, cipher: cipher)
        }
        return (account, learners)
    }

    struct ProfileByID: KeyedStatement {
        static let sql = """
            SELECT \(AccountStore.profileColumns)
            FROM accounts a
            LEFT JOIN learners l ON l.account_id = a.id
            LEFT JOIN learner_pictures p ON p.learner_id = l.id
            \(LearnerStore.coursesJoin)
            WHERE a.id = $1
            ORDER BY l.created_at, l.id
            """
        typealias Row = PostgresRow
        var key: UUID
    }

    struct ProfileByToken: KeyedStatement {
        static let sql = """
            SELECT \(AccountStore.profileColumns), s.id, s.account_id, s.created_at, s.last_used_at, s.expires_at
            FROM sessions s
            JOIN accounts a ON a.id = s.account_id
            LEFT JOIN learners l ON l.account_id = a.id
            LEFT JOIN learner_pictures p ON p.learner_id = l.id
            \(LearnerStore.coursesJoin)
            WHERE s.token_hash = $1 AND s.expires_at > now()
            ORDER BY l.created_at, l.id
            """
        typealias Row = PostgresRow
        var key: ByteBuffer
    }

    /// Prepared once per connection: every authenticated request reads it.
    struct AccountByID: KeyedStatement {
        static let sql = """
            SELECT first_name, last_name, email, ui_language, terms_version, terms_accepted_at, created_at, email_verified_at, guest
            FROM accounts WHERE id = $1
            """
        typealias Row = (ByteBuffer?, ByteBuffer?, ByteBuffer?, String, String?, Date?, Date, Date?, Bool)
        var key: UUID
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// The account and password hash registered for an email, if any.
    /// The hash is nil for an account made by social sign-in.
    public func credentials(email: String) async throws -> (AccountID, passwordHash: String?)? {
        let index = ByteBuffer(bytes: cipher.blindIndex(EmailAddress.canonical(email)))
        return try await database.withConnection { connection in
            let rows = try await connection.query(
                "SELECT id, password_hash FROM accounts WHERE email_index = \(index)", logger: database.logger
            ).collect()
            guard let row = rows.first else { return nil }
            let (id, hash) = try row.decode((UUID, String?).self)
            return (AccountID(id), hash)
        }
    }

    public func passwordHash(_ id: AccountID) async throws -> String? {
        try await database.withConnection { connection in
            try await connection.query("SELECT password_hash FROM accounts WHERE id = \(id.uuid)", logger: database.logger)
                .collect().first?.decode(String?.self) ?? nil
        }
    }

    /// Changes to an account; nil leaves a field as it is.
    public struct Changes: Sendable {
        public var firstName: String?, lastName: String?, email: String?
        public var uiLanguage: Language?
        public var passwordHash: String?
        /// The terms version just accepted, recorded with the time.
        public var termsVersion: String?
        public init(
            firstName: String? = nil, lastName: String? = nil, email: String? = nil,
            uiLanguage: Language? = nil, passwordHash: String? = nil, termsVersion: String? = nil
        ) {
            (self.firstName, self.lastName, self.email) = (firstName, lastName, email)
            (self.uiLanguage, self.passwordHash, self.termsVersion) = (uiLanguage, passwordHash, termsVersion)
        }
    }

    /// Applies all the changes or none; `email_taken` if the new email is in use.
    /// A password or email change signs out every other device. An email
    /// change sends `undo` to the old address (taken before the change: its
    /// token keeps that address). A new email is
    /// unconfirmed until `verification`'s link is opened; that challenge is
    /// recorded and its email queued in the same transaction.
    public func update(
        _ id: AccountID, _ changes: Changes, keepingSession current: SessionID, verification: EmailChallenge? = nil,
        undo: EmailChallenge? = nil, emailChanged: Bool = false
    ) async throws {
        let endsOtherSessions = changes.passwordHash != nil || emailChanged
        let firstName = try changes.firstName.map { ByteBuffer(bytes: try cipher.seal($0, as: .firstName)) }
        let lastName = try changes.lastName.map { ByteBuffer(bytes: try cipher.seal($0, as: .lastName)) }
        let email = try changes.email.map { ByteBuffer(bytes: try cipher.seal($0, as: .email)) }
        let emailIndex = changes.email.map { ByteBuffer(bytes: cipher.blindIndex(EmailAddress.canonical($0))) }
        do {
            try await database.withTransaction { connection in
                if let undo { try await insert(undo, accountID: id, on: connection) }
                try await connection.query(
                    """
                    UPDATE accounts SET
                        first_name = COALESCE(\(firstName), first_name),
                        last_name = COALESCE(\(lastName), last_name),
                        email = COALESCE(\(email), email),
                        email_index = COALESCE(\(emailIndex), email_index),
                        ui_language = COALESCE(\(changes.uiLanguage?.code), ui_language),
                        password_hash = COALESCE(\(changes.passwordHash), password_hash),
                        terms_version = COALESCE(\(changes.termsVersion), terms_version),
                        terms_accepted_at = CASE WHEN \(changes.termsVersion)::text IS NOT NULL THEN now() ELSE terms_accepted_at END,
                        email_verified_at = CASE WHEN \(emailIndex)::bytea IS NOT NULL AND \(emailIndex) <> email_index THEN NULL
                                                 ELSE email_verified_at END,
                        updated_at = now()
                    WHERE id = \(id.uuid)
                    """, logger: database.logger)
                if let verification { try await insert(verification, accountID: id, on: connection) }
                if endsOtherSessions {
                    try await connection.query(
                        "DELETE FROM sessions WHERE account_id = \(id.uuid) AND id <> \(current.uuid)", logger: database.logger)
                }
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw ParlaError(.emailTaken)
        }
    }

    /// Signs out every session of the account but `current` (a second
    /// factor turned on: the others signed in without it).
    public func endOtherSessions(of id: AccountID, keeping current: SessionID) async throws {
        try await database.withTransaction { connection in
            try await connection.query(
                "DELETE FROM sessions WHERE account_id = \(id.uuid) AND id <> \(current.uuid)", logger: database.logger)
        }
    }

    /// Erases the account; its sessions, learners and everything under them
    /// go with it (ON DELETE CASCADE), and so does its throttling history.
    /// Returns its learners that were on leaderboards.
    public func delete(_ id: AccountID) async throws -> [LearnerID] {
        let ranked = try await database.withTransaction { connection in
            let ranked = try await LeaderboardStore.removeEntries(
                ofLearners: "SELECT id FROM learners WHERE account_id = \(id.uuid)",
                on: connection, logger: database.logger)
            _ = try await connection.query(
                """
                WITH gone AS (DELETE FROM accounts WHERE id = \(id.uuid) RETURNING email_index)
                DELETE FROM login_failures WHERE email_index IN (SELECT email_index FROM gone)
                """, logger: database.logger
            ).collect()
            return ranked
        }
        return ranked
    }
}

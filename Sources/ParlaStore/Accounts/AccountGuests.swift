import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// Guests (seed 001: start without an account): made for one device,
/// claimed as an account, merged into one, and erased once idle.
extension AccountStore {
    /// A guest account for one device, with its first learner and its
    /// session, in one transaction.
    public func createGuest(uiLanguage: Language, termsVersion: String, firstLearner: LearnerStore.NewLearner, session: NewSession)
        async throws -> (Account, Learner, DeviceSession)
    {
        let accountID = AccountID.generate()
        let learners = LearnerStore(database: database, cipher: cipher)
        return try await database.withTransaction { connection in
            let rows = try await connection.query(
                """
                INSERT INTO accounts (id, ui_language, guest, terms_version, terms_accepted_at)
                VALUES (\(accountID.uuid), \(uiLanguage.code), true, \(termsVersion), now())
                RETURNING terms_accepted_at, created_at
                """, logger: database.logger
            ).collect()
            let (acceptedAt, createdAt) = try rows[0].decode((Date, Date).self)
            let account = Account(
                id: accountID, firstName: nil, lastName: nil, email: nil, uiLanguage: uiLanguage, termsVersion: termsVersion,
                termsAcceptedAt: acceptedAt, createdAt: createdAt, isGuest: true)
            let learner = try await learners.insert(firstLearner, accountID: accountID, on: connection)
            return (account, learner, try await insertSession(session, accountID: accountID, on: connection))
        }
    }

    /// The guest becomes the person `new` describes, keeping its id and so
    /// every learner and all of their progress; its guest session ends and
    /// `session` opens. `email_taken` when the email is in use; nil when
    /// the account is no guest (any more).
    public func claim(_ guest: AccountID, as new: NewAccount, session: NewSession, verification: EmailChallenge? = nil) async throws
        -> (Account, DeviceSession)?
    {
        let emailIndex = ByteBuffer(bytes: cipher.blindIndex(EmailAddress.canonical(new.email)))
        let firstName = ByteBuffer(bytes: try cipher.seal(new.firstName, as: .firstName))
        let lastName = ByteBuffer(bytes: try cipher.seal(new.lastName, as: .lastName))
        let email = ByteBuffer(bytes: try cipher.seal(new.email, as: .email))
        let claimed: (Account, DeviceSession)?
        do {
            claimed = try await write(claim: guest, new, firstName, lastName, email, emailIndex, session, verification)
        } catch let error as PSQLError where error.isUniqueViolation {
            throw ParlaError(.emailTaken)
        }
        return claimed
    }

    private func write(
        claim guest: AccountID, _ new: NewAccount, _ firstName: ByteBuffer, _ lastName: ByteBuffer, _ email: ByteBuffer,
        _ emailIndex: ByteBuffer, _ session: NewSession, _ verification: EmailChallenge?
    ) async throws -> (Account, DeviceSession)? {
        try await database.withTransaction { connection -> (Account, DeviceSession)? in
            let rows = try await connection.query(
                """
                UPDATE accounts SET first_name = \(firstName), last_name = \(lastName), email = \(email), email_index = \(emailIndex),
                    password_hash = \(new.passwordHash), ui_language = \(new.uiLanguage.code), terms_version = \(new.termsVersion),
                    terms_accepted_at = now(), email_verified_at = CASE WHEN \(new.emailVerified) THEN now() END, guest = false,
                    updated_at = now()
                WHERE id = \(guest.uuid) AND guest
                RETURNING terms_accepted_at, created_at, email_verified_at
                """, logger: database.logger
            ).collect()
            guard let row = rows.first else { return nil }
            let (acceptedAt, createdAt, verifiedAt) = try row.decode((Date, Date, Date?).self)
            if let identity = new.identity { try await link(identity, to: guest, on: connection) }
            try await connection.query("DELETE FROM sessions WHERE account_id = \(guest.uuid)", logger: database.logger)
            let deviceSession = try await insertSession(session, accountID: guest, on: connection)
            if let verification { try await insert(verification, accountID: guest, on: connection) }
            let account = Account(
                id: guest, firstName: new.firstName, lastName: new.lastName, email: new.email, uiLanguage: new.uiLanguage,
                termsVersion: new.termsVersion, termsAcceptedAt: acceptedAt, createdAt: createdAt, emailVerifiedAt: verifiedAt)
            return (account, deviceSession)
        }
    }

    /// A guest signed in to an account it already had elsewhere: its
    /// learners (with all their progress), purchases, entitlements and bug
    /// reports move to `account`, and the guest is erased. Refused with
    /// `learner_limit_reached` when the learners would not fit
    /// (`LearnerProfileRules.maximumLearnersPerAccount`). Returns the learners moved.
    public func merge(_ guest: AccountID, into account: AccountID) async throws -> [LearnerID] {
        let moved = try await database.withTransaction { connection -> [LearnerID]? in
            // Both rows locked, in a fixed order, so that two merges never deadlock.
            let locked = try await connection.query(
                """
                SELECT id, guest FROM accounts WHERE id IN (\(guest.uuid), \(account.uuid)) ORDER BY id FOR UPDATE
                """, logger: database.logger
            ).collect().map { try $0.decode((UUID, Bool).self) }
            guard locked.contains(where: { $0.0 == guest.uuid && $0.1 }), locked.contains(where: { $0.0 == account.uuid }) else {
                return nil
            }
            let counts = try await connection.query(
                """
                SELECT count(*) FILTER (WHERE account_id = \(guest.uuid))::int, count(*) FILTER (WHERE account_id = \(account.uuid))::int
                FROM learners WHERE account_id IN (\(guest.uuid), \(account.uuid))
                """, logger: database.logger
            ).collect()
            let (theirs, ours) = try counts[0].decode((Int, Int).self)
            guard theirs + ours <= LearnerProfileRules.maximumLearnersPerAccount else { throw ParlaError(.learnerLimitReached) }
            let learners = try await connection.query(
                "UPDATE learners SET account_id = \(account.uuid), updated_at = now() WHERE account_id = \(guest.uuid) RETURNING id",
                logger: database.logger
            ).collect().map { LearnerID(try $0.decode(UUID.self)) }
            try await connection.query(
                "UPDATE purchases SET account_id = \(account.uuid) WHERE account_id = \(guest.uuid)", logger: database.logger)
            // What the account holds already (its one trial, a grant it has) stays; the guest's copy goes with it.
            try await connection.query(
                """
                UPDATE account_entitlements g SET account_id = \(account.uuid)
                WHERE g.account_id = \(guest.uuid)
                  AND NOT (g.source = 'trial' AND EXISTS (
                      SELECT 1 FROM account_entitlements a WHERE a.account_id = \(account.uuid) AND a.source = 'trial'))
                  AND NOT (g.source IN ('grant', 'legacy') AND g.revoked_at IS NULL AND EXISTS (
                      SELECT 1 FROM account_entitlements a WHERE a.account_id = \(account.uuid) AND a.product = g.product
                        AND a.source = g.source AND a.revoked_at IS NULL))
                """, logger: database.logger)
            try await connection.query(
                "UPDATE support_reports SET account_id = \(account.uuid) WHERE account_id = \(guest.uuid)", logger: database.logger)
            // Purchases the app tied to the guest's id stay the account's (migration 0037).
            try await connection.query(
                "UPDATE merged_accounts SET account_id = \(account.uuid) WHERE account_id = \(guest.uuid)", logger: database.logger)
            try await connection.query(
                "INSERT INTO merged_accounts (former_id, account_id) VALUES (\(guest.uuid), \(account.uuid))", logger: database.logger)
            try await connection.query("DELETE FROM accounts WHERE id = \(guest.uuid)", logger: database.logger)
            return learners
        }
        guard let moved else { throw ParlaError(.authenticationRequired) }
        return moved
    }

    /// Erases guests whose sessions were all last used before `cutoff`
    /// (and that are older than it), with their learners and all they
    /// hold, at most `batch` in one transaction (each sends notifications).
    /// A guest that bought something is kept: its purchase is not ours to
    /// erase. Returns the guests and their learners that were on leaderboards.
    public func eraseGuests(idleSince cutoff: Date, batch: Int = 50) async throws -> (guests: [AccountID], ranked: [LearnerID]) {
        let (guests, ranked) = try await database.withTransaction { connection -> ([AccountID], [LearnerID]) in
            let guests = try await connection.query(
                """
                SELECT a.id FROM accounts a
                WHERE a.guest AND a.created_at < \(cutoff)
                  AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.account_id = a.id AND s.last_used_at >= \(cutoff))
                  AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.account_id = a.id)
                ORDER BY a.created_at LIMIT \(batch)
                FOR UPDATE SKIP LOCKED
                """, logger: database.logger
            ).collect().map { AccountID(try $0.decode(UUID.self)) }
            guard !guests.isEmpty else { return ([], []) }
            let ids = guests.map(\.uuid)
            let ranked = try await LeaderboardStore.removeEntries(
                ofLearners: "SELECT id FROM learners WHERE account_id = ANY(\(ids))", on: connection, logger: database.logger)
            try await connection.query("DELETE FROM accounts WHERE id = ANY(\(ids))", logger: database.logger)
            return (guests, ranked)
        }
        return (guests, ranked)
    }
}

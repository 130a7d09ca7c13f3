import Foundation
import ParlaCommerce
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// What accounts own (migration 0021): store purchases with their signed
/// payloads, the entitlements they and support's grants give, the trial,
/// and the store notifications received. Which content that opens is the
/// catalogue's rule (`Catalogue.ownership`), not this store's.
public struct EntitlementStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    static let columns = "product, source, starts_at, ends_at, grace_ends_at, revoked_at, renews"

    static func decode(_ row: PostgresRow) throws -> Entitlement? {
        let (product, source, starts, ends, grace, revoked, renews) = try row.decode(
            (String, String, Date, Date?, Date?, Date?, Bool).self)
        guard let source = Entitlement.Source(rawValue: source) else { return nil }
        return Entitlement(
            product: product, source: source, starts: starts, ends: ends, graceEnds: grace, revoked: revoked, renews: renews)
    }

    /// Every entitlement the account ever had, lapsed and revoked ones too
    /// (the rule needs them: a trial counts once used).
    public func entitlements(of account: AccountID) async throws -> [Entitlement] {
        try await database.withConnection { connection in
            try await connection.query(
                "SELECT \(unescaped: Self.columns) FROM account_entitlements WHERE account_id = \(account.uuid) ORDER BY created_at, id",
                logger: database.logger
            ).collect().compactMap(Self.decode)
        }
    }

    /// Gives an account a product, for good or `until`: support's grant, or
    /// an old app's buyer's claim (`.legacy`). False when it holds that
    /// grant already.
    @discardableResult
    public func grant(
        _ product: String, to account: AccountID, source: Entitlement.Source = .grant, until ends: Date? = nil,
        note: String? = nil
    ) async throws -> Bool {
        precondition(source == .grant || source == .legacy)
        let inserted = try await database.withTransaction { connection in
            try await connection.query(
                """
                INSERT INTO account_entitlements (account_id, product, source, ends_at, note)
                VALUES (\(account.uuid), \(product), \(source.rawValue), \(ends), \(note))
                ON CONFLICT (account_id, product, source) WHERE source IN ('grant', 'legacy') AND revoked_at IS NULL DO NOTHING
                RETURNING 1
                """, logger: database.logger
            ).collect()
        }
        return !inserted.isEmpty
    }

    /// Ends support's grants of `product` now; how many there were.
    @discardableResult
    public func revokeGrant(_ product: String, from account: AccountID) async throws -> Int {
        let rows = try await database.withTransaction { connection in
            try await connection.query(
                """
                UPDATE account_entitlements SET revoked_at = now()
                WHERE account_id = \(account.uuid) AND product = \(product) AND source = 'grant' AND revoked_at IS NULL
                RETURNING 1
                """, logger: database.logger
            ).collect()
        }
        return rows.count
    }

    /// Starts the account's one trial, for `days` from now.
    public func startTrial(for account: AccountID, days: Int) async throws -> Entitlement {
        let rows = try await database.withTransaction { connection in
            try await connection.query(
                """
                INSERT INTO account_entitlements (account_id, product, source, ends_at)
                VALUES (\(account.uuid), 'trial', 'trial', now() + \(days) * interval '1 day')
                ON CONFLICT (account_id) WHERE source = 'trial' DO NOTHING
                RETURNING \(unescaped: Self.columns)
                """, logger: database.logger
            ).collect()
        }
        guard let row = rows.first, let trial = try Self.decode(row) else { throw ParlaError(.trialAlreadyUsed) }
        return trial
    }

    /// Records a verified store transaction and brings its chain's
    /// entitlement up to date (a purchase, a renewal, a grace, an expiry, a
    /// refund), in one transaction; the account it belongs to.
    ///
    /// `account`: the caller, when an app sends the transaction; nil for a
    /// store's notification, which goes to the chain's owner (or the account
    /// the app tied the purchase to). A transaction or chain that belongs to
    /// another account is `purchase_foreign`; a notification for a chain
    /// nobody has sent yet is kept for audit only (nil).
    @discardableResult
    /// Whether an app's account token for a purchase (a UUID) names
    /// `account`: its id, or a guest's merged into it.
    public func names(_ token: UUID, _ account: AccountID) async throws -> Bool {
        if token == account.uuid { return true }
        return try await database.withConnection { connection in
            try await connection.query(
                "SELECT 1 FROM merged_accounts WHERE former_id = \(token) AND account_id = \(account.uuid)", logger: database.logger
            ).collect().count == 1
        }
    }

    public func record(_ transaction: StoreTransaction, for account: AccountID?) async throws -> AccountID? {
        let owner: AccountID? = try await database.withTransaction { connection in
            let logger = database.logger
            // Concurrent sends of one chain wait for each other here.
            _ = try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(transaction.storeKey)))", logger: logger).collect()
            let holders = try await connection.query(
                """
                SELECT account_id FROM account_entitlements WHERE store_key = \(transaction.storeKey)
                UNION ALL
                SELECT account_id FROM purchases WHERE store = \(transaction.store.rawValue) AND transaction_id = \(transaction.transactionID)
                """, logger: logger
            ).collect().map { AccountID(try $0.decode(UUID.self)) }
            var owner = holders.first ?? account
            if owner == nil, let token = transaction.accountToken {
                let known = try await connection.query("SELECT 1 FROM accounts WHERE id = \(token)", logger: logger).collect()
                if !known.isEmpty { owner = AccountID(token) }
            }
            guard let owner else { return nil }
            if let account, holders.contains(where: { $0 != account }) || owner != account {
                throw ParlaError(.purchaseForeign)
            }
            try await connection.query(
                """
                INSERT INTO purchases (account_id, store, transaction_id, original_transaction_id, product, store_product,
                                       environment, purchased_at, expires_at, revoked_at, payload)
                VALUES (\(owner.uuid), \(transaction.store.rawValue), \(transaction.transactionID), \(transaction.originalTransactionID),
                        \(transaction.product), \(transaction.storeProduct), \(transaction.environment), \(transaction.purchased),
                        \(transaction.expires), \(transaction.revoked), \(transaction.payload))
                ON CONFLICT (store, transaction_id) DO UPDATE
                SET expires_at = EXCLUDED.expires_at, revoked_at = coalesce(purchases.revoked_at, EXCLUDED.revoked_at)
                """, logger: logger)
            // The chain's entitlement: renewals move its end later (a late
            // notification never moves it back); a refund ends it for good.
            try await connection.query(
                """
                INSERT INTO account_entitlements (account_id, product, source, store_key, starts_at, ends_at, grace_ends_at,
                                                  revoked_at, renews)
                VALUES (\(owner.uuid), \(transaction.product), 'purchase', \(transaction.storeKey), \(transaction.purchased),
                        \(transaction.expires), \(transaction.graceEnds), \(transaction.revoked), \(transaction.renews))
                ON CONFLICT (store_key) DO UPDATE
                SET product = EXCLUDED.product,
                    starts_at = least(account_entitlements.starts_at, EXCLUDED.starts_at),
                    ends_at = CASE WHEN account_entitlements.ends_at IS NULL OR EXCLUDED.ends_at IS NULL THEN EXCLUDED.ends_at
                                   ELSE greatest(account_entitlements.ends_at, EXCLUDED.ends_at) END,
                    grace_ends_at = EXCLUDED.grace_ends_at,
                    revoked_at = coalesce(account_entitlements.revoked_at, EXCLUDED.revoked_at),
                    renews = EXCLUDED.renews
                """, logger: logger)
            return owner
        }
        return owner
    }

    /// Ends a store chain's entitlement now (a voided purchase, a revoked
    /// subscription); its account, if anyone holds it.
    @discardableResult
    public func revoke(storeKey: String, at date: Date) async throws -> AccountID? {
        let rows = try await database.withTransaction { connection in
            try await connection.query(
                """
                UPDATE account_entitlements SET revoked_at = coalesce(revoked_at, \(date))
                WHERE store_key = \(storeKey) RETURNING account_id
                """, logger: database.logger
            ).collect()
        }
        let account = try rows.first.map { AccountID(try $0.decode(UUID.self)) }
        return account
    }

    /// Keeps a store notification; false when it was received before (the
    /// stores send again until answered).
    public func receivedNotification(store: Store, id: String, kind: String, payload: String) async throws -> Bool {
        try await database.withConnection { connection in
            !(try await connection.query(
                """
                INSERT INTO store_notifications (store, notification_id, kind, payload)
                VALUES (\(store.rawValue), \(id), \(kind), \(payload))
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: database.logger
            ).collect().isEmpty)
        }
    }

    /// One line of an account's purchase history.
    public struct PurchaseRecord: Sendable {
        public var store: String, transactionID: String, originalTransactionID: String, product: String
        public var environment: String
        public var purchased: Date, expires: Date?, revoked: Date?, received: Date
    }

    /// Every transaction the account sent or the stores told of, oldest first.
    public func purchases(of account: AccountID) async throws -> [PurchaseRecord] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT store, transaction_id, original_transaction_id, product, environment, purchased_at, expires_at,
                       revoked_at, received_at
                FROM purchases WHERE account_id = \(account.uuid) ORDER BY received_at, purchased_at
                """, logger: database.logger
            ).collect().map { row in
                let (store, id, original, product, environment, purchased, expires, revoked, received) = try row.decode(
                    (String, String, String, String, String, Date, Date?, Date?, Date).self)
                return PurchaseRecord(
                    store: store, transactionID: id, originalTransactionID: original, product: product, environment: environment,
                    purchased: purchased, expires: expires, revoked: revoked, received: received)
            }
        }
    }

    /// Day counts for a learner's plan limits: lessons, games and scored
    /// recordings started since midnight UTC.
    public func usedToday(by learner: AuthorizedLearner, _ feature: Feature) async throws -> Int {
        let table =
            switch feature {
            case .lessonsPerDay: "lessons WHERE started_at"
            case .gamesPerDay: "games WHERE started_at"
            case .speechAttemptsPerDay: "speech_attempts WHERE created_at"
            case .allWordLists, .allCoursePacks: preconditionFailure("\(feature) is not counted")
            }
        return try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT count(*)::int FROM \(unescaped: table) >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
                AND learner_id = \(learner.uuid)
                """, logger: database.logger
            ).collect().first?.decode(Int.self) ?? 0
        }
    }
}

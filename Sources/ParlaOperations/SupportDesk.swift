import Foundation
import Logging
import ParlaCommerce
import ParlaCore
import ParlaDatabase
import ParlaServer
import ParlaServices
import ParlaStore

/// Support's tools (`parla grant`, `parla purchases show`): an account named
/// by its id, by one of its learners' ids, or by its email.
public struct SupportDesk: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    /// Runs `body` with the configured database, migrated.
    public static func with<Result: Sendable>(
        _ settings: ServerSettings, logger: Logger, _ body: @Sendable (SupportDesk) async throws -> Result
    ) async throws -> Result {
        try await withDatabase(settings, logger: logger) { database, cipher in
            _ = try await database.migrate()
            return try await body(SupportDesk(database: database, cipher: cipher))
        }
    }

    public func account(_ reference: String) async throws -> AccountID {
        if let id = AccountID(reference), try await AccountStore(database: database, cipher: cipher).account(id) != nil { return id }
        if let learner = LearnerID(reference), let owner = try await LearnerStore(database: database, cipher: cipher).account(of: learner) {
            return owner
        }
        if reference.contains("@"),
            let (account, _) = try await AccountStore(database: database, cipher: cipher).credentials(email: reference)
        {
            return account
        }
        throw SupportError(description: "no account, learner or email \(reference)")
    }

    /// Gives (or with `revoke`, takes back) a product, recorded with source `grant`.
    public func grant(_ product: String, to reference: String, until: Date?, note: String?, revoke: Bool) async throws -> String {
        let catalogue = try await catalogue()
        guard catalogue.product(product) != nil else { throw SupportError(description: "Corpora/products.yaml has no product \(product)") }
        let account = try await account(reference)
        let store = EntitlementStore(database: database)
        if revoke {
            let count = try await store.revokeGrant(product, from: account)
            return "revoked \(count) grant(s) of \(product) from account \(account)"
        }
        let granted = try await store.grant(product, to: account, until: until, note: note)
        return granted ? "granted \(product) to account \(account)" : "account \(account) holds a grant of \(product) already"
    }

    /// Gives (or with `revoke`, takes back) a staff role.
    public func role(_ role: StaffRole, for reference: String, revoke: Bool) async throws -> String {
        let account = try await account(reference)
        let roles = StaffRoles(database: database)
        if revoke {
            return try await roles.revoke(role, from: account)
                ? "took the \(role.rawValue) role back from account \(account)" : "account \(account) has no \(role.rawValue) role"
        }
        return try await roles.grant(role, to: account)
            ? "gave account \(account) the \(role.rawValue) role" : "account \(account) has the \(role.rawValue) role already"
    }

    /// The account's entitlements and purchase history, as text.
    public func purchases(of reference: String) async throws -> String {
        let account = try await account(reference)
        let store = EntitlementStore(database: database)
        let now = Date()
        let entitlements = try await store.entitlements(of: account)
        let ownership = try await catalogue().ownership(of: entitlements, at: now)
        var lines = ["account \(account): plan \(ownership.plan.id.rawValue), lists \(ownership.lists.sorted().joined(separator: " "))"]
        lines.append("entitlements:")
        for entitlement in entitlements {
            lines.append(
                "  \(entitlement.product)  \(entitlement.source.rawValue)  \(entitlement.status(at: now).rawValue)  from \(entitlement.starts)"
                    + (entitlement.ends.map { "  until \($0)" } ?? "") + (entitlement.revoked.map { "  revoked \($0)" } ?? ""))
        }
        lines.append("purchases:")
        for purchase in try await store.purchases(of: account) {
            lines.append(
                "  \(purchase.received)  \(purchase.store)  \(purchase.transactionID) (chain \(purchase.originalTransactionID))  \(purchase.product)  \(purchase.environment)"
                    + (purchase.expires.map { "  expires \($0)" } ?? "") + (purchase.revoked.map { "  revoked \($0)" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    private func catalogue() async throws -> Catalogue {
        let catalog = ContentCatalog()
        try await catalog.reload(from: ContentStore(database: database))
        guard let snapshot = catalog.snapshot else { throw ParlaError(.contentUnavailable) }
        return snapshot.catalogue
    }
}

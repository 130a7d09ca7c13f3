import Foundation
import ParlaCommerce
import ParlaCore
import ParlaKept
import ParlaStore

/// What an account may use now, asked by content, lessons and games: the
/// catalogue's rule (`Catalogue.ownership`) over the account's
/// entitlements, with the plan's daily limits; the plan (T6.1) and its
/// changes (T6.2: the trial; purchases go through `PurchaseService`).
package struct EntitlementService: Sendable {
    package let catalog: ContentCatalog
    /// The accounts' entitlements as kept in memory, read through to their store.
    package let kept: AccountEntitlements
    package var store: EntitlementStore { kept.store }

    package func catalogue() throws -> Catalogue {
        guard let snapshot = catalog.snapshot else { throw ParlaError(.contentUnavailable) }
        return snapshot.catalogue
    }

    package func ownership(of account: AccountID, at now: Date = Date()) async throws -> Ownership {
        try catalogue().ownership(of: try await kept.entitlements(of: account), at: now)
    }

    /// The learner's account's, or what anyone may use when no learner is named.
    package func ownership(for learner: AuthorizedLearner?) async throws -> Ownership {
        guard let learner else { return try catalogue().ownership(of: [], at: Date()) }
        return try await ownership(of: learner.account)
    }

    /// `plan_limit_reached` (402) when the learner's plan allows no more of
    /// `feature` today; counting costs a query only under a limit.
    /// `ownership`: the learner's, when the caller has it already.
    package func checkDailyLimit(_ feature: Feature, for learner: AuthorizedLearner, under ownership: Ownership? = nil) async throws {
        let ownership = if let ownership { ownership } else { try await self.ownership(for: learner) }
        guard let limit = ownership.plan.limit(feature) else { return }
        if try await store.usedToday(by: learner, feature) >= limit { throw ParlaError(.planLimitReached) }
    }

    /// The account's plan and how it may change.
    package struct PlanView: Sendable {
        package var ownership: Ownership
        package var status: Entitlement.Status
        package var trialAvailable: Bool
        package var products: [Offer]
        package var entitlements: [Entitlement]
    }

    /// What the account may use now, and the entitlements in force that give it.
    package func holdings(of account: AccountID, at now: Date = Date()) async throws -> (ownership: Ownership, held: [Entitlement]) {
        let all = try await kept.entitlements(of: account)
        return (try catalogue().ownership(of: all, at: now), all.filter { $0.isActive(at: now) })
    }

    /// What the account can buy now (the shop).
    package func offers(for account: AccountID, currency: String, appVersion: AppVersion?, store: Store?) async throws -> [Offer] {
        let now = Date()
        return try catalogue().offers(
            for: try await ownership(of: account, at: now), currency: currency, appVersion: appVersion, store: store, at: now)
    }

    package func plan(of account: AccountID, currency: String, store: Store?) async throws -> PlanView {
        let now = Date()
        let (ownership, held) = try await holdings(of: account, at: now)
        let changes = try catalogue().planChanges(for: ownership, currency: currency, store: store, at: now)
        return PlanView(
            ownership: ownership, status: ownership.planEntitlement?.status(at: now) ?? .active,
            trialAvailable: changes.trial, products: changes.products, entitlements: held)
    }

    /// Starts the account's one trial (T6.2), for the days the catalogue gives it.
    package func startTrial(for account: AccountID, currency: String, store: Store?) async throws -> PlanView {
        let catalogue = try catalogue()
        guard let days = catalogue.plans[.trial]?.days else { throw ParlaError(.productNotFound) }
        let ownership = try await ownership(of: account)
        // A better plan in force: the trial would give nothing, and be spent.
        guard ownership.plan.id < .trial else { throw ParlaError(ownership.trialUsed ? .trialAlreadyUsed : .trialNotAvailable) }
        _ = try await self.store.startTrial(for: account, days: days)
        return try await plan(of: account, currency: currency, store: store)
    }

    package init(catalog: ContentCatalog, kept: AccountEntitlements) {
        self.catalog = catalog
        self.kept = kept
    }
}

import Foundation
import OpenAPIRuntime
import ParlaAPI
import ParlaCommerce
import ParlaCore
import ParlaServices

/// The plan (T6.1), the trial (T6.2), the shop and purchases.
extension APIHandler {
    func getPlan(_ input: Operations.GetPlan.Input) async throws -> Operations.GetPlan.Output {
        let caller = try await caller()
        let (currency, store) = try shopQuery(input.query.currency, input.query.store?.rawValue)
        let view = try await plans.plan(of: caller.accountID, currency: currency, store: store)
        return .ok(.init(body: .json(try planInfo(view))))
    }

    func startTrial(_ input: Operations.StartTrial.Input) async throws -> Operations.StartTrial.Output {
        let caller = try await caller()
        let (currency, store) = try shopQuery(input.query.currency, input.query.store?.rawValue)
        let view = try await plans.startTrial(for: caller.accountID, currency: currency, store: store)
        return .created(.init(body: .json(try planInfo(view))))
    }

    func getCatalogue(_ input: Operations.GetCatalogue.Input) async throws -> Operations.GetCatalogue.Output {
        let caller = try await caller()
        let (currency, store) = try shopQuery(input.query.currency, input.query.store?.rawValue)
        let names =
            try input.query.language.map { code in
                guard let language = Language(rawValue: code) else { throw ParlaError(.languageNotFound) }
                return language
            } ?? language
        let version = try input.headers.xAppVersion.map { text in
            guard let version = AppVersion(text) else { throw ParlaError(.invalidAppVersion) }
            return version
        }
        let offers = try await plans.offers(for: caller.accountID, currency: currency, appVersion: version, store: store)
        return .ok(.init(body: .json(.init(currency: currency, products: offers.map { .init($0, names) }))))
    }

    func recordAppStorePurchase(_ input: Operations.RecordAppStorePurchase.Input) async throws
        -> Operations.RecordAppStorePurchase.Output
    {
        let caller = try await caller()
        guard case .json(let body) = input.body else { throw ParlaError(.malformedRequest) }
        try await purchases.recordAppStore(body.signedTransaction, for: caller.accountID)
        return .ok(.init(body: .json(try await entitlementsInfo(of: caller.accountID))))
    }

    func recordGooglePlayPurchase(_ input: Operations.RecordGooglePlayPurchase.Input) async throws
        -> Operations.RecordGooglePlayPurchase.Output
    {
        let caller = try await caller()
        guard case .json(let body) = input.body else { throw ParlaError(.malformedRequest) }
        try await purchases.recordGooglePlay(product: body.productId, token: body.purchaseToken, for: caller.accountID)
        return .ok(.init(body: .json(try await entitlementsInfo(of: caller.accountID))))
    }

    func restorePurchases(_ input: Operations.RestorePurchases.Input) async throws -> Operations.RestorePurchases.Output {
        let caller = try await caller()
        if case .json(let body) = input.body {
            for jws in body.signedTransactions ?? [] { try await purchases.recordAppStore(jws, for: caller.accountID) }
            for purchase in body.googlePlayPurchases ?? [] {
                try await purchases.recordGooglePlay(product: purchase.productId, token: purchase.purchaseToken, for: caller.accountID)
            }
        }
        return .ok(.init(body: .json(try await entitlementsInfo(of: caller.accountID))))
    }

    func claimLegacyPurchase(_ input: Operations.ClaimLegacyPurchase.Input) async throws -> Operations.ClaimLegacyPurchase.Output {
        let caller = try await caller()
        guard case .json(let body) = input.body else { throw ParlaError(.malformedRequest) }
        try await purchases.claimLegacy(body.signedAppTransaction, for: caller.accountID)
        return .ok(.init(body: .json(try await entitlementsInfo(of: caller.accountID))))
    }

    func receiveAppStoreNotification(_ input: Operations.ReceiveAppStoreNotification.Input) async throws
        -> Operations.ReceiveAppStoreNotification.Output
    {
        guard case .json(let body) = input.body else { throw ParlaError(.malformedRequest) }
        try await purchases.receiveAppStore(body.signedPayload)
        return .ok(.init())
    }

    func receiveGooglePlayNotification(_ input: Operations.ReceiveGooglePlayNotification.Input) async throws
        -> Operations.ReceiveGooglePlayNotification.Output
    {
        guard case .json(let body) = input.body else { throw ParlaError(.malformedRequest) }
        let taken = try await purchases.receiveGooglePlay(
            data: body.message.data, messageID: body.message.messageId, secret: input.query.secret)
        return taken ? .ok(.init()) : .forbidden(.init())
    }

    // MARK: Encoding

    func shopQuery(_ currency: String?, _ store: String?) throws -> (String, Store?) {
        let currency = currency ?? "USD"
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else { throw ParlaError(.invalidCurrency) }
        return (currency, store.flatMap(Store.init(rawValue:)))
    }

    private func planInfo(_ view: EntitlementService.PlanView) throws -> Components.Schemas.PlanInfo {
        let plan = view.ownership.plan
        let held = view.ownership.planEntitlement
        let catalogue = try plans.catalogue()
        var changes: [Components.Schemas.PlanChange] = []
        if view.trialAvailable { changes.append(.init(plan: .trial, how: .trial, days: catalogue.plans[.trial]?.days)) }
        for offer in view.products {
            guard let target = offer.product.plan.flatMap({ Components.Schemas.PlanChange.PlanPayload(rawValue: $0.rawValue) })
            else { continue }
            changes.append(.init(plan: target, how: .purchase, offer: .init(offer, language)))
        }
        return .init(
            plan: .init(rawValue: plan.id.rawValue)!, name: plan.names[language] ?? plan.id.rawValue,
            status: .init(rawValue: view.status.rawValue)!,
            source: held.flatMap { .init(rawValue: $0.source.rawValue) }, product: held?.product, endsAt: held?.ends,
            renews: held?.renews, ads: plan.ads,
            features: Feature.allCases.compactMap { feature in
                switch plan.features[feature] {
                case .enabled(let on): .init(feature: .init(rawValue: feature.rawValue)!, enabled: on)
                case .limit(let limit): .init(feature: .init(rawValue: feature.rawValue)!, limit: limit)
                case nil: feature.isLimit ? nil : .init(feature: .init(rawValue: feature.rawValue)!, enabled: false)
                }
            },
            entitlements: view.entitlements.map { entitlementInfo($0, catalogue) }, switchTo: changes)
    }

    private func entitlementInfo(_ entitlement: Entitlement, _ catalogue: Catalogue) -> Components.Schemas.EntitlementInfo {
        let product = catalogue.product(entitlement.product)
        return .init(
            product: entitlement.product, kind: product?.kind.rawValue ?? (entitlement.source == .trial ? "trial" : "list"),
            name: product?.name(in: language), source: .init(rawValue: entitlement.source.rawValue)!,
            status: .init(rawValue: entitlement.status(at: Date()).rawValue)!, startsAt: entitlement.starts,
            endsAt: entitlement.ends, renews: entitlement.renews,
            lists: product.map { catalogue.lists(of: $0).sorted() } ?? [],
            coursePacks: product.map { catalogue.coursePacks(of: $0).sorted() }.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// What the account owns now: the starter lists (from sign-up) first.
    func entitlementsInfo(of account: AccountID) async throws -> Components.Schemas.Entitlements {
        let catalogue = try plans.catalogue()
        let (ownership, held) = try await plans.holdings(of: account)
        let starter = catalogue.starterLists.map {
            Components.Schemas.EntitlementInfo(
                product: $0, kind: "list", name: nil, source: .starter, status: .active, startsAt: .distantPast, renews: false,
                lists: [$0])
        }
        return .init(
            plan: .init(rawValue: ownership.plan.id.rawValue)!, lists: ownership.lists.sorted(),
            coursePacks: ownership.coursePacks.sorted(), entitlements: starter + held.map { entitlementInfo($0, catalogue) })
    }
}

extension Components.Schemas.CatalogueProduct {
    init(_ offer: Offer, _ language: Language) {
        let product = offer.product
        self.init(
            id: product.id, kind: .init(rawValue: product.kind.rawValue)!, name: product.name(in: language), price: offer.price,
            currency: offer.currency, regularPrice: offer.regularPrice, promotionEndsAt: offer.promotion?.ends,
            availableUntil: product.availableUntil, partsPrice: offer.partsPrice, savings: offer.savings,
            includes: product.includes.isEmpty ? nil : product.includes, lists: offer.lists,
            coursePacks: offer.coursePacks.isEmpty ? nil : offer.coursePacks,
            plan: product.plan.flatMap { .init(rawValue: $0.rawValue) },
            billing: product.plan == nil ? nil : .init(rawValue: product.billing.rawValue),
            minAppVersion: product.minAppVersion?.description, updateRequired: offer.updateRequired,
            storeIds: .init(appStore: product.storeIDs[.appStore], googlePlay: product.storeIDs[.googlePlay]))
    }
}

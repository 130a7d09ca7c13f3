import Foundation
import ParlaCore

/// A product as one account sees it in the shop: its price now, what its
/// parts would cost alone, and whether the client must update to use it.
public struct Offer: Sendable, Equatable {
    public var product: Product
    public var currency: String
    public var price: Int
    /// The usual price, when a promotion runs.
    public var regularPrice: Int?
    public var promotion: Promotion?
    /// What its parts cost bought one by one, and how much less it costs.
    public var partsPrice: Int?
    public var savings: Int?
    /// The word lists it opens, in catalogue order.
    public var lists: [String]
    /// The client is older than the product's minimum app version.
    public var updateRequired: Bool
}

extension Catalogue {
    /// What an account can buy now (seed 001: packs and mega-packs not
    /// displayed once purchased or unavailable): products on sale with a
    /// price in `currency` (and an id in `store`, when named) that open
    /// something it cannot open yet, or a better plan than its own.
    public func offers(
        for ownership: Ownership, currency: String, appVersion: AppVersion?, store: Store?, at now: Date
    ) -> [Offer] {
        products.compactMap { product -> Offer? in
            guard product.isAvailable(at: now), let (price, promotion) = product.price(in: currency, at: now) else { return nil }
            if let store, product.storeIDs[store] == nil { return nil }
            guard !ownership.products.contains(product.id), isWorthBuying(product, for: ownership) else { return nil }
            let partsPrice = partsPrice(of: product, in: currency, at: now)
            return Offer(
                product: product, currency: currency, price: price,
                regularPrice: promotion == nil ? nil : product.prices[currency], promotion: promotion,
                partsPrice: partsPrice, savings: partsPrice.map { $0 - price }.flatMap { $0 > 0 ? $0 : nil },
                lists: lists(of: product).sorted { listOrder[$0, default: .max] < listOrder[$1, default: .max] },
                updateRequired: zip(appVersion, product.minAppVersion).map { $0 < $1 } ?? false)
        }
    }

    /// A plan product is worth buying if it is a better plan, or the same
    /// plan for good instead of by subscription; content if it opens a list.
    private func isWorthBuying(_ product: Product, for ownership: Ownership) -> Bool {
        if let plan = product.plan {
            if plan > ownership.plan.id { return true }
            guard plan == ownership.plan.id, let held = ownership.planEntitlement else { return false }
            return held.ends != nil && !product.billing.isSubscription
        }
        return !lists(of: product).isSubset(of: ownership.lists)
    }

    /// The sum of its parts' prices, when each part has one.
    private func partsPrice(of product: Product, in currency: String, at now: Date) -> Int? {
        guard !product.includes.isEmpty else { return nil }
        var sum = 0
        for id in product.includes {
            guard let part = self.product(id), let price = part.price(in: currency, at: now) else { return nil }
            sum += price.amount
        }
        return sum
    }

    /// How an account may switch its plan now (T6.2): the trial once, and
    /// the plan products worth buying.
    public func planChanges(for ownership: Ownership, currency: String, store: Store?, at now: Date) -> (
        trial: Bool, products: [Offer]
    ) {
        let trial = !ownership.trialUsed && ownership.plan.id < .trial && plans[.trial] != nil
        let products = offers(for: ownership, currency: currency, appVersion: nil, store: store, at: now).filter {
            $0.product.kind == .plan
        }
        return (trial, products)
    }
}

private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}

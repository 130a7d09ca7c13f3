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
    /// The packs of the course it opens, by shared id, sorted.
    public var coursePacks: [String]
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
        let onSale = productsOnSale(to: ownership, at: now)
        return onSale.compactMap { product -> Offer? in
            guard let (price, promotion) = product.price(in: currency, at: now) else { return nil }
            if let store, product.storeIDs[store] == nil { return nil }
            let partsPrice = partsPrice(of: product, in: currency, at: now)
            return Offer(
                product: product, currency: currency, price: price,
                regularPrice: promotion == nil ? nil : product.prices[currency], promotion: promotion,
                partsPrice: partsPrice, savings: partsPrice.map { $0 - price }.flatMap { $0 > 0 ? $0 : nil },
                lists: lists(of: product).sorted { listOrder[$0, default: .max] < listOrder[$1, default: .max] },
                coursePacks: coursePacks(of: product).sorted(),
                updateRequired: zip(appVersion, product.minAppVersion).map { $0 < $1 } ?? false)
        }
    }

    /// The product that opens a locked `list` for the account, as its word
    /// list shows it (seed 000: a greyed-out block's "i" offers the pair
    /// during the promotion, the block alone after it): a bundle before the
    /// list alone, before a pack, before a mega-pack; nil when the list is
    /// open or nothing on sale opens it.
    public func offer(opening list: String, for ownership: Ownership, at now: Date) -> Product? {
        guard !ownership.mayOpen(list: list) else { return nil }
        let rank: [Product.Kind: Int] = [.bundle: 0, .list: 1, .pack: 2, .megaPack: 3]
        return productsOnSale(to: ownership, at: now)
            .filter { rank[$0.kind] != nil && lists(of: $0).contains(list) }
            .min { (rank[$0.kind]!, lists(of: $0).count) < (rank[$1.kind]!, lists(of: $1).count) }
    }

    /// What opens a locked pack of the course (by shared id), as its popup
    /// shows it (seed 001: "Buy 1 pack", then the mega-pack that holds it
    /// with its savings): packs before mega-packs, smaller first; empty when
    /// the pack is open or nothing on sale opens it.
    public func offers(opening coursePack: String, for ownership: Ownership, currency: String, at now: Date) -> [Offer] {
        guard !ownership.mayOpen(coursePack: coursePack) else { return [] }
        let rank: [Product.Kind: Int] = [.bundle: 0, .pack: 1, .megaPack: 2]
        func place(_ offer: Offer) -> (Int, Int, String) { (rank[offer.product.kind]!, offer.coursePacks.count, offer.product.id) }
        return offers(for: ownership, currency: currency, appVersion: nil, store: nil, at: now)
            .filter { rank[$0.product.kind] != nil && $0.coursePacks.contains(coursePack) }
            .sorted { place($0) < place($1) }
    }

    /// Products on sale now, not owned, that give the account something:
    /// a product that a bundle on sale holds is sold only as that bundle
    /// while it is (seed 000 6.d: Water and Professions are the pair during
    /// the promotion, each alone after it).
    private func productsOnSale(to ownership: Ownership, at now: Date) -> [Product] {
        let inBundle = Set(products.filter { $0.kind == .bundle && $0.isAvailable(at: now) }.flatMap(\.includes))
        return products.filter { product in
            product.isAvailable(at: now) && !inBundle.contains(product.id) && !ownership.products.contains(product.id)
                && isWorthBuying(product, for: ownership)
        }
    }

    /// A plan product is worth buying if it is a better plan, or the same
    /// plan for good instead of by subscription; content if it opens a list
    /// or a pack of the course the account cannot open yet.
    private func isWorthBuying(_ product: Product, for ownership: Ownership) -> Bool {
        if let plan = product.plan {
            if plan > ownership.plan.id { return true }
            guard plan == ownership.plan.id, let held = ownership.planEntitlement else { return false }
            return held.ends != nil && !product.billing.isSubscription
        }
        return !lists(of: product).isSubset(of: ownership.lists) || !coursePacks(of: product).isSubset(of: ownership.coursePacks)
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

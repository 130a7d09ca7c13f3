import Foundation
import ParlaCore

/// What Parla sells and what each plan allows, from `Corpora/products.yaml`
/// (read by `CatalogueReader`). Pure values: the rule that turns an
/// account's entitlements into what it may use is `Catalogue.ownership`.
public struct Catalogue: Sendable, Equatable {
    public let products: [Product]
    public let plans: [PlanID: Plan]
    /// Word lists every account opens whole from sign-up (seed 000's Home
    /// block); the free words of every other list are open to all too.
    public let starterLists: [String]
    /// Packs of the course every account opens from sign-up, by the id they
    /// share across languages (`stories-a1` opens en-stories-a1, fr-...).
    public let starterCoursePacks: Set<String>

    public init(products: [Product], plans: [PlanID: Plan], starterLists: [String], starterCoursePacks: Set<String> = []) {
        self.products = products
        self.plans = plans
        self.starterLists = starterLists
        self.starterCoursePacks = starterCoursePacks
        byID = Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var order: [String: Int] = [:]
        for list in starterLists + products.flatMap(\.unlocks) where order[list] == nil { order[list] = order.count }
        listOrder = order
        allLists = Set(order.keys)
        allCoursePacks = starterCoursePacks.union(products.flatMap(\.coursePacks))
    }

    private let byID: [String: Product]
    /// Each list's place: the starter lists, then as the products name them.
    let listOrder: [String: Int]

    /// Every word list the catalogue sells or opens.
    public let allLists: Set<String>
    /// Every pack of the course it opens or sells (the reader checks that
    /// this is every pack the content has).
    public let allCoursePacks: Set<String>

    public func product(_ id: String) -> Product? { byID[id] }

    /// The product a store sells under `storeProduct`.
    public func product(store: Store, storeProduct: String) -> Product? {
        products.first { $0.storeIDs[store] == storeProduct }
    }

    /// Every word list a product unlocks, through its parts (a mega-pack's
    /// packs, a pack's lists).
    public func lists(of product: Product) -> Set<String> { opened(by: product, \.unlocks) }

    /// Every pack of the course a product opens (by shared id), through its parts.
    public func coursePacks(of product: Product) -> Set<String> { opened(by: product, \.coursePacks) }

    private func opened(by product: Product, _ what: KeyPath<Product, [String]>) -> Set<String> {
        var opened = Set(product[keyPath: what])
        var seen: Set<String> = [product.id]
        var parts = product.includes
        while let part = parts.popLast() {
            guard seen.insert(part).inserted, let included = byID[part] else { continue }
            opened.formUnion(included[keyPath: what])
            parts += included.includes
        }
        return opened
    }

    public func plan(_ id: PlanID) -> Plan { plans[id] ?? Plan(id: id, ads: id == .free, features: [:]) }
}

/// A store that sells Parla's products.
public enum Store: String, Sendable, CaseIterable, Codable {
    case appStore = "app-store"
    case googlePlay = "google-play"
}

public struct Product: Sendable, Equatable, Identifiable {
    public enum Kind: String, Sendable, CaseIterable {
        /// One word list.
        case list
        /// A group of lists, or a pack of the course (seed 001's pack).
        case pack
        /// Products sold together, often for a while (seed 000's promotion).
        case bundle
        /// Every pack of a section, for less than the packs (seed 001).
        case megaPack = "mega-pack"
        /// A version of the app (seed 004 BF1): lite or full.
        case plan
        /// What buyers of an old app keep (seed 000); never sold.
        case legacy
    }

    /// How a plan product is paid for.
    public enum Billing: String, Sendable, CaseIterable {
        case oneTime = "one-time"
        case monthly, yearly
        public var isSubscription: Bool { self != .oneTime }
    }

    public var id: String
    public var kind: Kind
    public var names: [Language: String]
    /// Word lists it unlocks itself.
    public var unlocks: [String]
    /// Packs of the course it opens itself, by the id they share across
    /// languages (seed 001: a lesson pack is sold for every language at once,
    /// as a word list is).
    public var coursePacks: [String]
    /// Products it contains (a pack's lists, a mega-pack's packs).
    public var includes: [String]
    /// The plan it switches to, for a plan product.
    public var plan: PlanID?
    public var billing: Billing
    /// Price per ISO 4217 currency, in minor units (cents); none: not for sale.
    public var prices: [String: Int]
    public var promotions: [Promotion]
    /// When it is on sale, if only for a while.
    public var availableFrom: Date?
    public var availableUntil: Date?
    /// The oldest app that can use it.
    public var minAppVersion: AppVersion?
    /// Its id in each store that sells it.
    public var storeIDs: [Store: String]

    public init(
        id: String, kind: Kind, names: [Language: String] = [:], unlocks: [String] = [], coursePacks: [String] = [],
        includes: [String] = [], plan: PlanID? = nil, billing: Billing = .oneTime, prices: [String: Int] = [:],
        promotions: [Promotion] = [],
        availableFrom: Date? = nil, availableUntil: Date? = nil, minAppVersion: AppVersion? = nil,
        storeIDs: [Store: String] = [:]
    ) {
        (self.id, self.kind, self.names, self.unlocks, self.coursePacks, self.includes) =
            (id, kind, names, unlocks, coursePacks, includes)
        (self.plan, self.billing, self.prices, self.promotions) = (plan, billing, prices, promotions)
        (self.availableFrom, self.availableUntil, self.minAppVersion, self.storeIDs) =
            (availableFrom, availableUntil, minAppVersion, storeIDs)
    }

    public func name(in language: Language) -> String { names[language] ?? names[.english] ?? id }

    public func isAvailable(at now: Date) -> Bool {
        !prices.isEmpty && kind != .legacy && availableFrom.map { $0 <= now } ?? true && availableUntil.map { now < $0 } ?? true
    }

    /// Its price in `currency` at `now`: a running promotion's, or the usual one.
    public func price(in currency: String, at now: Date) -> (amount: Int, promotion: Promotion?)? {
        if let promotion = promotions.first(where: { $0.isRunning(at: now) }), let amount = promotion.prices[currency] {
            return (amount, promotion)
        }
        return prices[currency].map { ($0, nil) }
    }
}

/// A price for a while (seed 000: two blocks for 0.99 for a month or two).
public struct Promotion: Sendable, Equatable {
    public var id: String
    public var starts: Date
    public var ends: Date
    public var prices: [String: Int]

    public init(id: String, starts: Date, ends: Date, prices: [String: Int]) {
        (self.id, self.starts, self.ends, self.prices) = (id, starts, ends, prices)
    }

    public func isRunning(at now: Date) -> Bool { starts <= now && now < ends }
}

/// The versions of the app (seed 004 BF1, T6), in rising order.
public enum PlanID: String, Sendable, CaseIterable, Comparable, Codable {
    case free, lite, trial, full

    var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (a: PlanID, b: PlanID) -> Bool { a.rank < b.rank }
}

/// What a plan allows: the ads flag and its features.
public struct Plan: Sendable, Equatable {
    public var id: PlanID
    public var ads: Bool
    public var features: [Feature: FeatureValue]
    /// How long a trial lasts (the trial plan only).
    public var days: Int?
    public var names: [Language: String]

    public init(id: PlanID, ads: Bool, features: [Feature: FeatureValue], days: Int? = nil, names: [Language: String] = [:]) {
        (self.id, self.ads, self.features, self.days, self.names) = (id, ads, features, days, names)
    }

    /// Whether a switch-on feature is on (off when the matrix does not say).
    public func allows(_ feature: Feature) -> Bool {
        if case .enabled(let on) = features[feature] { return on }
        return false
    }

    /// A limit's value; nil when there is none.
    public func limit(_ feature: Feature) -> Int? {
        if case .limit(let value) = features[feature] { return value }
        return nil
    }
}

/// The features a plan can grant or limit. The matrix itself is data
/// (`products.yaml`); these are the ones the server enforces.
public enum Feature: String, Sendable, CaseIterable, Codable {
    /// Every word list, whole.
    case allWordLists
    /// Every pack of the course.
    case allCoursePacks
    /// New lessons a learner may start per day (UTC).
    case lessonsPerDay
    /// Card games a learner may start per day (UTC).
    case gamesPerDay
    /// Scored recordings a learner may send per day (UTC).
    case speechAttemptsPerDay

    public var isLimit: Bool {
        switch self {
        case .lessonsPerDay, .gamesPerDay, .speechAttemptsPerDay: true
        case .allWordLists, .allCoursePacks: false
        }
    }
}

public enum FeatureValue: Sendable, Equatable {
    case enabled(Bool)
    /// At most this many; a plan without the entry has no limit.
    case limit(Int)
}

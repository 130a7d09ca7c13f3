import Foundation
import ParlaCore

/// Something an account owns, for a while or for good: a product bought,
/// granted by support, claimed by an old app's buyer, or the trial.
/// Entitlements belong to the account: every learner of a family shares them.
public struct Entitlement: Sendable, Equatable {
    public enum Source: String, Sendable, CaseIterable, Codable {
        /// Every account's from sign-up (never stored: the catalogue says it).
        case starter
        case purchase, trial, grant, legacy
    }

    public var product: String
    public var source: Source
    public var starts: Date
    /// When it lapses; nil: never.
    public var ends: Date?
    /// A renewing subscription's grace: it still gives access until then.
    public var graceEnds: Date?
    /// Refunded or revoked: gone at once.
    public var revoked: Date?
    /// Whether a subscription renews at its end.
    public var renews: Bool

    public init(
        product: String, source: Source, starts: Date, ends: Date? = nil, graceEnds: Date? = nil, revoked: Date? = nil,
        renews: Bool = false
    ) {
        (self.product, self.source, self.starts, self.ends) = (product, source, starts, ends)
        (self.graceEnds, self.revoked, self.renews) = (graceEnds, revoked, renews)
    }

    public enum Status: String, Sendable, Codable {
        case active
        /// Its period ended, a renewal failed, the store still grants it a while.
        case grace
        case expired, revoked
        /// Not started yet.
        case pending
    }

    public func status(at now: Date) -> Status {
        if revoked.map({ $0 <= now }) ?? false { return .revoked }
        if now < starts { return .pending }
        guard let ends, ends <= now else { return .active }
        if let graceEnds, now < graceEnds { return .grace }
        return .expired
    }

    public func isActive(at now: Date) -> Bool {
        let status = status(at: now)
        return status == .active || status == .grace
    }
}

/// What an account may use at one moment: the one answer content, lessons
/// and games ask for (DESIGN: access, commerce).
public struct Ownership: Sendable, Equatable {
    /// The plan in force and the entitlement that gives it (nil: free).
    public var plan: Plan
    public var planEntitlement: Entitlement?
    /// Word lists open whole.
    public var lists: Set<String>
    /// Packs of the course open, by shared id (`stories-a2`).
    public var coursePacks: Set<String>
    /// The products owned now, bundles not expanded (what restore returns).
    public var products: Set<String>
    /// Whether the account has started its trial, ever.
    public var trialUsed: Bool

    public func mayOpen(list: String) -> Bool { lists.contains(list) }

    /// A pack of the course, by the id it shares across languages: open from
    /// sign-up, bought (alone or in a mega-pack), or by a plan that opens all.
    public func mayOpen(coursePack: String) -> Bool { coursePacks.contains(coursePack) }
}

extension Catalogue {
    /// The entitlement rule: what `entitlements` (an account's, with their
    /// histories) let it use at `now`. The starter lists are open to all;
    /// a plan that allows every list opens them all; products open their
    /// lists; the best plan running is the plan (free without one). Packs
    /// of the course open the same way.
    public func ownership(of entitlements: [Entitlement], at now: Date) -> Ownership {
        var lists = Set(starterLists)
        var coursePacks = starterCoursePacks
        var products = Set<String>()
        var best: (plan: PlanID, entitlement: Entitlement)?
        for entitlement in entitlements where entitlement.isActive(at: now) {
            products.insert(entitlement.product)
            let planID: PlanID? = entitlement.source == .trial ? .trial : product(entitlement.product)?.plan
            if let planID {
                if best.map({ planID > $0.plan || (planID == $0.plan && Self.lasts(entitlement, longerThan: $0.entitlement)) }) ?? true {
                    best = (planID, entitlement)
                }
            }
            if let product = product(entitlement.product) {
                lists.formUnion(self.lists(of: product))
                coursePacks.formUnion(self.coursePacks(of: product))
            }
        }
        let plan = plan(best?.plan ?? .free)
        if plan.allows(.allWordLists) { lists.formUnion(allLists) }
        if plan.allows(.allCoursePacks) { coursePacks.formUnion(allCoursePacks) }
        return Ownership(
            plan: plan, planEntitlement: best?.entitlement, lists: lists, coursePacks: coursePacks, products: products,
            trialUsed: entitlements.contains { $0.source == .trial })
    }

    private static func lasts(_ a: Entitlement, longerThan b: Entitlement) -> Bool {
        switch (a.ends, b.ends) {
        case (nil, .some): true
        case (.some(let x), .some(let y)): x > y
        default: false
        }
    }
}

import Foundation
import ParlaCore
import Yams

/// Reads `products.yaml` into a `Catalogue`, reporting every problem at
/// once (with its line), as the content loader does.
public struct CatalogueReader: Sendable {
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// The word lists the content has: products may unlock only these.
    let lists: Set<String>
    /// The packs of the course the content has, by shared id: each must be
    /// open from sign-up or sold, and products may open only these.
    let coursePacks: Set<String>

    public init(lists: Set<String>, coursePacks: Set<String> = []) { (self.lists, self.coursePacks) = (lists, coursePacks) }

    public func read(_ text: String) -> (catalogue: Catalogue, problems: [Problem]) {
        var problems: [Problem] = []
        func problem(_ node: Node?, _ message: String) { problems.append(Problem(line: node?.mark?.line ?? 1, message: message)) }
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text), case .mapping = node else {
                return (Catalogue(products: [], plans: [:], starterLists: []), [Problem(line: 1, message: "the file must hold a mapping")])
            }
            root = node
        } catch {
            return (Catalogue(products: [], plans: [:], starterLists: []), [Problem(line: 1, message: "not YAML: \(error)")])
        }

        let starter = strings(root["starter"]?["lists"])
        for list in starter where !lists.contains(list) { problem(root["starter"], "starter list \(list) is not a word list") }
        let starterPacks = strings(root["starter"]?["coursePacks"])
        for pack in starterPacks where !coursePacks.contains(pack) {
            problem(root["starter"], "starter course pack \(pack) is not a pack of the course")
        }

        var plans: [PlanID: Plan] = [:]
        if case .mapping(let pairs) = root["plans"] {
            for (key, node) in pairs {
                guard let id = key.string.flatMap(PlanID.init(rawValue:)) else {
                    problem(key, "unknown plan \(key.string ?? "?"); plans are \(PlanID.allCases.map(\.rawValue))")
                    continue
                }
                var features: [Feature: FeatureValue] = [:]
                if case .mapping(let entries) = node["features"] {
                    for (name, value) in entries {
                        guard let feature = name.string.flatMap(Feature.init(rawValue:)) else {
                            problem(name, "unknown feature \(name.string ?? "?")")
                            continue
                        }
                        if feature.isLimit, let limit = value.int, limit >= 0 {
                            features[feature] = .limit(limit)
                        } else if !feature.isLimit, let on = value.bool {
                            features[feature] = .enabled(on)
                        } else {
                            problem(value, "\(feature.rawValue) must be \(feature.isLimit ? "a count" : "true or false")")
                        }
                    }
                }
                let days = node["days"]?.int
                if id == .trial, (days ?? 0) <= 0 { problem(node, "the trial needs its days") }
                plans[id] = Plan(id: id, ads: node["ads"]?.bool ?? false, features: features, days: days, names: names(node["names"]))
                if plans[id]!.names.count != Language.allCases.count { problem(node, "plan \(id.rawValue) needs a name in every language") }
            }
        }
        if plans[.free] == nil { problem(root, "the free plan must be described") }

        var products: [Product] = []
        var ids = Set<String>()
        for node in root["products"]?.sequence.map(Array.init) ?? [] {
            guard let id = node["id"]?.string, !id.isEmpty else {
                problem(node, "a product needs an id")
                continue
            }
            guard ids.insert(id).inserted else {
                problem(node, "product \(id) is described twice")
                continue
            }
            guard let kind = node["kind"]?.string.flatMap(Product.Kind.init(rawValue:)) else {
                problem(node, "product \(id) needs a kind: \(Product.Kind.allCases.map(\.rawValue))")
                continue
            }
            var product = Product(id: id, kind: kind, names: names(node["names"]))
            product.unlocks = strings(node["unlocks"])
            product.includes = strings(node["includes"])
            for list in product.unlocks where !lists.contains(list) {
                problem(node, "product \(id) unlocks \(list), which is not a word list")
            }
            product.coursePacks = strings(node["coursePacks"])
            for pack in product.coursePacks where !coursePacks.contains(pack) {
                problem(node, "product \(id) opens course pack \(pack), which the course does not have")
            }
            if let plan = node["plan"]?.string {
                product.plan = PlanID(rawValue: plan)
                if product.plan == nil || product.plan == .free || product.plan == .trial {
                    problem(node, "product \(id): \(plan) is not a plan one can buy")
                }
            }
            if (kind == .plan) != (product.plan != nil) { problem(node, "product \(id): a plan product, and only one, names its plan") }
            if let billing = node["billing"]?.string {
                guard let value = Product.Billing(rawValue: billing) else {
                    problem(node, "product \(id): billing is one of \(Product.Billing.allCases.map(\.rawValue))")
                    continue
                }
                product.billing = value
            }
            product.prices = prices(node["prices"], of: id, problem: problem)
            for entry in node["promotions"]?.sequence.map(Array.init) ?? [] {
                guard let starts = date(entry["from"]), let ends = date(entry["until"]), starts < ends else {
                    problem(entry, "product \(id): a promotion needs dates from and until, in order")
                    continue
                }
                product.promotions.append(
                    Promotion(
                        id: entry["id"]?.string ?? "\(id)-\(entry["from"]?.string ?? "")", starts: starts, ends: ends,
                        prices: prices(entry["prices"], of: id, problem: problem)))
            }
            if let available = node["available"] {
                product.availableFrom = date(available["from"])
                product.availableUntil = date(available["until"])
                if product.availableFrom == nil && product.availableUntil == nil {
                    problem(available, "product \(id): available needs from or until")
                }
            }
            if let version = node["minAppVersion"]?.string {
                product.minAppVersion = AppVersion(version)
                if product.minAppVersion == nil { problem(node, "product \(id): \(version) is not a version") }
            }
            if case .mapping(let stores) = node["stores"] {
                for (key, value) in stores {
                    guard let store = key.string.flatMap(Store.init(rawValue:)), let storeID = value.string else {
                        problem(key, "product \(id): stores are \(Store.allCases.map(\.rawValue))")
                        continue
                    }
                    product.storeIDs[store] = storeID
                }
            }
            if !product.prices.isEmpty, product.names.count != Language.allCases.count {
                problem(node, "product \(id) is sold, so it needs a name in every language")
            }
            if kind != .legacy, !product.prices.isEmpty, product.storeIDs.isEmpty {
                problem(node, "product \(id) is sold, so a store must sell it")
            }
            products.append(product)
        }
        for product in products {
            for part in product.includes where !ids.contains(part) {
                problem(root["products"], "product \(product.id) includes \(part), which is not a product")
            }
        }
        for store in Store.allCases {
            var seen: [String: String] = [:]
            for product in products {
                guard let storeID = product.storeIDs[store] else { continue }
                if let other = seen.updateValue(product.id, forKey: storeID) {
                    problem(root["products"], "\(store.rawValue) sells \(storeID) as both \(other) and \(product.id)")
                }
            }
        }
        let opened = Set(starterPacks).union(products.flatMap(\.coursePacks))
        for pack in coursePacks.subtracting(opened).sorted() {
            problem(root["products"], "course pack \(pack) is neither open from sign-up nor sold")
        }
        return (Catalogue(products: products, plans: plans, starterLists: starter, starterCoursePacks: Set(starterPacks)), problems)
    }

    private func strings(_ node: Node?) -> [String] { (node?.sequence.map(Array.init) ?? []).compactMap(\.string) }

    private func names(_ node: Node?) -> [Language: String] {
        guard case .mapping(let pairs) = node else { return [:] }
        var names: [Language: String] = [:]
        for (key, value) in pairs {
            if let language = key.string.flatMap(Language.init(rawValue:)), let name = value.string, !name.isEmpty {
                names[language] = name
            }
        }
        return names
    }

    private func prices(_ node: Node?, of id: String, problem: (Node?, String) -> Void) -> [String: Int] {
        guard case .mapping(let pairs) = node else { return [:] }
        var prices: [String: Int] = [:]
        for (key, value) in pairs {
            guard let currency = key.string, currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }),
                let amount = value.int, amount >= 0
            else {
                problem(key, "product \(id): a price is a currency code (USD) and whole minor units (99)")
                continue
            }
            prices[currency] = amount
        }
        return prices
    }

    private func date(_ node: Node?) -> Date? { node?.string.flatMap(Self.date) }

    /// A catalogue date: `2026-12-01` (midnight UTC) or a full ISO 8601 time.
    public static func date(_ text: String) -> Date? {
        ISO8601DateFormatter().date(from: text.count == 10 ? text + "T00:00:00Z" : text)
    }
}

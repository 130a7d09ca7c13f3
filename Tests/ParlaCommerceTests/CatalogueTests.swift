import Foundation
import ParlaCommerce
import ParlaCore
import Testing

/// The project's own catalogue, read as the importer reads it.
let projectCatalogue: Catalogue = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Corpora/products.yaml")
    let lists: Set<String> = [
        "home", "water", "professions", "animals", "food", "body", "clothing", "transport", "weather", "family", "numbers",
        "colours",
    ]
    let (catalogue, problems) = CatalogueReader(lists: lists, coursePacks: Set(coursePacks))
        .read(try! String(contentsOf: url, encoding: .utf8))
    precondition(problems.isEmpty, "\(problems)")
    return catalogue
}()

/// The packs of the course, by the id they share across languages.
let coursePacks = [
    "read-sightwords", "read-letters", "discover-home", "discover-animals", "discover-food", "discover-family", "discover-clothing",
    "stories-a1",
    "stories-a2",
]

/// Seed 000's starter set: Home and seven lists of 35.
let starter = ["home", "animals", "food", "body", "clothing", "transport", "weather", "family"]

func day(_ text: String) -> Date { ISO8601DateFormatter().date(from: text + "T12:00:00Z")! }

@Suite("catalogue")
struct CatalogueTests {
    @Test("the project's catalogue reads without problems: lists, packs, a bundle, a mega-pack, plans, legacy")
    func projectCatalogueReads() {
        let kinds = Dictionary(grouping: projectCatalogue.products, by: \.kind).mapValues(\.count)
        #expect(kinds[.list] == 4)
        #expect(kinds[.pack] == 6)  // one of word lists, five of the course
        #expect(kinds[.bundle] == 1)
        #expect(kinds[.megaPack] == 2)
        #expect(kinds[.plan] == 4)
        #expect(kinds[.legacy] == 1)
        #expect(projectCatalogue.starterLists == starter)
        #expect(Set(projectCatalogue.plans.keys) == Set(PlanID.allCases))
        #expect(projectCatalogue.plan(.trial).days == 7)
        #expect(projectCatalogue.plan(.free).ads && !projectCatalogue.plan(.full).ads)
        #expect(projectCatalogue.plan(.free).limit(.lessonsPerDay) == 10)
        #expect(projectCatalogue.plan(.full).limit(.lessonsPerDay) == nil)
        let all = projectCatalogue.product("all-word-lists")!
        #expect(projectCatalogue.lists(of: all) == ["water", "professions", "numbers", "colours"])
        #expect(projectCatalogue.product(store: .googlePlay, storeProduct: "pack_basics")?.id == "pack-basics")
        #expect(projectCatalogue.product("full-monthly")?.name(in: .german) == "Parla Vollversion, monatlich")
    }

    @Test("every problem at once, each with its line")
    func problems() {
        let text = """
            starter: {lists: [home, attic]}
            plans:
              free: {ads: true, features: {lessonsPerDay: many, teleport: true}}
              trial: {ads: false}
            products:
              - {id: a, kind: list, unlocks: [dragons], prices: {usd: 99}}
              - {id: a, kind: list}
              - {id: b, kind: sticker}
              - {id: c, kind: pack, includes: [nothing], prices: {USD: 99}, names: {en: C}}
              - {id: d, kind: plan, plan: free}
              - {id: e, kind: list, unlocks: [home], minAppVersion: "two", promotions: [{from: 2027-01-01, until: 2026-01-01}]}
            """
        let (_, problems) = CatalogueReader(lists: ["home"]).read(text)
        let messages = problems.map(\.message)
        for expected in [
            "starter list attic is not a word list", "lessonsPerDay must be a count", "unknown feature teleport",
            "the trial needs its days", "product a unlocks dragons, which is not a word list", "a price is a currency code",
            "product a is described twice", "product b needs a kind", "product c includes nothing, which is not a product",
            "product c is sold, so it needs a name in every language", "product c is sold, so a store must sell it",
            "free is not a plan one can buy", "two is not a version", "a promotion needs dates from and until, in order",
            "plan free needs a name in every language",
        ] {
            #expect(messages.contains { $0.contains(expected) }, "\(expected)")
        }
        #expect(problems.allSatisfy { $0.line >= 1 })
        #expect(problems.contains { $0.line == 6 })
    }

    @Test("app versions compare part by part")
    func versions() {
        #expect(AppVersion("2.0")! < AppVersion("2.1")!)
        #expect(AppVersion("2.10")! > AppVersion("2.9.9")!)
        #expect(AppVersion("2")! == AppVersion("2.0.0")!)
        #expect(AppVersion("2.x") == nil && AppVersion("") == nil && AppVersion("-1") == nil)
    }
}

@Suite("entitlement rule")
struct OwnershipTests {
    let now = day("2026-12-01")

    @Test("a new account (seed 000 1.a): Home and seven lists whole, 280 words; the free plan with ads")
    func newAccount() {
        let ownership = projectCatalogue.ownership(of: [], at: now)
        #expect(ownership.lists == Set(starter))
        #expect(starter.count == 8)  // 35 words each: 280
        #expect(!ownership.mayOpen(list: "water") && !ownership.mayOpen(list: "professions"))
        #expect(ownership.plan.id == .free && ownership.plan.ads)
        #expect(!ownership.trialUsed)
    }

    @Test("a mega-pack opens its packs' lists; a refund closes them at once")
    func megaPackAndRefund() {
        let bought = Entitlement(product: "all-word-lists", source: .purchase, starts: day("2026-11-01"))
        #expect(projectCatalogue.ownership(of: [bought], at: now).lists.count == 12)
        var refunded = bought
        refunded.revoked = day("2026-11-30")
        #expect(projectCatalogue.ownership(of: [refunded], at: now).lists == Set(starter))
        #expect(refunded.status(at: now) == .revoked)
    }

    @Test("a subscription: full while it runs, in its grace, then free again")
    func subscription() {
        let monthly = Entitlement(
            product: "full-monthly", source: .purchase, starts: day("2026-11-01"), ends: day("2026-12-01").addingTimeInterval(3600),
            graceEnds: day("2026-12-10"), renews: true)
        let running = projectCatalogue.ownership(of: [monthly], at: now)
        #expect(running.plan.id == .full && running.lists.count == 12)
        #expect(monthly.status(at: day("2026-12-05")) == .grace)
        #expect(projectCatalogue.ownership(of: [monthly], at: day("2026-12-05")).plan.id == .full)
        let lapsed = projectCatalogue.ownership(of: [monthly], at: day("2026-12-11"))
        #expect(lapsed.plan.id == .free && lapsed.lists == Set(starter))
    }

    @Test("the trial: everything for its days, used once")
    func trial() {
        let trial = Entitlement(product: "trial", source: .trial, starts: day("2026-11-28"), ends: day("2026-12-05"))
        let during = projectCatalogue.ownership(of: [trial], at: now)
        #expect(during.plan.id == .trial && during.plan.allows(.allWordLists) && during.lists.count == 12)
        let after = projectCatalogue.ownership(of: [trial], at: day("2026-12-06"))
        #expect(after.plan.id == .free && after.trialUsed)
        // A lite purchase under a trial: the better plan is in force.
        let lite = Entitlement(product: "lite", source: .purchase, starts: day("2026-11-29"))
        #expect(projectCatalogue.ownership(of: [lite, trial], at: now).plan.id == .trial)
        #expect(projectCatalogue.ownership(of: [lite, trial], at: day("2026-12-06")).plan.id == .lite)
    }

    @Test("an upgrader (seed 000 1.b) keeps the old 175 words and gets the same 280 as a new user, not Water and Professions")
    func legacy() {
        let legacy = Entitlement(product: "legacy-picture-dictionary-175", source: .legacy, starts: day("2020-01-01"))
        let ownership = projectCatalogue.ownership(of: [legacy], at: now)
        #expect(projectCatalogue.lists(of: projectCatalogue.product("legacy-picture-dictionary-175")!).count == 5)
        #expect(ownership.lists == Set(starter))
        #expect(projectCatalogue.offer(opening: "water", for: ownership, at: now)?.id == "water-and-professions")
    }
}

@Suite("shop offers")
struct OfferTests {
    func offers(_ entitlements: [Entitlement] = [], at now: Date = day("2026-12-01"), version: String? = nil, store: Store? = nil)
        -> [String: Offer]
    {
        let ownership = projectCatalogue.ownership(of: entitlements, at: now)
        let offers = projectCatalogue.offers(
            for: ownership, currency: "EUR", appVersion: version.flatMap(AppVersion.init), store: store, at: now)
        return Dictionary(uniqueKeysWithValues: offers.map { ($0.product.id, $0) })
    }

    @Test("a new account sees the promotion's pair with its savings, the other lists, the pack, plans; never the legacy set")
    func newAccount() throws {
        let shop = offers()
        #expect(shop["numbers"]?.price == 99)
        let bundle = try #require(shop["water-and-professions"])
        #expect(bundle.price == 99 && bundle.partsPrice == 198 && bundle.savings == 99)
        #expect(bundle.lists == ["water", "professions"])
        let mega = try #require(shop["all-word-lists"])
        #expect(mega.partsPrice == 99 + 99 + 149 && mega.savings == 347 - 299)
        #expect(shop["legacy-picture-dictionary-175"] == nil)
        #expect(shop["lite"] != nil && shop["full-monthly"] != nil && shop["full-lifetime"] != nil)
    }

    @Test("seed 000 6.d: during the promotion the pair is the offer; after it, Water and Professions are each on sale alone")
    func promotionEnds() throws {
        let during = offers(at: day("2026-12-01"))
        #expect(during["water"] == nil && during["professions"] == nil && during["water-and-professions"] != nil)
        let after = offers(at: day("2027-01-02"))
        #expect(after["water-and-professions"] == nil)
        #expect(after["water"]?.price == 99 && after["professions"]?.price == 99)
        #expect(offers(at: day("2026-10-30"))["water-and-professions"] == nil)
        // The locked block's offer follows the clock too.
        let fresh = projectCatalogue.ownership(of: [], at: day("2026-12-01"))
        #expect(projectCatalogue.offer(opening: "professions", for: fresh, at: day("2026-12-01"))?.id == "water-and-professions")
        #expect(projectCatalogue.offer(opening: "professions", for: fresh, at: day("2027-01-02"))?.id == "professions")
        #expect(projectCatalogue.offer(opening: "numbers", for: fresh, at: day("2026-12-01"))?.id == "numbers")
        #expect(projectCatalogue.offer(opening: "home", for: fresh, at: day("2026-12-01")) == nil)
    }

    @Test("a promotion's price runs between its dates, with the usual price beside it")
    func promotion() throws {
        let text = """
            starter: {lists: []}
            plans:
              free: {ads: true, names: {en: Free, fr: Gratuit, it: Gratuita, de: Kostenlos, es: Gratis}}
            products:
              - id: water
                kind: list
                unlocks: [water]
                names: {en: Water, fr: Eau, it: Acqua, de: Wasser, es: Agua}
                prices: {USD: 99}
                promotions: [{id: winter, from: 2026-12-01, until: 2027-01-15, prices: {USD: 49}}]
                stores: {app-store: app.parla.list.water}
            """
        let (catalogue, problems) = CatalogueReader(lists: ["water"]).read(text)
        #expect(problems.isEmpty, "\(problems)")
        let ownership = catalogue.ownership(of: [], at: day("2026-12-10"))
        let during = try #require(
            catalogue.offers(for: ownership, currency: "USD", appVersion: nil, store: nil, at: day("2026-12-10")).first)
        #expect(during.price == 49 && during.regularPrice == 99 && during.promotion?.id == "winter")
        let after = try #require(
            catalogue.offers(for: ownership, currency: "USD", appVersion: nil, store: nil, at: day("2027-01-15")).first)
        #expect(after.price == 99 && after.regularPrice == nil && after.promotion == nil)
    }

    @Test("what is owned or opened already is hidden; a bundle or pack with a list left stays")
    func ownedHidden() {
        let water = Entitlement(product: "water", source: .purchase, starts: day("2026-11-01"))
        let shop = offers([water])
        #expect(shop["water"] == nil && shop["professions"] == nil)
        #expect(shop["water-and-professions"] != nil)  // professions is still closed
        #expect(shop["all-word-lists"] != nil)
        let basics = Entitlement(product: "pack-basics", source: .purchase, starts: day("2026-11-01"))
        #expect(offers([basics])["numbers"] == nil && offers([basics])["pack-basics"] == nil)
        let full = Entitlement(product: "full-lifetime", source: .purchase, starts: day("2026-11-01"))
        let fullShop = offers([full])
        #expect(fullShop.isEmpty, "\(fullShop.keys)")
    }

    @Test("a subscriber may buy the plan for good, not a lower plan")
    func planChanges() {
        let monthly = Entitlement(product: "full-monthly", source: .purchase, starts: day("2026-11-15"), ends: day("2026-12-15"))
        let shop = offers([monthly])
        #expect(Set(shop.keys) == ["full-lifetime"])
        let changes = projectCatalogue.planChanges(
            for: projectCatalogue.ownership(of: [], at: day("2026-12-01")), currency: "USD", store: nil, at: day("2026-12-01"))
        #expect(changes.trial)
        #expect(Set(changes.products.map(\.product.id)) == ["lite", "full-monthly", "full-yearly", "full-lifetime"])
    }

    @Test("a product newer than the app says updateRequired; unknown currency or store hides")
    func updateRequired() {
        #expect(offers(version: "2.0.3")["pack-basics"]?.updateRequired == true)
        #expect(offers(version: "2.1")["pack-basics"]?.updateRequired == false)
        #expect(offers()["pack-basics"]?.updateRequired == false)
        let ownership = projectCatalogue.ownership(of: [], at: day("2026-12-01"))
        #expect(projectCatalogue.offers(for: ownership, currency: "JPY", appVersion: nil, store: nil, at: day("2026-12-01")).isEmpty)
        var products = projectCatalogue.products
        products[0].storeIDs[.googlePlay] = nil
        let catalogue = Catalogue(products: products, plans: projectCatalogue.plans, starterLists: projectCatalogue.starterLists)
        let onPlay = catalogue.offers(for: ownership, currency: "USD", appVersion: nil, store: .googlePlay, at: day("2026-12-01"))
        #expect(!onPlay.contains { $0.product.id == catalogue.products[0].id })
    }
}

@Suite("packs of the course as products")
struct CoursePackProductTests {
    let now = day("2026-12-01")

    @Test("a new account opens the first pack of each section; the rest are locked, each with its pack then the mega-pack")
    func newAccount() throws {
        let fresh = projectCatalogue.ownership(of: [], at: now)
        #expect(fresh.coursePacks == ["read-sightwords", "discover-home", "discover-animals", "stories-a1"])
        #expect(!fresh.mayOpen(coursePack: "discover-food") && !fresh.mayOpen(coursePack: "stories-a2"))
        let food = projectCatalogue.offers(opening: "discover-food", for: fresh, currency: "USD", at: now)
        #expect(food.map(\.product.id) == ["course-discover-food", "course-discover-all"])
        // Seed 001's flyer: $1.99 a pack, "Save 33%, $3.99 for 3 packs".
        #expect(food[0].price == 199 && food[0].coursePacks == ["discover-food"])
        #expect(food[1].price == 399 && food[1].partsPrice == 597 && food[1].savings == 198)
        #expect(food[1].coursePacks == ["discover-clothing", "discover-family", "discover-food"])
        #expect(
            projectCatalogue.offers(opening: "stories-a2", for: fresh, currency: "USD", at: now).map(\.product.id) == ["course-stories-a2"])
        #expect(projectCatalogue.offers(opening: "stories-a1", for: fresh, currency: "USD", at: now).isEmpty)
    }

    @Test("a mega-pack opens its packs and leaves the shop; a pack bought alone leaves the mega-pack on sale; full opens all")
    func buying() {
        let mega = Entitlement(product: "course-discover-all", source: .purchase, starts: day("2026-11-01"))
        let owner = projectCatalogue.ownership(of: [mega], at: now)
        #expect(["discover-food", "discover-family", "discover-clothing"].allSatisfy(owner.mayOpen(coursePack:)))
        #expect(!owner.mayOpen(coursePack: "stories-a2"))
        let shop = Set(projectCatalogue.offers(for: owner, currency: "USD", appVersion: nil, store: nil, at: now).map(\.product.id))
        #expect(!shop.contains("course-discover-all") && !shop.contains("course-discover-food") && shop.contains("course-stories-a2"))
        let one = Entitlement(product: "course-discover-food", source: .purchase, starts: day("2026-11-01"))
        let single = projectCatalogue.ownership(of: [one], at: now)
        #expect(single.mayOpen(coursePack: "discover-food") && !single.mayOpen(coursePack: "discover-family"))
        #expect(
            projectCatalogue.offers(opening: "discover-family", for: single, currency: "USD", at: now).map(\.product.id)
                == ["course-discover-family", "course-discover-all"])
        var refunded = one
        refunded.revoked = day("2026-11-30")
        #expect(!projectCatalogue.ownership(of: [refunded], at: now).mayOpen(coursePack: "discover-food"))
        let full = Entitlement(product: "full-lifetime", source: .purchase, starts: day("2026-11-01"))
        #expect(projectCatalogue.ownership(of: [full], at: now).coursePacks == Set(coursePacks))
        let trial = Entitlement(product: "trial", source: .trial, starts: day("2026-11-28"), ends: day("2026-12-05"))
        #expect(projectCatalogue.ownership(of: [trial], at: now).mayOpen(coursePack: "stories-a2"))
    }

    @Test("the reader refuses a pack the course lacks, and a pack neither open from sign-up nor sold")
    func problems() {
        let text = """
            starter: {lists: [], coursePacks: [stories-a1, stories-z9]}
            plans:
              free: {ads: true, names: {en: Free, fr: Gratuit, it: Gratuita, de: Kostenlos, es: Gratis}}
            products:
              - {id: p, kind: pack, coursePacks: [dragons]}
            """
        let messages = CatalogueReader(lists: [], coursePacks: ["stories-a1", "stories-a2"]).read(text).problems.map(\.message)
        for expected in [
            "starter course pack stories-z9 is not a pack of the course",
            "product p opens course pack dragons, which the course does not have",
            "course pack stories-a2 is neither open from sign-up nor sold",
        ] {
            #expect(messages.contains { $0.contains(expected) }, "\(expected): \(messages)")
        }
    }
}

import Foundation
import Logging
import ParlaAPI
import ParlaCore
import ParlaOperations
import ParlaServer
import ParlaTestSupport
import Testing

/// The starter set, plans, the shop and App Store purchases, end to end:
/// transactions and notifications signed by a test root the server is
/// configured to trust, as production trusts Apple's.
@Suite("plans, shop and purchases")
struct CommerceTests {
    typealias PlanInfo = Components.Schemas.PlanInfo
    typealias Entitlements = Components.Schemas.Entitlements
    typealias Problem = Components.Schemas.Problem
    typealias Source = Components.Schemas.EntitlementInfo.SourcePayload
    /// The body of `GET /v1/languages/{language}/wordlists` (an inline schema: no `Components.Schemas` type).
    typealias WordLists = Operations.ListWordLists.Output.Ok.Body.JsonPayload

    /// A server that trusts `store`'s root for App Store data.
    func app(_ store: TestAppStore) async throws -> TestApp {
        let root = try store.writeRoot()
        return try await TestApp.make { $0.purchases.appStore.rootCertificates = [root] }
    }

    func unlocked(_ client: Client, _ learner: String, _ token: String) async throws -> Set<String> {
        let lists = try await client.get("/v1/languages/en/wordlists?learnerId=\(learner)", token: token).decoded(WordLists.self)
        return Set(lists.wordLists.filter { !$0.locked }.map(\.id))
    }

    func game(_ client: Client, _ learner: Client.SignedUp, list: String?, learnerID: String? = nil) async throws -> Client.Reply {
        var json: [String: any Sendable] = ["language": "fr", "kind": "matching", "pairs": 6, "faces": "wordPicture"]
        if let list { json["wordListId"] = list }
        return try await client.post("/v1/learners/\(learnerID ?? learner.learnerID)/games", token: learner.token, json: json)
    }

    @Test("a new learner opens the starter's eight lists whole and plays a game from them; other lists stay locked")
    func starterSet() async throws {
        try await TestApp.make().run { client in
            let parent = try await client.signUp()
            #expect(try await unlocked(client, parent.learnerID, parent.token) == Set(starterLists))
            let home = try await client.get("/v1/languages/en/wordlists/home/pages/1?learnerId=\(parent.learnerID)", token: parent.token)
                .decoded(Components.Schemas.WordPage.self)
            #expect(!home.locked)
            #expect(home.words.count == 35)
            // Anonymous callers see the starter set too.
            let anonymous = try await client.get("/v1/languages/en/wordlists/home/pages/1").decoded(Components.Schemas.WordPage.self)
            #expect(!anonymous.locked)

            let played = try await game(client, parent, list: "home")
            #expect(played.status == 201, "\(played.text)")
            let locked = try await game(client, parent, list: "water")
            #expect(locked.status == 403 && locked.code == "word_list_locked")
            #expect(try !locked.decoded(Problem.self).detail.isEmpty)
            // A game from no list deals only words the account may open.
            let any = try await game(client, parent, list: nil)
            #expect(any.status == 201)

            // A word card: a home word and a starter list's word open, a locked list's word not.
            let sofa = try await client.get("/v1/languages/en/words/sofa?learnerId=\(parent.learnerID)", token: parent.token)
            #expect(sofa.status == 200, "\(sofa.text)")
            let card = try await client.get("/v1/languages/fr/words/horse?learnerId=\(parent.learnerID)", token: parent.token)
            #expect(card.status == 200)  // a word of animals, a starter list
            let lockedWord = try await client.get(
                "/v1/languages/fr/words/anchor?learnerId=\(parent.learnerID)", token: parent.token, headers: ["Accept-Language": "de"])
            #expect(lockedWord.status == 403 && lockedWord.code == "word_locked")
            #expect(try lockedWord.decoded(Problem.self).detail.contains("Wort"))
        }
    }

    @Test("T6.1 the plan shows free with ads, its features and how to switch; T6.2 the trial opens everything, once")
    func planAndTrial() async throws {
        try await TestApp.make().run { client in
            let parent = try await client.signUp()
            let plan = try await client.get("/v1/me/plan?currency=EUR", token: parent.token)
            #expect(plan.status == 200, "\(plan.text)")
            let free = try plan.decoded(PlanInfo.self)
            #expect(free.plan == .free && free.ads)
            #expect(free.status == .active)
            #expect(free.features.contains { $0.feature == .lessonsPerDay && $0.limit == 10 })
            #expect(free.features.contains { $0.feature == .allWordLists && $0.enabled == false })
            #expect(free.switchTo.contains { $0.how == .trial && $0.days == 7 })
            let full = free.switchTo.filter { $0.plan == .full }.compactMap { $0.offer?.id }
            #expect(Set(full) == ["full-monthly", "full-yearly", "full-lifetime"])

            let trial = try await client.post("/v1/me/plan/trial", token: parent.token, json: [:])
            #expect(trial.status == 201, "\(trial.text)")
            let onTrial = try trial.decoded(PlanInfo.self)
            #expect(onTrial.plan == .trial && !onTrial.ads)
            let ends = try #require(onTrial.endsAt)
            #expect(ends > Date().addingTimeInterval(6.9 * 86400))
            #expect(try await unlocked(client, parent.learnerID, parent.token).count == 12)
            #expect(try await game(client, parent, list: "water").status == 201)
            let again = try await client.post("/v1/me/plan/trial", token: parent.token, json: [:])
            #expect(again.status == 409 && again.code == "trial_already_used")
            let after = try await client.get("/v1/me/plan", token: parent.token).decoded(PlanInfo.self)
            #expect(!after.switchTo.contains { $0.plan == .trial || $0.how == .trial })
        }
    }

    @Test("the shop: prices in minor units, the promotion's savings, updateRequired for a newer product; bad input is 422")
    func catalogue() async throws {
        try await TestApp.make().run { client in
            let parent = try await client.signUp()
            let shop = try await client.get(
                "/v1/catalogue?currency=EUR&language=fr", token: parent.token, headers: ["X-App-Version": "2.0.3"])
            #expect(shop.status == 200, "\(shop.text)")
            let products = try shop.decoded(Components.Schemas.CatalogueInfo.self).products
            let byID = Dictionary(uniqueKeysWithValues: products.map { ($0.id, $0) })
            #expect(byID["home"] == nil && byID["legacy-picture-dictionary-175"] == nil)
            #expect(byID["numbers"]?.price == 99 && byID["numbers"]?.name == "Les nombres")
            #expect(byID["pack-basics"]?.updateRequired == true)
            #expect(byID["numbers"]?.updateRequired == false)
            let mega = try #require(byID["all-word-lists"])
            #expect(mega.partsPrice == 347 && mega.savings == 48)
            #expect(
                try await client.get("/v1/catalogue", token: parent.token, headers: ["X-App-Version": "two"]).code == "invalid_app_version")
            #expect(try await client.get("/v1/catalogue?currency=euro", token: parent.token).code == "invalid_currency")
            #expect(try await client.get("/v1/catalogue").status == 401)
        }
    }

    @Test("a signed purchase opens a list for every learner of the account and on every server; a refund locks it again")
    func purchaseAndRefund() async throws {
        let store = try TestAppStore()
        let app = try await app(store)
        let second = TestApp(databaseURL: app.databaseURL) {
            $0.purchases.appStore.rootCertificates = app.settings.purchases.appStore.rootCertificates
        }
        try await app.run { first in
            try await second.run { other in
                let parent = try await first.signUp()
                let child = try await first.post("/v1/learners", token: parent.token, json: ["displayName": "Léo"])
                    .decoded(Components.Schemas.Learner.self).id
                // Both servers have read (and keep) the account's entitlements.
                #expect(try await unlocked(other, child, parent.token) == Set(starterLists))
                #expect(try await unlocked(first, parent.learnerID, parent.token) == Set(starterLists))

                let transaction = try store.transaction(
                    id: "1000000001", product: "app.parla.list.water", accountToken: UUID(uuidString: parent.accountID))
                let bought = try await first.post("/v1/purchases/app-store", token: parent.token, json: ["signedTransaction": transaction])
                #expect(bought.status == 200, "\(bought.text)")
                #expect(Set(try bought.decoded(Entitlements.self).lists) == Set(starterLists + ["water"]))
                #expect(try await unlocked(first, child, parent.token) == Set(starterLists + ["water"]))
                #expect(try await eventually { try await unlocked(other, child, parent.token) == Set(starterLists + ["water"]) })
                #expect(try await game(other, parent, list: "water", learnerID: child).status == 201)

                // The same transaction again changes nothing; another account may not take it.
                #expect(
                    try await first.post("/v1/purchases/app-store", token: parent.token, json: ["signedTransaction": transaction]).status
                        == 200)
                let stranger = try await first.signUp(email: "stranger@example.com")
                let stolen = try await other.post(
                    "/v1/purchases/app-store", token: stranger.token, json: ["signedTransaction": transaction])
                #expect(stolen.status == 409 && stolen.code == "purchase_foreign")
                let forged = try await first.post(
                    "/v1/purchases/app-store", token: stranger.token,
                    json: ["signedTransaction": try TestAppStore().transaction(id: "9", product: "app.parla.list.water")])
                #expect(forged.status == 422 && forged.code == "purchase_invalid")

                // Apple's refund notification, to the second server: locked everywhere.
                let refunded = try store.transaction(
                    id: "1000000001", product: "app.parla.list.water", revoked: Date(), accountToken: UUID(uuidString: parent.accountID))
                let notice = try store.notification("REFUND", transaction: refunded)
                #expect(try await other.post("/v1/store-notifications/app-store", json: ["signedPayload": notice]).status == 200)
                #expect(try await unlocked(other, child, parent.token) == Set(starterLists))
                #expect(try await eventually { try await unlocked(first, parent.learnerID, parent.token) == Set(starterLists) })
                #expect(try await game(first, parent, list: "water").code == "word_list_locked")
                // Sent twice (Apple retries), taken once.
                #expect(try await first.post("/v1/store-notifications/app-store", json: ["signedPayload": notice]).status == 200)
                let restored = try await first.post("/v1/purchases/restore", token: parent.token, json: [:]).decoded(Entitlements.self)
                #expect(restored.entitlements.map(\.source) == starterLists.map { _ in Source.starter })
                #expect(
                    try await first.post("/v1/store-notifications/app-store", json: ["signedPayload": "x.y.z"]).code == "purchase_invalid")
            }
        }
    }

    @Test("a subscription: full while it runs and renews, free again when it expires, without losing progress")
    func subscription() async throws {
        let store = try TestAppStore()
        try await app(store).run { client in
            let parent = try await client.signUp()
            let token = UUID(uuidString: parent.accountID)
            let first = try store.transaction(
                id: "500", product: "app.parla.plan.full.monthly", purchased: Date().addingTimeInterval(-20 * 86400),
                expires: Date().addingTimeInterval(10 * 86400), accountToken: token)
            #expect(try await client.post("/v1/purchases/app-store", token: parent.token, json: ["signedTransaction": first]).status == 200)
            var plan = try await client.get("/v1/me/plan", token: parent.token).decoded(PlanInfo.self)
            #expect(plan.plan == .full && plan.renews == true)
            #expect(!plan.ads)
            #expect(plan.switchTo.compactMap { $0.offer?.id } == ["full-lifetime"])
            #expect(try await game(client, parent, list: "colours").status == 201)
            // The trial would give nothing more: it is kept for later.
            #expect(try await client.post("/v1/me/plan/trial", token: parent.token, json: [:]).code == "trial_not_available")

            // Renewed: a new transaction of the chain moves the end later.
            let renewed = try store.transaction(
                id: "501", original: "500", product: "app.parla.plan.full.monthly", purchased: Date(),
                expires: Date().addingTimeInterval(40 * 86400), accountToken: token)
            _ = try await client.post(
                "/v1/store-notifications/app-store", json: ["signedPayload": try store.notification("DID_RENEW", transaction: renewed)])
            plan = try await client.get("/v1/me/plan", token: parent.token).decoded(PlanInfo.self)
            let end = try #require(plan.endsAt)
            #expect(end > Date().addingTimeInterval(39 * 86400))

            // Expired (the renewal failed for good): free again; a late, older notice moves nothing back.
            let lapsed = try store.transaction(
                id: "502", original: "500", product: "app.parla.plan.full.monthly", purchased: Date().addingTimeInterval(-31 * 86400),
                expires: Date().addingTimeInterval(-86400), accountToken: token)
            _ = try await client.post(
                "/v1/store-notifications/app-store",
                json: [
                    "signedPayload": try store.notification(
                        "EXPIRED", subtype: "VOLUNTARY", transaction: lapsed,
                        renewal: try store.renewal(original: "500", product: "app.parla.plan.full.monthly", renews: false))
                ])
            plan = try await client.get("/v1/me/plan", token: parent.token).decoded(PlanInfo.self)
            #expect(plan.plan == .full)  // the renewal's period still runs
            #expect(plan.renews == false)
            // Its refund ends it now; the learner's courses and progress stay.
            let refund = try store.transaction(
                id: "501", original: "500", product: "app.parla.plan.full.monthly", purchased: Date(),
                expires: Date().addingTimeInterval(40 * 86400), revoked: Date(), accountToken: token)
            _ = try await client.post(
                "/v1/store-notifications/app-store", json: ["signedPayload": try store.notification("REFUND", transaction: refund)])
            plan = try await client.get("/v1/me/plan", token: parent.token).decoded(PlanInfo.self)
            #expect(plan.plan == .free)
            #expect(try await game(client, parent, list: "colours").code == "word_list_locked")
            #expect(try await client.get("/v1/learners/\(parent.learnerID)/games?language=fr", token: parent.token).status != 500)
        }
    }

    @Test("seed 000: a buyer of the old app claims its 175 words; a newer buyer cannot")
    func legacyClaim() async throws {
        let store = try TestAppStore()
        try await app(store).run { client in
            let parent = try await client.signUp()
            let newer = try await client.post(
                "/v1/purchases/legacy", token: parent.token,
                json: ["signedAppTransaction": try store.appTransaction(originalVersion: "2.0")])
            #expect(newer.status == 403 && newer.code == "legacy_not_eligible")
            let old = try await client.post(
                "/v1/purchases/legacy", token: parent.token,
                json: ["signedAppTransaction": try store.appTransaction(originalVersion: "1.3")])
            #expect(old.status == 200, "\(old.text)")
            // Seed 000 1.b: the same 280 words as a new user; Water and Professions stay locked.
            #expect(try await unlocked(client, parent.learnerID, parent.token) == Set(starterLists))
            let sources = try old.decoded(Entitlements.self).entitlements.map(\.source)
            #expect(sources == starterLists.map { _ in Source.starter } + [.legacy])
        }
    }

    /// Issue 32, item 18: garbage is garbage, store or no store.
    @Test("garbage is purchase_invalid (422) whatever is configured; a signed payload with no App Store root is store_not_configured")
    func storeUnconfigured() async throws {
        let store = try TestAppStore()
        let garbage = ["a.b.c", "not a transaction", "eyJhbGciOiJFUzI1NiJ9..", String(repeating: "x.", count: 2) + "x"]
        try await TestApp.make().run { client in
            let parent = try await client.signUp()
            for junk in garbage {
                let reply = try await client.post("/v1/purchases/app-store", token: parent.token, json: ["signedTransaction": junk])
                #expect(reply.status == 422 && reply.code == "purchase_invalid", "\(junk): \(reply.text)")
            }
            let legacy = try await client.post("/v1/purchases/legacy", token: parent.token, json: ["signedAppTransaction": "junk"])
            #expect(legacy.status == 422 && legacy.code == "purchase_invalid")
            let signed = try store.transaction(id: "3000000001", product: "app.parla.list.water", accountToken: nil)
            let reply = try await client.post("/v1/purchases/app-store", token: parent.token, json: ["signedTransaction": signed])
            #expect(reply.status == 501 && reply.code == "store_not_configured", "\(reply.text)")
            #expect(reply.header("Retry-After") == nil)
            #expect(try !reply.decoded(Problem.self).detail.contains("try again"))
        }
        try await app(store).run { client in
            let parent = try await client.signUp()
            for junk in garbage {
                let reply = try await client.post("/v1/purchases/app-store", token: parent.token, json: ["signedTransaction": junk])
                #expect(reply.status == 422 && reply.code == "purchase_invalid", "\(junk): \(reply.text)")
            }
        }
    }

    @Test("the free plan's daily game limit is a 402 with a code")
    func dailyLimit() async throws {
        try await TestApp.make().run { client in
            let parent = try await client.signUp()
            for _ in 1...10 { #expect(try await game(client, parent, list: "home").status == 201) }
            let over = try await game(client, parent, list: "home")
            #expect(over.status == 402 && over.code == "plan_limit_reached")
        }
    }

    @Test("support's grant and the purchase history (parla grant, parla purchases show)")
    func support() async throws {
        let app = try await TestApp.make()
        let parent = try await app.run { client in try await client.signUp() }
        let settings = app.settings
        let logger = Logger(label: "parla.test.support")
        let granted = try await SupportDesk.with(settings, logger: logger) {
            try await $0.grant("pack-basics", to: parent.email, until: nil, note: "ticket 42", revoke: false)
        }
        #expect(granted.hasPrefix("granted pack-basics"))
        let shown = try await SupportDesk.with(settings, logger: logger) { try await $0.purchases(of: parent.learnerID) }
        #expect(shown.contains("pack-basics  grant  active"))
        #expect(shown.contains("lists " + (starterLists + ["colours", "numbers"]).sorted().joined(separator: " ")))
        let lists = try await app.run { client in try await unlocked(client, parent.learnerID, parent.token) }
        #expect(lists == Set(starterLists + ["numbers", "colours"]))
        let revoked = try await SupportDesk.with(settings, logger: logger) {
            try await $0.grant("pack-basics", to: parent.accountID, until: nil, note: nil, revoke: true)
        }
        #expect(revoked.hasPrefix("revoked 1"))
    }
}

import Foundation
import ParlaCommerce
import ParlaCore
import ParlaPurchases
import ParlaTestSupport
import Testing

/// The App Store's signed data, checked against a root of the test's own
/// (as production checks against Apple Root CA - G3).
@Suite("App Store signed data")
struct AppStoreVerifierTests {
    let store: TestAppStore
    let verifier: AppStoreVerifier
    let catalogue = Catalogue(
        products: [
            Product(id: "water", kind: .list, unlocks: ["water"], prices: ["USD": 99], storeIDs: [.appStore: "app.parla.list.water"]),
            Product(
                id: "full-monthly", kind: .plan, plan: .full, billing: .monthly, prices: ["USD": 499],
                storeIDs: [.appStore: "app.parla.plan.full.monthly"]),
        ], plans: [:], starterLists: [])

    init() throws {
        store = try TestAppStore()
        verifier = try AppStoreVerifier(
            settings: AppStoreSettings(
                rootCertificates: [store.root], bundleID: "app.parla", environments: ["Production"],
                legacyBeforeVersion: AppVersion("2.0")))
    }

    func refused(_ jws: String) async -> Bool {
        do {
            _ = try await verifier.transaction(jws, catalogue: catalogue)
            return false
        } catch is AppStoreVerifier.Rejection {
            return true
        } catch {
            return false
        }
    }

    @Test("a signed transaction becomes the catalogue's product, with its chain and dates")
    func transaction() async throws {
        let token = UUID()
        let purchased = Date(timeIntervalSince1970: 1_790_000_000)
        let jws = try store.transaction(id: "2000000001", product: "app.parla.list.water", purchased: purchased, accountToken: token)
        let transaction = try await verifier.transaction(jws, catalogue: catalogue)
        #expect(transaction.product == "water")
        #expect(transaction.transactionID == "2000000001" && transaction.originalTransactionID == "2000000001")
        #expect(transaction.purchased == purchased)
        #expect(transaction.accountToken == token)
        #expect(transaction.expires == nil && transaction.revoked == nil)
        #expect(transaction.environment == "Production")
        #expect(transaction.payload == jws)
        #expect(transaction.storeKey == "app-store:2000000001")
    }

    @Test("refused: another root's chain, a chain without Apple's marks, a changed payload or signature")
    func forgeries() async throws {
        let stranger = try TestAppStore(name: "Someone Else's Root")
        #expect(await refused(try stranger.transaction(id: "1", product: "app.parla.list.water")))
        let unmarked = try TestAppStore(marked: false)
        let trustingUnmarked = try AppStoreVerifier(
            settings: AppStoreSettings(
                rootCertificates: [unmarked.root], bundleID: "app.parla", environments: ["Production"], legacyBeforeVersion: nil))
        await #expect(throws: AppStoreVerifier.Rejection.self) {
            _ = try await trustingUnmarked.transaction(
                try unmarked.transaction(id: "1", product: "app.parla.list.water"), catalogue: catalogue)
        }
        let genuine = try store.transaction(id: "3", product: "app.parla.list.water").split(separator: ".").map(String.init)
        let other = try store.transaction(id: "4", product: "app.parla.plan.full.monthly").split(separator: ".").map(String.init)
        #expect(await refused([genuine[0], other[1], genuine[2]].joined(separator: ".")))
        #expect(await refused([genuine[0], genuine[1], other[2]].joined(separator: ".")))
        #expect(await refused("not.a.jws"))
        #expect(await refused(genuine[0] + "." + genuine[1]))
    }

    @Test("refused: another app's bundle id, or the sandbox where only production counts")
    func bundleAndEnvironment() async throws {
        #expect(await refused(try store.transaction(id: "5", product: "app.parla.list.water", bundleID: "com.example.other")))
        #expect(await refused(try store.transaction(id: "6", product: "app.parla.list.water", environment: "Sandbox")))
    }

    @Test("a product Parla does not sell is product_not_found")
    func unknownProduct() async throws {
        await #expect(throws: ParlaError(.productNotFound)) {
            _ = try await verifier.transaction(try store.transaction(id: "7", product: "app.parla.unknown"), catalogue: catalogue)
        }
    }

    @Test("a notification carries its transaction, with the renewal's grace and status")
    func notification() async throws {
        let expires = Date().addingTimeInterval(-3600)
        let grace = Date().addingTimeInterval(86400 * 6)
        let transaction = try store.transaction(
            id: "8", original: "8", product: "app.parla.plan.full.monthly", purchased: Date().addingTimeInterval(-30 * 86400),
            expires: expires)
        let payload = try store.notification(
            "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", transaction: transaction,
            renewal: try store.renewal(original: "8", product: "app.parla.plan.full.monthly", renews: true, graceEnds: grace))
        let notification = try await verifier.notification(payload, catalogue: catalogue)
        #expect(notification.type == "DID_FAIL_TO_RENEW" && notification.subtype == "GRACE_PERIOD")
        let found = try #require(notification.transaction)
        #expect(found.product == "full-monthly" && found.renews)
        #expect(abs(found.graceEnds!.timeIntervalSince(grace)) < 0.01)
    }

    @Test("an AppTransaction first bought before 2.0 is a legacy buyer's")
    func legacy() async throws {
        #expect(try await verifier.isLegacyBuyer(try store.appTransaction(originalVersion: "1.4.2")).eligible)
        #expect(try await !verifier.isLegacyBuyer(try store.appTransaction(originalVersion: "2.0")).eligible)
    }
}

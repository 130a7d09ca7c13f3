import Foundation
import ParlaCommerce
import ParlaPurchases
import ParlaTestSupport

// Verifying App Store signed transactions: the latency of one check on one
// core (Benchmarks/purchases.sh pins it), with the chain kept after its
// first verification (every transaction after the first) and without (a
// verifier that has seen no chain). Transactions are signed beforehand by a
// test root, intermediate and leaf shaped as Apple's.
let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 5000
let store = try TestAppStore()
let settings = AppStoreSettings(
    rootCertificates: [store.root], bundleID: store.bundleID, environments: ["Production"], legacyBeforeVersion: nil)
let catalogue = Catalogue(
    products: [Product(id: "water", kind: .list, unlocks: ["water"], prices: ["USD": 99], storeIDs: [.appStore: "app.parla.list.water"])],
    plans: [:], starterLists: [])
let transactions = try (0..<count).map { try store.transaction(id: String(2_000_000_000 + $0), product: "app.parla.list.water") }

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func summary(_ samples: [Double]) -> (p50: Double, p99: Double, mean: Double, max: Double) {
    let sorted = samples.sorted()
    func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int((q * Double(sorted.count)).rounded(.up)) - 1)] }
    return (at(0.5), at(0.99), sorted.reduce(0, +) / Double(sorted.count), sorted.last ?? 0)
}

let clock = ContinuousClock()
let kept = try AppStoreVerifier(settings: settings)
var warm: [Double] = []
for (index, jws) in transactions.enumerated() {
    let elapsed = try await clock.measure { _ = try await kept.transaction(jws, catalogue: catalogue) }
    if index > 0 { warm.append(milliseconds(elapsed)) }
}
var cold: [Double] = []
for jws in transactions.prefix(max(1, count / 20)) {
    let fresh = try AppStoreVerifier(settings: settings)
    cold.append(milliseconds(try await clock.measure { _ = try await fresh.transaction(jws, catalogue: catalogue) }))
}
let (w, c) = (summary(warm), summary(cold))
func f(_ value: Double) -> String { String(format: "%.3f", value) }
print("| verification | checks | p50 ms | p99 ms | mean ms | max ms |")
print("|---|---:|---:|---:|---:|---:|")
print("| chain kept (signature, payload, bundle, environment) | \(warm.count) | \(f(w.p50)) | \(f(w.p99)) | \(f(w.mean)) | \(f(w.max)) |")
print("| chain verified afresh (x5c to the root, Apple's marks) | \(cold.count) | \(f(c.p50)) | \(f(c.p99)) | \(f(c.mean)) | \(f(c.max)) |")
print("\nGoal: p99 under 5 ms on one core with the chain kept: \(w.p99 < 5 ? "met" : "NOT met").")

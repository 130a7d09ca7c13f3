import Crypto
import Foundation
import Logging
import Metrics
import ParlaCore
import ParlaStore
import ServiceLifecycle

/// Counts what `RateLimitPolicy` limits, per client address and per
/// account, and refuses what is over with 429 `too_many_requests` and
/// `Retry-After`. The services call it first thing, so that a refused
/// sign-in costs no bcrypt work and a refused recording no scoring; the
/// API and the dashboard's forms go through the same services.
package struct RateLimiter: Sendable {
    package let counters: RateCounterStore
    package let policy: RateLimitPolicy
    /// Off only where one address is every client by design (benchmarks).
    package let enabled: Bool

    private static let refused = Counter(label: "parla_rate_limited_total")

    /// Counts one `action` for the request's client address (as
    /// `RequestScope` resolved it) and for `account`, when their limits apply.
    package func admit(_ action: LimitedAction, account: AccountID? = nil) async throws {
        try await admit(action, account: account, address: RequestScope.here.clientAddress)
    }

    package func admit(_ action: LimitedAction, account: AccountID?, address: String?) async throws {
        guard enabled else { return }
        let now = Date().timeIntervalSince1970
        var limits: [(key: String, limit: RateLimit)] = []
        if let address, let limit = policy.perAddress[action] {
            limits.append((Self.key(action, "address", address), limit))
        }
        if let account, let limit = policy.perAccount[action] {
            limits.append((Self.key(action, "account", account.description), limit))
        }
        guard !limits.isEmpty else { return }
        let counts = try await counters.hit(limits.map { ($0.key, $0.limit.window(at: now).end) })
        let over = limits.filter { (counts[$0.key] ?? 0) > $0.limit.count }
        guard !over.isEmpty else { return }
        Self.refused.increment()
        RequestScope.here.logger.notice("rate limited", metadata: ["action": "\(action.rawValue)"])
        throw ParlaError(.tooManyRequests, retryAfter: over.map { $0.limit.retryAfter(at: now) }.max())
    }

    /// The action and the subject, hashed: the table never holds an address.
    package static func key(_ action: LimitedAction, _ kind: String, _ subject: String) -> String {
        SHA256.hash(data: Data("\(action.rawValue)|\(kind)|\(subject)".utf8)).hexadecimal
    }

    package init(counters: RateCounterStore, policy: RateLimitPolicy, enabled: Bool) {
        self.counters = counters
        self.policy = policy
        self.enabled = enabled
    }
}

/// Forgets the rate counters of windows that have ended, every few minutes,
/// on every server (a delete of what has ended is safe to repeat).
package struct RateCounterSweeper: Service {
    package let counters: RateCounterStore
    package let interval: Duration
    package let schema: SchemaReady
    package let logger: Logger

    package func run() async throws {
        await schema.everyRound(interval, logger: logger, failure: "rate counter sweep failed") { _ in
            try await counters.sweep()
        }
    }

    package init(counters: RateCounterStore, interval: Duration, schema: SchemaReady, logger: Logger) {
        self.counters = counters
        self.interval = interval
        self.schema = schema
        self.logger = logger
    }
}

import Foundation
import Logging
import ParlaCore
import ParlaIdentity
import ParlaKept
import ParlaStore
import ServiceLifecycle

/// Erases guests nobody has used for `accounts.guestIdleDays`, every
/// `accounts.guestSweepSeconds`, on every server (a guest taken by another
/// server's sweep is skipped).
package struct GuestSweeper: Service {
    package let accounts: AccountStore
    package let leaderboards: LeaderboardService
    package let idleFor: TimeInterval
    package let interval: Duration
    package let schema: SchemaReady
    package let logger: Logger

    package func run() async throws {
        await schema.everyRound(interval, logger: logger, failure: "guest sweep failed") { _ in
            // A batch at a time, until none is left.
            var erased = 0
            while !Task.isCancelled {
                let (guests, ranked) = try await accounts.eraseGuests(idleSince: Date().addingTimeInterval(-idleFor))
                leaderboards.removed(ranked)
                erased += guests.count
                if guests.isEmpty { break }
            }
            if erased > 0 { logger.info("idle guests erased", metadata: ["guests": "\(erased)"]) }
        }
    }

    package init(
        accounts: AccountStore, leaderboards: LeaderboardService, idleFor: TimeInterval, interval: Duration, schema: SchemaReady,
        logger: Logger
    ) {
        self.accounts = accounts
        self.leaderboards = leaderboards
        self.idleFor = idleFor
        self.interval = interval
        self.schema = schema
        self.logger = logger
    }
}

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
struct GuestSweeper: Service {
    let accounts: AccountStore
    let leaderboards: LeaderboardService
    let idleFor: TimeInterval
    let interval: Duration
    let schema: SchemaReady
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            await schema.wait()
            await loop()
        }
    }

    private func loop() async {
        while !Task.isCancelled {
            do {
                // A batch at a time, until none is left.
                var erased = 0
                while !Task.isCancelled {
                    let (guests, ranked) = try await accounts.eraseGuests(idleSince: Date().addingTimeInterval(-idleFor))
                    leaderboards.removed(ranked)
                    erased += guests.count
                    if guests.isEmpty { break }
                }
                if erased > 0 { logger.info("idle guests erased", metadata: ["guests": "\(erased)"]) }
            } catch {
                logger.warning("guest sweep failed", metadata: ["error": "\(String(reflecting: error).prefix(300))"])
            }
            try? await Task.sleep(for: interval)
        }
    }
}

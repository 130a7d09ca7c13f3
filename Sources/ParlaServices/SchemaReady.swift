import Logging
import ServiceLifecycle
import Synchronization

/// Opens once the database's migrations have run (`beforeServerStarts`).
/// The services that work on the tables in the background (mail, sweeps,
/// roll-ups) start beside the migrations; they wait for it, so that on a
/// fresh database they do not query tables still being made.
package final class SchemaReady: Sendable {
    private let opened = Atomic<Bool>(false)

    package func open() { opened.store(true, ordering: .releasing) }

    /// Returns once the schema is ready, or when the task is cancelled
    /// (a shutdown before the migrations ended). A look every 50 ms, at
    /// start-up only: simpler than waking waiters, and cancellable.
    package func wait() async {
        while !opened.load(ordering: .acquiring), !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    package init() {}

    /// A round of background work on the tables, every `interval`, once the
    /// schema is ready and until the server shuts down (which cancels the
    /// wait between rounds, never a round): a failed round is logged as
    /// `failure` and tried again at the next. Rounds are numbered from 0.
    package func everyRound(
        _ interval: Duration, logger: Logger, failure: String, _ round: @escaping @Sendable (Int) async throws -> Void
    ) async {
        await cancelWhenGracefulShutdown {
            await self.wait()
            var number = 0
            while !Task.isCancelled {
                defer { number += 1 }
                do {
                    try await round(number)
                } catch {
                    logger.warning("\(failure)", metadata: ["error": "\(String(reflecting: error).prefix(300))"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}

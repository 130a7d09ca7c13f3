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
}

import Logging
import ServiceLifecycle
import Synchronization

/// A service of the server, named in the log when it has not stopped
/// `patience` after it was asked to (SIGTERM). A service that never stops
/// keeps the process, and its embedded PostgreSQL, up: a release server
/// once did, about one stop in a dozen after a benchmark's load, with
/// every thread idle, so only the log can say which service it was.
struct StoppingWatch: Service, CustomStringConvertible {
    let service: any Service
    let logger: Logger
    var patience: Duration = .seconds(10)

    var description: String { String(describing: type(of: service)) }

    private final class Stopped: Sendable {
        let flag = Atomic<Bool>(false)
    }

    func run() async throws {
        let stopped = Stopped()
        defer { stopped.flag.store(true, ordering: .releasing) }
        try await withGracefulShutdownHandler {
            try await service.run()
        } onGracefulShutdown: { [description, logger, patience] in
            Task {
                try await Task.sleep(for: patience)
                guard !stopped.flag.load(ordering: .acquiring) else { return }
                logger.warning("a service has not stopped", metadata: ["service": "\(description)", "after": "\(patience)"])
            }
        }
    }
}

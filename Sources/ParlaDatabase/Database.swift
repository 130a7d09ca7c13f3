import Foundation
import Logging
import Metrics
import NIOSSL
import PostgresNIO
import Synchronization
import Tracing
import _ConnectionPoolModule

/// The process's one pooled PostgreSQL client, with the migrations that
/// shape its schema. The client is itself a `Service`: add `database.client`
/// to the service group before anything queries it.
public final class Database: Sendable {
    public let client: PostgresClient
    public let maximumConnections: Int
    public let logger: Logger
    private let connectionsInUse = Atomic<Int>(0)
    private let inUseGauge = Gauge(label: "parla_db_connections_in_use")
    private let maximumGauge = Gauge(label: "parla_db_connections_max")

    /// How long a request waits for a connection before it is told the
    /// database is unavailable (`StoreError.databaseUnavailable`).
    public let connectionWait: Duration

    public init(
        configuration: PostgresClient.Configuration, maximumConnections: Int = 20, connectionWait: Duration = .seconds(5),
        logger: Logger
    ) {
        var configuration = configuration
        configuration.options.maximumConnections = maximumConnections
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.maximumConnections = maximumConnections
        self.connectionWait = connectionWait
        self.logger = logger
        maximumGauge.record(maximumConnections)
    }

    /// Runs `body` on one pooled connection, once one is free within
    /// `connectionWait`.
    ///
    /// Design note: the pool queues a request for a connection until one is
    /// free, and while PostgreSQL is down that is until it is back; a
    /// client would see its request hang. So the lease is raced against a
    /// timer (`ConnectionUse`). Exactly one wins: the lease, and the body
    /// runs to its end, never cancelled by the timer (a body cancelled
    /// mid-transaction could hand its connection back with the transaction
    /// open); or the timer, and the caller gets `databaseUnavailable` (503
    /// with Retry-After) while the lease request is cancelled, or, if a
    /// connection comes at that very moment, handed back untouched.
    ///
    /// A body can also hang on a connection that closed under it: PostgresNIO
    /// (1.33) writes a query to its channel without a promise, and a query
    /// written after the channel closed is lost, so its caller waits
    /// forever (found by FaultTests: about one restart in four left a
    /// request waiting on a lesson's query that PostgreSQL never received).
    /// So once the wait is over, the same guard looks every second whether
    /// its connection closed; a body still running `closedConnectionGrace`
    /// after that is given up: the caller gets `databaseUnavailable`, and
    /// the body's task, which can no longer do anything, is left behind
    /// (the pool has dropped the closed connection). That is why the body
    /// runs in a task of its own and must be `@Sendable`.
    ///
    /// Each use is a client span of a trace (when tracing is on), named by
    /// the store and function that asked: "SQL SpeechJobStore.take".
    public func withConnection<Result: Sendable>(
        function: String = #function, fileID: String = #fileID,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await withSpan(Self.spanName(fileID, function), ofKind: .client) { span in
            span.attributes["db.system.name"] = "postgresql"
            return try await leased(body)
        }
    }

    /// "SQL SpeechJobStore.take" for `take(for:limit:)` in SpeechJobStore.swift.
    static func spanName(_ fileID: String, _ function: String) -> String {
        let file = fileID.split(separator: "/").last.map { $0.hasSuffix(".swift") ? $0.dropLast(6) : $0 } ?? ""
        return "SQL \(file).\(function.prefix { $0 != "(" })"
    }

    /// How long a body may go on after its connection closed before it is
    /// given up (one whose query failed with the close ends long before).
    static let closedConnectionGrace = Duration.seconds(2)

    private func leased<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let count = connectionsInUse.add(1, ordering: .relaxed).newValue
        inUseGauge.record(count)
        defer { inUseGauge.record(connectionsInUse.subtract(1, ordering: .relaxed).newValue) }
        let use = ConnectionUse<Result>()
        let (client, wait, logger) = (self.client, connectionWait, logger)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                use.begin(continuation)
                // Both tasks inherit the caller's task-local values (its span).
                let worker = Task {
                    do {
                        try await client.withConnection { connection in
                            guard use.leased(on: connection) else { return }
                            do {
                                use.finish(.success(try await body(connection)))
                            } catch {
                                use.finish(.failure(error))
                            }
                        }
                    } catch {
                        use.finish(.failure(error))  // no connection: the pool refused, or the request was withdrawn
                    }
                }
                use.guardTask(
                    Task {
                        try? await Task.sleep(for: wait)
                        if use.timedOut() {
                            // The caller's answer first: the withdrawn lease
                            // request fails too (requestCancelled), and
                            // must not reach the caller as a 500.
                            use.finish(.failure(StoreError.databaseUnavailable))
                            worker.cancel()
                            return
                        }
                        // Leased (or done): watch the connection while the body runs.
                        while let connection = use.runningOn {
                            if connection.isClosed {
                                try? await Task.sleep(for: Self.closedConnectionGrace)
                                if use.finish(.failure(StoreError.databaseUnavailable)) {
                                    logger.warning("database use given up: its connection closed under it")
                                }
                                return
                            }
                            try? await Task.sleep(for: .seconds(1))
                        }
                    }, worker: worker)
            }
        } onCancel: {
            use.cancel()
        }
    }
    /// Whether `error` means the database cannot be reached now (down,
    /// restarting, shutting down, out of connections), as opposed to a
    /// fault in what was asked of it: the first is a 503, the second a bug.
    public static func isOutage(_ error: any Error) -> Bool {
        if case StoreError.databaseUnavailable = error { return true }
        // The pool stops trying to connect for a while after 15 s of failed
        // attempts, and refuses leases at once meanwhile.
        if let refused = error as? ConnectionPoolError { return refused == .connectionCreationCircuitBreakerTripped }
        if let failed = error as? PostgresTransactionError {
            return [failed.beginError, failed.closureError, failed.commitError].contains { $0.map(isOutage) ?? false }
        }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown:
            return true
        case .server:
            // Class 08: connection exception; 57P01-57P03: shutting down,
            // crash shutdown, cannot connect now; 53300: too many connections.
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state)
        default:
            return false
        }
    }

    /// Runs `body` in one transaction: all of its writes or none. What the
    /// transaction announced (`announce`, migration 0049) is heard by this
    /// server at its commit (`hearOwnAnnouncements`), before its notification
    /// arrives, so that what this server keeps drops its own change at once.
    public func withTransaction<Result: Sendable>(
        function: String = #function, fileID: String = #fileID,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await withConnection(function: function, fileID: fileID) { connection in
            try await self.transaction(on: connection, body)
        }
    }

    /// `body` in one transaction on a connection the caller holds already
    /// (a store that reads, decides and writes on one connection), its
    /// announcements heard at its commit as `withTransaction`'s are.
    public func transaction<Result: Sendable>(
        on connection: PostgresConnection, _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let own = ownAnnouncements.withLock { $0 }
        let (result, announced): (Result, [(String, [Substring])])
        do {
            (result, announced) = try await connection.withTransaction(logger: logger) { connection in
                let result = try await body(connection)
                return (result, try await own?.read(on: connection, logger: self.logger) ?? [])
            }
        } catch let error as PostgresTransactionError {
            // The transaction was rolled back; what matters to callers is
            // why (a domain error, a constraint violation).
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
        }
        if let own { for (topic, keys) in announced { own.heard(topic, keys) } }
        return result
    }

    /// Who hears what this server's transactions announce, and of which topics.
    struct OwnAnnouncements: Sendable {
        var topics: [String]
        var query: String
        var heard: @Sendable (_ topic: String, _ keys: [Substring]) -> Void

        /// What the transaction announced so far, per topic: the keys, or "*".
        func read(on connection: PostgresConnection, logger: Logger) async throws -> [(String, [Substring])] {
            guard let row = try await connection.query(PostgresQuery(unsafeSQL: query), logger: logger).collect().first else { return [] }
            let columns = row.makeRandomAccess()
            var announced: [(String, [Substring])] = []
            for (index, topic) in topics.enumerated() {
                guard let said = try columns[index].decode(String?.self), !said.isEmpty else { continue }
                announced.append((topic, said.split(separator: "\n")))
            }
            return announced
        }
    }

    private let ownAnnouncements = Mutex<OwnAnnouncements?>(nil)

    /// `heard` is told, at each commit of `withTransaction`, the keys the
    /// transaction announced of each of `topics` ("*" for all of a topic).
    public func hearOwnAnnouncements(topics: [String], _ heard: @escaping @Sendable (_ topic: String, _ keys: [Substring]) -> Void) {
        let settings = topics.map { "current_setting('parla.announced_\($0)', true)" }.joined(separator: ", ")
        ownAnnouncements.withLock {
            $0 = topics.isEmpty ? nil : OwnAnnouncements(topics: topics, query: "SELECT " + settings, heard: heard)
        }
    }

    /// What one statement outside a transaction announced, as it returned
    /// it itself (the keys of `topic`; none, nothing): heard as a
    /// transaction's announcements are at its commit. Call it once the
    /// statement has ended.
    public func heardOwn(_ topic: String, keys: [Substring]) {
        guard !keys.isEmpty, let own = ownAnnouncements.withLock({ $0 }), own.topics.contains(topic) else { return }
        own.heard(topic, keys)
    }

    /// One use of a connection: who won the race between the lease and the
    /// timer, the caller's continuation (resumed exactly once, by whoever
    /// finishes first), and the tasks to stop when it is over.
    private final class ConnectionUse<Value: Sendable>: Sendable {
        private enum Phase {
            case waiting, running(PostgresConnection), done
        }
        private struct State {
            var phase = Phase.waiting
            var continuation: CheckedContinuation<Value, any Error>?
            var guardTask: Task<Void, Never>?
            var worker: Task<Void, Never>?
            var cancelled = false
        }
        private let state = Mutex(State())

        func begin(_ continuation: CheckedContinuation<Value, any Error>) {
            state.withLock { $0.continuation = continuation }
        }

        func guardTask(_ guardTask: Task<Void, Never>, worker: Task<Void, Never>) {
            let (cancelled, done) = state.withLock { state in
                (state.guardTask, state.worker) = (guardTask, worker)
                if case .done = state.phase { return (state.cancelled, true) }
                return (state.cancelled, false)
            }
            if cancelled { worker.cancel() }
            // A body that ended before the guard was handed over: stop its wait now.
            if done { guardTask.cancel() }
        }

        /// The lease won, unless the timer did first.
        func leased(on connection: PostgresConnection) -> Bool {
            state.withLock { state in
                guard case .waiting = state.phase else { return false }
                state.phase = .running(connection)
                return true
            }
        }

        /// The timer won, unless the lease did first.
        func timedOut() -> Bool {
            state.withLock { state in
                guard case .waiting = state.phase else { return false }
                state.phase = .done
                return true
            }
        }

        /// The connection the body runs on; nil once it is over.
        var runningOn: PostgresConnection? {
            state.withLock { state in
                if case .running(let connection) = state.phase { return connection }
                return nil
            }
        }

        /// The first outcome reaches the caller; later ones are dropped.
        /// Whether this one was the first.
        @discardableResult
        func finish(_ outcome: Swift.Result<Value, any Error>) -> Bool {
            let (continuation, guardTask) = state.withLock { state in
                state.phase = .done
                defer { state.continuation = nil }
                return (state.continuation, state.guardTask)
            }
            guardTask?.cancel()
            continuation?.resume(with: outcome)
            return continuation != nil
        }

        /// The caller was cancelled: so is the lease request or the body.
        func cancel() {
            let worker = state.withLock { state in
                state.cancelled = true
                return state.worker
            }
            worker?.cancel()
        }
    }
}

extension PostgresClient.Configuration {
    /// Parses `postgres://user:password@host:port/database?sslmode=disable`.
    public init(url: String) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme),
            let user = components.user, !user.isEmpty
        else { throw StoreError.invalidDatabaseURL }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        if let socket = components.queryItems?.first(where: { $0.name == "host" })?.value, socket.hasPrefix("/") {
            self.init(
                unixSocketPath: socket + "/.s.PGSQL.\(components.port ?? 5432)", username: user,
                password: components.password, database: database.isEmpty ? nil : database)
            return
        }
        guard let host = components.host, !host.isEmpty else { throw StoreError.invalidDatabaseURL }
        let tls: TLS
        switch sslMode {
        case "disable": tls = .disable
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        default: tls = .prefer(.makeClientConfiguration())
        }
        self.init(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: database.isEmpty ? nil : database, tls: tls)
    }
}

/// A prepared statement with one bound value, which is what every hot
/// query here is: by id, by token hash.
public protocol KeyedStatement: PostgresPreparedStatement {
    associatedtype Key: PostgresEncodable & Sendable
    var key: Key { get }
}

extension KeyedStatement {
    public func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        try bindings.append(key)
        return bindings
    }
}

extension KeyedStatement where Row == PostgresRow {
    public func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

extension PSQLError {
    /// A unique constraint was violated (SQLSTATE 23505).
    public var isUniqueViolation: Bool { serverInfo?[.sqlState] == "23505" }
}

/// PostgreSQL chose this transaction to end a deadlock (SQLSTATE 40P01):
/// nothing of it was written, and trying again is safe.
public func isDeadlock(_ error: any Error) -> Bool {
    if let error = error as? PostgresTransactionError { return (error.closureError ?? error.commitError).map(isDeadlock) ?? false }
    return (error as? PSQLError)?.serverInfo?[.sqlState] == "40P01"
}

extension ByteBuffer {
    public var bytes: [UInt8] { Array(readableBytesView) }
}

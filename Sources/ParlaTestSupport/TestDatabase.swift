import Foundation
import Logging
import NIOPosix
import ParlaDatabase
import ParlaServer
import ParlaServices
import ParlaStore
import PostgresNIO
import Synchronization

/// One real PostgreSQL cluster per test process, with a migrated template
/// database that every test clones (`CREATE DATABASE ... TEMPLATE`), so
/// tests are isolated from each other and start in milliseconds.
///
/// `PARLA_TEST_DATABASE_URL` (a server whose user may create databases)
/// replaces the private cluster.
public actor TestDatabase {
    public static let shared = TestDatabase()

    /// Started once: callers arriving while it starts wait for the same task.
    private var setup: Task<PostgresConnection, any Error>?
    private var socketDirectory = ""
    private var counter = 0
    private let logger = Logger(label: "parla.tests")

    /// A fresh, migrated database of its own, as a `postgres://` URL.
    public func newDatabase() async throws -> String {
        let admin = try await adminConnection()
        counter += 1
        let name = "test_\(ProcessInfo.processInfo.processIdentifier)_\(counter)"
        do {
            try await admin.query("CREATE DATABASE \(unescaped: name) TEMPLATE parla_template", logger: logger)
        } catch {
            throw TestFailure("CREATE DATABASE \(name): \(String(reflecting: error))")
        }
        return url(database: name)
    }

    /// Drops a database even while a server still holds connections to it.
    public func dropDatabase(url: String) async throws {
        guard let name = URLComponents(string: url)?.path.dropFirst() else { return }
        try await adminConnection().query("DROP DATABASE IF EXISTS \(unescaped: String(name)) WITH (FORCE)", logger: logger)
    }

    /// Closes a database to every connection, ending those it has, or
    /// opens it again: the database goes away and comes back.
    public func setReachable(_ reachable: Bool, url: String) async throws {
        guard let name = URLComponents(string: url)?.path.dropFirst() else { return }
        let admin = try await adminConnection()
        try await admin.query(
            "ALTER DATABASE \(unescaped: String(name)) WITH ALLOW_CONNECTIONS \(unescaped: reachable ? "true" : "false")", logger: logger)
        if !reachable {
            try await admin.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(String(name))", logger: logger)
        }
    }

    /// Runs SQL on a test database and returns its rows: for checks that
    /// must look under the API (what is stored, and how).
    public func rows(in url: String, _ query: PostgresQuery) async throws -> [PostgresRow] {
        let connection = try await PostgresConnection.connect(
            configuration: try Self.connectionConfiguration(PostgresClient.Configuration(url: url)), id: 1, logger: logger)
        do {
            let rows = try await connection.query(query, logger: logger).collect()
            try await connection.close()
            return rows
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The project's own Corpora, imported once into the template, so that
    /// every test database starts with the real content.
    private func importContent(_ configuration: PostgresClient.Configuration) async throws {
        let logger = logger
        try await Self.withPool(configuration, connections: 1, logger: logger) { database in
            _ = try await ContentImporter(directory: TestApp.corporaDirectory, openMojiDirectory: TestApp.openMojiDirectory)
                .run(into: ContentStore(database: database), logger: logger)
        }
    }

    /// A pool of its own on a database (as a second server would have),
    /// running for the length of `body`: for tests that call stores directly.
    public static func withPool<Value: Sendable>(
        _ configuration: PostgresClient.Configuration, connections: Int, connectionWait: Duration = .seconds(5), logger: Logger,
        _ body: (Database) async throws -> Value
    ) async throws -> Value {
        let database = Database(
            configuration: configuration, maximumConnections: connections, connectionWait: connectionWait, logger: logger)
        let pool = Task { await database.client.run() }
        defer { pool.cancel() }
        return try await body(database)
    }

    public static func withPool<Value: Sendable>(
        _ url: String, connections: Int, connectionWait: Duration = .seconds(5), logger: Logger,
        _ body: (Database) async throws -> Value
    ) async throws -> Value {
        try await withPool(
            try PostgresClient.Configuration(url: url), connections: connections, connectionWait: connectionWait, logger: logger, body)
    }

    public func execute(in url: String, _ query: PostgresQuery) async throws {
        _ = try await rows(in: url, query)
    }

    private func adminConnection() async throws -> PostgresConnection {
        if setup == nil { setup = Task { try await self.prepare() } }
        return try await setup!.value
    }

    private func prepare() async throws -> PostgresConnection {
        let base: PostgresClient.Configuration
        if let external = ProcessInfo.processInfo.environment["PARLA_TEST_DATABASE_URL"], !external.isEmpty {
            base = try PostgresClient.Configuration(url: external)
        } else {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "parla-tests-\(ProcessInfo.processInfo.processIdentifier)"
            ).path
            let cluster = EmbeddedCluster(dataDirectory: directory, durable: false)
            try await cluster.start(logger: logger)
            ClusterCleanup.register(cluster)
            socketDirectory = cluster.socketDirectory
            base = cluster.clientConfiguration(database: "postgres")
        }
        let connection = try await PostgresConnection.connect(configuration: Self.connectionConfiguration(base), id: 0, logger: logger)
        try await connection.query("DROP DATABASE IF EXISTS parla_template", logger: logger)
        try await connection.query("CREATE DATABASE parla_template", logger: logger)
        var templateConfiguration = base
        templateConfiguration.database = "parla_template"
        let template = try await PostgresConnection.connect(
            configuration: Self.connectionConfiguration(templateConfiguration), id: 2, logger: logger)
        do {
            _ = try await Database.migrate(on: template, logger: logger)
            try await template.close()
            try await importContent(templateConfiguration)
            // The template may not be cloned while anything is connected to
            // it: nothing may connect now (autovacuum included), and what is
            // still connected (the import's pool, closing) is ended.
            try await connection.query("ALTER DATABASE parla_template WITH ALLOW_CONNECTIONS false", logger: logger)
            for _ in 0..<600 {
                let connected =
                    try await connection.query(
                        """
                        SELECT count(pg_terminate_backend(pid))::int FROM pg_stat_activity WHERE datname = 'parla_template'
                        """, logger: logger
                    )
                    .collect().first?.decode(Int.self) ?? 0
                if connected == 0 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            return connection
        } catch {
            try? await template.close()
            try? await connection.close()
            throw error
        }
    }

    private func url(database: String) -> String {
        if let external = ProcessInfo.processInfo.environment["PARLA_TEST_DATABASE_URL"], !external.isEmpty,
            var components = URLComponents(string: external)
        {
            components.path = "/" + database
            return components.string!
        }
        return "postgres://parla@localhost/\(database)?host=\(socketDirectory)"
    }

    static func connectionConfiguration(_ client: PostgresClient.Configuration) -> PostgresConnection.Configuration {
        if let socket = client.unixSocketPath {
            return PostgresConnection.Configuration(
                unixSocketPath: socket, username: client.username,
                password: client.password, database: client.database)
        }
        return PostgresConnection.Configuration(
            host: client.host ?? "localhost", port: client.port ?? 5432,
            username: client.username, password: client.password,
            database: client.database, tls: .disable)
    }
}

/// Stops the test cluster when the test process exits, and removes its files.
enum ClusterCleanup {
    private static let cluster = Mutex<EmbeddedCluster?>(nil)

    static func register(_ started: EmbeddedCluster) {
        cluster.withLock { $0 = started }
        atexit {
            guard let cluster = ClusterCleanup.cluster.withLock({ $0 }) else { return }
            try? cluster.stopBlocking()
            try? FileManager.default.removeItem(atPath: cluster.dataDirectory)
        }
    }
}

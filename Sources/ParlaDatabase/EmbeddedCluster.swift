import Foundation
import Logging
import Metrics
import NIOPosix
import PostgresNIO
import ServiceLifecycle

/// A private PostgreSQL cluster the server starts for itself when no
/// database URL is configured: `initdb` on first use, `pg_ctl start` on each
/// run, listening only on a Unix socket inside its own directory.
///
/// PostgreSQL refuses to run as root; when we are root, the cluster's files
/// belong to the `postgres` system user and its commands run as that user.
public struct EmbeddedCluster: Sendable {
    public let dataDirectory: String
    public let socketDirectory: String
    /// Tests trade durability for speed; a server keeps its data safe.
    public let durable: Bool
    public static let superuser = "parla"
    static let port = 5432

    public init(dataDirectory: String, durable: Bool = true) {
        let absolute = URL(fileURLWithPath: dataDirectory).standardizedFileURL.path
        self.dataDirectory = absolute
        self.durable = durable
        // A Unix socket path must fit in 107 bytes; long checkouts get a
        // short directory of their own under /tmp.
        if absolute.utf8.count + 20 < 100 {
            socketDirectory = absolute
        } else {
            let digest = absolute.utf8.reduce(UInt64(1469598103934665603)) { ($0 ^ UInt64($1)) &* 1099511628211 }
            socketDirectory = "/tmp/parla-pg-\(String(digest, radix: 36))"
        }
    }

    public func clientConfiguration(database: String) -> PostgresClient.Configuration {
        PostgresClient.Configuration(
            unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(Self.port)",
            username: Self.superuser, password: nil, database: database)
    }

    /// Creates the cluster if needed and starts it, unless it already runs.
    /// Only the process that owns the cluster may stop it: a command run
    /// beside a server connects to the server's cluster and leaves it
    /// running. `adoptingOrphan`: a server takes over a running cluster
    /// whose owner died (a crash, SIGKILL), so that it stops with the server.
    public func start(logger: Logger, adoptingOrphan: Bool = false) async throws {
        try await NIOThreadPool.singleton.runIfActive { try startBlocking(logger: logger, adoptingOrphan: adoptingOrphan) }
    }

    /// Makes this cluster a streaming replica of `primary` (`pg_basebackup
    /// -R`): started like any cluster, it then follows the primary, read
    /// only. Its directory must not hold a cluster yet. For tests of
    /// `database.readURL`.
    public func createReplica(of primary: EmbeddedCluster) async throws {
        try await NIOThreadPool.singleton.runIfActive {
            try prepareDirectory(dataDirectory)
            try run(
                "pg_basebackup",
                [
                    "-h", primary.socketDirectory, "-p", "\(Self.port)", "-U", Self.superuser, "-D", dataDirectory, "-R",
                    "-X", "stream", "-c", "fast",
                ])
            // The primary keeps its socket in its data directory: the copy
            // holds the socket's lock file, and the primary's log.
            for copied in ["/.s.PGSQL.\(Self.port).lock", "/server.log"] {
                try? FileManager.default.removeItem(atPath: dataDirectory + copied)
            }
        }
    }

    /// Stops the cluster if this process is the one that started it.
    public func stop(logger: Logger) async throws {
        let stopped = try await NIOThreadPool.singleton.runIfActive { try stopBlocking() }
        if stopped { logger.info("embedded PostgreSQL stopped", metadata: ["directory": "\(dataDirectory)"]) }
    }

    /// For `atexit` and other places that cannot await. True when it stopped
    /// the cluster; false when it was not running or another process owns it.
    @discardableResult
    public func stopBlocking() throws -> Bool {
        guard isRunning(), owner == getpid() else { return false }
        try run("pg_ctl", ["-D", dataDirectory, "-m", "fast", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: ownerPath)
        return true
    }

    /// Whether the postmaster is alive: its pid file names a live process.
    /// Cheap (no child process), so a server can ask every second.
    public func isRunning() -> Bool {
        guard let pid = Self.firstLineNumber(atPath: dataDirectory + "/postmaster.pid") else { return false }
        return Self.isAlive(pid)
    }

    /// The process that started the cluster and will stop it, if it lives.
    var owner: pid_t? {
        guard let pid = Self.firstLineNumber(atPath: ownerPath), Self.isAlive(pid) else { return nil }
        return pid
    }

    /// Beside the data directory, not in it: the data directory belongs to
    /// the `postgres` user, and `initdb` wants it empty.
    var ownerPath: String { dataDirectory + ".owner" }

    private func startBlocking(logger: Logger, adoptingOrphan: Bool) throws {
        let manager = FileManager.default
        let isInitialized = manager.fileExists(atPath: dataDirectory + "/PG_VERSION")
        try prepareDirectory(dataDirectory)
        if socketDirectory != dataDirectory { try prepareDirectory(socketDirectory) }
        if !isInitialized {
            logger.info("creating embedded PostgreSQL cluster", metadata: ["directory": "\(dataDirectory)"])
            var arguments = ["-D", dataDirectory, "-U", Self.superuser, "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]
            if !durable { arguments.append("--no-sync") }
            try run("initdb", arguments)
        }
        if isRunning() {
            logger.info("embedded PostgreSQL already running", metadata: ["directory": "\(dataDirectory)"])
            if adoptingOrphan { try adoptIfOrphaned() }
            return
        }
        var options = "-k \(socketDirectory) -c listen_addresses='' -p \(Self.port) -c max_connections=300"
        if !durable { options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off" }
        do {
            try run("pg_ctl", ["-D", dataDirectory, "-l", dataDirectory + "/server.log", "-o", options, "-w", "-t", "60", "start"])
        } catch  where isRunning() {
            // Another process started it between our look and our start, or
            // pg_ctl gave up waiting on a postmaster that came up after all.
            if adoptingOrphan { try adoptIfOrphaned() }
            return
        }
        try recordOwner()
        logger.info("embedded PostgreSQL started", metadata: ["directory": "\(dataDirectory)"])
    }

    /// Takes over a running cluster that no living process owns (or that
    /// this one already does).
    private func adoptIfOrphaned() throws {
        if owner == nil || owner == getpid() { try recordOwner() }
    }

    private func recordOwner() throws {
        try Data("\(getpid())\n".utf8).write(to: URL(fileURLWithPath: ownerPath), options: .atomic)
    }

    private static func firstLineNumber(atPath path: String) -> pid_t? {
        guard let data = FileManager.default.contents(atPath: path),
            let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first
        else { return nil }
        return pid_t(line.trimmingCharacters(in: .whitespaces))
    }

    /// `kill(pid, 0)`: EPERM still means the process exists.
    private static func isAlive(_ pid: pid_t) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }

    private static let isRoot = getuid() == 0

    private func prepareDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if Self.isRoot {
            try run("/bin/chown", ["-R", "postgres:postgres", path], asPostgres: false)
        }
        try run("/bin/chmod", ["0700", path], asPostgres: Self.isRoot)
    }

    @discardableResult
    private func run(_ command: String, _ arguments: [String], asPostgres: Bool = Self.isRoot, allowFailure: Bool = false) throws -> Int32 {
        let executable = command.hasPrefix("/") ? command : try Self.binary(command)
        let argv = asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--", executable] + arguments : [executable] + arguments
        // Output goes to a file, not a pipe: the postmaster that `pg_ctl
        // start` leaves behind would hold a pipe open forever.
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("parla-pg-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = try ChildProcess.run(argv, outputPath: outputPath)
        let printed = FileManager.default.contents(atPath: outputPath) ?? Data()
        if status != 0 && !allowFailure {
            throw StoreError.clusterFailed("\(command) exited with \(status): \(String(decoding: printed, as: UTF8.self))")
        }
        return status
    }

    /// The newest PostgreSQL installed under /usr/lib/postgresql, or PATH.
    static func binary(_ name: String) throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap(Int.init).sorted(by: >)
        for version in versions where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/\(name)") {
            return "\(root)/\(version)/bin/\(name)"
        }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        throw StoreError.clusterFailed("\(name) not found: install PostgreSQL (make install-deps)")
    }
}

/// Keeps the embedded cluster up for the life of the server: it looks every
/// `interval` whether the postmaster lives and starts it again when it died
/// (killed, or stopped by another process that had started it), so data
/// routes recover within seconds. On shutdown it stops the cluster if this
/// server is the process that started it; it is first in the group, so that
/// happens after everything that uses it has stopped.
public struct EmbeddedClusterService: Service {
    let cluster: EmbeddedCluster
    let logger: Logger
    let interval: Duration
    private let restarts = Counter(label: "parla_embedded_cluster_restarts_total")

    public init(cluster: EmbeddedCluster, logger: Logger, interval: Duration = .seconds(1)) {
        (self.cluster, self.logger, self.interval) = (cluster, logger, interval)
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, !cluster.isRunning() else { continue }
                logger.error("embedded PostgreSQL is not running; starting it again", metadata: ["directory": "\(cluster.dataDirectory)"])
                do {
                    try await cluster.start(logger: logger, adoptingOrphan: true)
                } catch {
                    logger.error("embedded PostgreSQL did not start", metadata: ["error": "\(error)"])
                }
                if cluster.isRunning() { restarts.increment() }
            }
        }
        try await cluster.stop(logger: logger)
    }
}

/// posix_spawn and waitpid, blocking (call it off the event loops):
/// Foundation's `Process` can miss the exit of a child whose own child (the
/// postmaster) lives on. The child's output goes to a file.
public enum ChildProcess {
    public static func run(_ argv: [String], outputPath: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw StoreError.clusterFailed("cannot start \(argv[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw StoreError.clusterFailed("waitpid failed: \(errno)") }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import as macros.
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}

import Foundation
import NIOPosix

/// Backups with PostgreSQL's own tools: `pg_dump` in its custom format (one
/// compressed file, a consistent snapshot taken while the server runs) and
/// `pg_restore`, which replaces what the database holds in one transaction.
/// Rate counters (unlogged) are left out: they mean nothing after a restore.
/// Personal fields stay sealed in the file: a backup is only as useful as
/// the personal-data key kept beside it, and only as safe as that key.
public enum DatabaseBackup {
    public enum Target: Sendable {
        /// An external PostgreSQL (`database.url`).
        case url(String)
        /// The embedded cluster, which must be running.
        case cluster(EmbeddedCluster)
    }

    public static func dump(_ target: Target, to file: String) async throws {
        try await run("pg_dump", ["--format=custom", "--no-owner", "--no-unlogged-table-data", "--file=\(file)"], target)
    }

    public static func restore(_ target: Target, from file: String) async throws {
        guard FileManager.default.isReadableFile(atPath: file) else { throw StoreError.backupFailed("cannot read \(file)") }
        try await run("pg_restore", ["--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error", file], target)
    }

    static func connection(_ target: Target) -> [String] {
        switch target {
        case .url(let url):
            ["--dbname=\(url)"]
        case .cluster(let cluster):
            [
                "--host=\(cluster.socketDirectory)", "--port=\(EmbeddedCluster.port)", "--username=\(EmbeddedCluster.superuser)",
                "--dbname=postgres",
            ]
        }
    }

    /// Runs a PostgreSQL tool off the event loops; its output goes into
    /// the error when it fails.
    private static func run(_ tool: String, _ arguments: [String], _ target: Target) async throws {
        let argv = [try EmbeddedCluster.binary(tool)] + arguments + connection(target)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("parla-\(tool)-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let status = try await NIOThreadPool.singleton.runIfActive { try ChildProcess.run(argv, outputPath: output) }
        guard status == 0 else {
            let printed = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
            throw StoreError.backupFailed("\(tool) exited with \(status): \(printed.suffix(2000))")
        }
    }
}

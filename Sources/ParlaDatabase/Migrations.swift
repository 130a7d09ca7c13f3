import Foundation
import Logging
import PostgresNIO

/// The schema's migrations: numbered SQL files bundled with this module,
/// applied in order at start.
extension Database {
    /// A numbered SQL file from `Migrations/`.
    public struct Migration: Sendable {
        public let version: Int
        public let name: String
        public let sql: String
    }

    public static func bundledMigrations() throws -> [Migration] {
        guard let directory = Bundle.module.url(forResource: "Migrations", withExtension: nil) else {
            throw StoreError.migrationFailed("Migrations folder missing from the bundle")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sql") }
        return try files.sorted().map { file in
            guard let version = Int(file.prefix(while: \.isNumber)) else {
                throw StoreError.migrationFailed("\(file) does not start with its version number")
            }
            let sql = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            return Migration(version: version, name: String(file.dropLast(4)), sql: sql)
        }
    }

    /// Applies every migration not yet applied, in order, in one transaction
    /// under an advisory lock so that servers starting together take turns.
    /// Returns how many were applied now.
    @discardableResult
    public func migrate() async throws -> Int {
        try await withConnection { try await Self.migrate(on: $0, logger: self.logger) }
    }

    /// Migrates through one connection of the caller's (tests migrate a
    /// template database this way, then close the connection).
    public static func migrate(on connection: PostgresConnection, logger: Logger) async throws -> Int {
        let migrations = try bundledMigrations()
        try await connection.query("BEGIN", logger: logger)
        do {
            _ = try await connection.query("SELECT pg_advisory_xact_lock(7261001)", logger: logger).collect()
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            var applied = Set<Int>()
            for try await version in try await connection.query("SELECT version FROM schema_migrations", logger: logger).decode(Int.self) {
                applied.insert(version)
            }
            var count = 0
            for migration in migrations where !applied.contains(migration.version) {
                logger.info("applying migration", metadata: ["migration": "\(migration.name)"])
                for statement in SQLScript.statements(migration.sql) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger)
                count += 1
            }
            try await connection.query("COMMIT", logger: logger)
            return count
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw StoreError.migrationFailed(String(reflecting: error))
        }
    }

    /// How many migrations are applied, and whether that is all of them.
    public func migrationState() async throws -> (applied: Int, complete: Bool) {
        let known = try Self.bundledMigrations().map(\.version)
        let applied = try await withConnection { connection -> [Int] in
            let exists =
                try await connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL", logger: self.logger)
                .collect().first?.decode(Bool.self) ?? false
            guard exists else { return [] }
            return try await connection.query("SELECT version FROM schema_migrations", logger: self.logger)
                .collect().map { try $0.decode(Int.self) }
        }
        return (applied.count, Set(known).isSubset(of: Set(applied)))
    }
}

/// Splits a migration file into statements, since the extended query
/// protocol takes one at a time. Semicolons inside quotes, quoted
/// identifiers, dollar-quoted bodies and comments do not split.
enum SQLScript {
    static func statements(_ sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var index = sql.startIndex
        func rest(_ from: String.Index) -> Substring { sql[from...] }
        while index < sql.endIndex {
            let character = sql[index]
            if rest(index).hasPrefix("--") {
                let end = sql[index...].firstIndex(of: "\n") ?? sql.endIndex
                index = end
                continue
            }
            if rest(index).hasPrefix("/*"), let end = sql.range(of: "*/", range: index..<sql.endIndex) {
                index = end.upperBound
                continue
            }
            if character == "'" || character == "\"" {
                let close = sql[sql.index(after: index)...].firstIndex(of: character) ?? sql.index(before: sql.endIndex)
                current += sql[index...close]
                index = sql.index(after: close)
                continue
            }
            if character == "$", let tagEnd = sql[sql.index(after: index)...].firstIndex(of: "$"),
                sql[sql.index(after: index)..<tagEnd].allSatisfy({ $0.isLetter || $0 == "_" })
            {
                let tag = String(sql[index...tagEnd])
                let bodyStart = sql.index(after: tagEnd)
                let close = sql.range(of: tag, range: bodyStart..<sql.endIndex)?.upperBound ?? sql.endIndex
                current += sql[index..<close]
                index = close
                continue
            }
            if character == ";" {
                statements.append(current)
                current = ""
            } else {
                current.append(character)
            }
            index = sql.index(after: index)
        }
        statements.append(current)
        return statements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}

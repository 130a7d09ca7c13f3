import Foundation
import Logging
import ParlaDatabase
import ParlaStore
import PostgresNIO

/// Who opens the database: the server keeps an embedded cluster up and
/// adopts one left running by a dead process; a command only borrows it.
enum DatabaseUser {
    case server, command
}

/// The database the settings name, with the personal-data cipher that goes
/// with it. An embedded cluster is started first if it is not running (and
/// returned, to be stopped by its owner, `EmbeddedCluster.stop`); only an
/// embedded setup may create a missing key file.
func openDatabase(_ settings: ServerSettings, logger: Logger, role: DatabaseUser) async throws
    -> (Database, PersonalDataCipher, EmbeddedCluster?)
{
    var databaseLogger = logger
    databaseLogger.logLevel = max(logger.logLevel, .notice)  // query logs could carry bound values
    let clientConfiguration: PostgresClient.Configuration
    var cluster: EmbeddedCluster?
    switch settings.database.location {
    case .url(let url):
        clientConfiguration = try PostgresClient.Configuration(url: url)
    case .embedded(let dataDirectory):
        let embedded = EmbeddedCluster(dataDirectory: dataDirectory)
        try await embedded.start(logger: logger, adoptingOrphan: role == .server)
        clientConfiguration = embedded.clientConfiguration(database: "postgres")
        cluster = embedded
    }
    let key =
        try settings.security.dataKey.map(PersonalDataCipher.key(base64:))
        ?? PersonalDataCipher.loadKey(at: settings.security.keyFile, create: cluster != nil)
    let cipher = try PersonalDataCipher(masterKey: key)
    let database = Database(
        configuration: clientConfiguration, maximumConnections: settings.database.maxConnections,
        connectionWait: .milliseconds(Int(settings.database.connectionWaitSeconds * 1000)), logger: databaseLogger)
    return (database, cipher, cluster)
}

/// The streaming replica at `url` (`database.readURL`), for the read-only
/// routes that may lag a moment behind: a pool of its own, the same size
/// and wait as the primary's.
func openReplica(_ url: String, _ settings: ServerSettings, logger: Logger) throws -> Database {
    var replicaLogger = logger
    replicaLogger.logLevel = max(logger.logLevel, .notice)  // query logs could carry bound values
    return Database(
        configuration: try PostgresClient.Configuration(url: url), maximumConnections: settings.database.maxConnections,
        connectionWait: .milliseconds(Int(settings.database.connectionWaitSeconds * 1000)), logger: replicaLogger)
}

/// Runs `body` with the configured database open, then closes what it
/// opened: an embedded cluster that a server (or another command) runs is
/// left running.
package func withDatabase<Result: Sendable>(
    _ settings: ServerSettings, logger: Logger,
    _ body: (Database, PersonalDataCipher) async throws -> Result
) async throws -> Result {
    let (database, cipher, cluster) = try await openDatabase(settings, logger: logger, role: .command)
    let client = Task { await database.client.run() }
    defer { client.cancel() }
    do {
        let result = try await body(database, cipher)
        try await cluster?.stop(logger: logger)
        return result
    } catch {
        try? await cluster?.stop(logger: logger)
        throw error
    }
}

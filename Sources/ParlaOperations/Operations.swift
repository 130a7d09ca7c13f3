import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import ParlaKept
import ParlaLearningStore
import ParlaServer
import ParlaServices
import ParlaSpeech
import ParlaStore
import ServiceLifecycle

// What the command line runs besides the server (`parla content import`,
// `backup`, `restore`, `worker speech`, `migrate`, `placement calibrate`);
// `Sources/parla` parses the arguments and calls these.

/// `parla content import` and `parla content build`: validates a Corpora
/// directory (throwing `ContentImporter.Invalid` before the database is
/// opened), makes its missing assets when `build` is set, and imports it.
public func importContent(
    _ settings: ServerSettings, directory: String, build: Bool, logger: Logger,
    progress: ContentStore.Progress? = nil
) async throws -> ContentImporter.Report {
    let importer = importer(settings, directory: directory)
    let content = try importer.read()
    var built = 0
    if build {
        let aligner = SpeechScorer(settings: settings.speech.scorer)
        do {
            built = try await AssetBuilder(store: AssetStore(directory: settings.content.assetDirectory), aligner: aligner)
                .build(content.assets.values, logger: logger) { done, total in progress?("assets", done, total) }
        } catch {
            try await aligner.shutdown()
            throw error
        }
        try await aligner.shutdown()
    }
    var report = try await withDatabase(settings, logger: logger) { database, _ in
        _ = try await database.migrate()
        return try await importer.importContent(content, into: ContentStore(database: database), logger: logger, progress: progress)
    }
    report.built = built
    return report
}

/// `parla backup`: the configured database into `file` (`pg_dump`, custom
/// format), while a server may run on it. An embedded cluster that no
/// server runs is started for the dump and stopped after it.
public func backUpDatabase(_ settings: ServerSettings, to file: String, logger: Logger) async throws {
    try await withBackupTarget(settings, logger: logger) { try await DatabaseBackup.dump($0, to: file) }
}

/// `parla restore`: replaces what the configured database holds with a
/// backup, in one transaction. Servers on it must be stopped first; the
/// next one to start applies any migration newer than the backup.
public func restoreDatabase(_ settings: ServerSettings, from file: String, logger: Logger) async throws {
    try await withBackupTarget(settings, logger: logger) { try await DatabaseBackup.restore($0, from: file) }
}

private func withBackupTarget(
    _ settings: ServerSettings, logger: Logger, _ body: @Sendable (DatabaseBackup.Target) async throws -> Void
) async throws {
    switch settings.database.location {
    case .url(let url):
        try await body(.url(url))
    case .embedded(let directory):
        try await withDatabase(settings, logger: logger) { _, _ in try await body(.cluster(EmbeddedCluster(dataDirectory: directory))) }
    }
}

/// `parla worker speech`: scores queued recordings until SIGTERM or SIGINT
/// (see the design note in SpeechQueue.swift). It borrows the embedded
/// cluster a server runs, or starts it; it never migrates: until a server
/// has made the queue, it logs and tries again.
public func runSpeechWorker(_ settings: ServerSettings, logger: Logger) async throws {
    try await withDatabase(settings, logger: logger) { database, cipher in
        var telemetry = settings.telemetry
        if telemetry.serviceName == TelemetrySettings().serviceName { telemetry.serviceName = "parla-speech-worker" }
        let exporter = try Telemetry.exporter(telemetry)
        let feed = ChangeFeed(database: database, logger: logger)
        let scorer = SpeechScorer(settings: settings.speech.scorer)
        let worker = SpeechWorker(
            name: settings.speech.workerName, jobs: SpeechJobStore(database: database, cipher: cipher), scorer: scorer, logger: logger)
        feed.subscribe(worker)
        // Stopped in reverse: the worker finishes what it holds, then the
        // scorer's threads stop, then the feed.
        let group = ServiceGroup(
            configuration: .init(
                services: (exporter.map { [$0] } ?? []) + [feed, SpeechScorerService(scorer: scorer), worker],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
    }
}

/// `parla migrate`: applies pending migrations and stops what it started.
public func migrateDatabase(_ settings: ServerSettings, logger: Logger) async throws -> Int {
    try await withDatabase(settings, logger: logger) { database, _ in try await database.migrate() }
}

/// `parla placement calibrate`: re-estimates a language's placement items
/// from the answers stored so far.
public func calibratePlacement(_ settings: ServerSettings, language: Language, minimumResponses: Int, logger: Logger)
    async throws -> (recalibrated: Int, items: Int, converged: Bool, cycles: Int)
{
    try await withDatabase(settings, logger: logger) { database, _ in
        _ = try await database.migrate()
        let catalog = ContentCatalog()
        try await catalog.reload(from: ContentStore(database: database))
        let content = ContentService(
            catalog: catalog, content: ContentStore(database: database), assets: AssetStore(directory: settings.content.assetDirectory))
        let result = try await PlacementService(placements: PlacementStore(database: database), content: content)
            .calibrate(language, minimumResponses: minimumResponses)
        return (result.recalibratedItemIds.count, result.items.count, result.converged, result.cycles)
    }
}

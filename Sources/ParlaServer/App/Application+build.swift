import Crypto
import Foundation
import Hummingbird
import Logging
import Metrics
import OpenAPIHummingbird
import OpenAPIRuntime
import ParlaAPI
import ParlaCommerce
import ParlaCore
import ParlaDatabase
import ParlaIdentity
import ParlaKept
import ParlaLearningStore
import ParlaPurchases
import ParlaServices
import ParlaSpeech
import ParlaStore
import ParlaWeb
import PostgresNIO
import Prometheus
import ServiceLifecycle

/// Builds the whole server from its settings: the database (embedded or
/// external), migrations before the first request, the middleware chain and
/// every handler. `parla serve` runs what this returns; tests drive it
/// with HummingbirdTesting.
public func buildApplication(_ settings: ServerSettings, logger: Logger) async throws -> some ApplicationProtocol {
    ParlaMetrics.bootstrap()
    let (database, cipher, cluster) = try await openDatabase(settings, logger: logger, role: .server)
    var services: [any Service] = []
    // First in the group, so it stops last: after the server and the pool.
    if let cluster { services.append(EmbeddedClusterService(cluster: cluster, logger: logger)) }
    // Early, so that it stops late: spans of the last requests are sent.
    if let exporter = try Telemetry.exporter(settings.telemetry) { services.append(exporter) }
    let hasher = PasswordHasher(cost: settings.security.bcryptCost, threads: settings.security.passwordHashingThreads)
    services.append(database.client)
    services.append(hasher)
    let replica = try settings.database.readURL.map { try openReplica($0, settings, logger: logger) }
    if let replica { services.append(replica.client) }
    // What this server keeps in memory in step with the tables, told of
    // their changes by one listening connection.
    let memory = KeptInMemory(
        database: database, accounts: accountStore(database, cipher, settings), learners: LearnerStore(database: database, cipher: cipher),
        entitlements: EntitlementStore(database: database), leaderboards: LeaderboardStore(database: database, cipher: cipher),
        keepsEntitlements: settings.entitlements.keepInMemory,
        // Overviews read from a replica may lag the notifications that keep
        // them: with a replica, each is read afresh from it instead.
        keepsClassOverviews: settings.teaching.keepOverviews && settings.database.readURL == nil, logger: logger)
    let feed = memory.feed
    services.append(feed)
    services.append(memory.ranks)

    let catalog = ContentCatalog()
    let assets = AssetStore(directory: settings.content.assetDirectory)
    let scorer = SpeechScorer(settings: settings.speech.scorer)
    services.append(SpeechScorerService(scorer: scorer))
    let speechJobs = SpeechJobWaiters()
    feed.subscribe(speechJobs)
    let scoring = ScoringRoute(
        scorer: scorer, jobs: SpeechJobStore(database: database, cipher: cipher), waiters: speechJobs,
        wait: .milliseconds(Int(settings.speech.queueWaitSeconds * 1000)), logger: logger)
    let onDemand = AssetsOnDemand(store: assets)
    let assetBuild =
        settings.content.buildAssets && settings.content.directory != nil
        ? AssetBuildService(store: assets, aligner: scorer, catalog: catalog, onDemand: onDemand, logger: logger) : nil
    if let assetBuild { services.append(assetBuild) }
    let googlePlay = try await googlePlayClient(settings, logger: logger)
    if let googlePlay { services.append(GooglePlayClientService(client: googlePlay)) }
    let schema = SchemaReady()
    let mail = try MailDelivery(
        outbox: OutboxStore(database: database, cipher: cipher), settings: settings.mail, schema: schema, logger: logger)
    services.append(mail)
    var identities: [IdentityProvider: IdentityVerifier] = [:]
    for (provider, providerSettings) in settings.identityProviders where !providerSettings.audiences.isEmpty {
        identities[provider] = try IdentityVerifier(settings: providerSettings, logger: logger)
    }
    services.append(IdentityVerifiersService(verifiers: Array(identities.values)))
    let webSignIn = try webSignInClients(settings, verifying: identities, logger: logger)
    services.append(WebSignInClientsService(clients: Array(webSignIn.values)))
    services.append(
        GuestSweeper(
            accounts: accountStore(database, cipher, settings), leaderboards: leaderboardService(database, cipher, memory),
            idleFor: Double(settings.accounts.guestIdleDays) * 86400,
            interval: .milliseconds(Int(settings.accounts.guestSweepSeconds * 1000)),
            schema: schema, logger: logger))
    services.append(
        AnalyticsRollup(
            store: AnalyticsStore(database: database), every: settings.analytics.rollupSeconds, keepDays: settings.analytics.keepEventsDays,
            schema: schema, logger: logger))
    services.append(
        RateCounterSweeper(counters: RateCounterStore(database: database), interval: .seconds(600), schema: schema, logger: logger))
    let router = try buildRouter(
        RouterParts(
            settings: settings, database: database, reads: replica ?? database, cipher: cipher, hasher: hasher, catalog: catalog,
            assets: onDemand, scoring: scoring, memory: memory, googlePlay: googlePlay, mail: mail, identities: identities,
            webSignIn: webSignIn, pages: try await DashboardPages(), logger: logger))
    var app = Application(
        router: router,
        configuration: .init(address: .hostname(settings.http.host, port: settings.http.port), serverName: "Parla"),
        services: services.map { StoppingWatch(service: $0, logger: logger) },
        logger: logger)
    app.beforeServerStarts {
        let applied = try await database.migrate()
        schema.open()
        logger.info("database ready", metadata: ["migrations_applied_now": "\(applied)"])
        let content = ContentStore(database: database)
        var planned: [PlannedAsset] = []
        if let directory = settings.content.directory, FileManager.default.fileExists(atPath: directory) {
            // Bad content must not keep the server down: it keeps serving
            // the version it has, and says why in the log.
            do {
                let importer = importer(settings, directory: directory)
                let read = try importer.read()
                _ = try await importer.importContent(read, into: content, logger: logger)
                planned = Array(read.assets.values)
            } catch let invalid as ContentImporter.Invalid {
                logger.error(
                    "bundled content not imported",
                    metadata: [
                        "problems": "\(invalid.problems.count)",
                        "first": "\(invalid.problems.first?.description ?? "")",
                    ])
            }
        }
        if planned.isEmpty { assetBuild?.nothing() } else { assetBuild?.build(planned) }
        try await catalog.reload(from: content)
    }
    return app
}

func accountStore(_ database: Database, _ cipher: PersonalDataCipher, _ settings: ServerSettings) -> AccountStore {
    AccountStore(database: database, cipher: cipher, sessionMaxLifetime: TimeInterval(settings.accounts.sessionMaxDays * 86400))
}

func leaderboardService(_ database: Database, _ cipher: PersonalDataCipher, _ memory: KeptInMemory) -> LeaderboardService {
    LeaderboardService(
        store: LeaderboardStore(database: database, cipher: cipher), friends: FriendStore(database: database, cipher: cipher),
        ranks: memory.ranks, directory: memory.learners)
}

package func importer(_ settings: ServerSettings, directory: String) -> ContentImporter {
    ContentImporter(
        directory: directory, openMojiDirectory: settings.content.openMojiDirectory,
        narrators: SpeechModels(modelsDirectory: settings.speech.scorer.modelsDirectory, modelPaths: settings.speech.scorer.modelPaths))
}

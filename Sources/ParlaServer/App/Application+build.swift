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
import ParlaIdentity
import ParlaKept
import ParlaPurchases
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
    let hasher = PasswordHasher(cost: settings.bcryptCost, threads: settings.passwordHashingThreads)
    services.append(database.client)
    services.append(hasher)
    let replica = try settings.databaseReadURL.map { try openReplica($0, settings, logger: logger) }
    if let replica { services.append(replica.client) }
    // What this server keeps in memory in step with the tables, told of
    // their changes by one listening connection.
    let memory = KeptInMemory(
        database: database, accounts: accountStore(database, cipher, settings), learners: LearnerStore(database: database, cipher: cipher),
        entitlements: EntitlementStore(database: database), leaderboards: LeaderboardStore(database: database, cipher: cipher),
        keepsEntitlements: settings.keepEntitlements,
        // Overviews read from a replica may lag the notifications that keep
        // them: with a replica, each is read afresh from it instead.
        keepsClassOverviews: settings.keepClassOverviews && settings.databaseReadURL == nil, logger: logger)
    let feed = memory.feed
    services.append(feed)
    services.append(memory.ranks)

    let catalog = ContentCatalog()
    let assets = AssetStore(directory: settings.assetDirectory)
    let scorer = SpeechScorer(settings: settings.speech)
    services.append(SpeechScorerService(scorer: scorer))
    let speechJobs = SpeechJobWaiters()
    feed.subscribe(speechJobs)
    let scoring = ScoringRoute(
        scorer: scorer, jobs: SpeechJobStore(database: database, cipher: cipher), waiters: speechJobs,
        wait: .milliseconds(Int(settings.speechQueueWaitSeconds * 1000)), logger: logger)
    let onDemand = AssetsOnDemand(store: assets)
    let assetBuild =
        settings.buildAssets && settings.contentDirectory != nil
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
            idleFor: Double(settings.guestIdleDays) * 86400, interval: .milliseconds(Int(settings.guestSweepSeconds * 1000)),
            schema: schema, logger: logger))
    services.append(
        AnalyticsRollup(
            store: AnalyticsStore(database: database), every: settings.analyticsRollupSeconds, keepDays: settings.analyticsKeepDays,
            schema: schema, logger: logger))
    services.append(
        RateCounterSweeper(counters: RateCounterStore(database: database), interval: .seconds(600), schema: schema, logger: logger))
    let router = try buildRouter(
        settings, database: database, reads: replica ?? database, cipher: cipher, hasher: hasher, catalog: catalog,
        assets: onDemand, scoring: scoring, memory: memory, googlePlay: googlePlay, mail: mail, identities: identities,
        webSignIn: webSignIn, pages: try await DashboardPages(), logger: logger)
    var app = Application(
        router: router,
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "Parla"),
        services: services,
        logger: logger)
    app.beforeServerStarts {
        let applied = try await database.migrate()
        schema.open()
        logger.info("database ready", metadata: ["migrations_applied_now": "\(applied)"])
        let content = ContentStore(database: database)
        var planned: [PlannedAsset] = []
        if let directory = settings.contentDirectory, FileManager.default.fileExists(atPath: directory) {
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
    AccountStore(database: database, cipher: cipher, sessionMaxLifetime: TimeInterval(settings.sessionMaxDays * 86400))
}

func leaderboardService(_ database: Database, _ cipher: PersonalDataCipher, _ memory: KeptInMemory) -> LeaderboardService {
    LeaderboardService(
        store: LeaderboardStore(database: database, cipher: cipher), friends: FriendStore(database: database, cipher: cipher),
        ranks: memory.ranks, directory: memory.learners)
}

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
    switch settings.database {
    case .url(let url):
        clientConfiguration = try PostgresClient.Configuration(url: url)
    case .embedded(let dataDirectory):
        let embedded = EmbeddedCluster(dataDirectory: dataDirectory)
        try await embedded.start(logger: logger, adoptingOrphan: role == .server)
        clientConfiguration = embedded.clientConfiguration(database: "postgres")
        cluster = embedded
    }
    let key =
        try settings.dataKey.map(PersonalDataCipher.key(base64:))
        ?? PersonalDataCipher.loadKey(at: settings.keyFile, create: cluster != nil)
    let cipher = try PersonalDataCipher(masterKey: key)
    let database = Database(
        configuration: clientConfiguration, maximumConnections: settings.databaseMaxConnections,
        connectionWait: .milliseconds(Int(settings.databaseConnectionWaitSeconds * 1000)), logger: databaseLogger)
    return (database, cipher, cluster)
}

/// The streaming replica at `url` (`database.readURL`), for the read-only
/// routes that may lag a moment behind: a pool of its own, the same size
/// and wait as the primary's.
func openReplica(_ url: String, _ settings: ServerSettings, logger: Logger) throws -> Database {
    var replicaLogger = logger
    replicaLogger.logLevel = max(logger.logLevel, .notice)  // query logs could carry bound values
    return Database(
        configuration: try PostgresClient.Configuration(url: url), maximumConnections: settings.databaseMaxConnections,
        connectionWait: .milliseconds(Int(settings.databaseConnectionWaitSeconds * 1000)), logger: replicaLogger)
}

func importer(_ settings: ServerSettings, directory: String) -> ContentImporter {
    ContentImporter(
        directory: directory, openMojiDirectory: settings.openMojiDirectory,
        narrators: SpeechModels(modelsDirectory: settings.speech.modelsDirectory, modelPaths: settings.speech.modelPaths))
}

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
        let aligner = SpeechScorer(settings: settings.speech)
        do {
            built = try await AssetBuilder(store: AssetStore(directory: settings.assetDirectory), aligner: aligner)
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

/// The App Store's verifier, when roots are configured.
func appStoreVerifier(_ settings: ServerSettings) throws -> AppStoreVerifier? {
    guard !settings.appStoreRoots.isEmpty else { return nil }
    return try AppStoreVerifier(
        settings: AppStoreSettings(
            rootCertificates: try AppStoreSettings.certificates(pemFiles: settings.appStoreRoots), bundleID: settings.appStoreBundleID,
            environments: settings.appStoreEnvironments, legacyBeforeVersion: AppVersion(settings.legacyBeforeVersion)))
}

struct SupportError: Error, CustomStringConvertible {
    var description: String
}

/// Google Play's API client, when a service account is configured.
func googlePlayClient(_ settings: ServerSettings, logger: Logger) async throws -> GooglePlayClient? {
    guard let key = settings.googlePlayServiceAccount else { return nil }
    return try await GooglePlayClient(
        settings: GooglePlaySettings(
            packageName: settings.googlePlayPackage, serviceAccount: try .read(key), baseURL: settings.googlePlayBaseURL),
        trusting: settings.googlePlayRoots, logger: logger)
}

/// Closes the identity providers' HTTP clients when the server stops.
struct IdentityVerifiersService: Service {
    let verifiers: [IdentityVerifier]

    func run() async throws {
        try? await gracefulShutdown()
        for verifier in verifiers { try await verifier.shutdown() }
    }
}

/// Closes the Google Play client's connections when the server stops.
struct GooglePlayClientService: Service {
    let client: GooglePlayClient

    func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}

/// Support's tools (`parla grant`, `parla purchases show`): an account named
/// by its id, by one of its learners' ids, or by its email.
public struct SupportDesk: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    /// Runs `body` with the configured database, migrated.
    public static func with<Result: Sendable>(
        _ settings: ServerSettings, logger: Logger, _ body: @Sendable (SupportDesk) async throws -> Result
    ) async throws -> Result {
        try await withDatabase(settings, logger: logger) { database, cipher in
            _ = try await database.migrate()
            return try await body(SupportDesk(database: database, cipher: cipher))
        }
    }

    public func account(_ reference: String) async throws -> AccountID {
        if let id = AccountID(reference), try await AccountStore(database: database, cipher: cipher).account(id) != nil { return id }
        if let learner = LearnerID(reference), let owner = try await LearnerStore(database: database, cipher: cipher).account(of: learner) {
            return owner
        }
        if reference.contains("@"),
            let (account, _) = try await AccountStore(database: database, cipher: cipher).credentials(email: reference)
        {
            return account
        }
        throw SupportError(description: "no account, learner or email \(reference)")
    }

    /// Gives (or with `revoke`, takes back) a product, recorded with source `grant`.
    public func grant(_ product: String, to reference: String, until: Date?, note: String?, revoke: Bool) async throws -> String {
        let catalogue = try await catalogue()
        guard catalogue.product(product) != nil else { throw SupportError(description: "Corpora/products.yaml has no product \(product)") }
        let account = try await account(reference)
        let store = EntitlementStore(database: database)
        if revoke {
            let count = try await store.revokeGrant(product, from: account)
            return "revoked \(count) grant(s) of \(product) from account \(account)"
        }
        let granted = try await store.grant(product, to: account, until: until, note: note)
        return granted ? "granted \(product) to account \(account)" : "account \(account) holds a grant of \(product) already"
    }

    /// Gives (or with `revoke`, takes back) a staff role.
    public func role(_ role: StaffRole, for reference: String, revoke: Bool) async throws -> String {
        let account = try await account(reference)
        let roles = StaffRoles(database: database)
        if revoke {
            return try await roles.revoke(role, from: account)
                ? "took the \(role.rawValue) role back from account \(account)" : "account \(account) has no \(role.rawValue) role"
        }
        return try await roles.grant(role, to: account)
            ? "gave account \(account) the \(role.rawValue) role" : "account \(account) has the \(role.rawValue) role already"
    }

    /// The account's entitlements and purchase history, as text.
    public func purchases(of reference: String) async throws -> String {
        let account = try await account(reference)
        let store = EntitlementStore(database: database)
        let now = Date()
        let entitlements = try await store.entitlements(of: account)
        let ownership = try await catalogue().ownership(of: entitlements, at: now)
        var lines = ["account \(account): plan \(ownership.plan.id.rawValue), lists \(ownership.lists.sorted().joined(separator: " "))"]
        lines.append("entitlements:")
        for entitlement in entitlements {
            lines.append(
                "  \(entitlement.product)  \(entitlement.source.rawValue)  \(entitlement.status(at: now).rawValue)  from \(entitlement.starts)"
                    + (entitlement.ends.map { "  until \($0)" } ?? "") + (entitlement.revoked.map { "  revoked \($0)" } ?? ""))
        }
        lines.append("purchases:")
        for purchase in try await store.purchases(of: account) {
            lines.append(
                "  \(purchase.received)  \(purchase.store)  \(purchase.transactionID) (chain \(purchase.originalTransactionID))  \(purchase.product)  \(purchase.environment)"
                    + (purchase.expires.map { "  expires \($0)" } ?? "") + (purchase.revoked.map { "  revoked \($0)" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    private func catalogue() async throws -> Catalogue {
        let catalog = ContentCatalog()
        try await catalog.reload(from: ContentStore(database: database))
        guard let snapshot = catalog.snapshot else { throw ParlaError(.contentUnavailable) }
        return snapshot.catalogue
    }
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
    switch settings.database {
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
        let scorer = SpeechScorer(settings: settings.speech)
        let worker = SpeechWorker(
            name: settings.speechWorkerName, jobs: SpeechJobStore(database: database, cipher: cipher), scorer: scorer, logger: logger)
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

func buildRouter(
    _ settings: ServerSettings, database: Database, reads: Database, cipher: PersonalDataCipher, hasher: PasswordHasher,
    catalog: ContentCatalog, assets: AssetsOnDemand, scoring: ScoringRoute, memory: KeptInMemory,
    googlePlay: GooglePlayClient?, mail: MailDelivery, identities: [IdentityProvider: IdentityVerifier],
    webSignIn: [IdentityProvider: AuthorizationCodeClient], pages: DashboardPages, logger: Logger
) throws -> Router<ParlaRequestContext> {
    let router = Router(context: ParlaRequestContext.self)
    // Outermost, so that the request's span holds everything else. Secrets
    // and learners' words stay out of it.
    if Telemetry.isOn {
        // Secrets in query strings: links' tokens, the push secret, OAuth callbacks' code and state.
        let secrets = ["token", "secret", "text", "code", "state", "error_description"]
        router.add(middleware: TracingMiddleware(redactingQueryParameters: Set(secrets)))
    }
    router.add(middleware: RequestScopeMiddleware(logger: logger, trustedProxies: settings.trustedProxies))
    router.add(middleware: SecurityHeadersMiddleware(corsOrigins: settings.corsOrigins, secure: settings.secureCookies))
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: AppVersionMiddleware(clients: settings.clients))
    router.add(
        middleware: BodyLimitMiddleware(
            jsonLimit: settings.jsonBodyLimit, pictureLimit: settings.pictureBodyLimit,
            audioLimit: settings.speech.limits.maxBytes))
    router.add(middleware: TextInputMiddleware())
    let accounts = accountStore(database, cipher, settings)

    let document = try APIDocument.yaml()
    router.get("/openapi.yaml") { _, _ in
        Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: ByteBuffer(bytes: document)))
    }
    router.get("/metrics") { _, _ in
        var text = [UInt8]()
        ParlaMetrics.registry.emit(into: &text)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: text)))
    }

    let learners = LearnerStore(database: database, cipher: cipher)
    let content = ContentService(catalog: catalog, content: ContentStore(database: database), assets: assets.store, onDemand: assets)
    let plans = EntitlementService(catalog: catalog, kept: memory.entitlements)
    let proficiency = ProficiencyService(abilities: AbilityStore(database: database), content: content)
    let catalogs = LessonCatalogs()
    let lessons = LessonStore(database: database)
    let friends = FriendStore(database: database, cipher: cipher)
    let leaderboards = leaderboardService(database, cipher, memory)
    let limits = RateLimiter(
        counters: RateCounterStore(database: database), policy: settings.rateLimits, enabled: settings.rateLimitsEnabled)
    let accountMail = try AccountMail(settings: settings.mail, delivery: mail)
    let staffRoles = StaffRoles(database: database)
    let twoFactor = TwoFactorService(store: TwoFactorStore(database: database, cipher: cipher), accounts: accounts, roles: staffRoles)
    let accountService = AccountService(
        accounts: accounts, profiles: memory.profiles, learners: learners, hasher: hasher, termsVersion: settings.termsVersion,
        leaderboards: leaderboards,
        mail: accountMail, identities: identities, limits: limits, twoFactor: twoFactor, logger: logger)
    let classStore = ClassStore(database: database, cipher: cipher)
    let assignments = AssignmentStore(database: database, cipher: cipher)
    let speech = SpeechService(
        scorer: scoring, attempts: SpeechAttemptStore(database: database, cipher: cipher), learners: learners,
        content: content, plans: plans, limits: limits)
    let handler = APIHandler(
        database: database,
        authenticator: Authenticator(sessions: memory.sessions, profiles: memory.profiles),
        accounts: accountService,
        learners: LearnerService(learners: learners, accounts: accounts, leaderboards: leaderboards),
        content: content,
        speech: speech,
        courses: CourseService(courses: CourseStore(database: database), content: content),
        placements: PlacementService(placements: PlacementStore(database: database), content: content),
        proficiency: proficiency,
        lessons: LessonService(
            lessons: lessons, learners: learners, content: content, proficiency: proficiency,
            speech: speech, catalogs: catalogs, plans: plans, assignments: assignments,
            speakingPause: TimeInterval(settings.speakingPauseMinutes * 60)),
        games: GameService(
            games: GameStore(database: database), leaderboards: leaderboards, lessons: lessons, learners: learners,
            content: content, catalogs: catalogs, plans: plans),
        leaderboards: leaderboards,
        friends: friends,
        profiles: ProfileService(friends: friends, leaderboards: leaderboards),
        access: LearnerAccess(directory: memory.learners, classes: classStore),
        classAccess: ClassAccess(classes: classStore, overviews: memory.classes),
        plans: plans,
        purchases: PurchaseService(
            entitlements: plans, store: plans.store, appStore: try appStoreVerifier(settings), googlePlay: googlePlay,
            googlePlaySecret: settings.googlePlayNotificationSecret, logger: logger),
        classes: ClassService(
            classes: classStore, reports: ClassStore(database: reads, cipher: cipher), assignments: assignments,
            accounts: accountService, content: content, plans: plans, overviews: memory.classes,
            classesPerTeacher: settings.classesPerTeacher,
            membersPerClass: settings.membersPerClass),
        analytics: AnalyticsService(store: AnalyticsStore(database: database), reports: AnalyticsStore(database: reads), content: content),
        staffRoles: staffRoles,
        twoFactor: twoFactor,
        support: SupportService(reports: SupportStore(database: database, cipher: cipher), accounts: accounts, mail: accountMail),
        clients: settings.clients)
    // Compact JSON: the apps parse it, nobody reads it.
    // The answer caches are outermost: they keep answers as they leave, with
    // their header values already plain. The leaderboard's fast path is
    // innermost: only the generated handler comes after it.
    var middlewares: [any ServerMiddleware] = [ContentAnswerCache(catalog: catalog)]
    if settings.keepClassOverviews { middlewares.append(ClassOverviewAnswers(handler: handler)) }
    middlewares.append(PlainHeaderValues())
    if settings.leaderboardFastPath { middlewares.append(LeaderboardFastPath(handler: handler)) }
    try handler.registerHandlers(
        on: router, configuration: .init(jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes]),
        middlewares: middlewares)
    let signIns = WebSignInService(
        clients: webSignIn, store: WebSignInStore(database: database), accounts: accountService, publicBase: settings.mail.linkBase,
        logger: logger)
    Dashboard(api: handler, accounts: accounts, pages: pages, secure: settings.secureCookies, webSignIn: signIns).register(on: router)
    return router
}

/// The process's metrics, exported at `/metrics` in Prometheus text format.
public enum ParlaMetrics {
    public static let registry = PrometheusCollectorRegistry()
    private static let bootstrapped: Bool = {
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return true
    }()

    /// Routes every swift-metrics metric to `registry`; safe to call often.
    public static func bootstrap() { _ = bootstrapped }
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
            catalog: catalog, content: ContentStore(database: database), assets: AssetStore(directory: settings.assetDirectory))
        let result = try await PlacementService(placements: PlacementStore(database: database), content: content)
            .calibrate(language, minimumResponses: minimumResponses)
        return (result.recalibratedItemIds.count, result.items.count, result.converged, result.cycles)
    }
}

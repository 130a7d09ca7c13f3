import Foundation
import Hummingbird
import Logging
import Metrics
import OpenAPIHummingbird
import OpenAPIRuntime
import ParlaAPI
import ParlaDatabase
import ParlaIdentity
import ParlaKept
import ParlaLearningStore
import ParlaPurchases
import ParlaServices
import ParlaStore
import ParlaWeb
import Prometheus

/// What the router is built from: the settings and the server's parts.
struct RouterParts: Sendable {
    var settings: ServerSettings
    var database: Database
    /// Where read-only routes read: a replica when one is configured.
    var reads: Database
    var cipher: PersonalDataCipher
    var hasher: PasswordHasher
    var catalog: ContentCatalog
    var assets: AssetsOnDemand
    var scoring: ScoringRoute
    var memory: KeptInMemory
    var googlePlay: GooglePlayClient?
    var mail: MailDelivery
    var identities: [IdentityProvider: IdentityVerifier]
    var webSignIn: [IdentityProvider: AuthorizationCodeClient]
    var pages: DashboardPages
    var logger: Logger
}

/// The routes: the request middleware, the documents, the API (with the
/// answers kept in front of it) and the dashboard.
func buildRouter(_ parts: RouterParts) throws -> Router<ParlaRequestContext> {
    let router = Router(context: ParlaRequestContext.self)
    addRequestMiddleware(to: router, parts.settings, logger: parts.logger)
    try addDocuments(to: router)
    let handler = try makeAPIHandler(parts)
    let settings = parts.settings
    // Compact JSON: the apps parse it, nobody reads it.
    // The answer caches are outermost: they keep answers as they leave, with
    // their header values already plain. The leaderboard's fast path is
    // innermost: only the generated handler comes after it.
    var middlewares: [any ServerMiddleware] = [ContentAnswerCache(catalog: parts.catalog)]
    if settings.content.keepOwnAnswers { middlewares.append(OwnContentAnswers(catalog: parts.catalog)) }
    if settings.teaching.keepOverviews { middlewares.append(ClassOverviewAnswers(handler: handler)) }
    middlewares.append(PlainHeaderValues())
    if settings.leaderboards.fastPath { middlewares.append(LeaderboardFastPath(handler: handler)) }
    try handler.registerHandlers(
        on: router, configuration: .init(jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes]),
        middlewares: middlewares)
    let signIns = WebSignInService(
        clients: parts.webSignIn, store: WebSignInStore(database: parts.database), accounts: handler.accounts,
        publicBase: settings.mail.linkBase, logger: parts.logger)
    Dashboard(services: .init(of: handler), pages: parts.pages, secure: settings.http.secureCookies, webSignIn: signIns)
        .register(on: router)
    return router
}

/// Every request's middleware, outermost first.
func addRequestMiddleware(to router: Router<ParlaRequestContext>, _ settings: ServerSettings, logger: Logger) {
    // Outermost, so that the request's span holds everything else. Secrets
    // and learners' words stay out of it.
    if Telemetry.isOn {
        // Secrets in query strings: links' tokens, the push secret, OAuth callbacks' code and state;
        // a learner's words: a phrase's text, a drawing's title.
        let secrets = ["token", "secret", "text", "code", "state", "error_description", "title"]
        router.add(middleware: TracingMiddleware(redactingQueryParameters: Set(secrets)))
    }
    router.add(middleware: RequestScopeMiddleware(logger: logger, trustedProxies: settings.http.trustedProxies))
    router.add(middleware: SecurityHeadersMiddleware(corsOrigins: settings.http.corsOrigins, secure: settings.http.secureCookies))
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: AppVersionMiddleware(clients: settings.clients))
    router.add(
        middleware: BodyLimitMiddleware(
            jsonLimit: settings.limits.jsonBodyBytes, pictureLimit: settings.limits.pictureBytes,
            audioLimit: settings.speech.scorer.limits.maxBytes))
    router.add(middleware: TextInputMiddleware())
}

/// The API's document and the metrics.
func addDocuments(to router: Router<ParlaRequestContext>) throws {
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
}

/// The API's handler with its services and stores.
func makeAPIHandler(_ parts: RouterParts) throws -> APIHandler {
    let (settings, database, reads, cipher, memory, logger) = (
        parts.settings, parts.database, parts.reads, parts.cipher, parts.memory, parts.logger
    )
    let (catalog, assets, scoring, hasher) = (parts.catalog, parts.assets, parts.scoring, parts.hasher)
    let accounts = accountStore(database, cipher, settings)
    let learners = LearnerStore(database: database, cipher: cipher)
    let content = ContentService(catalog: catalog, content: ContentStore(database: database), assets: assets.store, onDemand: assets)
    let plans = EntitlementService(catalog: catalog, kept: memory.entitlements)
    let proficiency = ProficiencyService(abilities: AbilityStore(database: database), content: content)
    let catalogs = LessonCatalogs()
    let lessons = LessonStore(database: database)
    let friends = FriendStore(database: database, cipher: cipher)
    let leaderboards = leaderboardService(database, cipher, memory)
    let limits = RateLimiter(
        counters: RateCounterStore(database: database), policy: settings.rateLimits.policy, enabled: settings.rateLimits.enabled)
    let accountMail = try AccountMail(settings: settings.mail, delivery: parts.mail)
    let staffRoles = StaffRoles(database: database)
    let twoFactor = TwoFactorService(store: TwoFactorStore(database: database, cipher: cipher), accounts: accounts, roles: staffRoles)
    let accountService = AccountService(
        accounts: accounts, profiles: memory.profiles, learners: learners, hasher: hasher, termsVersion: settings.accounts.termsVersion,
        leaderboards: leaderboards,
        mail: accountMail, identities: parts.identities, limits: limits, twoFactor: twoFactor, logger: logger)
    let classStore = ClassStore(database: database, cipher: cipher)
    let assignments = AssignmentStore(database: database, cipher: cipher)
    let courses = CourseService(courses: CourseStore(database: database), directory: memory.learners, content: content)
    let games = GameStore(database: database)
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
        courses: courses,
        placements: PlacementService(placements: PlacementStore(database: database), content: content),
        proficiency: proficiency,
        lessons: LessonService(
            lessons: lessons, learners: learners, content: content, proficiency: proficiency,
            speech: speech, catalogs: catalogs, plans: plans, assignments: assignments, courses: courses,
            speakingPause: TimeInterval(settings.lessons.speakingPauseMinutes * 60),
            openLessons: settings.lessons.keepOpen ? OpenLessons() : nil),
        packs: PackService(
            lessons: lessons, learners: learners, content: content, plans: plans, courses: CourseStore(database: database),
            appeal: AnalyticsStore(database: reads)),
        games: GameService(
            games: games, leaderboards: leaderboards, lessons: lessons, learners: learners, courses: courses, content: content,
            catalogs: catalogs, plans: plans),
        spellings: SpellingService(
            games: games, leaderboards: leaderboards, lessons: lessons, learners: learners, courses: courses, content: content,
            catalogs: catalogs, plans: plans),
        artSpace: ArtSpaceService(drawings: DrawingStore(database: database, cipher: cipher), limits: settings.speech.scorer.limits),
        leaderboards: leaderboards,
        friends: FriendService(store: friends),
        profiles: ProfileService(friends: friends, leaderboards: leaderboards),
        access: LearnerAccess(directory: memory.learners, classes: classStore),
        classAccess: ClassAccess(classes: classStore, overviews: memory.classes),
        plans: plans,
        purchases: PurchaseService(
            entitlements: plans, store: plans.store, appStore: try appStoreVerifier(settings), googlePlay: parts.googlePlay,
            googlePlaySecret: settings.purchases.googlePlay.notificationSecret, logger: logger),
        classes: ClassService(
            classes: classStore, reports: ClassStore(database: reads, cipher: cipher), assignments: assignments,
            accounts: accountService, content: content, plans: plans, overviews: memory.classes,
            classesPerTeacher: settings.teaching.classesPerTeacher,
            membersPerClass: settings.teaching.membersPerClass),
        analytics: AnalyticsService(store: AnalyticsStore(database: database), reports: AnalyticsStore(database: reads), content: content),
        staffRoles: staffRoles,
        twoFactor: twoFactor,
        support: SupportService(reports: SupportStore(database: database, cipher: cipher), accounts: accounts, mail: accountMail),
        clients: settings.clients)
    return handler
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

import Configuration
import Foundation
import Logging
import ParlaCore
import ParlaIdentity
import ParlaSpeech

/// Everything `parla serve` reads from configuration, with the defaults
/// documented in `Config/parla.json`.
public struct ServerSettings: Sendable {
    public enum DatabaseLocation: Sendable, Equatable {
        /// An external server: `postgres://user:password@host:5432/database`.
        case url(String)
        /// A private cluster under this directory, started by the server.
        case embedded(dataDirectory: String)
    }

    public var host = "127.0.0.1"
    public var port = 8080
    public var database = DatabaseLocation.embedded(dataDirectory: ".parla/postgres")
    /// About four per core: more backends than that only queue for the CPU
    /// (measured on two cores: 6-10 beat 20 by 5-10% on `/v1/me`).
    public var databaseMaxConnections = 8
    /// A streaming replica for the read-only routes that may lag a moment
    /// behind (teachers' class overviews, admins' analytics); nil: all
    /// reads go to `database`.
    public var databaseReadURL: String?
    /// How long a request waits for a database connection before it is
    /// answered 503 `database_unavailable` (PostgreSQL down, pool exhausted).
    public var databaseConnectionWaitSeconds = 5.0
    /// Base64 of 32 bytes; when empty the key is read from `keyFile`.
    public var dataKey: String?
    public var keyFile = ".parla/personal-data.key"
    public var bcryptCost = 12
    public var passwordHashingThreads = 2
    public var termsVersion = "2026-11-01"
    /// A session ends this many days after sign-in however much it is used
    /// (besides its sliding 30 days).
    public var sessionMaxDays = 90
    /// How long "I can't speak now" keeps speaking questions out of a
    /// learner's lessons.
    public var speakingPauseMinutes = 60
    public var jsonBodyLimit = 64 * 1024
    public var pictureBodyLimit = 2 * 1024 * 1024
    /// The bundled Corpora, imported at start when its version changed;
    /// nil serves whatever the database holds.
    public var contentDirectory: String? = "Corpora"
    /// Where pictures and audio are kept, by content hash (not in git).
    public var assetDirectory = ".parla/assets"
    /// OpenMoji's drawings, installed by `make install-deps`.
    public var openMojiDirectory = "vendor/openmoji"
    /// Whether `parla serve` makes missing assets (synthetic speech) in the
    /// background after it starts.
    public var buildAssets = true
    /// Models, limits and concurrency of the speech scorer.
    public var speech = SpeechScorer.Settings()
    /// How long a server waits for a speech worker to take a queued
    /// recording before scoring it itself, and again for a worker to finish
    /// one it took (`parla worker speech`).
    public var speechQueueWaitSeconds = 10.0
    /// Traces over OTLP (off unless `telemetry.otlpEndpoint` is set).
    public var telemetry = TelemetrySettings()
    /// This worker's name in the register of speech workers.
    public var speechWorkerName = "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
    /// The leaderboard page read and written by hand (`LeaderboardFastPath`);
    /// off, the generated code serves it like every other route.
    public var leaderboardFastPath = true
    public var logLevel = Logger.Level.info
    public var logFormat = LogFormat.json
    /// Whether this server itself is reached over TLS: the dashboard's
    /// cookies are then Secure (as they are behind a proxy that sends
    /// `X-Forwarded-Proto: https`).
    public var secureCookies = false
    /// Web origins whose pages may call the API (CORS), e.g.
    /// `https://app.parla.example`; none by default (the apps need none).
    public var corsOrigins: Set<String> = []
    /// The proxies (nginx in front of several servers) whose
    /// `X-Forwarded-For` names the client; anyone else's is ignored.
    public var trustedProxies: Set<String> = []
    /// What one client address and one account may do per window; counting
    /// is off only where one address is every client (benchmarks).
    public var rateLimits = RateLimitPolicy.standard
    public var rateLimitsEnabled = true
    /// Classes a teacher may have, and learners a class may hold.
    public var classesPerTeacher = 20
    public var membersPerClass = 60
    /// Whether class overviews are kept in memory while their inputs are
    /// unchanged (`ClassOverviews`); off, each is read afresh.
    public var keepClassOverviews = true
    /// Whether accounts' entitlements are kept in memory (`AccountEntitlements`);
    /// off, every request that asks reads them (the benchmark's baseline).
    public var keepEntitlements = true
    /// The App Store's signed data: PEM files of the roots its chains must
    /// lead to (Apple Root CA - G3), the app's bundle id, the environments
    /// accepted. No roots: App Store purchases answer 503 `store_unavailable`.
    public var appStoreRoots: [String] = []
    public var appStoreBundleID = "app.parla"
    public var appStoreEnvironments: Set<String> = ["Production"]
    /// Google Play: the app's package, the service account's key file, the
    /// Developer API's base URL, the roots its TLS certificate must chain to
    /// (none: the system's), and the secret that real-time notifications'
    /// push endpoint carries (`?secret=`). No key file: Google Play
    /// purchases answer 503 `store_unavailable`.
    public var googlePlayPackage = "app.parla"
    public var googlePlayServiceAccount: String?
    public var googlePlayBaseURL = "https://androidpublisher.googleapis.com"
    public var googlePlayRoots: [String] = []
    public var googlePlayNotificationSecret: String?
    /// The first version of the new app: buyers of an earlier one own the legacy words.
    public var legacyBeforeVersion = "2.0"
    /// Per platform (`clients.<ios|android>.minimumVersion`, `.latestVersion`,
    /// `.storeUrl`): the oldest app served (older ones get 426
    /// `update_required`), the newest, and where to get it.
    public var clients: [AppPlatform: ClientRelease] = [:]

    /// Guests (seed 001): erased once unused this many days; looked for
    /// this often.
    public var guestIdleDays = 30
    public var guestSweepSeconds = 3600.0
    /// Analytics: how often events are rolled up by day (their reports
    /// are at most this late), and how long raw events are kept.
    public var analyticsRollupSeconds = 10.0
    public var analyticsKeepDays = 90
    /// Email: who sends it, where its links lead, and how it leaves.
    public var mail = MailSettings()
    /// Sign in with Apple, Google and Facebook (`auth.<provider>.*`); a provider
    /// without audiences is off.
    public var identityProviders: [IdentityProvider: IdentityProviderSettings] = [
        .apple: .apple(audiences: []), .google: .google(audiences: []), .facebook: .facebook(audiences: []),
    ]

    public enum LogFormat: String, Sendable { case json, text }

    public init() {}

    /// Reads every setting; keys are listed in the README's configuration table.
    public init(config: ConfigReader) {
        host = config.string(forKey: "http.host", default: host)
        port = config.int(forKey: "http.port", default: port)
        if let url = config.string(forKey: "database.url"), !url.isEmpty {
            database = .url(url)
        } else {
            database = .embedded(dataDirectory: config.string(forKey: "database.dataDirectory", default: ".parla/postgres"))
        }
        databaseMaxConnections = config.int(forKey: "database.maxConnections", default: databaseMaxConnections)
        if let url = config.string(forKey: "database.readURL"), !url.isEmpty { databaseReadURL = url }
        databaseConnectionWaitSeconds = config.double(
            forKey: "database.connectionWaitSeconds", default: databaseConnectionWaitSeconds)
        dataKey = config.string(forKey: "security.dataKey", isSecret: true).flatMap { $0.isEmpty ? nil : $0 }
        keyFile = config.string(forKey: "security.keyFile", default: keyFile)
        bcryptCost = config.int(forKey: "security.bcryptCost", default: bcryptCost)
        passwordHashingThreads = config.int(forKey: "security.passwordHashingThreads", default: passwordHashingThreads)
        termsVersion = config.string(forKey: "accounts.termsVersion", default: termsVersion)
        sessionMaxDays = config.int(forKey: "accounts.sessionMaxDays", default: sessionMaxDays)
        speakingPauseMinutes = config.int(forKey: "lessons.speakingPauseMinutes", default: speakingPauseMinutes)
        jsonBodyLimit = config.int(forKey: "limits.jsonBodyBytes", default: jsonBodyLimit)
        pictureBodyLimit = config.int(forKey: "limits.pictureBytes", default: pictureBodyLimit)
        let directory = config.string(forKey: "content.directory", default: "Corpora")
        contentDirectory = directory.isEmpty ? nil : directory
        assetDirectory = config.string(forKey: "content.assetDirectory", default: assetDirectory)
        openMojiDirectory = config.string(forKey: "content.openMojiDirectory", default: openMojiDirectory)
        buildAssets = config.bool(forKey: "content.buildAssets", default: buildAssets)
        speech.modelsDirectory = config.string(forKey: "speech.modelsDirectory", default: speech.modelsDirectory)
        speech.modelPaths = Self.list(config.string(forKey: "speech.modelPaths", default: ""))
        speech.limits.maxBytes = config.int(forKey: "speech.maxAudioBytes", default: speech.limits.maxBytes)
        speech.limits.maxSeconds = config.double(forKey: "speech.maxAudioSeconds", default: speech.limits.maxSeconds)
        speech.threads = config.int(forKey: "speech.threads", default: speech.threads)
        speech.queueLimit = config.int(forKey: "speech.queueLimit", default: speech.queueLimit)
        speechQueueWaitSeconds = config.double(forKey: "speech.queueWaitSeconds", default: speechQueueWaitSeconds)
        speechWorkerName = config.string(forKey: "speech.workerName").flatMap { $0.isEmpty ? nil : $0 } ?? speechWorkerName
        telemetry.otlpEndpoint = config.string(forKey: "telemetry.otlpEndpoint").flatMap { $0.isEmpty ? nil : $0 }
        telemetry.otlpProtocol = config.string(forKey: "telemetry.otlpProtocol", default: telemetry.otlpProtocol)
        telemetry.sampleRatio = config.double(forKey: "telemetry.sampleRatio", default: telemetry.sampleRatio)
        telemetry.serviceName = config.string(forKey: "telemetry.serviceName", default: telemetry.serviceName)
        telemetry.exportDelaySeconds = config.double(forKey: "telemetry.exportDelaySeconds", default: telemetry.exportDelaySeconds)
        leaderboardFastPath = config.bool(forKey: "leaderboards.fastPath", default: leaderboardFastPath)
        logLevel = config.string(forKey: "log.level").flatMap(Logger.Level.init(rawValue:)) ?? logLevel
        logFormat = config.string(forKey: "log.format").flatMap(LogFormat.init(rawValue:)) ?? logFormat
        secureCookies = config.bool(forKey: "http.secureCookies", default: secureCookies)
        corsOrigins = Set(Self.list(config.string(forKey: "http.corsOrigins", default: "")))
        trustedProxies = Set(Self.list(config.string(forKey: "http.trustedProxies", default: "")).compactMap(ClientAddress.canonical))
        rateLimitsEnabled = config.bool(forKey: "rateLimits.enabled", default: rateLimitsEnabled)
        // The limits the policy has (an action not limited per account has no such key).
        for action in LimitedAction.allCases {
            if rateLimits.perAddress[action] != nil,
                let count = config.int(forKey: ConfigKey(["rateLimits", action.rawValue, "perAddress"]))
            {
                rateLimits.perAddress[action]?.count = count
            }
            if rateLimits.perAccount[action] != nil,
                let count = config.int(forKey: ConfigKey(["rateLimits", action.rawValue, "perAccount"]))
            {
                rateLimits.perAccount[action]?.count = count
            }
        }
        classesPerTeacher = config.int(forKey: "teaching.classesPerTeacher", default: classesPerTeacher)
        membersPerClass = config.int(forKey: "teaching.membersPerClass", default: membersPerClass)
        keepClassOverviews = config.bool(forKey: "teaching.keepOverviews", default: keepClassOverviews)
        keepEntitlements = config.bool(forKey: "entitlements.keepInMemory", default: keepEntitlements)
        appStoreRoots = Self.list(config.string(forKey: "purchases.appStore.rootCertificates", default: ""))
        appStoreBundleID = config.string(forKey: "purchases.appStore.bundleId", default: appStoreBundleID)
        appStoreEnvironments = Set(Self.list(config.string(forKey: "purchases.appStore.environments", default: "Production")))
        legacyBeforeVersion = config.string(forKey: "purchases.legacyBeforeVersion", default: legacyBeforeVersion)
        for platform in AppPlatform.allCases {
            func value(_ name: String) -> String? {
                config.string(forKey: ConfigKey(["clients", platform.rawValue, name])).flatMap { $0.isEmpty ? nil : $0 }
            }
            var release = clients[platform] ?? ClientRelease()
            if let minimum = value("minimumVersion") { release.minimum = AppVersion(minimum) }
            if let latest = value("latestVersion") { release.latest = AppVersion(latest) }
            if let store = value("storeUrl") { release.storeURL = store }
            clients[platform] = release
        }
        guestIdleDays = config.int(forKey: "accounts.guestIdleDays", default: guestIdleDays)
        guestSweepSeconds = config.double(forKey: "accounts.guestSweepSeconds", default: guestSweepSeconds)
        analyticsRollupSeconds = config.double(forKey: "analytics.rollupSeconds", default: analyticsRollupSeconds)
        // An event id blocks a resend only while its row is kept: no shorter
        // than the oldest event taken, or a late resend would count twice.
        analyticsKeepDays = max(
            Int(Analytics.oldestEvent / 86400) + 1, config.int(forKey: "analytics.keepEventsDays", default: analyticsKeepDays))
        mail = MailSettings(config: config)
        for provider in IdentityProvider.allCases {
            func value(_ name: String) -> [String]? {
                config.string(forKey: ConfigKey(["auth", provider.rawValue, name])).map(Self.list).flatMap { $0.isEmpty ? nil : $0 }
            }
            guard var settings = identityProviders[provider] else { continue }
            if let audiences = value("audiences") { settings.audiences = Set(audiences) }
            if let issuers = value("issuers") { settings.issuers = Set(issuers) }
            if let url = value("jwksUrl")?.first { settings.jwksURL = url }
            settings.rootCertificates = value("rootCertificates") ?? []
            // The web client's id_tokens are for us too: it is an audience.
            settings.web = Self.webSignIn(provider, config: config, roots: settings.rootCertificates)
            if let web = settings.web { settings.audiences.insert(web.clientID) }
            identityProviders[provider] = settings
        }
        googlePlayPackage = config.string(forKey: "purchases.googlePlay.packageName", default: googlePlayPackage)
        googlePlayServiceAccount = config.string(forKey: "purchases.googlePlay.serviceAccountKey").flatMap { $0.isEmpty ? nil : $0 }
        googlePlayBaseURL = config.string(forKey: "purchases.googlePlay.baseURL", default: googlePlayBaseURL)
        googlePlayRoots = Self.list(config.string(forKey: "purchases.googlePlay.rootCertificates", default: ""))
        googlePlayNotificationSecret = config.string(forKey: "purchases.googlePlay.notificationSecret", isSecret: true)
            .flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A comma-separated setting's items.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

import Configuration
import Foundation
import Logging
import ParlaCore
import ParlaSpeech

/// `http.*`: where the server listens and whom it trusts.
public struct HTTPSettings: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
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

    public init() {}

    init(config: ConfigReader) {
        host = config.string(forKey: "host", default: host)
        port = config.int(forKey: "port", default: port)
        secureCookies = config.bool(forKey: "secureCookies", default: secureCookies)
        corsOrigins = Set(config.list("corsOrigins"))
        trustedProxies = Set(config.list("trustedProxies").compactMap(ClientAddress.canonical))
    }
}

/// `database.*`: the primary (embedded or external), its pool and a replica.
public struct DatabaseSettings: Sendable {
    public enum Location: Sendable, Equatable {
        /// An external server: `postgres://user:password@host:5432/database`.
        case url(String)
        /// A private cluster under this directory, started by the server.
        case embedded(dataDirectory: String)
    }

    /// `database.url`, or else `database.dataDirectory`.
    public var location = Location.embedded(dataDirectory: ".parla/postgres")
    /// About four per core: more backends than that only queue for the CPU
    /// (measured on two cores: 6-10 beat 20 by 5-10% on `/v1/me`).
    public var maxConnections = 8
    /// A streaming replica for the read-only routes that may lag a moment
    /// behind (teachers' class overviews, admins' analytics); nil: all
    /// reads go to the primary.
    public var readURL: String?
    /// How long a request waits for a database connection before it is
    /// answered 503 `database_unavailable` (PostgreSQL down, pool exhausted).
    public var connectionWaitSeconds = 5.0

    public init() {}

    init(config: ConfigReader) {
        let dataDirectory = config.string(forKey: "dataDirectory", default: ".parla/postgres")
        location = config.nonEmptyString("url").map(Location.url) ?? .embedded(dataDirectory: dataDirectory)
        maxConnections = config.int(forKey: "maxConnections", default: maxConnections)
        readURL = config.nonEmptyString("readURL")
        connectionWaitSeconds = config.double(forKey: "connectionWaitSeconds", default: connectionWaitSeconds)
    }
}

/// `security.*`: the personal-data key and password hashing.
public struct SecuritySettings: Sendable {
    /// Base64 of 32 bytes; when empty the key is read from `keyFile`.
    public var dataKey: String?
    public var keyFile = ".parla/personal-data.key"
    public var bcryptCost = 12
    public var passwordHashingThreads = 2

    public init() {}

    init(config: ConfigReader) {
        dataKey = config.nonEmptyString("dataKey", isSecret: true)
        keyFile = config.string(forKey: "keyFile", default: keyFile)
        bcryptCost = config.int(forKey: "bcryptCost", default: bcryptCost)
        passwordHashingThreads = config.int(forKey: "passwordHashingThreads", default: passwordHashingThreads)
    }
}

/// `accounts.*`: terms, sessions and guests.
public struct AccountSettings: Sendable {
    public var termsVersion = "2026-11-01"
    /// A session ends this many days after sign-in however much it is used
    /// (besides its sliding 30 days).
    public var sessionMaxDays = 90
    /// Guests (seed 001): erased once unused this many days; looked for
    /// this often.
    public var guestIdleDays = 30
    public var guestSweepSeconds = 3600.0

    public init() {}

    init(config: ConfigReader) {
        termsVersion = config.string(forKey: "termsVersion", default: termsVersion)
        sessionMaxDays = config.int(forKey: "sessionMaxDays", default: sessionMaxDays)
        guestIdleDays = config.int(forKey: "guestIdleDays", default: guestIdleDays)
        guestSweepSeconds = config.double(forKey: "guestSweepSeconds", default: guestSweepSeconds)
    }
}

/// `lessons.*`.
public struct LessonSettings: Sendable {
    /// How long "I can't speak now" keeps speaking questions out of a
    /// learner's lessons.
    public var speakingPauseMinutes = 60
    /// Open lessons kept decoded between answers (`Kept`: OpenLessons).
    public var keepOpen = true

    public init() {}

    init(config: ConfigReader) {
        speakingPauseMinutes = config.int(forKey: "speakingPauseMinutes", default: speakingPauseMinutes)
        keepOpen = config.bool(forKey: "keepOpen", default: keepOpen)
    }
}

/// `limits.*`: the largest request bodies taken.
public struct BodyLimits: Sendable {
    public var jsonBodyBytes = 64 * 1024
    public var pictureBytes = 2 * 1024 * 1024

    public init() {}

    init(config: ConfigReader) {
        jsonBodyBytes = config.int(forKey: "jsonBodyBytes", default: jsonBodyBytes)
        pictureBytes = config.int(forKey: "pictureBytes", default: pictureBytes)
    }
}

/// `content.*`: the bundled Corpora and where assets are kept.
public struct ContentSettings: Sendable {
    /// The bundled Corpora, imported at start when its version changed;
    /// nil serves whatever the database holds.
    public var directory: String? = "Corpora"
    /// Where pictures and audio are kept, by content hash (not in git).
    public var assetDirectory = ".parla/assets"
    /// OpenMoji's drawings, installed by `make install-deps`.
    public var openMojiDirectory = "vendor/openmoji"
    /// Whether `parla serve` makes missing assets (synthetic speech) in the
    /// background after it starts.
    public var buildAssets = true
    /// Whether a learner's own view of content is answered from the bytes
    /// last sent for it when its handler finds them current (`OwnContentAnswers`).
    public var keepOwnAnswers = true

    public init() {}

    init(config: ConfigReader) {
        // Empty: serve whatever the database holds.
        let directory = config.string(forKey: "directory", default: "Corpora")
        self.directory = directory.isEmpty ? nil : directory
        assetDirectory = config.string(forKey: "assetDirectory", default: assetDirectory)
        openMojiDirectory = config.string(forKey: "openMojiDirectory", default: openMojiDirectory)
        buildAssets = config.bool(forKey: "buildAssets", default: buildAssets)
        keepOwnAnswers = config.bool(forKey: "keepOwnAnswers", default: keepOwnAnswers)
    }
}

/// `speech.*`: the scorer, and the queue that speech workers take from.
public struct SpeechSettings: Sendable {
    /// Models, limits and concurrency of the scorer.
    public var scorer = SpeechScorer.Settings()
    /// How long a server waits for a speech worker to take a queued
    /// recording before scoring it itself, and again for a worker to finish
    /// one it took (`parla worker speech`).
    public var queueWaitSeconds = 10.0
    /// This worker's name in the register of speech workers.
    public var workerName = "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"

    public init() {}

    init(config: ConfigReader) {
        scorer.modelsDirectory = config.string(forKey: "modelsDirectory", default: scorer.modelsDirectory)
        scorer.modelPaths = config.list("modelPaths")
        scorer.limits.maxBytes = config.int(forKey: "maxAudioBytes", default: scorer.limits.maxBytes)
        scorer.limits.maxSeconds = config.double(forKey: "maxAudioSeconds", default: scorer.limits.maxSeconds)
        scorer.threads = config.int(forKey: "threads", default: scorer.threads)
        scorer.queueLimit = config.int(forKey: "queueLimit", default: scorer.queueLimit)
        scorer.substitutions = config.bool(forKey: "substitutions", default: scorer.substitutions)
        queueWaitSeconds = config.double(forKey: "queueWaitSeconds", default: queueWaitSeconds)
        workerName = config.nonEmptyString("workerName") ?? workerName
    }
}

extension TelemetrySettings {
    init(config: ConfigReader) {
        self.init()
        otlpEndpoint = config.nonEmptyString("otlpEndpoint")
        otlpProtocol = config.string(forKey: "otlpProtocol", default: otlpProtocol)
        sampleRatio = config.double(forKey: "sampleRatio", default: sampleRatio)
        serviceName = config.string(forKey: "serviceName", default: serviceName)
        exportDelaySeconds = config.double(forKey: "exportDelaySeconds", default: exportDelaySeconds)
    }
}

/// `leaderboards.*`.
public struct LeaderboardSettings: Sendable {
    /// The leaderboard page read and written by hand (`LeaderboardFastPath`);
    /// off, the generated code serves it like every other route.
    public var fastPath = true

    public init() {}

    init(config: ConfigReader) {
        fastPath = config.bool(forKey: "fastPath", default: fastPath)
    }
}

/// `log.*`.
public struct LogSettings: Sendable {
    public enum Format: String, Sendable { case json, text }

    public var level = Logger.Level.info
    public var format = Format.json

    public init() {}

    init(config: ConfigReader) {
        level = config.string(forKey: "level").flatMap(Logger.Level.init(rawValue:)) ?? level
        format = config.string(forKey: "format").flatMap(Format.init(rawValue:)) ?? format
    }
}

/// `rateLimits.*`: what one client address and one account may do per
/// window; counting is off only where one address is every client
/// (benchmarks).
public struct RateLimitSettings: Sendable {
    public var policy = RateLimitPolicy.standard
    public var enabled = true

    public init() {}

    init(config: ConfigReader) {
        enabled = config.bool(forKey: "enabled", default: enabled)
        // The limits the policy has (an action not limited per account has no such key).
        for action in LimitedAction.allCases {
            let config = config.scoped(to: ConfigKey(action.rawValue))
            if policy.perAddress[action] != nil, let count = config.int(forKey: "perAddress") {
                policy.perAddress[action]?.count = count
            }
            if policy.perAccount[action] != nil, let count = config.int(forKey: "perAccount") {
                policy.perAccount[action]?.count = count
            }
        }
    }
}

/// `teaching.*`: classes and their overviews.
public struct TeachingSettings: Sendable {
    /// Classes a teacher may have, and learners a class may hold.
    public var classesPerTeacher = 20
    public var membersPerClass = 60
    /// Whether class overviews are kept in memory while their inputs are
    /// unchanged (`ClassOverviews`); off, each is read afresh.
    public var keepOverviews = true

    public init() {}

    init(config: ConfigReader) {
        classesPerTeacher = config.int(forKey: "classesPerTeacher", default: classesPerTeacher)
        membersPerClass = config.int(forKey: "membersPerClass", default: membersPerClass)
        keepOverviews = config.bool(forKey: "keepOverviews", default: keepOverviews)
    }
}

/// `entitlements.*`.
public struct EntitlementSettings: Sendable {
    /// Whether accounts' entitlements are kept in memory (`AccountEntitlements`);
    /// off, every request that asks reads them (the benchmark's baseline).
    public var keepInMemory = true

    public init() {}

    init(config: ConfigReader) {
        keepInMemory = config.bool(forKey: "keepInMemory", default: keepInMemory)
    }
}

/// `analytics.*`.
public struct AnalyticsSettings: Sendable {
    /// How often events are rolled up by day (their reports are at most
    /// this late), and how long raw events are kept.
    public var rollupSeconds = 10.0
    public var keepEventsDays = 90

    public init() {}

    init(config: ConfigReader) {
        rollupSeconds = config.double(forKey: "rollupSeconds", default: rollupSeconds)
        // An event id blocks a resend only while its row is kept: no shorter
        // than the oldest event taken, or a late resend would count twice.
        keepEventsDays = max(Int(Analytics.oldestEvent / 86400) + 1, config.int(forKey: "keepEventsDays", default: keepEventsDays))
    }
}

import Configuration
import Foundation
import ParlaCore
import ParlaIdentity
import ParlaServices
import ParlaSpeech

/// Everything `parla serve` reads from configuration, by area, with the
/// defaults `Config/parla.json` lists.
///
/// Design note: a setting's path is its key. `settings.database.maxConnections`
/// is `database.maxConnections`, read by `DatabaseSettings` from the reader
/// scoped to `database` (as Hummingbird's `Application+ConfigReader` does);
/// each area is a small struct whose defaults are its properties' initial
/// values, written once and read back as the defaults of its keys.
public struct ServerSettings: Sendable {
    public var http = HTTPSettings()
    public var database = DatabaseSettings()
    public var security = SecuritySettings()
    public var accounts = AccountSettings()
    public var lessons = LessonSettings()
    public var limits = BodyLimits()
    public var content = ContentSettings()
    public var speech = SpeechSettings()
    public var telemetry = TelemetrySettings()
    public var leaderboards = LeaderboardSettings()
    public var log = LogSettings()
    public var rateLimits = RateLimitSettings()
    public var teaching = TeachingSettings()
    public var entitlements = EntitlementSettings()
    public var purchases = PurchaseSettings()
    /// Per platform (`clients.<ios|android>.minimumVersion`, `.latestVersion`,
    /// `.storeUrl`): the oldest app served (older ones get 426
    /// `update_required`), the newest, and where to get it.
    public var clients: [AppPlatform: ClientRelease] = [:]
    public var analytics = AnalyticsSettings()
    /// Email: who sends it, where its links lead, and how it leaves.
    public var mail = MailSettings()
    /// Sign in with Apple, Google and Facebook (`auth.<provider>.*`); a provider
    /// without audiences is off.
    public var identityProviders: [IdentityProvider: IdentityProviderSettings] = [
        .apple: .apple(audiences: []), .google: .google(audiences: []), .facebook: .facebook(audiences: []),
    ]

    public init() {}

    /// Reads every setting; keys are listed in `Config/parla.json`.
    public init(config: ConfigReader) {
        http = HTTPSettings(config: config.scoped(to: "http"))
        database = DatabaseSettings(config: config.scoped(to: "database"))
        security = SecuritySettings(config: config.scoped(to: "security"))
        accounts = AccountSettings(config: config.scoped(to: "accounts"))
        lessons = LessonSettings(config: config.scoped(to: "lessons"))
        limits = BodyLimits(config: config.scoped(to: "limits"))
        content = ContentSettings(config: config.scoped(to: "content"))
        speech = SpeechSettings(config: config.scoped(to: "speech"))
        telemetry = TelemetrySettings(config: config.scoped(to: "telemetry"))
        leaderboards = LeaderboardSettings(config: config.scoped(to: "leaderboards"))
        log = LogSettings(config: config.scoped(to: "log"))
        rateLimits = RateLimitSettings(config: config.scoped(to: "rateLimits"))
        teaching = TeachingSettings(config: config.scoped(to: "teaching"))
        entitlements = EntitlementSettings(config: config.scoped(to: "entitlements"))
        purchases = PurchaseSettings(config: config.scoped(to: "purchases"))
        clients = Self.releases(config.scoped(to: "clients"))
        analytics = AnalyticsSettings(config: config.scoped(to: "analytics"))
        mail = MailSettings(config: config.scoped(to: "mail"))
        identityProviders = Self.providers(config.scoped(to: "auth"), defaults: identityProviders)
    }

    static func releases(_ config: ConfigReader) -> [AppPlatform: ClientRelease] {
        var clients: [AppPlatform: ClientRelease] = [:]
        for platform in AppPlatform.allCases {
            let config = config.scoped(to: ConfigKey(platform.rawValue))
            var release = ClientRelease()
            if let minimum = config.nonEmptyString("minimumVersion") { release.minimum = AppVersion(minimum) }
            if let latest = config.nonEmptyString("latestVersion") { release.latest = AppVersion(latest) }
            if let store = config.nonEmptyString("storeUrl") { release.storeURL = store }
            clients[platform] = release
        }
        return clients
    }

    static func providers(
        _ config: ConfigReader, defaults: [IdentityProvider: IdentityProviderSettings]
    ) -> [IdentityProvider: IdentityProviderSettings] {
        var providers = defaults
        for provider in IdentityProvider.allCases {
            let config = config.scoped(to: ConfigKey(provider.rawValue))
            func value(_ name: String) -> [String]? { config.nonEmptyString(name).map(list).flatMap { $0.isEmpty ? nil : $0 } }
            guard var settings = providers[provider] else { continue }
            if let audiences = value("audiences") { settings.audiences = Set(audiences) }
            if let issuers = value("issuers") { settings.issuers = Set(issuers) }
            if let url = value("jwksUrl")?.first { settings.jwksURL = url }
            settings.rootCertificates = value("rootCertificates") ?? []
            // The web client's id_tokens are for us too: it is an audience.
            settings.web = webSignIn(provider, config: config, roots: settings.rootCertificates)
            if let web = settings.web { settings.audiences.insert(web.clientID) }
            providers[provider] = settings
        }
        return providers
    }

    /// A comma-separated setting's items.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

extension ConfigReader {
    /// A key's value, nil when it is unset or empty (an empty value in
    /// `Config/parla.json` means "not set").
    func nonEmptyString(_ key: String, isSecret: Bool = false) -> String? {
        string(forKey: ConfigKey(key), isSecret: isSecret).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A comma-separated key's items (none when unset).
    func list(_ key: String) -> [String] {
        ServerSettings.list(nonEmptyString(key) ?? "")
    }
}

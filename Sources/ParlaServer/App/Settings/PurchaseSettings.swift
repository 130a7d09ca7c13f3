import Configuration

/// `purchases.*`: how store purchases are verified.
public struct PurchaseSettings: Sendable {
    /// `purchases.appStore.*`: the App Store's signed data: PEM files of the
    /// roots its chains must lead to (Apple Root CA - G3), the app's bundle
    /// id, the environments accepted. No roots: App Store purchases answer
    /// 503 `store_unavailable`.
    public struct AppStore: Sendable {
        public var rootCertificates: [String] = []
        public var bundleID = "app.parla"
        public var environments: Set<String> = ["Production"]
    }

    /// `purchases.googlePlay.*`: the app's package, the service account's
    /// key file, the Developer API's base URL, the roots its TLS certificate
    /// must chain to (none: the system's), and the secret that real-time
    /// notifications' push endpoint carries (`?secret=`). No key file:
    /// Google Play purchases answer 503 `store_unavailable`.
    public struct GooglePlay: Sendable {
        public var packageName = "app.parla"
        public var serviceAccountKey: String?
        public var baseURL = "https://androidpublisher.googleapis.com"
        public var rootCertificates: [String] = []
        public var notificationSecret: String?
    }

    public var appStore = AppStore()
    public var googlePlay = GooglePlay()
    /// The first version of the new app: buyers of an earlier one own the legacy words.
    public var legacyBeforeVersion = "2.0"

    public init() {}

    init(config: ConfigReader) {
        let apple = config.scoped(to: "appStore")
        appStore.rootCertificates = apple.list("rootCertificates")
        appStore.bundleID = apple.string(forKey: "bundleId", default: appStore.bundleID)
        appStore.environments = Set(ServerSettings.list(apple.string(forKey: "environments", default: "Production")))
        let google = config.scoped(to: "googlePlay")
        googlePlay.packageName = google.string(forKey: "packageName", default: googlePlay.packageName)
        googlePlay.serviceAccountKey = google.nonEmptyString("serviceAccountKey")
        googlePlay.baseURL = google.string(forKey: "baseURL", default: googlePlay.baseURL)
        googlePlay.rootCertificates = google.list("rootCertificates")
        googlePlay.notificationSecret = google.nonEmptyString("notificationSecret", isSecret: true)
        legacyBeforeVersion = config.string(forKey: "legacyBeforeVersion", default: legacyBeforeVersion)
    }
}

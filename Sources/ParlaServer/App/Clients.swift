import Foundation
import Logging
import ParlaCore
import ParlaIdentity
import ParlaPurchases
import ParlaServices
import ServiceLifecycle

/// The App Store's verifier, when roots are configured.
func appStoreVerifier(_ settings: ServerSettings) throws -> AppStoreVerifier? {
    guard !settings.purchases.appStore.rootCertificates.isEmpty else { return nil }
    return try AppStoreVerifier(
        settings: AppStoreSettings(
            rootCertificates: try AppStoreSettings.certificates(pemFiles: settings.purchases.appStore.rootCertificates),
            bundleID: settings.purchases.appStore.bundleID,
            environments: settings.purchases.appStore.environments, legacyBeforeVersion: AppVersion(settings.purchases.legacyBeforeVersion))
    )
}

/// Google Play's API client, when a service account is configured.
func googlePlayClient(_ settings: ServerSettings, logger: Logger) async throws -> GooglePlayClient? {
    guard let key = settings.purchases.googlePlay.serviceAccountKey else { return nil }
    return try await GooglePlayClient(
        settings: GooglePlaySettings(
            packageName: settings.purchases.googlePlay.packageName, serviceAccount: try .read(key),
            baseURL: settings.purchases.googlePlay.baseURL),
        trusting: settings.purchases.googlePlay.rootCertificates, logger: logger)
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

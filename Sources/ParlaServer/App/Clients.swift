import Foundation
import Logging
import ParlaCore
import ParlaIdentity
import ParlaPurchases
import ServiceLifecycle

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

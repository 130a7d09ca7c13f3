import Configuration
import Logging
import ParlaIdentity
import ServiceLifecycle

extension ServerSettings {
    /// A provider's sign-in on the web dashboard, from `auth.<provider>.*`
    /// (`config` is scoped to the provider):
    /// `webClientId` (Google's web client, Apple's Services ID) turns it on,
    /// with Google's `clientSecret` (a secret), or Apple's `teamId`, `keyId`
    /// and `privateKey` (the `.p8` file's path); `authorizationUrl` and
    /// `tokenUrl` replace the provider's own (tests point them at a local
    /// provider). Missing any of these, the provider is not offered; a
    /// provider without a web flow (Facebook) never is.
    static func webSignIn(_ provider: IdentityProvider, config: ConfigReader, roots: [String]) -> WebSignInSettings? {
        guard provider == .google || provider == .apple else { return nil }
        func value(_ name: String, secret: Bool = false) -> String? {
            config.nonEmptyString(name, isSecret: secret)
        }
        // Every key of the provider's flow is read, set or not (Config/parla.json lists them all).
        let (clientID, authorizationURL, tokenURL) = (value("webClientId"), value("authorizationUrl"), value("tokenUrl"))
        var settings: WebSignInSettings
        switch provider {
        case .google:
            let secret = value("clientSecret", secret: true)
            guard let clientID, let secret else { return nil }
            settings = .google(clientID: clientID, secret: secret)
        case .apple:
            let (team, key, file) = (value("teamId"), value("keyId"), value("privateKey"))
            guard let clientID, let team, let key, let file else { return nil }
            settings = .apple(clientID: clientID, teamID: team, keyID: key, privateKeyFile: file)
        default:
            return nil
        }
        if let authorizationURL { settings.authorizationURL = authorizationURL }
        if let tokenURL { settings.tokenURL = tokenURL }
        settings.rootCertificates = roots
        return settings
    }
}

/// The web dashboard's sign-in clients, one per provider set up for it
/// whose verifier accepts the web client's id_tokens (its client id among
/// the audiences); another is left out, and said so at start.
func webSignInClients(_ settings: ServerSettings, verifying identities: [IdentityProvider: IdentityVerifier], logger: Logger) throws
    -> [IdentityProvider: AuthorizationCodeClient]
{
    var clients: [IdentityProvider: AuthorizationCodeClient] = [:]
    for (provider, providerSettings) in settings.identityProviders {
        guard let web = providerSettings.web else { continue }
        guard identities[provider]?.settings.audiences.contains(web.clientID) == true else {
            logger.warning("web sign-in left out: its client id is not an audience", metadata: ["provider": "\(provider.rawValue)"])
            continue
        }
        clients[provider] = try AuthorizationCodeClient(settings: web)
    }
    return clients
}

/// Closes the web sign-in clients' connections when the server stops.
struct WebSignInClientsService: Service {
    let clients: [AuthorizationCodeClient]

    func run() async throws {
        try? await gracefulShutdown()
        for client in clients { try await client.shutdown() }
    }
}

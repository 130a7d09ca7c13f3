import HTTPTypes
import Hummingbird
import ParlaCore

/// An app too old to serve gets 426 `update_required` with its store link
/// before anything else runs: `X-App-Platform` (ios, android) names the
/// platform, `X-App-Version` the version (anything else than a version is
/// 422 `invalid_app_version`). Requests without them (web pages, scripts)
/// and the client configuration itself, which says what to do, pass.
struct AppVersionMiddleware<Context: RequestContext>: RouterMiddleware {
    let clients: [AppPlatform: ClientRelease]

    static var version: HTTPField.Name { HTTPField.Name("X-App-Version")! }
    static var platform: HTTPField.Name { HTTPField.Name("X-App-Platform")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let text = request.headers[Self.version], request.uri.path.hasPrefix("/v1/"), request.uri.path != "/v1/client-config" else {
            return try await next(request, context)
        }
        guard let version = AppVersion(text) else { throw ParlaError(.invalidAppVersion) }
        if let platform = request.headers[Self.platform].flatMap({ AppPlatform(rawValue: $0.lowercased()) }),
            let release = clients[platform], release.requiresUpdate(version)
        {
            throw ParlaError.updateRequired(storeURL: release.storeURL)
        }
        return try await next(request, context)
    }
}

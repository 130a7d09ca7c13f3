import HTTPTypes
import Hummingbird
import ParlaCore
import ParlaStore

/// A request that may write (any method but GET and HEAD), once answered,
/// drops its account's profile from this server's memory: its client reads
/// its own change at once, though the change's notification (which tells
/// every server) may still be on its way.
struct AccountWritesMiddleware<Context: RequestContext>: RouterMiddleware {
    let accounts: AccountStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get, request.method != .head, !Self.keepsProfile(request.uri.path),
            let header = request.headers[.authorization], let token = Authenticator.bearerToken(header)
        else { return try await next(request, context) }
        // The session is looked up before (a sign-out ends it) and after (a
        // first request keeps it); a token known to neither has no profile here.
        let tokenHash = SessionToken.hash(token)
        let account = accounts.keptAccount(tokenHash: tokenHash)
        defer {
            if let changed = account ?? accounts.keptAccount(tokenHash: tokenHash) { accounts.profileChanged(changed) }
        }
        return try await next(request, context)
    }

    /// Writes that change nothing `GET /v1/me` shows, and come often
    /// (analytics) or carry their own data (bug reports): the profile stays.
    static func keepsProfile(_ path: String) -> Bool {
        path.hasSuffix("/events") || path.hasPrefix("/v1/support/")
    }
}

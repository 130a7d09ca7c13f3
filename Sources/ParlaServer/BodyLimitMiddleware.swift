import HTTPTypes
import Hummingbird
import ParlaCore

/// Bounds every request body before any handler reads it: pictures get
/// their own limit, everything else the JSON limit. A declared length over
/// the limit is refused before a byte is read.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let jsonLimit: Int
    let pictureLimit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let limit = request.uri.path.hasSuffix("/picture") ? pictureLimit : jsonLimit
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw ParlaError(.payloadTooLarge)
        }
        var request = request
        do {
            _ = try await request.collectBody(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw ParlaError(.payloadTooLarge)
        }
        return try await next(request, context)
    }
}

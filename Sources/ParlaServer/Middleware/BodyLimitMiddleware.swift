import HTTPTypes
import Hummingbird
import ParlaCore

/// Bounds every request body before any handler reads it: pictures and
/// speech recordings get their own limits, everything else the JSON limit. A declared length over
/// the limit is refused before a byte is read.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let jsonLimit: Int
    let pictureLimit: Int
    let audioLimit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        let isAudio =
            path.hasSuffix("/speech/attempts") || path == "/v1/speech/alignments" || path.hasSuffix("/recordings")
            || path.hasSuffix("/recording")
        let isPicture = path.hasSuffix("/picture") || path.hasSuffix("/screenshot") || path.hasSuffix("/drawings")
        let limit = isPicture ? pictureLimit : isAudio ? audioLimit : jsonLimit
        let tooLarge = ParlaError(isAudio ? .audioTooLarge : .payloadTooLarge)
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw tooLarge
        }
        var request = request
        do {
            _ = try await request.collectBody(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        }
        return try await next(request, context)
    }
}

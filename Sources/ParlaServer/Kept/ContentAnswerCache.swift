import Foundation
import HTTPTypes
import OpenAPIRuntime
import ParlaCore
import ParlaServices

/// Content is the same for every anonymous caller until its version
/// changes: the first answer to a request is kept byte for byte, and the
/// same request later is answered from memory, before any decoding,
/// handler or encoding runs. A learner's own view (`learnerId`, a token)
/// always goes to the handler.
final class ContentAnswerCache: ServerMiddleware, Sendable {
    static let maximumEntries = 5_000

    struct Answer: Sendable {
        var fields: HTTPFields
        var bytes: [UInt8]
    }

    let catalog: ContentCatalog
    private let answers = ContentAnswers.Kept<Answer>(maximumKeys: maximumEntries)

    init(catalog: ContentCatalog) { self.catalog = catalog }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        guard ContentAnswers.operations.contains(operationID), request.method == .get, let path = request.path,
            !ContentAnswers.isPersonal(request, path: path), let version = catalog.snapshot?.version
        else { return try await next(request, body, metadata) }
        let key = ContentAnswers.key(path, operationID: operationID)

        if let known = answers[key, version: version] {
            if let tag = known.fields[.eTag], EntityTag.isCurrent(tag, ifNoneMatch: request.headerFields[.ifNoneMatch]) {
                return (HTTPResponse(status: .notModified, headerFields: [.eTag: tag]), nil)
            }
            return (HTTPResponse(status: .ok, headerFields: known.fields), HTTPBody(known.bytes))
        }

        var (response, responseBody) = try await next(request, body, metadata)
        // Shared caches must keep one answer per language too.
        if ContentAnswers.followsReader(operationID, path: path) { response.headerFields[.vary] = "Accept-Language" }
        guard response.status == .ok, let responseBody, !catalog.isBuildingAssets else { return (response, responseBody) }
        let bytes = try await [UInt8](collecting: responseBody, upTo: 4 * 1024 * 1024)
        answers.update(key, version: version) { $0 = Answer(fields: response.headerFields, bytes: bytes) }
        return (response, HTTPBody(bytes))
    }
}

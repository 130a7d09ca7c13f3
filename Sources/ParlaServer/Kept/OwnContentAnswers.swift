import Foundation
import HTTPTypes
import OpenAPIRuntime
import ParlaServices

/// A learner's own view of content (`learnerId`, or any request with a
/// token) cannot be answered before its handler runs: the caller must be
/// authenticated and the learner authorized every time. What it can skip is
/// building and encoding the body, which is most of its cost.
///
/// Design note: the handler's entity tag names everything its body depends
/// on (the content's version, the path, the lists open to the learner, a
/// locked list's offer). So the answers last sent for a path are kept by
/// their tags, and a request the client sent without `If-None-Match` goes
/// to the handler with those tags as its `If-None-Match`. The handler
/// authenticates, authorizes and computes the current tag as always; its
/// 304 (which carries the current tag) says one of the kept answers is
/// exactly what it would have built, and that answer is sent, as a 200.
/// Any other outcome (a 401, a 404, a lock, a new tag) passes through. No
/// write drops anything: a change the learner may see changes the tag.
final class OwnContentAnswers: ServerMiddleware, Sendable {
    /// Distinct answers kept per path: one per set of open lists seen lately.
    static let answersPerPath = 8
    static let maximumPaths = 5_000

    struct Answer: Sendable {
        var tag: String
        var fields: HTTPFields
        var bytes: [UInt8]
    }

    let catalog: ContentCatalog
    private let answers = ContentAnswers.Kept<[Answer]>(maximumKeys: maximumPaths)

    init(catalog: ContentCatalog) { self.catalog = catalog }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        // Anonymous requests are `ContentAnswerCache`'s.
        guard ContentAnswers.operations.contains(operationID), request.method == .get, let path = request.path,
            ContentAnswers.isPersonal(request, path: path), let version = catalog.snapshot?.version
        else { return try await next(request, body, metadata) }
        let key = ContentAnswers.key(path, operationID: operationID)
        let known = answers[key, version: version] ?? []

        var asked = request
        let clientAsked = request.headerFields[.ifNoneMatch] != nil
        if !clientAsked, !known.isEmpty { asked.headerFields[.ifNoneMatch] = known.map(\.tag).joined(separator: ", ") }
        let (response, responseBody) = try await next(asked, body, metadata)

        if !clientAsked, response.status == .notModified, let tag = response.headerFields[.eTag],
            let answer = known.first(where: { $0.tag == tag })
        {
            return (HTTPResponse(status: .ok, headerFields: answer.fields), HTTPBody(answer.bytes))
        }
        guard response.status == .ok, let responseBody, let tag = response.headerFields[.eTag], !catalog.isBuildingAssets
        else { return (response, responseBody) }
        let bytes = try await [UInt8](collecting: responseBody, upTo: 4 * 1024 * 1024)
        answers.update(key, version: version) { list in
            let others = (list ?? []).filter { $0.tag != tag }
            list = Array(([Answer(tag: tag, fields: response.headerFields, bytes: bytes)] + others).prefix(Self.answersPerPath))
        }
        return (response, HTTPBody(bytes))
    }
}

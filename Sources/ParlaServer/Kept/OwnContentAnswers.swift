import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

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
    private let answers = Mutex<(version: String, byPath: [String: [Answer]])>(("", [:]))

    init(catalog: ContentCatalog) { self.catalog = catalog }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        // Anonymous requests are `ContentAnswerCache`'s.
        guard ContentAnswerCache.operations.contains(operationID), request.method == .get, let path = request.path,
            request.headerFields[.authorization] != nil || path.contains("learnerId="), let version = catalog.snapshot?.version
        else { return try await next(request, body, metadata) }
        let key = Self.key(path, explained: ContentAnswerCache.explained.contains(operationID))
        let known = answers.withLock { $0.version == version ? $0.byPath[key] ?? [] : [] }

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
        answers.withLock { kept in
            if kept.version != version || kept.byPath.count >= Self.maximumPaths { kept = (version, [:]) }
            var list = kept.byPath[key, default: []].filter { $0.tag != tag }
            list.insert(Answer(tag: tag, fields: response.headerFields, bytes: bytes), at: 0)
            kept.byPath[key] = Array(list.prefix(Self.answersPerPath))
        }
        return (response, HTTPBody(bytes))
    }

    /// The path without the learner's id (learners on the same lists share
    /// an answer), marked when a learner is named (its answer is private),
    /// and with the reader's language where the answer follows it.
    static func key(_ path: String, explained: Bool) -> String {
        var parts = path.split(separator: "?", maxSplits: 1)
        var own = false
        if parts.count == 2 {
            let query = parts[1].split(separator: "&").filter { item in
                guard item.hasPrefix("learnerId=") else { return true }
                own = true
                return false
            }
            parts[1] = query.joined(separator: "&")[...]
        }
        var key = parts.joined(separator: "?")
        if own { key += "#own" }
        if explained, !path.contains("ui=") { key += "#" + RequestScope.here.language.code }
        return key
    }
}

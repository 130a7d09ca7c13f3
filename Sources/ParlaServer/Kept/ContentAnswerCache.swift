import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// Content is the same for every anonymous caller until its version
/// changes: the first answer to a request is kept byte for byte, and the
/// same request later is answered from memory, before any decoding,
/// handler or encoding runs. A learner's own view (`learnerId`, a token)
/// always goes to the handler.
final class ContentAnswerCache: ServerMiddleware, Sendable {
    static let operations: Set<String> = [
        "listLanguages", "listWordLists", "getWordListPage", "getWord", "listPhrases", "getPhrase", "listGrammarNotes", "getGrammarNote",
    ]
    /// Operations whose answer follows `Accept-Language` unless the path
    /// names the reader's language (`ui=`): kept per language.
    static let explained: Set<String> = ["listGrammarNotes", "getGrammarNote"]
    static let maximumEntries = 5_000

    struct Answer: Sendable {
        var fields: HTTPFields
        var bytes: [UInt8]
    }

    let catalog: ContentCatalog
    private let answers = Mutex<(version: String, entries: [String: Answer])>(("", [:]))

    init(catalog: ContentCatalog) { self.catalog = catalog }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        guard Self.operations.contains(operationID), request.method == .get, request.headerFields[.authorization] == nil,
            var path = request.path, !path.contains("learnerId="), let version = catalog.snapshot?.version
        else { return try await next(request, body, metadata) }
        if Self.explained.contains(operationID), !path.contains("ui=") { path += "#" + RequestScope.here.language.code }

        let known = answers.withLock { $0.version == version ? $0.entries[path] : nil }
        if let known {
            if let tag = known.fields[.eTag], let asked = request.headerFields[.ifNoneMatch],
                asked == "*"
                    || asked.split(separator: ",").contains(where: {
                        $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "") == tag
                    })
            {
                return (HTTPResponse(status: .notModified, headerFields: [.eTag: tag]), nil)
            }
            return (HTTPResponse(status: .ok, headerFields: known.fields), HTTPBody(known.bytes))
        }

        var (response, responseBody) = try await next(request, body, metadata)
        // Shared caches must keep one answer per language too.
        if Self.explained.contains(operationID), !path.contains("ui=") { response.headerFields[.vary] = "Accept-Language" }
        guard response.status == .ok, let responseBody, !catalog.isBuildingAssets else { return (response, responseBody) }
        let bytes = try await [UInt8](collecting: responseBody, upTo: 4 * 1024 * 1024)
        answers.withLock { cache in
            if cache.version != version || cache.entries.count >= Self.maximumEntries { cache = (version, [:]) }
            cache.entries[path] = Answer(fields: response.headerFields, bytes: bytes)
        }
        return (response, HTTPBody(bytes))
    }
}

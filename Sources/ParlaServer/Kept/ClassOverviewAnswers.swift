import Foundation
import HTTPTypes
import OpenAPIRuntime
import ParlaCore
import ParlaKept

/// A class overview is the same for its teacher until one of its inputs
/// changes (`ClassOverviews`), and `JSONEncoder` took most of its time once
/// the overview itself came from memory (about 0.7 ms for a class of 40).
/// The first answer is kept byte for byte beside the overview; later
/// requests of the class's teacher get it before any handler or encoding
/// runs. Anyone else, and whatever the kept answer does not fit (another
/// `Accept`, an error), goes on to the generated handler.
struct ClassOverviewAnswers: ServerMiddleware {
    let handler: APIHandler

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        guard operationID == "getClassOverview", request.method == .get,
            request.headerFields[.accept].map(LeaderboardFastPath.acceptsJSON) ?? true,
            let raw = metadata.pathParameters["classId"], let id = ClassID(String(raw))
        else { return try await next(request, body, metadata) }
        // Anyone but the class's teacher goes on to the handler, which says why.
        guard let authorized = try? await handler.classAccess.schoolClass(id, caller: try await handler.caller().accountID) else {
            return try await next(request, body, metadata)
        }
        let name = "json"
        if let kept = handler.classes.keptAnswer(name, authorized) {
            return (HTTPResponse(status: .ok, headerFields: kept.fields), HTTPBody(kept.body()))
        }
        var answered: (HTTPResponse, HTTPBody?)?
        let answer = try await handler.classes.keepAnswer(name, authorized) { () async throws -> ClassOverviews.Answer? in
            let (response, responseBody) = try await next(request, body, metadata)
            answered = (response, responseBody)
            guard response.status == .ok, let responseBody else { return nil }
            let bytes = try await [UInt8](collecting: responseBody, upTo: 4 * 1024 * 1024)
            return ClassOverviews.Answer(fields: response.headerFields, parts: [bytes])
        }
        if let answer { return (HTTPResponse(status: .ok, headerFields: answer.fields), HTTPBody(answer.body())) }
        return answered!
    }
}

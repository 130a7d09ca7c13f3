import Foundation
import HTTPTypes
import Hummingbird
import ParlaCore

/// Applies `TextInput`'s rule to every request before any handler sees it:
/// a control character in a path segment, a query value, or any string (or
/// member name) of a JSON body is a 422 naming the fields, whatever the
/// route. Runs after `BodyLimitMiddleware`, which has read the body.
struct TextInputMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var fields: [String] = []
        // The route is not matched yet, so a path parameter is named "path".
        if request.uri.path.split(separator: "/").contains(where: { !TextInput.isAcceptable($0.removingPercentEncoding ?? "") }) {
            fields.append("path")
        }
        for (name, value) in request.uri.queryParameters where !TextInput.isAcceptable(value) || !TextInput.isAcceptable(name) {
            fields.append(TextInput.isAcceptable(name) ? String(name) : "query")
        }
        var request = request
        if Self.isJSON(request.headers[.contentType]) {
            let body = try await request.collectBody(upTo: .max)
            if TextInput.mayHoldControl(json: body.readableBytesView),
                let document = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView), options: [.fragmentsAllowed])
            {
                fields += TextInput.controlledFields(in: document, prose: TextInput.proseFields(path: request.uri.path))
            }
        }
        guard fields.isEmpty else { throw ParlaError.validation(fields.map { FieldError($0, .controlCharacter) }) }
        return try await next(request, context)
    }

    /// `application/json` and `application/*+json`; no content type is
    /// JSON too (the generated decoder is lenient about it).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return true }
        let type = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }
}

import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The generated code percent-encodes every header value it sets, which
/// turns `public, max-age=300` into `public%2C%20max-age%3D300` and an ETag's
/// quotes into `%22` (swift-openapi-generator issue 857). Our values are
/// plain HTTP field values: this decodes them back before they leave.
struct PlainHeaderValues: ServerMiddleware {
    static let fields: [HTTPField.Name] = [.eTag, .cacheControl, .contentRange, .acceptRanges, .retryAfter, .location]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        var (response, responseBody) = try await next(request, body, metadata)
        for name in Self.fields {
            if let value = response.headerFields[name], value.contains("%"), let plain = value.removingPercentEncoding {
                response.headerFields[name] = plain
            }
        }
        return (response, responseBody)
    }
}

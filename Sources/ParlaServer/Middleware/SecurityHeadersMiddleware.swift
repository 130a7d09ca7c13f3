import HTTPTypes
import Hummingbird

/// The headers every answer carries (OWASP's for APIs): an answer that
/// does not say how it may be cached is never stored (`no-store`: accounts,
/// learners, progress, tokens, recordings; only content says otherwise),
/// and CORS for the
/// web origins in configuration (`http.corsOrigins`). Pages set their own
/// Content-Security-Policy (`Dashboard.htmlFields`); JSON gets the
/// strictest, since nothing in it is meant to run or be framed. Outermost
/// but for the request scope, so problems get the headers too.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Origins (`https://app.parla.example`) whose pages may call the API.
    let corsOrigins: Set<String>
    /// Whether clients reach this server over TLS: then browsers are told
    /// to keep to it (HSTS).
    let secure: Bool

    static var allowedMethods: String { "GET, POST, PUT, PATCH, DELETE" }
    static var allowedHeaders: String {
        "Authorization, Content-Type, Accept-Language, If-None-Match, Range, X-Request-Id, X-App-Version, X-App-Platform"
    }
    static var exposedHeaders: String { "ETag, Retry-After, Content-Language, X-Request-Id, Content-Range" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let origin = request.headers[.origin].flatMap { corsOrigins.contains($0) ? $0 : nil }
        // A preflight is answered here: no route has OPTIONS.
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            var response = Response(status: .noContent)
            if let origin {
                response.headers[.accessControlAllowOrigin] = origin
                response.headers[.accessControlAllowMethods] = Self.allowedMethods
                response.headers[.accessControlAllowHeaders] = Self.allowedHeaders
                response.headers[.accessControlMaxAge] = "600"
            }
            response.headers[.vary] = "Origin"
            return secured(response)
        }
        var response = try await next(request, context)
        if let origin {
            response.headers[.accessControlAllowOrigin] = origin
            response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        }
        if !corsOrigins.isEmpty { response.headers[values: .vary].append("Origin") }
        return secured(response)
    }

    private func secured(_ response: Response) -> Response {
        var response = response
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.referrerPolicy] == nil { response.headers[.referrerPolicy] = "no-referrer" }
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = "default-src 'none'; frame-ancestors 'none'"
        }
        response.headers[.xFrameOptions] = "DENY"
        // A 304 refreshes a kept copy's headers: it must not turn it into no-store.
        if response.headers[.cacheControl] == nil, response.status != .notModified { response.headers[.cacheControl] = "no-store" }
        if secure { response.headers[.strictTransportSecurity] = "max-age=31536000; includeSubDomains" }
        return response
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let contentSecurityPolicy = Self("Content-Security-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let strictTransportSecurity = Self("Strict-Transport-Security")!
}

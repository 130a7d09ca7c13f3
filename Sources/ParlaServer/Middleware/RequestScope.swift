import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ParlaCore
import ParlaServices

/// Gives each request its id (the client's when it is sane), its language
/// and a logger carrying both; echoes the id and the language on the
/// response, and writes one log line per request. Errors are mapped inside
/// it, so the line shows the status the client got.
struct RequestScopeMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let logger: Logger
    var trustedProxies: Set<String> = []

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let requestID = request.headers[.requestID].flatMap(Self.acceptable) ?? UUIDText.lowercase(UUID())
        let language = LanguagePreference.negotiate(request.headers[.acceptLanguage])
        var logger = self.logger
        logger[metadataKey: "request_id"] = .string(requestID)
        let scope = RequestScope(
            requestID: requestID, language: language,
            authorization: request.headers[.authorization], logger: logger,
            clientAddress: ClientAddress.resolve(
                peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: .xForwardedFor],
                trustedProxies: trustedProxies))
        var response = try await RequestScope.$current.withValue(scope) {
            try await next(request, context)
        }
        response.headers[.requestID] = requestID
        if response.headers[.contentLanguage] == nil { response.headers[.contentLanguage] = language.code }
        // The path only: query strings and bodies may carry personal data.
        logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue),
                "route": .string(context.endpointPath ?? "unmatched"),
                "status": .stringConvertible(response.status.code),
                "duration_ms": .stringConvertible(Self.milliseconds(ContinuousClock.now - start)),
            ])
        return response
    }

    /// Printable ASCII, at most 128 characters; anything else is replaced.
    static func acceptable(_ id: String) -> String? {
        guard (1...128).contains(id.utf8.count),
            id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        return id
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1000 + Double(attoseconds) / 1e15).rounded(toPlaces: 3)
    }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let scale = Foundation.pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}

extension HTTPField.Name {
    static let requestID = Self("X-Request-Id")!
    static let xForwardedFor = Self("X-Forwarded-For")!
}

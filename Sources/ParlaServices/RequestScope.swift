import Foundation
import Logging
import ParlaCore

/// What the generated handlers need to know about the request they serve
/// but cannot receive as parameters: who asks, in which language, under
/// which request id. Set by `RequestScopeMiddleware` around each request.
package struct RequestScope: Sendable {
    package var requestID: String
    package var language: Language
    package var authorization: String?
    package var logger: Logger
    /// The client's address as rate limits count it (`ClientAddress`); nil
    /// for a request made in-process.
    package var clientAddress: String? = nil

    @TaskLocal package static var current: RequestScope?

    /// Outside a request (a test calling a handler directly) there is none.
    package static var here: RequestScope {
        current ?? RequestScope(requestID: "none", language: .english, authorization: nil, logger: Logger(label: "parla"))
    }

    package init(requestID: String, language: Language, authorization: String? = nil, logger: Logger, clientAddress: String? = nil) {
        self.requestID = requestID
        self.language = language
        self.authorization = authorization
        self.logger = logger
        self.clientAddress = clientAddress
    }
}

import AsyncHTTPClient
import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

extension Client {
    /// A client of the Parla server at `serverURL` (such as
    /// `https://api.parla.example`), over AsyncHTTPClient, sending `token`
    /// (from `createAccount` or `createSession`) as its bearer token when there is one.
    ///
    ///     let parla = Client(serverURL: url)
    ///     let signedUp = try await parla.createAccount(body: .json(form)).created.body.json
    ///     let zoe = Client(serverURL: url, token: signedUp.session.token)
    ///
    /// A token is a client's for its life: after signing in, make another.
    /// `middlewares` (logging, retries) see each request with its token.
    public init(
        serverURL: URL, token: String? = nil, httpClient: HTTPClient = .shared, middlewares: [any ClientMiddleware] = []
    ) {
        self.init(
            serverURL: serverURL,
            transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient)),
            middlewares: (token.map { [BearerToken($0)] } ?? []) + middlewares
        )
    }
}

/// Signs every request in: `Authorization: Bearer <token>`, the spec's
/// `bearer` scheme.
public struct BearerToken: ClientMiddleware {
    public let token: String

    public init(_ token: String) {
        self.token = token
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

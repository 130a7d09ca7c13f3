import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ParlaDatabase
import ParlaIdentity
import ParlaServer
import ParlaStore
import Synchronization

/// A Parla server on a database of its own, driven through HTTP.
public struct TestApp: Sendable {
    /// One key for the whole test process, like one server's configuration.
    public static let dataKey: String = {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
    }()

    /// The cipher of every test server, for tests that call stores directly.
    public static func cipher() throws -> PersonalDataCipher {
        try PersonalDataCipher(masterKey: PersonalDataCipher.key(base64: dataKey))
    }

    /// The project's root directory.
    public static let projectDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    /// The project's Corpora directory.
    public static let corporaDirectory = projectDirectory + "/Corpora"
    /// OpenMoji's drawings, as `make install-deps` installs them.
    public static let openMojiDirectory = projectDirectory + "/vendor/openmoji"

    public let databaseURL: String
    public let settings: ServerSettings
    public let logs: LogRecorder

    /// A new database and settings for a server on it.
    public static func make(_ adjust: (inout ServerSettings) -> Void = { _ in }) async throws -> TestApp {
        let url = try await TestDatabase.shared.newDatabase()
        return TestApp(databaseURL: url, adjust)
    }

    /// Another server on the same database (a second instance, a restart).
    public init(databaseURL: String, _ adjust: (inout ServerSettings) -> Void = { _ in }) {
        var settings = ServerSettings()
        settings.database.location = .url(databaseURL)
        settings.security.dataKey = Self.dataKey
        settings.database.maxConnections = 4
        // bcrypt's least cost: a test signs up and in many times, and the
        // C code is built without optimization in a debug build (a cost-12
        // hash there takes seconds). SecurityTests checks the real default.
        settings.security.bcryptCost = 4
        // Tests share two cores with many servers: a slow first connection
        // is not an outage here (the fault tests set their own wait).
        settings.database.connectionWaitSeconds = 15
        // The template database already holds the Corpora; assets go to
        // a store of the test's own.
        settings.content.directory = nil
        settings.content.openMojiDirectory = Self.openMojiDirectory
        settings.speech.scorer.modelsDirectory = Self.projectDirectory + "/Models"
        settings.content.assetDirectory =
            FileManager.default.temporaryDirectory.appendingPathComponent("parla-assets-\(UUID().uuidString)").path
        // No SMTP server: each email becomes a file, in a folder of the test's own.
        settings.mail.outboxDirectory =
            FileManager.default.temporaryDirectory.appendingPathComponent("parla-outbox-\(UUID().uuidString)").path
        adjust(&settings)
        self.databaseURL = databaseURL
        self.settings = settings
        self.logs = LogRecorder()
    }

    /// Runs `body` against a server listening on a real port (a browser's
    /// way in), the port passed along.
    public func runLive<Value: Sendable>(_ body: @Sendable (Client, Int) async throws -> Value) async throws -> Value {
        var logger = Logger(label: "parla.test") { _ in logs.handler() }
        logger.logLevel = .debug
        let app = try await buildApplication(settings, logger: logger)
        return try await app.test(.live) { client in try await body(Client(client: client), client.port ?? 0) }
    }

    /// Runs `body` against a started server (services running).
    public func run<Value: Sendable>(_ body: @Sendable (Client) async throws -> Value) async throws -> Value {
        var logger = Logger(label: "parla.test") { _ in logs.handler() }
        logger.logLevel = .debug
        let app = try await buildApplication(settings, logger: logger)
        return try await app.test(.router) { client in try await body(Client(client: client)) }
    }
}

/// A thin JSON client over HummingbirdTesting.
public struct Client: Sendable {
    typealias Exchange =
        @Sendable (_ uri: String, _ method: HTTPRequest.Method, _ headers: HTTPFields, _ body: ByteBuffer?)
        async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: ByteBuffer)
    let exchange: Exchange

    init(client: any TestClientProtocol) {
        exchange = { uri, method, headers, body in
            let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
            return (response.status, response.headers, response.body)
        }
    }

    /// HummingbirdTesting's own client, aimed at a port of our choosing.
    init(remote client: TestClient) {
        exchange = { uri, method, headers, body in
            var headers = headers
            headers[.connection] = "keep-alive"
            let response = try await client.execute(
                TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body))
            return (response.head.status, response.head.headerFields, response.body ?? ByteBuffer())
        }
    }

    public struct Reply: Sendable {
        public let status: Int
        public let headers: HTTPFields
        public let bytes: [UInt8]

        /// The body as a JSON object (empty when it is not one).
        public var json: [String: any Sendable] {
            (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: any Sendable] ?? [:]
        }
        public var text: String { String(decoding: bytes, as: UTF8.self) }
        public var code: String? { json["code"] as? String }
        public func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
        /// The body decoded as `type` (a generated `Components.Schemas`
        /// type), with the API's ISO 8601 times.
        public func decoded<Body: Decodable>(_ type: Body.Type) throws -> Body {
            try Self.decoded(type, from: bytes)
        }

        /// `bytes` decoded as `type`, as the API writes JSON: ISO 8601 times,
        /// with or without fractional seconds.
        public static func decoded<Body: Decodable>(_ type: Body.Type, from bytes: [UInt8]) throws -> Body {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .custom { decoder in
                let text = try decoder.singleValueContainer().decode(String.self)
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                if let date = formatter.date(from: text) { return date }
                formatter.formatOptions = [.withInternetDateTime]
                guard let date = formatter.date(from: text) else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a time: \(text)"))
                }
                return date
            }
            return try decoder.decode(type, from: Data(bytes))
        }
        /// The codes of the field errors, as "field:code".
        public var fieldErrors: Set<String> {
            Set(
                ((json["errors"] as? [[String: any Sendable]]) ?? []).map {
                    "\($0["field"] as? String ?? ""):\($0["code"] as? String ?? "")"
                })
        }
    }

    public func send(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: [String: any Sendable]? = nil,
        body: [UInt8]? = nil, headers extra: [String: String] = [:]
    ) async throws -> Reply {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        var buffer: ByteBuffer?
        if let json {
            headers[.contentType] = "application/json"
            buffer = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
        } else if let body {
            buffer = ByteBuffer(bytes: body)
        }
        for (name, value) in extra { headers[HTTPField.Name(name)!] = value }
        let response = try await exchange(path, method, headers, buffer)
        return Reply(status: Int(response.status.code), headers: response.headers, bytes: Array(response.body.readableBytesView))
    }

    public func get(_ path: String, token: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
        try await send(.get, path, token: token, headers: headers)
    }

    public func post(_ path: String, token: String? = nil, json: [String: any Sendable], headers: [String: String] = [:]) async throws
        -> Reply
    {
        try await send(.post, path, token: token, json: json, headers: headers)
    }

    public func put(_ path: String, token: String? = nil, json: [String: any Sendable]) async throws -> Reply {
        try await send(.put, path, token: token, json: json)
    }

    public func patch(_ path: String, token: String? = nil, json: [String: any Sendable]) async throws -> Reply {
        try await send(.patch, path, token: token, json: json)
    }

    public func delete(_ path: String, token: String? = nil, json: [String: any Sendable]? = nil) async throws -> Reply {
        try await send(.delete, path, token: token, json: json)
    }

    /// Signs up a new account and returns the token and ids of what it made.
    public func signUp(
        firstName: String = "Zoë", lastName: String = "O'Brien", email: String = "zoe@example.com",
        password: String = "correct horse battery", language: String = "en",
        device: String? = nil
    ) async throws -> SignedUp {
        var json: [String: any Sendable] = [
            "firstName": firstName, "lastName": lastName, "email": email,
            "password": password, "acceptTerms": true, "uiLanguage": language,
        ]
        if let device { json["deviceName"] = device }
        let reply = try await post("/v1/accounts", json: json)
        guard reply.status == 201, let session = reply.json["session"] as? [String: any Sendable],
            let token = session["token"] as? String,
            let learners = reply.json["learners"] as? [[String: any Sendable]],
            let learnerID = learners.first?["id"] as? String,
            let account = reply.json["account"] as? [String: any Sendable], let accountID = account["id"] as? String
        else { throw TestFailure("sign-up failed: \(reply.status) \(reply.text)") }
        return SignedUp(token: token, accountID: accountID, learnerID: learnerID, email: email, password: password)
    }

    /// Turns on two-factor sign-in for the token's account, as staff must,
    /// confirming it with the app's code: this session counts as signed in
    /// with it. Returns the secret and the recovery codes.
    @discardableResult
    public func turnOnTwoFactor(token: String, password: String = "correct horse battery") async throws -> (
        secret: [UInt8], recoveryCodes: [String]
    ) {
        let enrolled = try await post("/v1/me/two-factor", token: token, json: ["currentPassword": password])
        guard enrolled.status == 201, let base32 = enrolled.json["secret"] as? String, let secret = OneTimeCode.secret(base32: base32),
            let codes = enrolled.json["recoveryCodes"] as? [String]
        else { throw TestFailure("two-factor enrolment: \(enrolled.status) \(enrolled.text)") }
        let code = OneTimeCode.code(secret, step: OneTimeCode.step(at: Date()))
        let confirmed = try await post("/v1/me/two-factor/confirm", token: token, json: ["code": code])
        guard confirmed.status == 200 else { throw TestFailure("two-factor confirmation: \(confirmed.status) \(confirmed.text)") }
        return (secret, codes)
    }

    public struct SignedUp: Sendable {
        public let token: String, accountID: String, learnerID: String, email: String, password: String
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Keeps every log line a server wrote, with its metadata, so tests can
/// check what reaches the logs.
public final class LogRecorder: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    public var all: [String] { lines.withLock { $0 } }

    func handler() -> any LogHandler { Handler(recorder: self) }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            recorder.lines.withLock { $0.append("\(event.level) \(event.message) \(all)") }
        }
    }
}

/// Tries `condition` until it holds, for up to `seconds`: for what another
/// server or a notification brings, which arrives soon but not at once.
public func eventually(_ seconds: Double = 15, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}

extension Client {
    /// A client of whatever listens on `port` on this machine (a server
    /// process, a balancer), over one kept-alive connection.
    public static func connected<Value: Sendable>(to port: Int, _ body: @escaping @Sendable (Client) async throws -> Value)
        async throws -> Value
    {
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            try await body(Client(remote: client))
        }
    }
}

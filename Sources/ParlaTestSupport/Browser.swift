import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat

/// A real headless Chromium, driven through chromedriver's W3C WebDriver
/// protocol (Debian's `chromium` and `chromium-driver`, which `make
/// install-deps` installs).
public final class Browser: Sendable {
    public static let chromium = "/usr/bin/chromium"
    public static let driver = "/usr/bin/chromedriver"
    /// Whether this machine has them (`make install-deps`).
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: chromium) && FileManager.default.isExecutableFile(atPath: driver)
    }

    let process: Process
    let base: String
    let session: String
    let http: HTTPClient

    /// Starts chromedriver and a browser session with a window of `width` x `height`.
    public static func start(width: Int = 1280, height: Int = 900) async throws -> Browser {
        let port = Int.random(in: 20_000...45_000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: driver)
        process.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let base = "http://127.0.0.1:\(port)"
        do {
            var ready = false
            for _ in 0..<100 where !ready {
                ready = (try? await Self.call(http, "GET", base + "/status"))?["ready"] as? Bool == true
                if !ready { try await Task.sleep(for: .milliseconds(100)) }
            }
            guard ready else { throw TestFailure("chromedriver did not start") }
            let capabilities: [String: Any] = [
                "capabilities": [
                    "alwaysMatch": [
                        "browserName": "chrome",
                        "timeouts": ["pageLoad": 20_000, "script": 20_000, "implicit": 0],
                        "goog:chromeOptions": [
                            "binary": chromium,
                            "args": [
                                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                "--window-size=\(width),\(height)", "--lang=en",
                            ],
                        ],
                    ]
                ]
            ]
            let created = try await call(http, "POST", base + "/session", capabilities)
            guard let session = created["sessionId"] as? String else { throw TestFailure("no browser session: \(created)") }
            return Browser(process: process, base: base + "/session/" + session, session: session, http: http)
        } catch {
            process.terminate()
            try? await http.shutdown()
            throw error
        }
    }

    init(process: Process, base: String, session: String, http: HTTPClient) {
        (self.process, self.base, self.session, self.http) = (process, base, session, http)
    }

    /// Ends the session and chromedriver.
    public func quit() async {
        _ = try? await Self.call(http, "DELETE", base)
        process.terminate()
        // Not waitUntilExit: it spins a run loop on a cooperative thread.
        for _ in 0..<50 where process.isRunning { try? await Task.sleep(for: .milliseconds(100)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? await http.shutdown()
    }

    @discardableResult
    static func call(_ http: HTTPClient, _ method: String, _ url: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: body)))
        }
        let response = try await http.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 32 * 1024 * 1024)
        let json = try JSONSerialization.jsonObject(with: Data(buffer: bytes)) as? [String: Any] ?? [:]
        if let value = json["value"] as? [String: Any], let error = value["error"] as? String {
            throw TestFailure("WebDriver \(method) \(url): \(error): \(value["message"] ?? "")")
        }
        if let value = json["value"] as? [String: Any] { return value }
        return ["value": json["value"] ?? NSNull()]
    }

    @discardableResult
    func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
        try await Self.call(http, method, base + path, body)
    }

    public func open(_ url: String) async throws { try await command("POST", "/url", ["url": url]) }

    public var url: String { get async throws { try await command("GET", "/url")["value"] as? String ?? "" } }

    func element(_ selector: String) async throws -> String {
        let found = try await command("POST", "/element", ["using": "css selector", "value": selector])
        guard let id = found["element-6066-11e4-a52e-4f735466cecf"] as? String else { throw TestFailure("no element \(selector)") }
        return id
    }

    public func type(_ text: String, into selector: String) async throws {
        try await command("POST", "/element/\(try await element(selector))/value", ["text": text])
    }

    public func click(_ selector: String) async throws {
        try await command("POST", "/element/\(try await element(selector))/click", [:])
    }

    /// Runs `script` in the page; what it returns.
    public func evaluate(_ script: String) async throws -> Any? {
        try await command("POST", "/execute/sync", ["script": script, "args": []])["value"]
    }

    /// Waits (10 s at most) until `selector` matches in the page now shown:
    /// a click that submits a form returns before the next page is there.
    public func wait(for selector: String) async throws {
        for _ in 0..<100 {
            if try await evaluate("return document.querySelector(\(Self.quoted(selector))) !== null") as? Bool == true { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("\(selector) never showed")
    }

    public func text(_ selector: String) async throws -> String {
        try await evaluate("return document.querySelector(\(Self.quoted(selector)))?.innerText ?? null") as? String ?? ""
    }

    /// A PNG of the window.
    public func screenshot() async throws -> [UInt8] {
        guard let base64 = try await command("GET", "/screenshot")["value"] as? String, let data = Data(base64Encoded: base64) else {
            throw TestFailure("no screenshot")
        }
        return [UInt8](data)
    }

    public static func quoted(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
    }
}

import Foundation
import ParlaDatabase
import ParlaStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The real `parla` binary, started as an operator would start it: for
/// tests of what only a whole process shows (first start, SIGTERM).
public final class ServerProcess: Sendable {
    public let port: Int
    public let pid: pid_t
    public let logPath: String

    /// The `parla` executable that `make test` builds beside the tests.
    public static var binary: String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent(".build/debug/parla").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Starts `parla serve` (or another long-running `command`, such as
    /// `worker speech`, which listens on no port) on the files under `directory`.
    public init(command: [String] = ["serve"], arguments: [String], directory: String, environment: [String: String] = [:]) throws {
        guard let binary = Self.binary else { throw TestFailure("parla is not built: run `swift build` first") }
        port = try Self.freePort()
        logPath = directory + "/server.log"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Everything the server writes goes under `directory`.
        let config = arguments.contains("--config") ? [] : ["--config", directory + "/parla.json"]
        let argv =
            [binary] + command + (command == ["serve"] ? ["--port", String(port)] : [])
            + ["--data-directory", directory + "/.parla/postgres"] + config + arguments
        var environment = environment
        environment["PARLA_SECURITY_KEY_FILE"] = directory + "/.parla/personal-data.key"
        environment["PARLA_CONTENT_ASSET_DIRECTORY"] = directory + "/.parla/assets"
        // Synthesizing every clip would take both cores for minutes, under
        // tests that time start-up and shutdown; a test may turn it on.
        if environment["PARLA_CONTENT_BUILD_ASSETS"] == nil { environment["PARLA_CONTENT_BUILD_ASSETS"] = "false" }
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PARLA_") }
        env.merge(environment) { $1 }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, binary, &actions, nil, cArguments, cEnvironment)
        guard status == 0 else { throw TestFailure("cannot start parla: \(status)") }
        self.pid = pid
    }

    /// Runs another `parla` command (`grant`, `migrate`, ...) on the same
    /// files as a server started on `directory` would use, and waits for it.
    public static func command(_ arguments: [String], directory: String) async throws -> (status: Int32, output: String) {
        guard let binary else { throw TestFailure("parla is not built: run `swift build` first") }
        let outputPath = directory + "/command-\(UUID().uuidString).log"
        let argv =
            [
                "/usr/bin/env", "PARLA_SECURITY_KEY_FILE=\(directory)/.parla/personal-data.key",
                "PARLA_CONTENT_ASSET_DIRECTORY=\(directory)/.parla/assets", binary,
            ] + arguments
            + ["--data-directory", directory + "/.parla/postgres", "--config", directory + "/parla.json"]
        let status = try await Task.detached { try ChildProcess.run(argv, outputPath: outputPath) }.value
        return (status, (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
    }

    /// Waits until `/health` answers, or the process dies.
    public func waitUntilUp(timeout: Duration = .seconds(90)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if (try? await request("GET", "/health").status) == 200 { return }
            if let code = exitStatus() { throw TestFailure("parla exited with \(code): \(log)") }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw TestFailure("parla did not come up: \(log)")
    }

    /// Whether the process still runs.
    public var isRunning: Bool { exitStatus() == nil }

    /// Sends SIGKILL and waits for the process to be gone.
    public func kill() async throws {
        Glibc.kill(pid, SIGKILL)
        while exitStatus() == nil { try await Task.sleep(for: .milliseconds(50)) }
    }

    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits for the exit status.
    public func terminate(timeout: Duration = .seconds(60)) async throws -> Int32 {
        Glibc.kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let code = exitStatus() { return code }
            try await Task.sleep(for: .milliseconds(100))
        }
        Glibc.kill(pid, SIGKILL)
        throw TestFailure("parla did not stop after SIGTERM")
    }

    private let exited = Mutex<Int32?>(nil)

    private func exitStatus() -> Int32? {
        exited.withLock { known in
            if let known { return known }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            known = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            return known
        }
    }

    /// A plain HTTP/1.1 request over a socket of its own.
    public func request(_ method: String, _ path: String, json: String? = nil, token: String? = nil) async throws -> (
        status: Int, body: String
    ) {
        try await send(method, path, json: json, token: token).response()
    }

    /// Sends a request and returns once it is on the wire; the answer is
    /// read later. For tests of what happens to requests in flight.
    public func send(_ method: String, _ path: String, json: String? = nil, token: String? = nil) async throws -> HTTPExchange {
        let port = self.port
        return try await Task.detached { try HTTPExchange(port: port, method: method, path: path, body: json, token: token) }.value
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw TestFailure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Just enough HTTP/1.1 for the process tests: one request, `Connection: close`.
public final class HTTPExchange: Sendable {
    private let socket: Int32
    static let answerLimitSeconds = 30

    init(port: Int, method: String, path: String, body: String?, token: String?) throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(fd)
            throw TestFailure("connect failed")
        }
        // A server that never answers fails the test that asked, instead of
        // blocking it (and the suite) for good.
        var limit = timeval(tv_sec: Self.answerLimitSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        let payload = Array((body ?? "").utf8)
        if body != nil { head += "Content-Type: application/json\r\nContent-Length: \(payload.count)\r\n" }
        let request = Array((head + "\r\n").utf8) + payload
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        socket = fd
    }

    /// Reads the whole answer and closes the connection.
    public func response() async throws -> (status: Int, body: String) {
        let fd = socket
        return try await Task.detached {
            defer { close(fd) }
            var response: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    throw TestFailure("no answer within \(Self.answerLimitSeconds) s")
                }
                if count <= 0 { break }
                response += buffer[0..<count]
            }
            let text = String(decoding: response, as: UTF8.self)
            let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
            let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
            return (status, body)
        }.value
    }
}

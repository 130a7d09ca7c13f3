import Foundation

/// A real SMTP server on loopback (aiosmtpd, `scripts/test-smtp-server.py`
/// in the venv `make install-deps` makes), storing what it accepts for the
/// test to read.
public final class TestSMTPServer: Sendable {
    public struct Options: Sendable {
        public enum TLS: Sendable { case none, startTLS, implicit }
        public var tls: TLS = .startTLS
        public var username: String? = "parla"
        public var password: String? = "s3cret-relay"
        /// The first N messages get `451` (try again later).
        public var failFirst = 0
        /// Addresses refused for good (`550`).
        public var rejected: [String] = []
        public init() {}
    }

    /// One accepted message.
    public struct Delivered: Sendable {
        public var mailFrom: String
        public var recipients: [String]
        public var tls: Bool
        public var authenticatedAs: String?
        public var raw: String
        public var mail: TestMail { TestMail(raw: raw) }
    }

    public static let python = TestApp.projectDirectory + "/vendor/python/bin/python"
    static let script = TestApp.projectDirectory + "/scripts/test-smtp-server.py"

    public let port: Int
    public let options: Options
    public let certificates: TestCertificates?
    let maildir: String
    let process: Process
    let input: Pipe

    public init(_ options: Options = Options()) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            throw TestFailure("no \(Self.python): run `make install-deps` (scripts/install-deps.sh)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-smtp-\(UUID().uuidString)")
        let maildir = directory.appendingPathComponent("mail").path
        var arguments = [Self.script, "--maildir", maildir, "--fail-first", String(options.failFirst)]
        if options.tls != .none {
            let certificates = try TestCertificates(name: "SMTP", directory: directory)
            arguments += ["--cert", certificates.certificateFile, "--key", certificates.keyFile]
            if options.tls == .implicit { arguments.append("--implicit-tls") }
            self.certificates = certificates
        } else {
            certificates = nil
        }
        if let username = options.username { arguments += ["--auth", "\(username):\(options.password ?? "")"] }
        for address in options.rejected { arguments += ["--reject-recipient", address] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = arguments
        let (input, output) = (Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        // aiosmtpd reports a client's failed TLS handshake with a traceback:
        // kept beside the mail, out of the test's output.
        FileManager.default.createFile(atPath: directory.appendingPathComponent("server.log").path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: directory.appendingPathComponent("server.log"))
        try process.run()
        // The script says `PORT <n>` once it listens.
        let line = await Task.detached {
            var text = ""
            while !text.contains("\n") {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }.value
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw TestFailure("the SMTP server did not start: \(line)")
        }
        (self.port, self.options, self.maildir, self.process, self.input) = (port, options, maildir, process, input)
    }

    /// Every message accepted so far, in order.
    public func delivered() throws -> [Delivered] {
        var messages: [Delivered] = []
        for number in 1... {
            let base = "\(maildir)/\(number)"
            guard let json = FileManager.default.contents(atPath: base + ".json") else { break }
            let meta = try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
            messages.append(
                Delivered(
                    mailFrom: meta["mailFrom"] as? String ?? "", recipients: meta["rcptTos"] as? [String] ?? [],
                    tls: meta["tls"] as? Bool ?? false, authenticatedAs: meta["authenticatedAs"] as? String,
                    raw: try String(contentsOfFile: base + ".eml", encoding: .utf8)))
        }
        return messages
    }

    /// Waits until `count` messages have arrived (or `timeout` passes).
    public func waitFor(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [Delivered] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let messages = try delivered()
            if messages.count >= count { return messages }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("\(count) message(s) expected, \(try delivered().count) arrived")
    }

    public func stop() async {
        try? input.fileHandleForWriting.close()
        for _ in 0..<50 where process.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { process.terminate() }
    }
}

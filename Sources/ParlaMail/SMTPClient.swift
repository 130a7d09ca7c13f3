import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// Where and how to hand mail over: an SMTP submission server.
public struct SMTPSettings: Sendable {
    /// How the connection is protected. Credentials are never sent in clear.
    public enum Security: String, Sendable, CaseIterable {
        /// Plain connection upgraded by STARTTLS before anything else (port 587).
        case startTLS = "starttls"
        /// TLS from the first byte (port 465).
        case tls
        /// No TLS at all: only for a relay on the same machine.
        case none
    }

    public var host: String
    public var port: Int
    public var security: Security
    public var username: String?
    public var password: String?
    /// PEM files of roots to trust instead of the system's (a private relay).
    public var rootCertificates: [String]
    /// The name this side gives in EHLO.
    public var clientName: String
    /// The longest one delivery may take, connection included.
    public var timeout: Duration

    public init(
        host: String, port: Int = 587, security: Security = .startTLS, username: String? = nil, password: String? = nil,
        rootCertificates: [String] = [], clientName: String = "localhost", timeout: Duration = .seconds(30)
    ) {
        (self.host, self.port, self.security, self.username, self.password) = (host, port, security, username, password)
        (self.rootCertificates, self.clientName, self.timeout) = (rootCertificates, clientName, timeout)
    }
}

/// What SMTP is asked to carry: the envelope and the message's bytes.
public struct MailEnvelope: Sendable {
    public var from: String
    public var to: String
    public var data: [UInt8]

    public init(from: String, to: String, data: [UInt8]) {
        (self.from, self.to, self.data) = (from, to, data)
    }

    public init(_ message: MailMessage) {
        self.init(from: message.from.address, to: message.to.address, data: message.rendered())
    }
}

/// Why a delivery failed, and whether trying again may help.
public enum DeliveryFailure: Error, CustomStringConvertible, Equatable {
    /// Try later: the server, the network or the setup may mend (4xx
    /// replies, no connection, TLS or authentication refused).
    case transient(String)
    /// Never: the server refused this message or recipient for good (5xx
    /// to RCPT or DATA).
    case permanent(String)

    public var description: String {
        switch self {
        case .transient(let why): "transient: \(why)"
        case .permanent(let why): "permanent: \(why)"
        }
    }

    public var isPermanent: Bool {
        if case .permanent = self { return true }
        return false
    }
}

/// A minimal SMTP submission client (RFC 5321) on SwiftNIO: EHLO,
/// STARTTLS or implicit TLS (RFC 3207, 8314), AUTH PLAIN or LOGIN,
/// SMTPUTF8 for internationalized addresses (RFC 6531), one message per
/// connection. No maintained Swift SMTP client is among the packages we
/// may use; this is the part of the protocol a submission needs.
public final class SMTPClient: Sendable {
    public let settings: SMTPSettings
    private let tls: NIOSSLContext?

    public init(settings: SMTPSettings) throws {
        if settings.security == .none, settings.username != nil {
            throw DeliveryFailure.permanent("mail.smtp.username needs mail.smtp.security starttls or tls")
        }
        self.settings = settings
        if settings.security == .none {
            tls = nil
        } else {
            var configuration = TLSConfiguration.makeClientConfiguration()
            if !settings.rootCertificates.isEmpty {
                configuration.trustRoots = .certificates(try settings.rootCertificates.flatMap { try NIOSSLCertificate.fromPEMFile($0) })
            }
            tls = try NIOSSLContext(configuration: configuration)
        }
    }

    /// Hands one message to the server; returns its last reply's text (the
    /// server's queue id, usually).
    @discardableResult
    public func send(_ envelope: MailEnvelope) async throws(DeliveryFailure) -> String {
        let channel: NIOAsyncChannel<SMTPReply, ByteBuffer>
        do {
            channel = try await connect()
        } catch {
            throw .transient("cannot connect to \(settings.host):\(settings.port): \(error)")
        }
        // One deadline for the whole conversation: closing the channel ends
        // whatever read is waiting.
        let deadline = Task { [timeout = settings.timeout] in
            try await Task.sleep(for: timeout)
            try await channel.channel.close()
        }
        defer { deadline.cancel() }
        do {
            return try await channel.executeThenClose { inbound, outbound in
                var conversation = Conversation(replies: inbound.makeAsyncIterator(), outbound: outbound)
                return try await converse(&conversation, channel: channel.channel, envelope: envelope)
            }
        } catch let failure as DeliveryFailure {
            throw failure
        } catch {
            throw .transient("\(error)")
        }
    }

    private func connect() async throws -> NIOAsyncChannel<SMTPReply, ByteBuffer> {
        let (tls, host, implicit) = (tls, settings.host, settings.security == .tls)
        return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: settings.host, port: settings.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if implicit, let tls {
                        try channel.pipeline.syncOperations.addHandler(try Self.tlsHandler(tls, host: host))
                    }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(SMTPReplyDecoder()))
                    return try NIOAsyncChannel<SMTPReply, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    /// SNI takes a name, never an address; the certificate is checked
    /// against the address then.
    private static func tlsHandler(_ context: NIOSSLContext, host: String) throws -> NIOSSLClientHandler {
        let isAddress = (try? SocketAddress(ipAddress: host, port: 0)) != nil
        return try NIOSSLClientHandler(context: context, serverHostname: isAddress ? nil : host)
    }

    private func converse(_ conversation: inout Conversation, channel: any Channel, envelope: MailEnvelope) async throws -> String {
        try await conversation.expect(220, after: nil)
        var capabilities = try await conversation.expect(250, after: "EHLO \(settings.clientName)")
        if settings.security == .startTLS, let tls {
            guard capabilities.offers("STARTTLS") else { throw DeliveryFailure.transient("\(settings.host) offers no STARTTLS") }
            try await conversation.expect(220, after: "STARTTLS")
            // Made on the channel's loop: a TLS handler never leaves it.
            try await channel.eventLoop.submit { [host = settings.host] in
                try channel.pipeline.syncOperations.addHandler(try Self.tlsHandler(tls, host: host), position: .first)
            }.get()
            capabilities = try await conversation.expect(250, after: "EHLO \(settings.clientName)")
        }
        if let username = settings.username {
            let password = settings.password ?? ""
            if capabilities.offersAuth("PLAIN") {
                let credentials = Data(([0] + Array(username.utf8) + [0] + Array(password.utf8))).base64EncodedString()
                try await conversation.expect(235, after: "AUTH PLAIN \(credentials)", shown: "AUTH PLAIN ***")
            } else if capabilities.offersAuth("LOGIN") {
                try await conversation.expect(334, after: "AUTH LOGIN")
                try await conversation.expect(334, after: Data(username.utf8).base64EncodedString(), shown: "***")
                try await conversation.expect(235, after: Data(password.utf8).base64EncodedString(), shown: "***")
            } else {
                throw DeliveryFailure.transient("\(settings.host) offers neither AUTH PLAIN nor AUTH LOGIN")
            }
        }
        var mailFrom = "MAIL FROM:<\(envelope.from)>"
        if !(envelope.from + envelope.to).unicodeScalars.allSatisfy(\.isASCII) {
            guard capabilities.offers("SMTPUTF8") else {
                throw DeliveryFailure.permanent("\(settings.host) cannot take internationalized addresses (no SMTPUTF8)")
            }
            mailFrom += " SMTPUTF8"
        }
        try await conversation.expect(250, after: mailFrom)
        try await conversation.expect(250...251, after: "RCPT TO:<\(envelope.to)>", refusalIsFinal: true)
        try await conversation.expect(354, after: "DATA")
        let accepted = try await conversation.expect(250, data: Self.dotStuffed(envelope.data), refusalIsFinal: true)
        try? await conversation.send("QUIT")
        return accepted.text
    }

    /// The message as DATA carries it: every line ending in CRLF, a line
    /// that starts with "." given another, then the closing ".".
    static func dotStuffed(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(data.count + 64)
        var atLineStart = true
        var previous: UInt8 = 0
        for byte in data {
            if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") { output.append(UInt8(ascii: "\r")) }
            if atLineStart, byte == UInt8(ascii: ".") { output.append(UInt8(ascii: ".")) }
            output.append(byte)
            atLineStart = byte == UInt8(ascii: "\n")
            previous = byte
        }
        if !atLineStart { output += Array("\r\n".utf8) }
        return output + Array(".\r\n".utf8)
    }
}

/// The replies read so far and the way to send commands.
private struct Conversation {
    var replies: NIOAsyncChannelInboundStream<SMTPReply>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    func send(_ line: String) async throws {
        try await outbound.write(ByteBuffer(string: line + "\r\n"))
    }

    /// Sends `command` (if any) and reads the reply, which must have one
    /// of `codes`. `shown` is what an error may quote of the command.
    @discardableResult
    mutating func expect(
        _ codes: ClosedRange<Int>, after command: String?, shown: String? = nil, refusalIsFinal: Bool = false
    ) async throws -> SMTPReply {
        if let command { try await send(command) }
        return try await reply(codes, to: shown ?? command ?? "greeting", refusalIsFinal: refusalIsFinal)
    }

    @discardableResult
    mutating func expect(_ code: Int, after command: String?, shown: String? = nil, refusalIsFinal: Bool = false) async throws
        -> SMTPReply
    {
        try await expect(code...code, after: command, shown: shown, refusalIsFinal: refusalIsFinal)
    }

    @discardableResult
    mutating func expect(_ code: Int, data: [UInt8], refusalIsFinal: Bool) async throws -> SMTPReply {
        try await outbound.write(ByteBuffer(bytes: data))
        return try await reply(code...code, to: "message data", refusalIsFinal: refusalIsFinal)
    }

    private mutating func reply(_ codes: ClosedRange<Int>, to command: String, refusalIsFinal: Bool) async throws -> SMTPReply {
        guard let reply = try await replies.next() else {
            throw DeliveryFailure.transient("connection closed awaiting a reply to \(command)")
        }
        guard codes.contains(reply.code) else {
            let why = "\(command): \(reply.code) \(reply.text)"
            throw reply.code >= 500 && refusalIsFinal ? DeliveryFailure.permanent(why) : DeliveryFailure.transient(why)
        }
        return reply
    }
}

/// One reply of an SMTP server: a code and its lines.
struct SMTPReply: Sendable, Equatable {
    var code: Int
    var lines: [String]

    var text: String { lines.joined(separator: " ") }

    /// Whether EHLO's reply lists the extension (its lines after the first).
    func offers(_ keyword: String) -> Bool {
        lines.dropFirst().contains { $0.split(separator: " ").first?.uppercased() == keyword }
    }

    func offersAuth(_ mechanism: String) -> Bool {
        lines.dropFirst().contains { line in
            let words = line.uppercased().split(whereSeparator: { $0 == " " || $0 == "=" })
            return words.first == "AUTH" && words.dropFirst().contains(Substring(mechanism))
        }
    }
}

/// Splits the byte stream into replies: `250-first`, `250-more`, `250 last`.
struct SMTPReplyDecoder: ByteToMessageDecoder {
    typealias InboundOut = SMTPReply
    private var lines: [String] = []
    /// RFC 5321 limits a reply line to 512 octets; a little slack.
    static let longestLine = 2048

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.longestLine { throw DeliveryFailure.transient("reply line too long") }
            return .needMoreData
        }
        let raw = buffer.readString(length: newline - buffer.readerIndex + 1) ?? ""
        let line = raw.trimmingCharacters(in: CharacterSet(charactersIn: "\r\n"))
        guard line.count >= 3, let code = Int(line.prefix(3)), (200...599).contains(code) else {
            throw DeliveryFailure.transient("not an SMTP reply: \(line.prefix(80))")
        }
        lines.append(String(line.dropFirst(4)))
        if line.dropFirst(3).first == "-" { return .continue }
        context.fireChannelRead(wrapInboundOut(SMTPReply(code: code, lines: lines)))
        lines = []
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue, buffer.readableBytes > 0 {}
        return .needMoreData
    }
}

import Foundation

/// An address with an optional display name: `Parla <hello@parla.app>`.
public struct MailAddress: Sendable, Equatable {
    public var address: String
    public var name: String?

    public init(address: String, name: String? = nil) {
        (self.address, self.name) = (address, name)
    }

    /// Reads `Name <address>` or a bare address; nil when the text holds a
    /// line break or angle brackets out of place (a header could be forged).
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.contains(where: \.isNewline), !trimmed.isEmpty else { return nil }
        if let open = trimmed.lastIndex(of: "<"), trimmed.hasSuffix(">") {
            let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            let name = trimmed[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            guard Self.isPlain(address) else { return nil }
            self.init(address: address, name: name.isEmpty ? nil : name)
        } else {
            guard Self.isPlain(trimmed) else { return nil }
            self.init(address: trimmed)
        }
    }

    private static func isPlain(_ address: String) -> Bool {
        address.contains("@") && !address.contains(where: { $0 == "<" || $0 == ">" || $0.isWhitespace || $0 == "," })
    }

    /// Whether the address needs SMTPUTF8 (RFC 6531) to be sent.
    public var isInternationalized: Bool { !address.unicodeScalars.allSatisfy(\.isASCII) }

    /// The header form: the name quoted, or encoded when it is not ASCII.
    var header: String {
        guard let name, !name.isEmpty else { return address }
        if !name.unicodeScalars.allSatisfy(\.isASCII) { return "\(MailMessage.encodedWords(name).joined(separator: " ")) <\(address)>" }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\" <\(address)>"
    }
}

/// One plain-text email, written as RFC 5322 wants it: CRLF lines, headers
/// in ASCII (RFC 2047 encoded words for the rest), the body in UTF-8 as
/// quoted-printable, so any relay carries it unchanged.
public struct MailMessage: Sendable, Equatable {
    public var from: MailAddress
    public var to: MailAddress
    public var subject: String
    public var text: String
    /// The language the text is in (`Content-Language`).
    public var language: String?
    /// Unique per message, without its angle brackets.
    public var messageID: String
    public var date: Date

    public init(
        from: MailAddress, to: MailAddress, subject: String, text: String, language: String? = nil,
        messageID: String? = nil, date: Date = Date()
    ) {
        (self.from, self.to, self.subject, self.text, self.language, self.date) = (from, to, subject, text, language, date)
        let domain = from.address.split(separator: "@").last.map(String.init) ?? "parla.invalid"
        self.messageID = messageID ?? "\(UUID().uuidString.lowercased())@\(domain)"
    }

    /// The message as it goes after SMTP's DATA (before dot-stuffing).
    public func rendered() -> [UInt8] {
        var headers = [
            "Date: \(Self.dateFormatter.string(from: date))",
            "From: \(from.header)",
            "To: \(to.header)",
            "Subject: \(Self.headerText(subject))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            // RFC 3834: no vacation replies to a machine's message.
            "Auto-Submitted: auto-generated",
        ]
        if let language { headers.append("Content-Language: \(language)") }
        let head = headers.joined(separator: "\r\n")
        return Array((head + "\r\n\r\n" + Self.quotedPrintable(text)).utf8)
    }

    static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter
    }()

    /// ASCII text as is, anything else as encoded words folded on lines of
    /// their own.
    static func headerText(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if flat.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 32 }) && flat.utf8.count <= 900 { return flat }
        return encodedWords(flat).joined(separator: "\r\n ")
    }

    /// RFC 2047 `=?utf-8?B?...?=` words of at most 75 characters, each
    /// holding whole characters.
    static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        func flush() {
            if !chunk.isEmpty { words.append("=?utf-8?B?\(Data(chunk).base64EncodedString())?=") }
            chunk = []
        }
        for character in text {
            let bytes = Array(String(character).utf8)
            // 45 bytes make 60 base64 characters: 72 with the markers.
            if chunk.count + bytes.count > 45 { flush() }
            chunk += bytes
        }
        flush()
        return words
    }

    /// RFC 2045 quoted-printable of UTF-8 text, lines ending in CRLF, none
    /// longer than 76 characters.
    static func quotedPrintable(_ text: String) -> String {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        return lines.map { line -> String in
            let bytes = Array(line.utf8)
            var output = ""
            var width = 0
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let literal =
                    (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "="))
                    || ((byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")) && !isLast)
                let piece = literal ? String(UnicodeScalar(byte)) : String(format: "=%02X", byte)
                // Room for a soft break's "=" on the line.
                if width + piece.count > 75 {
                    output += "=\r\n"
                    width = 0
                }
                output += piece
                width += piece.count
            }
            return output
        }.joined(separator: "\r\n")
    }
}

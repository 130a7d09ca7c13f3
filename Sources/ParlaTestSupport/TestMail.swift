import Foundation

/// Reading an email as a person would: its headers, its text, its link.
public struct TestMail: Sendable {
    public let raw: String

    public init(raw: String) { self.raw = raw }

    public init(file: String) throws { raw = try String(contentsOfFile: file, encoding: .utf8) }

    /// A header's value, encoded words decoded.
    public func header(_ name: String) -> String? {
        let head = raw.components(separatedBy: "\r\n\r\n").first ?? ""
        // Unfold, then find the line.
        let lines = head.replacingOccurrences(of: "\r\n ", with: " ").components(separatedBy: "\r\n")
        guard let line = lines.first(where: { $0.lowercased().hasPrefix(name.lowercased() + ":") }) else { return nil }
        let value = line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
        return value.components(separatedBy: " ").map { word -> String in
            guard word.hasPrefix("=?utf-8?B?"), word.hasSuffix("?="),
                let data = Data(base64Encoded: String(word.dropFirst(10).dropLast(2)))
            else { return word + " " }
            return String(decoding: data, as: UTF8.self)
        }.joined().trimmingCharacters(in: .whitespaces)
    }

    /// The body, quoted-printable undone.
    public var text: String {
        let body = raw.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        let bytes = Array(body.replacingOccurrences(of: "=\r\n", with: "").utf8)
        var decoded: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "="), index + 2 < bytes.count,
                let byte = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                decoded.append(byte)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The first link in the text.
    public var link: String? {
        text.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("http://") || $0.hasPrefix("https://") }.map(String.init)
    }

    /// The token the link carries.
    public var token: String? {
        link.flatMap { URLComponents(string: $0)?.queryItems?.first { $0.name == "token" }?.value }
    }
}

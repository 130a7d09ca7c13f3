import Foundation

/// The one rule for text a client sends, in any field of any request (JSON
/// bodies, query values, path segments): it holds no control character.
/// PostgreSQL refuses NUL in text, so one would otherwise fail deep in a
/// store; the others (a bell, an escape, a C1 control) have no place in a
/// name, a code or an answer, and nothing Parla accepts is multi-line.
///
/// Each field's own rules (a name's letters, an email's shape) come after
/// this one, in `Validation`. The one exception is prose a person writes
/// in several lines (a bug report's description): there, line breaks and
/// tabs are text too (`proseFields`).
public enum TextInput {
    /// C0 controls (NUL to U+001F, tab and newlines among them), DEL and
    /// the C1 controls (U+0080 to U+009F).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    public static func isAcceptable(_ text: some StringProtocol) -> Bool {
        !text.unicodeScalars.contains(where: isControl)
    }

    /// Prose: line feeds, carriage returns and tabs are allowed, no other control.
    public static func isAcceptableProse(_ text: some StringProtocol) -> Bool {
        !text.unicodeScalars.contains { isControl($0) && $0 != "\n" && $0 != "\r" && $0 != "\t" }
    }

    /// The JSON fields of a request to `path` that hold prose.
    public static func proseFields(path: String) -> Set<String> {
        path == "/v1/support/reports" ? ["text"] : []
    }

    /// Whether a JSON document's bytes may hold a control character inside
    /// a string: any escape but `\"`, `\\` and `\/` (`\n`, `\u0000`, and
    /// `\u00e9` too: a false alarm costs a second parse, nothing more), DEL,
    /// or a C1 control in UTF-8. A cheap look at every body; only a body it
    /// flags is parsed again (`controlledFields`). Raw C0 bytes in a string
    /// are invalid JSON, refused by the decoder.
    public static func mayHoldControl(json bytes: some Collection<UInt8>) -> Bool {
        var afterBackslash = false, afterC2 = false
        for byte in bytes {
            if afterBackslash {
                guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/") else { return true }
                afterBackslash = false
                continue
            }
            if byte == 0x7F || (afterC2 && (0x80...0x9F).contains(byte)) { return true }
            afterBackslash = byte == UInt8(ascii: "\\")
            afterC2 = byte == 0xC2
        }
        return false
    }

    /// The fields of a parsed JSON document (`JSONSerialization`) whose
    /// text, or whose name, holds a control character: named by their path
    /// (`flips[2].note`), in document order.
    public static func controlledFields(in document: Any, path: String = "", prose: Set<String> = []) -> [String] {
        switch document {
        case let text as String:
            let acceptable = prose.contains(path) ? isAcceptableProse(text) : isAcceptable(text)
            return acceptable ? [] : [path.isEmpty ? "body" : path]
        case let array as [Any]:
            return array.enumerated().flatMap { controlledFields(in: $1, path: "\(path)[\($0)]", prose: prose) }
        case let object as [String: Any]:
            return object.keys.sorted().flatMap { key -> [String] in
                let field = path.isEmpty ? key : "\(path).\(key)"
                return isAcceptable(key) ? controlledFields(in: object[key]!, path: field, prose: prose) : [field]
            }
        default:
            return []
        }
    }
}

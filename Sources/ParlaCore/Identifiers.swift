import Foundation

/// A public identifier tagged with what it identifies, so a learner's id
/// can never be passed where an account's is expected.
public struct Identifier<Owner>: Hashable, Sendable, Codable, CustomStringConvertible {
    public let uuid: UUID
    public init(_ uuid: UUID) { self.uuid = uuid }
    /// A new time-ordered identifier (UUID version 7, RFC 9562).
    public static func generate() -> Self { Self(UUID.version7()) }
    public init?(_ string: String) {
        guard let uuid = UUIDText.parse(string) else { return nil }
        self.uuid = uuid
    }
    public var description: String { UUIDText.lowercase(uuid) }
}

/// UUIDs as text without Foundation's `snprintf` and `sscanf`, which
/// showed in the profile of every response that lists learners.
public enum UUIDText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// The canonical form in lowercase: "01a2067c-ab15-7242-99cc-fcaa26914601".
    public static func lowercase(_ uuid: UUID) -> String {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    text[at] = digits[Int(byte >> 4)]
                    text[at + 1] = digits[Int(byte & 0x0f)]
                    at += 2
                }
                return at
            }
        }
    }

    /// The canonical form in either case, as `UUID(uuidString:)` reads it; nil otherwise.
    public static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { utf8 -> UUID? in
            guard utf8.count == 36 else { return nil }
            var bytes = [UInt8](repeating: 0, count: 16)
            var at = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard utf8[at] == UInt8(ascii: "-") else { return nil }
                    at += 1
                }
                guard let high = value(utf8[at]), let low = value(utf8[at + 1]) else { return nil }
                bytes[index] = high << 4 | low
                at += 2
            }
            return UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
        }
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

public enum AccountTag {}
public enum LearnerTag {}
public enum SessionTag {}
public enum SpeechAttemptTag {}
public enum PlacementTag {}
public enum LessonTag {}
public enum GameTag {}
public enum ClassTag {}
public enum AssignmentTag {}
public enum DrawingTag {}
public typealias AccountID = Identifier<AccountTag>
public typealias LearnerID = Identifier<LearnerTag>
public typealias SessionID = Identifier<SessionTag>
public typealias SpeechAttemptID = Identifier<SpeechAttemptTag>
public typealias PlacementID = Identifier<PlacementTag>
public typealias LessonID = Identifier<LessonTag>
public typealias GameID = Identifier<GameTag>
public typealias ClassID = Identifier<ClassTag>
public typealias AssignmentID = Identifier<AssignmentTag>
public typealias DrawingID = Identifier<DrawingTag>

extension UUID {
    /// Version 7: 48 bits of Unix milliseconds, then random bits, so keys
    /// inserted together sit together in the primary-key index.
    public static func version7(now: Date = Date()) -> UUID {
        let milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        var random = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - UInt64(index)))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}

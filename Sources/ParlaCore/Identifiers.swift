import Foundation

/// A public identifier tagged with what it identifies, so a learner's id
/// can never be passed where an account's is expected.
public struct Identifier<Owner>: Hashable, Sendable, Codable, CustomStringConvertible {
    public let uuid: UUID
    public init(_ uuid: UUID) { self.uuid = uuid }
    /// A new time-ordered identifier (UUID version 7, RFC 9562).
    public static func generate() -> Self { Self(UUID.version7()) }
    public init?(_ string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.uuid = uuid
    }
    public var description: String { uuid.uuidString.lowercased() }
}

public enum AccountTag {}
public enum LearnerTag {}
public enum SessionTag {}
public enum SpeechAttemptTag {}
public enum PlacementTag {}
public enum LessonTag {}
public enum GameTag {}
public typealias AccountID = Identifier<AccountTag>
public typealias LearnerID = Identifier<LearnerTag>
public typealias SessionID = Identifier<SessionTag>
public typealias SpeechAttemptID = Identifier<SpeechAttemptTag>
public typealias PlacementID = Identifier<PlacementTag>
public typealias LessonID = Identifier<LessonTag>
public typealias GameID = Identifier<GameTag>

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
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

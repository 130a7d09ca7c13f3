import ParlaCore

/// A code a learner gives out so that others can ask to be its friends:
/// ten characters from an alphabet without look-alikes (no I, O, 0 or 1),
/// made by the database (`parla_friend_code()`, migration 0014).
public struct FriendCode: Sendable, Equatable {
    public static let shape = TypedCode(alphabet: "ABCDEFGHJKLMNPQRSTUVWXYZ23456789", length: 10)

    public let text: String

    /// The code as typed, read leniently ("abcd-efgh 23"); nil when it
    /// cannot be anyone's code.
    public init?(typed: String) {
        guard let text = Self.shape.read(typed) else { return nil }
        self.text = text
    }
}

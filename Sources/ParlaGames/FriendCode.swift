/// A code a learner gives out so that others can ask to be its friends:
/// ten characters from an alphabet without look-alikes (no I, O, 0 or 1),
/// made by the database (`parla_friend_code()`, migration 0014).
public struct FriendCode: Sendable, Equatable {
    public static let alphabet = Set("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    public static let length = 10

    public let text: String

    /// The code as typed, read leniently: case, spaces and hyphens do not
    /// matter ("abcd-efgh 23"); nil when it cannot be anyone's code.
    public init?(typed: String) {
        let text = String(typed.uppercased().filter { $0 != " " && $0 != "-" })
        guard text.count == Self.length, text.allSatisfy(Self.alphabet.contains) else { return nil }
        self.text = text
    }
}

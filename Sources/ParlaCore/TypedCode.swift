/// The shape of a short code that people copy by hand or read aloud (a
/// class's join code, a friend code): a fixed length over an alphabet
/// without look-alikes, read leniently, since case, spaces and hyphens
/// ("abcd-efgh") do not matter.
public struct TypedCode: Sendable {
    public let alphabet: [Character]
    public let length: Int

    public init(alphabet: String, length: Int) {
        self.alphabet = Array(alphabet)
        self.length = length
    }

    /// The stored form of what someone typed; nil when it cannot be a code.
    public func read(_ typed: String) -> String? {
        let characters = typed.uppercased().filter { $0 != "-" && $0 != " " }
        guard characters.count == length, characters.allSatisfy(alphabet.contains) else { return nil }
        return String(characters)
    }
}

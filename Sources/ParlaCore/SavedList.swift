/// A learner's saved words and phrases in a language (seed 002): a short
/// list to come back to, one of them marked as the one being studied.
public enum SavedList {
    /// Items a list may hold; saving one more is refused with the list, so
    /// the app can offer to remove one.
    public static let limit = 50

    public enum Kind: String, Sendable, CaseIterable {
        case word, phrase
    }

    public static func hasRoom(count: Int) -> Bool { count < limit }

    /// A word or a phrase, as the list and the feed name it.
    public struct Key: Sendable, Hashable {
        public var kind: Kind
        public var id: String
        public init(kind: Kind, id: String) { (self.kind, self.id) = (kind, id) }
    }

    /// A saved item as a problem document lists it.
    public struct Reference: Sendable, Equatable {
        public var kind: String
        public var id: String
        public var text: String
        public init(kind: String, id: String, text: String) { (self.kind, self.id, self.text) = (kind, id, text) }
    }
}

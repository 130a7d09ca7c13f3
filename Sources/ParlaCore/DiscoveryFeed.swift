/// The discovery feed's rule (seed 002): random cards the learner has not
/// seen; when none are left, the ones seen longest ago come back; a
/// dismissed card, a liked one and a saved one never do.
public enum DiscoveryFeed {
    public static let defaultSize = 10
    public static let largestSize = 50

    /// A card the learner was shown.
    public struct Seen<Key: Hashable & Sendable>: Sendable {
        public var key: Key
        /// Dismissed or liked: never again.
        public var settled: Bool
        /// When it was last shown, for the order of repeats.
        public var order: Double
        public init(key: Key, settled: Bool, order: Double) { (self.key, self.settled, self.order) = (key, settled, order) }
    }

    /// Up to `size` of `candidates`, unseen ones first and in random order,
    /// then seen ones, least recently first.
    public static func pick<Key, Random: RandomNumberGenerator>(
        _ size: Int, from candidates: [Key], seen: [Seen<Key>], saved: Set<Key>, using random: inout Random
    ) -> [Key] {
        let seenByKey = Dictionary(seen.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let open = candidates.filter { !saved.contains($0) && seenByKey[$0]?.settled != true }
        let unseen = open.filter { seenByKey[$0] == nil }.shuffled(using: &random)
        if unseen.count >= size { return Array(unseen.prefix(size)) }
        let again = open.compactMap { seenByKey[$0] }.sorted { $0.order < $1.order }.map(\.key)
        return unseen + again.prefix(size - unseen.count)
    }
}

/// The discovery feed's rule (seed 002): random cards the learner has not
/// seen; when none are left, the ones seen longest ago come back; a
/// dismissed card, a liked one and a saved one never do.
public enum DiscoveryFeed {
    public static let defaultSize = 10
    public static let largestSize = 50

    /// A card as the feed knows it: `kind:id`.
    public struct Seen: Sendable {
        public var key: String
        /// Dismissed or liked: never again.
        public var settled: Bool
        /// When it was last shown, for the order of repeats.
        public var order: Double
        public init(key: String, settled: Bool, order: Double) { (self.key, self.settled, self.order) = (key, settled, order) }
    }

    /// Up to `size` of `candidates` (keys), unseen ones first and in random
    /// order, then seen ones, least recently first.
    public static func pick<Random: RandomNumberGenerator>(
        _ size: Int, from candidates: [String], seen: [Seen], saved: Set<String>, using random: inout Random
    ) -> [String] {
        let seenByKey = Dictionary(seen.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let open = candidates.filter { !saved.contains($0) && seenByKey[$0]?.settled != true }
        let unseen = open.filter { seenByKey[$0] == nil }.shuffled(using: &random)
        if unseen.count >= size { return Array(unseen.prefix(size)) }
        let again = open.compactMap { seenByKey[$0] }.sorted { $0.order < $1.order }.map(\.key)
        return unseen + again.prefix(size - unseen.count)
    }
}

import Foundation
import ParlaLearning

/// Why a move in a template cannot be made.
public enum TemplateRejection: Error, Sendable, Equatable {
    case unknownItem
    case unknownTarget
    /// The item is already in place.
    case alreadyPlaced
    case complete
}

/// The sequencing template of the lesson packs (seed 001, "Discover
/// Sequencing"): four items shown out of order; the learner drags the one
/// that comes first to box 1, then the next to box 2. Only the active box
/// takes an item; a wrong one pops back. Exactly one order is right: the
/// items come from a list with a strict order (numbers by value), and no
/// two read alike.
public struct SequencingTask: Codable, Sendable, Equatable {
    public struct Item: Codable, Sendable, Equatable {
        public var id: String
        public var concept: String
        public var text: String
    }

    /// As shown: never already in order.
    public var items: [Item]
    /// Item ids, first to last.
    public var order: [String]
    public private(set) var placed: [String] = []
    public private(set) var wrongDrops = 0

    public var activeSlot: Int { placed.count }
    public var isComplete: Bool { placed.count == order.count }

    /// `count` items of `ordered` (concept and text, in their one right
    /// order), keeping that order as the answer, with `including` among them
    /// when given; nil when too few differ.
    public static func make(
        from ordered: [(concept: String, text: String)], count: Int = 4, including: String? = nil,
        using generator: inout some RandomNumberGenerator
    ) -> SequencingTask? {
        var seen: Set<String> = [], distinct: [(Int, String, String)] = []
        for (index, entry) in ordered.enumerated() where seen.insert(folded(entry.text)).inserted {
            distinct.append((index, entry.concept, entry.text))
        }
        guard distinct.count >= count, count >= 2 else { return nil }
        if let including, !distinct.contains(where: { $0.1 == including }) { return nil }
        let shuffled = distinct.shuffled(using: &generator)
        let chosen = (shuffled.filter { $0.1 == including } + shuffled.filter { $0.1 != including }).prefix(count).sorted { $0.0 < $1.0 }
        let ids = ["a", "b", "c", "d", "e", "f"].prefix(count)
        let inOrder = zip(ids, chosen).map { Item(id: $0, concept: $1.1, text: $1.2) }
        var shown = inOrder.shuffled(using: &generator)
        // Shown in order, there would be nothing to do: swap the first two.
        if shown == inOrder { shown.swapAt(0, 1) }
        return SequencingTask(items: shown, order: inOrder.map(\.id))
    }

    /// Drops `itemID` on the active box: true when it belongs there (it
    /// stays), false when not (it pops back).
    public mutating func drop(_ itemID: String) throws(TemplateRejection) -> Bool {
        guard !isComplete else { throw .complete }
        guard items.contains(where: { $0.id == itemID }) else { throw .unknownItem }
        guard !placed.contains(itemID) else { throw .alreadyPlaced }
        guard order[activeSlot] == itemID else {
            wrongDrops += 1
            return false
        }
        placed.append(itemID)
        return true
    }

    /// Two words equal this way would read as one to a learner.
    static func folded(_ text: String) -> String { text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
}

/// The matching template of the lesson packs (seed 001, "Discover
/// Matching"): four items and four targets (a word and its picture or
/// translation); the learner drags each item onto its target. Each item has
/// exactly one target: the pairs are chosen so that no two words, pictures,
/// translations or sounds could be confused (`MatchingDeal.choose`).
public struct DragMatchingTask: Codable, Sendable, Equatable {
    public struct Card: Codable, Sendable, Equatable {
        public var id: String
        public var concept: String
    }

    /// The words to drag, shown in this order.
    public var items: [Card]
    /// Where they go (pictures or translations), in another order.
    public var targets: [Card]
    public var faces: MatchingFaces
    /// Item id to target id, for the items in place.
    public private(set) var matched: [String: String] = [:]
    public private(set) var wrongDrops = 0

    public var isComplete: Bool { matched.count == items.count }

    /// `count` pairs from `candidates`, the first `preferred` of them taken
    /// first, or nil when too few can be told apart.
    public static func make(
        from candidates: [MatchingCandidate], count: Int = 4, faces: MatchingFaces, preferred: Int = 0,
        using generator: inout some RandomNumberGenerator
    ) -> DragMatchingTask? {
        guard let concepts = MatchingDeal.choose(candidates, pairs: count, faces: faces, preferred: preferred, using: &generator) else {
            return nil
        }
        let items = zip(["a", "b", "c", "d", "e", "f"], concepts).map { Card(id: $0, concept: $1) }
        var order = concepts.shuffled(using: &generator)
        if order == concepts, order.count > 1 { order.swapAt(0, 1) }
        let targets = zip(["1", "2", "3", "4", "5", "6"], order).map { Card(id: $0, concept: $1) }
        return DragMatchingTask(items: items, targets: targets, faces: faces)
    }

    /// Drops `itemID` on `targetID`: true when they belong together (the
    /// item stays), false when not (it pops back).
    public mutating func drop(_ itemID: String, on targetID: String) throws(TemplateRejection) -> Bool {
        guard !isComplete else { throw .complete }
        guard let item = items.first(where: { $0.id == itemID }) else { throw .unknownItem }
        guard let target = targets.first(where: { $0.id == targetID }) else { throw .unknownTarget }
        guard matched[itemID] == nil, !matched.values.contains(targetID) else { throw .alreadyPlaced }
        guard item.concept == target.concept else {
            wrongDrops += 1
            return false
        }
        matched[itemID] = targetID
        return true
    }
}

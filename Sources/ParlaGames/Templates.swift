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

/// The sight-words template of the course (seed 001): a sentence is read
/// aloud and, at each of its sight words, the learner taps that word's
/// tile. A word the sentence says twice is tapped twice, so tiles never run
/// out; a tap that is not the word said now is wrong and changes nothing.
public struct SightWordsTask: Codable, Sendable, Equatable {
    public struct Tile: Codable, Sendable, Equatable {
        public var id: String
        public var word: String
    }

    /// Each sight word of the sentence once, shuffled.
    public var tiles: [Tile]
    /// Tile ids, one for each sight word of the sentence, in its order.
    public var order: [String]
    public private(set) var tapped = 0
    public private(set) var wrongTaps = 0

    public var isComplete: Bool { tapped == order.count }

    /// The tiles for `words`, the sight words of a sentence in its order;
    /// nil when there are none, or more distinct than tiles can be lettered.
    public static func make(words: [String], using generator: inout some RandomNumberGenerator) -> SightWordsTask? {
        var distinct: [String] = []
        for word in words where !distinct.contains(word) { distinct.append(word) }
        let ids = ["a", "b", "c", "d", "e", "f"]
        guard !distinct.isEmpty, distinct.count <= ids.count else { return nil }
        let tiles = zip(ids, distinct.shuffled(using: &generator)).map { Tile(id: $0, word: $1) }
        let order = words.compactMap { word in tiles.first { $0.word == word }?.id }
        return SightWordsTask(tiles: tiles, order: order)
    }

    /// Taps `tileID` as the next sight word is said: true when it is that word.
    public mutating func tap(_ tileID: String) throws(TemplateRejection) -> Bool {
        guard !isComplete else { throw .complete }
        guard tiles.contains(where: { $0.id == tileID }) else { throw .unknownItem }
        guard order[tapped] == tileID else {
            wrongTaps += 1
            return false
        }
        tapped += 1
        return true
    }

    /// Whether the tap at `position` (from 0) is its word's first in the sentence.
    public func isFirstOfItsWord(_ position: Int) -> Bool { !order.prefix(position).contains(order[position]) }
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

/// What a game's log sent after offline play may be, whatever the game.
public enum GameLog {
    /// Moves a log may hold at the most.
    public static let longestLog = 2000
    /// Seconds from a game's start after which no move of a log is accepted.
    public static let longestGame = 86_400.0

    /// Whether `times` (seconds from the game's start) could be a game's.
    public static func isPlausible(_ times: [Double]) -> Bool {
        times.count <= longestLog && times.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= longestGame }
    }
}

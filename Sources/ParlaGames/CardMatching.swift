import Foundation
import ParlaCore
import ParlaLearning

/// What a card shows of its concept.
public enum CardFace: String, Codable, Sendable, CaseIterable {
    /// The word in the language learnt.
    case word
    case picture
    /// The word in the learner's own language.
    case translation
    /// The word spoken.
    case audio
}

/// Which two faces of a concept make a pair.
public enum MatchingFaces: String, Codable, Sendable, CaseIterable {
    case wordPicture, wordTranslation, wordAudio

    public var faces: (CardFace, CardFace) {
        switch self {
        case .wordPicture: (.word, .picture)
        case .wordTranslation: (.word, .translation)
        case .wordAudio: (.word, .audio)
        }
    }
}

/// One card of a dealt deck.
public struct MatchingCard: Codable, Sendable, Equatable {
    public var position: Int
    public var concept: String
    public var face: CardFace
}

/// A deck dealt face down: `2 × pairs` cards, each concept twice (once per
/// face), in an order fixed by the seed the server keeps.
public struct MatchingDeal: Codable, Sendable, Equatable {
    public static let pairs = 2...18
    public static let defaultPairs = 8

    public var faces: MatchingFaces
    public var cards: [MatchingCard]

    public var pairCount: Int { cards.count / 2 }

    /// Deals `concepts` (distinct; their count is the number of pairs).
    public static func deal(_ concepts: [String], faces: MatchingFaces, seed: UInt64) -> MatchingDeal {
        var generator = SimulationRandom(seed: seed)
        let (first, second) = faces.faces
        let faced = concepts.flatMap { [($0, first), ($0, second)] }.shuffled(using: &generator)
        return MatchingDeal(faces: faces, cards: faced.enumerated().map { MatchingCard(position: $0, concept: $1.0, face: $1.1) })
    }
}

/// One flip: a card's position, and when, in seconds from the game's start.
public struct MatchingFlip: Codable, Sendable, Equatable {
    public var position: Int
    public var at: Double

    public init(position: Int, at: Double) { (self.position, self.at) = (position, at) }
}

/// Why a flip (or a submitted log) cannot be.
public enum MatchingRejection: Error, Sendable, Equatable {
    /// No card at this position.
    case unknownCard(position: Int)
    /// The card is already matched, face up for good.
    case alreadyMatched(position: Int)
    /// The card is the one already turned this turn.
    case sameCard(position: Int)
    /// Quicker than a person can flip a card after the last one.
    case tooFast(flip: Int)
    /// A flip dated before the one before it.
    case outOfOrder(flip: Int)
    /// A flip after every pair is matched.
    case gameOver
    /// A submitted log that does not match every pair.
    case unfinished
}

/// What a flip did.
public enum FlipOutcome: Sendable, Equatable {
    /// The first card of a turn: face up, waiting for its partner.
    case revealed(MatchingCard)
    /// The second card makes a pair: both stay up.
    case match(MatchingCard, MatchingCard)
    /// The second card does not: both turn back.
    case mismatch(MatchingCard, MatchingCard)
}

/// How a finished game went, derived only from its deal and flip log.
public struct MatchingResult: Codable, Sendable, Equatable {
    public var pairs: Int
    /// From the first flip to the last.
    public var seconds: Double
    public var flips: Int
    public var mismatches: Int
    public var score: Int

}

/// A card-matching game: the deal and every flip so far. The server keeps
/// it and derives everything (matches, result) by playing the flips, so a
/// live game and a submitted offline log go through the same rules.
/// What a game of card matching is worth to the learning model, and how
/// long one may last.
public enum MatchingRules {
    /// A pair found within this many seconds of turning its first card is
    /// fluent recall (the speed factor's limit).
    public static let pairTimeLimit = 10.0
    /// A mismatch of two words the learner has met counts as half a wrong answer.
    public static let mismatchWeight = 0.5
}

public struct MatchingGame: Codable, Sendable, Equatable {
    /// No person turns a card over within this many seconds of the last.
    public static let minimumFlipInterval = 0.15

    public var deal: MatchingDeal
    /// Whether the player saw the faces up front (an offline game, played
    /// on the device and submitted as a log).
    public var offline = false
    public private(set) var flips: [MatchingFlip] = []
    public private(set) var matched: Set<Int> = []
    /// The first card of the turn under way.
    public private(set) var faceUp: Int?
    public private(set) var mismatches = 0

    public init(deal: MatchingDeal) { self.deal = deal }

    public var isFinished: Bool { matched.count == deal.cards.count }

    public var result: MatchingResult? {
        guard isFinished, let first = flips.first, let last = flips.last else { return nil }
        let seconds = last.at - first.at
        return MatchingResult(
            pairs: deal.pairCount, seconds: seconds, flips: flips.count, mismatches: mismatches,
            score: GameScore.of(items: deal.pairCount, mistakes: mismatches, seconds: seconds))
    }

    /// Turns the card at `position` over at `at` seconds from the start.
    /// `checkPace` refuses flips quicker than a person can make; live flips
    /// timed by the server skip it (the network can bunch two taps).
    public mutating func flip(_ position: Int, at: Double, checkPace: Bool = true) throws(MatchingRejection) -> FlipOutcome {
        guard !isFinished else { throw .gameOver }
        guard deal.cards.indices.contains(position) else { throw .unknownCard(position: position) }
        guard !matched.contains(position) else { throw .alreadyMatched(position: position) }
        guard faceUp != position else { throw .sameCard(position: position) }
        if let last = flips.last {
            guard at >= last.at else { throw .outOfOrder(flip: flips.count) }
            guard !checkPace || at - last.at >= Self.minimumFlipInterval else { throw .tooFast(flip: flips.count) }
        }
        flips.append(MatchingFlip(position: position, at: at))
        let card = deal.cards[position]
        guard let first = faceUp else {
            faceUp = position
            return .revealed(card)
        }
        faceUp = nil
        let partner = deal.cards[first]
        if partner.concept == card.concept {
            matched.formUnion([first, position])
            return .match(partner, card)
        }
        mismatches += 1
        return .mismatch(partner, card)
    }

    /// Plays a whole submitted log on a fresh deal; it must end the game.
    public static func replay(_ deal: MatchingDeal, flips: [MatchingFlip]) throws(MatchingRejection) -> MatchingGame {
        var game = MatchingGame(deal: deal)
        for flip in flips { _ = try game.flip(flip.position, at: flip.at) }
        guard game.isFinished else { throw .unfinished }
        return game
    }
}

/// A word that could go in a deck, with what its faces would show.
public struct MatchingCandidate: Sendable, Equatable {
    public var concept: String
    public var word: String
    public var translation: String?
    public var picture: String?
    public var hasAudio: Bool
    /// Concepts whose word sounds the same.
    public var soundsLike: Set<String>
    /// Every concept the word names ("neuf": nine and new), this one included.
    public var wordMeans: Set<String>
    /// Every concept the translation names, this one included.
    public var translationMeans: Set<String>

    public init(
        concept: String, word: String, translation: String?, picture: String?, hasAudio: Bool, soundsLike: Set<String> = [],
        wordMeans: Set<String> = [], translationMeans: Set<String> = []
    ) {
        (self.concept, self.word, self.translation, self.picture, self.hasAudio, self.soundsLike) =
            (concept, word, translation, picture, hasAudio, soundsLike)
        self.wordMeans = wordMeans.union([concept])
        self.translationMeans = translationMeans.union([concept])
    }

    /// True when the two could be confused on the faces shown: one's word
    /// or translation or picture or sound could stand for the other's.
    func clashes(with other: MatchingCandidate, on faces: MatchingFaces) -> Bool {
        let folded = SequencingTask.folded
        if concept == other.concept || folded(word) == folded(other.word) { return true }
        switch faces {
        case .wordTranslation:
            // A word may go on a translation when some concept has both.
            return translation.map(folded) == other.translation.map(folded)
                || !wordMeans.isDisjoint(with: other.translationMeans) || !other.wordMeans.isDisjoint(with: translationMeans)
        case .wordPicture:
            // A picture shows its own concept, which the other word may also name.
            return picture == other.picture || wordMeans.contains(other.concept) || other.wordMeans.contains(concept)
        case .wordAudio:
            return soundsLike.contains(other.concept) || other.soundsLike.contains(concept)
        }
    }

    func canShow(_ faces: MatchingFaces) -> Bool {
        switch faces {
        case .wordPicture: picture != nil
        case .wordTranslation: translation != nil
        case .wordAudio: hasAudio
        }
    }
}

extension MatchingDeal {
    /// Picks `pairs` concepts from `candidates` (in order of preference,
    /// the first `preferred` of them always tried first) whose cards can
    /// never be confused: no two words alike, no two translations or
    /// pictures alike, no two that sound alike when heard, no word that
    /// could also mean another's translation or picture. Nil when too few.
    public static func choose(
        _ candidates: [MatchingCandidate], pairs: Int, faces: MatchingFaces, preferred: Int = 0,
        using generator: inout some RandomNumberGenerator
    ) -> [String]? {
        let usable = candidates.filter { $0.canShow(faces) }
        let first = Array(usable.prefix(preferred)), rest = Array(usable.dropFirst(preferred)).shuffled(using: &generator)
        var chosen: [MatchingCandidate] = []
        for candidate in first + rest where chosen.count < pairs {
            let clashes = chosen.contains { $0.clashes(with: candidate, on: faces) }
            if !clashes { chosen.append(candidate) }
        }
        return chosen.count == pairs ? chosen.map(\.concept) : nil
    }
}

import Foundation
import ParlaCore
import ParlaLearning

/// How hard a spelling game is: how long its words may be, and how many
/// letters that belong nowhere lie among the tiles.
public enum SpellingDifficulty: String, Codable, Sendable, CaseIterable {
    case easy, medium, hard

    public var longestWord: Int {
        switch self {
        case .easy: 5
        case .medium: 7
        case .hard: 10
        }
    }

    public var distractors: Int {
        switch self {
        case .easy: 0
        case .medium: 2
        case .hard: 4
        }
    }
}

/// A letter of a word to spell, as the tiles and the targets know it.
public struct SpellingLetter: Codable, Sendable, Equatable {
    /// As the learner sees it (its letter case applied).
    public var shown: String
    /// The alphabet's letter it is said as (`é` is said as `é` in French;
    /// in Spanish, where `á` is no letter of its own, as `a`).
    public var said: String

    public init(shown: String, said: String) { (self.shown, self.said) = (shown, said) }

    /// Two letters one tile may stand for each other: the same letter in
    /// either case.
    public func fits(_ other: SpellingLetter) -> Bool { shown.lowercased() == other.shown.lowercased() }
}

/// One word of a spelling game (seed 003, "Spelling"): a target for each
/// of its letters (a space, hyphen or apostrophe is shown, not spelled),
/// and the tiles: each letter once, and by difficulty some that belong
/// nowhere, shuffled.
public struct SpellingWord: Codable, Sendable, Equatable {
    public struct Target: Codable, Sendable, Equatable {
        /// Nil for a character that is shown, not spelled.
        public var letter: SpellingLetter?
        public var shown: String
    }

    public struct Tile: Codable, Sendable, Equatable {
        public var id: String
        public var letter: SpellingLetter
    }

    public var concept: String
    /// The word as the learner sees it.
    public var shown: String
    public var targets: [Target]
    public var tiles: [Tile]
    /// Tile ids by target, for the targets filled.
    public private(set) var filled: [Int: String] = [:]
    public private(set) var mistakes = 0

    /// The target of the word's last letter: where a letter says its
    /// final sound (phonics y).
    public var lastLetter: Int? { targets.lastIndex { $0.letter != nil } }

    /// The word as dealt, before any tile was placed.
    public var fresh: SpellingWord { SpellingWord(concept: concept, shown: shown, targets: targets, tiles: tiles) }

    public var isSpelled: Bool { targets.indices.allSatisfy { targets[$0].letter == nil || filled[$0] != nil } }

    /// The word `shown` (as the learner sees it), each letter said as
    /// `said` gives it (a small letter to its alphabet's letter; nil: none),
    /// with `distractors` (alphabet letters) among its tiles where they look
    /// and sound like none of its own. Nil when a character is neither a
    /// letter nor shown-only.
    ///
    /// Tiles are all in one case, so that none gives its place away (a
    /// German noun's capital, a title's first letter): capitals for a word
    /// in capitals, small letters otherwise. A target shows its own case
    /// once filled.
    public static func make(
        concept: String, shown: String, said: (String) -> String?, distractors: [String], using generator: inout some RandomNumberGenerator
    ) -> SpellingWord? {
        var targets: [Target] = []
        for character in shown {
            let text = String(character)
            if Letters.shownOnly.contains(character) {
                targets.append(Target(letter: nil, shown: text))
            } else if let letter = said(text.lowercased()) {
                targets.append(Target(letter: SpellingLetter(shown: text, said: letter), shown: text))
            } else {
                return nil
            }
        }
        let letters = targets.compactMap(\.letter)
        guard !letters.isEmpty else { return nil }
        let capitals = letters.allSatisfy { $0.shown != $0.shown.lowercased() }
        func tile(_ letter: String) -> String { capitals ? LetterCase.capital(letter) : letter.lowercased() }
        let own = letters.map { SpellingLetter(shown: tile($0.shown), said: $0.said) }
        let extra = distractors.filter { letter in !letters.contains { $0.said == letter || $0.shown.lowercased() == letter } }
            .map { SpellingLetter(shown: tile($0), said: $0) }
        let tiles = (own + extra).shuffled(using: &generator).enumerated().map { Tile(id: "t\($0.offset + 1)", letter: $0.element) }
        return SpellingWord(concept: concept, shown: shown, targets: targets, tiles: tiles)
    }

    /// The open targets `letter` would fit: what the server tells a
    /// learner about a tile.
    public func targets(accepting letter: SpellingLetter) -> [Int] {
        targets.indices.filter { filled[$0] == nil && targets[$0].letter.map(letter.fits) == true }
    }

    /// Places `tileID` on `target`: true when its letter belongs there (it
    /// stays), false when not (it pops back, and counts as a mistake).
    public mutating func place(_ tileID: String, on target: Int) throws(PlacementRejection) -> Bool {
        guard let tile = tiles.first(where: { $0.id == tileID }) else { throw .unknownTile }
        guard targets.indices.contains(target) else { throw .unknownTarget }
        guard !filled.values.contains(tileID) else { throw .tileUsed }
        guard let letter = targets[target].letter, filled[target] == nil else { throw .targetFilled }
        guard tile.letter.fits(letter) else {
            mistakes += 1
            return false
        }
        filled[target] = tileID
        return true
    }
}

/// One tile placed: which, where, and when (seconds from the game's start).
public struct SpellingMove: Codable, Sendable, Equatable {
    public var tile: String
    public var target: Int
    public var at: Double

    public init(tile: String, target: Int, at: Double) { (self.tile, self.target, self.at) = (tile, target, at) }
}

/// Why a tile cannot go on a word's target, wherever the word is spelled
/// (a game, a lesson's screen).
public enum PlacementRejection: Error, Sendable, Equatable {
    case unknownTile
    case unknownTarget
    /// The tile is already in place.
    case tileUsed
    /// The target has its letter, or is a space or a hyphen.
    case targetFilled
}

/// Why a game's placement (or a submitted log) cannot be.
public enum SpellingRejection: Error, Sendable, Equatable {
    case placement(PlacementRejection)
    /// Quicker than a person can drag a tile after the last one.
    case tooFast(move: Int)
    case outOfOrder(move: Int)
    /// A placement after the last word is spelled.
    case gameOver
    /// A submitted log that does not spell every word.
    case unfinished
}

/// What a placement did.
public enum PlacementOutcome: Sendable, Equatable {
    /// The letter is in place; `spelled` when it finished its word.
    case placed(word: Int, spelled: Bool)
    /// The letter does not go there: it pops back.
    case wrong(word: Int)
}

/// How a finished spelling game went, derived only from its words and log.
public struct SpellingResult: Codable, Sendable, Equatable {
    public var words: Int
    public var seconds: Double
    public var placements: Int
    public var mistakes: Int
    public var score: Int
}

/// A spelling game: its words, spelled one after another, and every
/// placement so far. As with card matching, the server keeps it and
/// derives everything by playing the placements, so a live game and an
/// offline log go through the same rules.
public struct SpellingGame: Codable, Sendable, Equatable {
    public static let wordCounts = 1...10
    public static let defaultWords = 5
    /// No person drags a tile within this many seconds of the last.
    public static let minimumMoveInterval = 0.2
    /// A word spelled within this many seconds a letter is fluent.
    public static let secondsPerLetter = 5.0

    public var words: [SpellingWord]
    public var difficulty: SpellingDifficulty
    /// Whether the player saw every letter up front (an offline game).
    public var offline = false
    public private(set) var moves: [SpellingMove] = []
    /// When each word's first and last placements were made.
    public private(set) var spans: [ClosedRange<Double>] = []

    public init(words: [SpellingWord], difficulty: SpellingDifficulty) { (self.words, self.difficulty) = (words, difficulty) }

    /// The word being spelled: the first not yet spelled.
    public var current: Int? { words.firstIndex { !$0.isSpelled } }
    public var isFinished: Bool { current == nil }
    public var mistakes: Int { words.reduce(0) { $0 + $1.mistakes } }

    public var result: SpellingResult? {
        guard isFinished, let first = moves.first, let last = moves.last else { return nil }
        let seconds = last.at - first.at
        return SpellingResult(
            words: words.count, seconds: seconds, placements: moves.count, mistakes: mistakes,
            score: GameScore.of(items: words.count, mistakes: mistakes, seconds: seconds))
    }

    /// Places `tile` of the current word on its target `target`, at `at`
    /// seconds from the start. `checkPace` as in `MatchingGame.flip`.
    public mutating func place(_ tile: String, on target: Int, at: Double, checkPace: Bool = true) throws(SpellingRejection)
        -> PlacementOutcome
    {
        guard let index = current else { throw .gameOver }
        if let last = moves.last {
            guard at >= last.at else { throw .outOfOrder(move: moves.count) }
            guard !checkPace || at - last.at >= Self.minimumMoveInterval else { throw .tooFast(move: moves.count) }
        }
        let placed: Bool
        do throws(PlacementRejection) { placed = try words[index].place(tile, on: target) } catch { throw .placement(error) }
        moves.append(SpellingMove(tile: tile, target: target, at: at))
        if spans.count == index { spans.append(at...at) } else { spans[index] = spans[index].lowerBound...at }
        guard placed else { return .wrong(word: index) }
        return .placed(word: index, spelled: words[index].isSpelled)
    }

    /// Plays a whole submitted log on the words as dealt; it must spell them all.
    public static func replay(_ words: [SpellingWord], difficulty: SpellingDifficulty, moves: [SpellingMove]) throws(SpellingRejection)
        -> SpellingGame
    {
        var game = SpellingGame(words: words.map(\.fresh), difficulty: difficulty)
        for move in moves { _ = try game.place(move.tile, on: move.target, at: move.at) }
        guard game.isFinished else { throw .unfinished }
        return game
    }
}

/// A word a spelling game may deal, as the learner sees it (its letter
/// case and the course variant's spelling applied).
public struct SpellingCandidate: Sendable, Equatable {
    public var concept: String
    public var shown: String
    public init(concept: String, shown: String) { (self.concept, self.shown) = (concept, shown) }
}

/// Which words a spelling game deals.
public enum SpellingDeal {
    /// `count` words of `candidates` (the first `preferred` tried first,
    /// the rest shuffled) that `letters` (the variant's alphabet) can
    /// spell, of 2 letters up to the difficulty's longest, no two alike;
    /// each dealt with its tiles and the difficulty's distractors. A letter
    /// the alphabet lacks is said as its bare letter (Spanish á as a).
    public static func choose(
        _ candidates: [SpellingCandidate], count: Int, preferred: Int = 0, letters: [String], difficulty: SpellingDifficulty,
        using random: inout some RandomNumberGenerator
    ) -> [SpellingWord] {
        let alphabet = Set(letters)
        func said(_ letter: String) -> String? { Letters.said(letter, in: alphabet) }
        let ordered = Array(candidates.prefix(preferred)) + Array(candidates.dropFirst(preferred)).shuffled(using: &random)
        var words: [SpellingWord] = [], seen: Set<String> = []
        for candidate in ordered where words.count < count {
            guard let spelled = Letters.spelled(candidate.shown, in: alphabet, longest: difficulty.longestWord),
                !seen.contains(candidate.shown.lowercased())
            else { continue }
            let own = Set(spelled)
            let distractors = letters.filter { !own.contains($0) }.shuffled(using: &random).prefix(difficulty.distractors)
            guard
                let word = SpellingWord.make(
                    concept: candidate.concept, shown: candidate.shown, said: said, distractors: Array(distractors), using: &random)
            else { continue }
            seen.insert(candidate.shown.lowercased())
            words.append(word)
        }
        return words
    }
}

/// A game's score: 100 an item (a pair matched, a word spelled), less 20 a
/// mistake and 1 a second, never below zero: accuracy counts most, speed
/// breaks ties.
public enum GameScore {
    public static func of(items: Int, mistakes: Int, seconds: Double) -> Int {
        max(0, 100 * items - 20 * mistakes - Int(seconds.rounded(.down)))
    }
}

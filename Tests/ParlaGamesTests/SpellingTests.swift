import Foundation
import ParlaCore
import ParlaLearning
import Testing

@testable import ParlaGames

@Suite("spelling with letter tiles")
struct SpellingTests {
    static let english = Set("abcdefghijklmnopqrstuvwxyz")

    /// A word whose letters are said as English says them; accented letters
    /// are said as their base letter.
    static func word(_ shown: String, distractors: [String] = [], seed: UInt64 = 3) -> SpellingWord? {
        var random = SimulationRandom(seed: seed)
        return SpellingWord.make(
            concept: shown.lowercased(), shown: shown,
            said: { letter in
                let base = letter.folding(options: .diacriticInsensitive, locale: nil)
                return base.count == 1 && english.contains(Character(base)) ? base : nil
            }, distractors: distractors, using: &random)
    }

    /// The tile showing `letter` that is not in place yet.
    static func tile(_ letter: String, of word: SpellingWord) -> String {
        word.tiles.first { $0.letter.shown.lowercased() == letter && !word.filled.values.contains($0.id) }!.id
    }

    @Test("a word's letters are its targets and tiles; a space or a hyphen is shown, not spelled; distractors belong nowhere")
    func making() throws {
        let cat = try #require(Self.word("cat", distractors: ["x", "a", "q"]))
        #expect(cat.targets.map(\.shown) == ["c", "a", "t"])
        // "a" is in the word: it would fit a target, so it is no distractor.
        #expect(cat.tiles.map(\.letter.shown).sorted() == ["a", "c", "q", "t", "x"])
        #expect(Set(cat.tiles.map(\.id)).count == 5)
        let iceCream = try #require(Self.word("ice cream"))
        #expect(iceCream.targets[3].letter == nil && iceCream.tiles.count == 8)
        // Tiles are all small letters, so that the capital gives no place away; the target keeps it.
        let shirt = try #require(Self.word("T-shirt"))
        #expect(shirt.targets[1].letter == nil && shirt.targets[0].letter?.shown == "T")
        #expect(shirt.tiles.map(\.letter.shown).sorted() == ["h", "i", "r", "s", "t", "t"])
        // A word in capitals has capital tiles, distractors too.
        let upper = try #require(Self.word("SUN", distractors: ["b"]))
        #expect(upper.tiles.map(\.letter.shown).sorted() == ["B", "N", "S", "U"])
        // An accented letter is its own tile, said as its alphabet says it.
        let cafe = try #require(Self.word("café", distractors: ["e", "z"]))
        #expect(cafe.targets[3].letter == SpellingLetter(shown: "é", said: "e"))
        // A distractor that sounds like one of the word's letters (e, as é is said) is left out.
        #expect(cafe.tiles.map(\.letter.shown).sorted() == ["a", "c", "f", "z", "é"])
        // A character no alphabet letter says cannot be spelled.
        #expect(Self.word("c4t") == nil)
        #expect(Self.word("--") == nil)
    }

    @Test("a deal: words the alphabet spells, within the difficulty's length, no two alike, due ones first, distractors by difficulty")
    func deal() {
        let letters = (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }
        let candidates = ["ox", "sofá", "cat", "Cat", "elephant", "x1", "a", "dog", "sun", "ice cream", "hen"].map {
            SpellingCandidate(concept: $0.lowercased(), shown: $0)
        }
        var random = SimulationRandom(seed: 11)
        let easy = SpellingDeal.choose(candidates, count: 6, preferred: 2, letters: letters, difficulty: .easy, using: &random)
        #expect(easy.prefix(2).map(\.shown) == ["ox", "sofá"])
        #expect(easy.count == 6 && Set(easy.map { $0.shown.lowercased() }).count == 6)
        #expect(easy.allSatisfy { !["elephant", "x1", "a", "ice cream"].contains($0.shown) })
        #expect(easy.allSatisfy { $0.tiles.count == $0.targets.filter { $0.letter != nil }.count })
        let hard = SpellingDeal.choose(candidates, count: 2, letters: letters, difficulty: .hard, using: &random)
        #expect(hard.allSatisfy { $0.tiles.count == $0.targets.filter { $0.letter != nil }.count + 4 })
        // The Spanish alphabet has no á: said as a, and no a among the distractors.
        let sofa = SpellingDeal.choose(
            [SpellingCandidate(concept: "sofa", shown: "sofá")], count: 1, letters: letters, difficulty: .hard, using: &random)
        #expect(sofa.first?.tiles.filter { $0.letter.said == "a" }.count == 1)
    }

    @Test("a tile fits a target of the same letter in either case; a wrong one pops back and counts as a mistake")
    func placing() throws {
        var word = try #require(Self.word("Anna"))
        #expect(word.targets(accepting: SpellingLetter(shown: "a", said: "a")) == [0, 3])
        #expect(try word.place(Self.tile("n", of: word), on: 0) == false)
        #expect(word.mistakes == 1)
        #expect(try word.place(Self.tile("a", of: word), on: 0))
        #expect(word.targets(accepting: SpellingLetter(shown: "a", said: "a")) == [3])
        #expect(throws: PlacementRejection.targetFilled) { try word.place(Self.tile("a", of: word), on: 0) }
        #expect(throws: PlacementRejection.unknownTile) { try word.place("t99", on: 1) }
        #expect(throws: PlacementRejection.unknownTarget) { try word.place(Self.tile("n", of: word), on: 7) }
        let placed = word.filled[0]!
        #expect(throws: PlacementRejection.tileUsed) { try word.place(placed, on: 3) }
        // Either "n" tile goes in either "n" target.
        #expect(try word.place(Self.tile("n", of: word), on: 2))
        #expect(try word.place(Self.tile("n", of: word), on: 1))
        #expect(try word.place(Self.tile("a", of: word), on: 3))
        #expect(word.isSpelled && word.mistakes == 1)
    }

    /// Spells every word of `game` right, a tile every `interval` seconds.
    static func spell(_ game: SpellingGame, from start: Double = 0, interval: Double = 1) -> [SpellingMove] {
        var moves: [SpellingMove] = [], copy = game, at = start
        while let index = copy.current {
            let word = copy.words[index]
            let target = word.targets.indices.first { word.targets[$0].letter != nil && word.filled[$0] == nil }!
            let tile = tile(word.targets[target].letter!.shown.lowercased(), of: word)
            _ = try? copy.place(tile, on: target, at: at)
            moves.append(SpellingMove(tile: tile, target: target, at: at))
            at += interval
        }
        return moves
    }

    @Test("words are spelled in order; the result counts words, placements, mistakes and time, scored as games are")
    func game() throws {
        let words = try [#require(Self.word("cat")), #require(Self.word("dog"))]
        var game = SpellingGame(words: words, difficulty: .easy)
        #expect(game.current == 0)
        #expect(try game.place(Self.tile("a", of: words[0]), on: 0, at: 1) == .wrong(word: 0))
        let moves = Self.spell(game, from: 2)
        var outcomes: [PlacementOutcome] = []
        for move in moves { outcomes.append(try game.place(move.tile, on: move.target, at: move.at)) }
        #expect(outcomes[2] == .placed(word: 0, spelled: true) && outcomes[1] == .placed(word: 0, spelled: false))
        #expect(outcomes.last == .placed(word: 1, spelled: true))
        #expect(game.isFinished)
        let result = try #require(game.result)
        #expect(result == SpellingResult(words: 2, seconds: 6, placements: 7, mistakes: 1, score: 200 - 20 - 6))
        #expect(throws: SpellingRejection.gameOver) { try game.place("t1", on: 0, at: 9) }
    }

    @Test("an offline log is replayed on fresh words: refused when too quick, out of order or unfinished")
    func replay() throws {
        let words = try [#require(Self.word("sun")), #require(Self.word("hat"))]
        let moves = Self.spell(SpellingGame(words: words, difficulty: .medium))
        let game = try SpellingGame.replay(words, difficulty: .medium, moves: moves)
        #expect(game.result?.words == 2 && game.result?.mistakes == 0)
        var quick = moves
        quick[2].at = quick[1].at + 0.05
        #expect(throws: SpellingRejection.tooFast(move: 2)) { try SpellingGame.replay(words, difficulty: .medium, moves: quick) }
        var backwards = moves
        backwards[3].at = 0.5
        #expect(throws: SpellingRejection.outOfOrder(move: 3)) { try SpellingGame.replay(words, difficulty: .medium, moves: backwards) }
        #expect(throws: SpellingRejection.unfinished) {
            try SpellingGame.replay(words, difficulty: .medium, moves: Array(moves.dropLast()))
        }
    }

    @Test("a word spelled teaches its word: right without a mistake, wrong with one, timed from its first tile to its last")
    func learning() throws {
        let known = ["cat": GameWord(initialDifficulty: -0.5), "dog": GameWord(initialDifficulty: 0.2)]
        let words = try [#require(Self.word("cat")), #require(Self.word("dog"))]
        var game = SpellingGame(words: words, difficulty: .easy)
        var learned: [AnswerLearning] = []
        _ = try game.place(Self.tile("a", of: words[0]), on: 0, at: 0)
        for move in Self.spell(game, from: 1) {
            let outcome = try game.place(move.tile, on: move.target, at: move.at)
            learned += SpellingLearning.learning(
                from: outcome, in: game, words: known, model: LearnerModel(), at: Date(), scheduler: MemoryScheduler())
        }
        #expect(learned.map(\.itemID) == ["word:cat", "word:dog"])
        #expect(SpellingLearning.mayTeach(.placed(word: 0, spelled: true)))
        #expect(!SpellingLearning.mayTeach(.placed(word: 0, spelled: false)) && !SpellingLearning.mayTeach(.wrong(word: 0)))
        #expect(learned.map(\.skill) == [.vocabulary, .vocabulary])
        // cat had a mistake: a lapse-free wrong answer lowers the ability; dog raises it.
        #expect(learned[0].abilityChange < 0 && learned[1].abilityChange > 0)
        let replayed = SpellingLearning.learning(
            fromReplayed: game, words: known, model: LearnerModel(), at: Date(), scheduler: MemoryScheduler())
        #expect(replayed.map(\.itemID) == ["word:cat", "word:dog"])
        #expect(replayed[0].snapshots.isEmpty)
    }
}

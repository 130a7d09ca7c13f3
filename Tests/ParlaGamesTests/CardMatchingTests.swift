import ParlaCore
import Testing

@testable import ParlaGames

@Suite("card matching")
struct CardMatchingTests {
    static let concepts = ["cat", "dog", "cow", "horse", "sheep", "duck", "pig", "goat"]

    /// A perfect log: each pair flipped in turn, `gap` seconds apart.
    static func perfect(_ deal: MatchingDeal, gap: Double = 1) -> [MatchingFlip] {
        var flips: [MatchingFlip] = []
        for concept in concepts.prefix(deal.pairCount) {
            for card in deal.cards where card.concept == concept {
                flips.append(MatchingFlip(position: card.position, at: Double(flips.count) * gap))
            }
        }
        return flips
    }

    @Test("a deal has every concept twice, once per face, in an order fixed by the seed")
    func deal() {
        let deal = MatchingDeal.deal(Self.concepts, faces: .wordPicture, seed: 42)
        #expect(deal.cards.count == 16 && deal.pairCount == 8)
        #expect(deal.cards.map(\.position) == Array(0..<16))
        for concept in Self.concepts {
            #expect(deal.cards.filter { $0.concept == concept }.map(\.face).sorted { $0.rawValue < $1.rawValue } == [.picture, .word])
        }
        #expect(MatchingDeal.deal(Self.concepts, faces: .wordPicture, seed: 42) == deal)
        #expect(MatchingDeal.deal(Self.concepts, faces: .wordPicture, seed: 43) != deal)
    }

    @Test("T5.2-T5.6: flips reveal, match (both stay up), mismatch (both turn back), and the last match ends the game")
    func play() throws {
        let deal = MatchingDeal.deal(Array(Self.concepts.prefix(2)), faces: .wordTranslation, seed: 7)
        var game = MatchingGame(deal: deal)
        let cat = deal.cards.filter { $0.concept == "cat" }.map(\.position)
        let dog = deal.cards.filter { $0.concept == "dog" }.map(\.position)
        #expect(try game.flip(cat[0], at: 0) == .revealed(deal.cards[cat[0]]))
        #expect(throws: MatchingRejection.sameCard(position: cat[0])) { try game.flip(cat[0], at: 1) }
        #expect(try game.flip(dog[0], at: 1) == .mismatch(deal.cards[cat[0]], deal.cards[dog[0]]))
        #expect(try game.flip(cat[0], at: 2) == .revealed(deal.cards[cat[0]]))
        #expect(try game.flip(cat[1], at: 3) == .match(deal.cards[cat[0]], deal.cards[cat[1]]))
        #expect(throws: MatchingRejection.alreadyMatched(position: cat[1])) { try game.flip(cat[1], at: 4) }
        #expect(!game.isFinished && game.result == nil)
        _ = try game.flip(dog[0], at: 4)
        #expect(try game.flip(dog[1], at: 5.5) == .match(deal.cards[dog[0]], deal.cards[dog[1]]))
        #expect(game.isFinished)
        #expect(game.result == MatchingResult(pairs: 2, seconds: 5.5, flips: 6, mismatches: 1, score: 175))
        #expect(throws: MatchingRejection.gameOver) { try game.flip(dog[1], at: 7) }
    }

    @Test("a submitted log is replayed; forged ones are rejected")
    func replay() throws {
        let deal = MatchingDeal.deal(Self.concepts, faces: .wordAudio, seed: 9)
        let flips = Self.perfect(deal)
        let game = try MatchingGame.replay(deal, flips: flips)
        #expect(game.result == MatchingResult(pairs: 8, seconds: 15, flips: 16, mismatches: 0, score: 785))

        #expect(throws: MatchingRejection.unfinished) { try MatchingGame.replay(deal, flips: Array(flips.dropLast(2))) }
        var unknown = flips
        unknown[3].position = 16
        #expect(throws: MatchingRejection.unknownCard(position: 16)) { try MatchingGame.replay(deal, flips: unknown) }
        var double = flips
        double[1].position = double[0].position
        #expect(throws: MatchingRejection.sameCard(position: flips[0].position)) { try MatchingGame.replay(deal, flips: double) }
        // Faster than a person can flip.
        #expect(throws: MatchingRejection.tooFast(flip: 1)) { try MatchingGame.replay(deal, flips: Self.perfect(deal, gap: 0.05)) }
        var backwards = flips
        backwards[5].at = 1
        #expect(throws: MatchingRejection.outOfOrder(flip: 5)) { try MatchingGame.replay(deal, flips: backwards) }
        #expect(throws: MatchingRejection.gameOver) { try MatchingGame.replay(deal, flips: flips + [MatchingFlip(position: 0, at: 99)]) }
        #expect(throws: MatchingRejection.unfinished) { try MatchingGame.replay(deal, flips: []) }
    }

    @Test("the score: 100 a pair, less 20 a mismatch and 1 a second, never below zero")
    func score() {
        #expect(GameScore.of(items: 8, mistakes: 0, seconds: 0) == 800)
        #expect(GameScore.of(items: 8, mistakes: 3, seconds: 30.9) == 710)
        #expect(GameScore.of(items: 2, mistakes: 40, seconds: 10) == 0)
    }
}

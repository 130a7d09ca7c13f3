import Foundation
import ParlaCore
import ParlaLearning
import Testing

@testable import ParlaGames

@Suite("what card matching teaches")
struct MatchingLearningTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let scheduler = MemoryScheduler()
    static let words = ["cat": GameWord(initialDifficulty: -0.5), "dog": GameWord(initialDifficulty: 0.2)]

    /// A game of cat and dog, and the positions of each pair.
    static func game(_ faces: MatchingFaces = .wordPicture) -> (MatchingGame, cat: [Int], dog: [Int]) {
        let deal = MatchingDeal.deal(["cat", "dog"], faces: faces, seed: 7)
        let positions = { (concept: String) in deal.cards.filter { $0.concept == concept }.map(\.position) }
        return (MatchingGame(deal: deal), positions("cat"), positions("dog"))
    }

    /// The lessons' rule for one answer, as a game's card gives it.
    static func expected(
        _ concept: String, skill: Skill = .vocabulary, correct: Bool = true, seconds: Double?, weight: Double = 1,
        remember: Bool = true, model: LearnerModel
    ) -> AnswerLearning {
        let answer = PracticeAnswer(
            itemID: "word:\(concept)", skill: skill, correct: correct, responseTime: seconds, timeLimit: MatchingRules.pairTimeLimit,
            optionCount: 0, initialDifficulty: words[concept]!.initialDifficulty, weight: weight, remember: remember)
        return AnswerLearning.learning(from: answer, model: model, item: words[concept]!.learned, at: now, scheduler: scheduler)
    }

    func flip(_ game: inout MatchingGame, _ position: Int, at: Double, model: LearnerModel = LearnerModel()) throws
        -> [AnswerLearning]
    {
        let outcome = try game.flip(position, at: at, checkPace: false)
        return MatchingLearning.learning(
            from: outcome, in: game, words: Self.words, model: model, at: Self.now, scheduler: Self.scheduler)
    }

    @Test("a first card teaches nothing; a pair found is a right answer about its word, timed from the turn's first card")
    func match() throws {
        var (game, cat, _) = Self.game()
        #expect(try flip(&game, cat[0], at: 2).isEmpty)
        #expect(!MatchingLearning.mayTeach(.revealed(game.deal.cards[cat[0]])))
        #expect(MatchingLearning.mayTeach(.match(game.deal.cards[cat[0]], game.deal.cards[cat[1]])))
        let learned = try flip(&game, cat[1], at: 3.5)
        #expect(learned == [Self.expected("cat", seconds: 1.5, model: LearnerModel())])
        let only = try #require(learned.first)
        #expect(only.itemID == "word:cat" && only.skill == .vocabulary && only.card != nil && only.abilityChange > 0)
    }

    @Test("a word-and-audio deck is heard: its pairs teach listening")
    func listening() throws {
        var (game, cat, _) = Self.game(.wordAudio)
        _ = try flip(&game, cat[0], at: 0)
        let learned = try flip(&game, cat[1], at: 1)
        #expect(learned.map(\.skill) == [.listening])
        #expect(learned == [Self.expected("cat", skill: .listening, seconds: 1, model: LearnerModel())])
    }

    @Test("a mismatch of two words met before is half a wrong answer about the first card, and leaves memory alone")
    func mismatchOfKnownWords() throws {
        var (game, cat, dog) = Self.game()
        let met = LearnerModel(cards: ["word:cat": MemoryCard(due: Self.now), "word:dog": MemoryCard(due: Self.now)])
        _ = try flip(&game, dog[0], at: 1, model: met)
        let learned = try flip(&game, cat[0], at: 3, model: met)
        #expect(
            learned == [Self.expected("dog", correct: false, seconds: 2, weight: MatchingRules.mismatchWeight, remember: false, model: met)]
        )
        #expect(learned.first?.card == nil && (learned.first?.abilityChange ?? 0) < 0)
    }

    @Test("a mismatch involving a word never met teaches nothing")
    func mismatchOfNewWord() throws {
        var (game, cat, dog) = Self.game()
        let halfMet = LearnerModel(cards: ["word:cat": MemoryCard(due: Self.now)])
        _ = try flip(&game, cat[0], at: 1, model: halfMet)
        #expect(try flip(&game, dog[0], at: 2, model: halfMet).isEmpty)
        _ = try flip(&game, dog[0], at: 3)
        #expect(try flip(&game, cat[0], at: 4).isEmpty)
    }

    @Test("a word the catalogue lacks teaches nothing, in a live game or a replayed one")
    func unknownWord() throws {
        var (game, cat, dog) = Self.game()
        let onlyDog = ["dog": Self.words["dog"]!]
        _ = try game.flip(cat[0], at: 0)
        let outcome = try game.flip(cat[1], at: 1)
        #expect(
            MatchingLearning.learning(
                from: outcome, in: game, words: onlyDog, model: LearnerModel(), at: Self.now, scheduler: Self.scheduler
            )
            .isEmpty)
        let log = [cat[0], cat[1], dog[0], dog[1]].enumerated().map { MatchingFlip(position: $1, at: Double($0)) }
        let replayed = try MatchingGame.replay(game.deal, flips: log)
        let learned = MatchingLearning.learning(
            fromReplayed: replayed, words: onlyDog, model: LearnerModel(), at: Self.now, scheduler: Self.scheduler)
        #expect(learned.map(\.itemID) == ["word:dog"])
    }

    @Test("a replayed log teaches each pair found, as a live game would; mismatches teach nothing")
    func replay() throws {
        let (start, cat, dog) = Self.game()
        // A mismatch first, then cat in 2 s, then dog in 1 s.
        let positions = [cat[0], dog[0], cat[0], cat[1], dog[0], dog[1]]
        let times = [0.0, 1, 2, 4, 5, 6]
        let log = zip(positions, times).map { MatchingFlip(position: $0, at: $1) }
        let game = try MatchingGame.replay(start.deal, flips: log)
        let model = LearnerModel(abilities: [SkillAbility(skill: .vocabulary, theta: 0.4, responses: 3)])
        let learned = MatchingLearning.learning(
            fromReplayed: game, words: Self.words, model: model, at: Self.now, scheduler: Self.scheduler)
        #expect(learned.map(\.itemID) == ["word:cat", "word:dog"])
        #expect(learned.map(\.skill) == [.vocabulary, .vocabulary])

        // Each pair from the model as the pairs before left it: cards and changes as a live game's.
        let first = Self.expected("cat", seconds: 2, model: model)
        var after = model
        after.apply(first)
        let second = Self.expected("dog", seconds: 1, model: after)
        #expect(learned.map(\.card) == [first.card, second.card])
        #expect(learned.map(\.abilityChange) == [first.abilityChange, second.abilityChange])
        #expect(learned.map(\.difficultyChange) == [first.difficultyChange, second.difficultyChange])
    }

    @Test("a replay's writes each carry the ability before the game plus their own change; only the last moves today's history")
    func replayWritesInAnyOrder() throws {
        let (start, cat, dog) = Self.game()
        let log = [cat[0], cat[1], dog[0], dog[1]].enumerated().map { MatchingFlip(position: $1, at: Double($0) * 2) }
        let game = try MatchingGame.replay(start.deal, flips: log)
        let before = SkillAbility(skill: .vocabulary, theta: 0.4, responses: 3)
        let learned = MatchingLearning.learning(
            fromReplayed: game, words: Self.words, model: LearnerModel(abilities: [before]), at: Self.now, scheduler: Self.scheduler)
        #expect(learned.count == 2)
        for write in learned {
            #expect(write.ability == SkillAbility(skill: .vocabulary, theta: 0.4 + write.abilityChange, responses: 4))
        }
        #expect(learned[0].snapshots.isEmpty && !learned[1].snapshots.isEmpty)
    }

    @Test("a game's card teaches the word as lessons name it")
    func itemIDs() {
        #expect(MatchingLearning.itemID("cat") == "word:cat")
        #expect(MatchingLearning.skill(.wordPicture) == .vocabulary && MatchingLearning.skill(.wordTranslation) == .vocabulary)
    }
}

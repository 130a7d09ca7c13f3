import Foundation
import ParlaCore
import ParlaLearning

/// What card matching teaches the learning model, as `AnswerLearning` is
/// for a lesson's answers: a pure function from the game (a flip just made,
/// or a whole log replayed) and the model as read to the writes that go
/// with the game's new state. The server reads, calls it, and writes.
///
/// A pair found is a right answer about its word (its memory, and the
/// vocabulary ability, or listening for word-and-audio decks). A mismatch
/// of two words the learner has met before is half a wrong answer about the
/// first card, and leaves memory alone: a slip of place, not of meaning, as
/// often as not. A mismatch involving a word never met teaches nothing.
public enum MatchingLearning {
    /// The item a card teaches: its word, named as lessons name it
    /// (`LessonItemID(.word, concept)`), so that a game and a lesson
    /// review the same memory.
    public static func itemID(_ concept: String) -> String { "word:\(concept)" }

    /// Word-and-audio decks are heard; the others are read.
    public static func skill(_ faces: MatchingFaces) -> Skill { faces == .wordAudio ? .listening : .vocabulary }

    /// Whether a flip may teach: a turn's second card (the first, turned
    /// alone, need not read the learner's model).
    public static func mayTeach(_ outcome: FlipOutcome) -> Bool {
        if case .revealed = outcome { false } else { true }
    }

    /// What one live flip teaches: `game` is the game after the flip and
    /// `outcome` what the flip did. The turn's time is the gap between its
    /// two flips.
    public static func learning(
        from outcome: FlipOutcome, in game: MatchingGame, words: [String: GameWord], model: LearnerModel, at now: Date,
        scheduler: MemoryScheduler
    ) -> [AnswerLearning] {
        let turn = game.flips.suffix(2).map(\.at)
        let seconds = turn.count == 2 ? turn[1] - turn[0] : nil
        func answer(_ concept: String, correct: Bool, weight: Double, remember: Bool) -> [AnswerLearning] {
            guard let word = words[concept] else { return [] }
            let answer = PracticeAnswer(
                itemID: itemID(concept), skill: skill(game.deal.faces), correct: correct, responseTime: seconds,
                timeLimit: MatchingRules.pairTimeLimit, optionCount: 0, initialDifficulty: word.initialDifficulty, weight: weight,
                remember: remember)
            return [AnswerLearning.learning(from: answer, model: model, item: word.learned, at: now, scheduler: scheduler)]
        }
        switch outcome {
        case .revealed:
            return []
        case .match(let card, _):
            return answer(card.concept, correct: true, weight: 1, remember: true)
        case .mismatch(let first, let second)
        where model.cards[itemID(first.concept)] != nil && model.cards[itemID(second.concept)] != nil:
            return answer(first.concept, correct: false, weight: MatchingRules.mismatchWeight, remember: false)
        case .mismatch:
            return []
        }
    }

    /// What a whole log played offline teaches, `game` being its replay
    /// (`MatchingGame.replay`). Each pair found teaches as in a live game
    /// (turns are consecutive flips); mismatches teach nothing (the faces
    /// were seen up front).
    public static func learning(
        fromReplayed game: MatchingGame, words: [String: GameWord], model: LearnerModel, at now: Date,
        scheduler: MemoryScheduler
    ) -> [AnswerLearning] {
        let skill = skill(game.deal.faces)
        let answers = stride(from: 0, to: game.flips.count - 1, by: 2).compactMap { index -> (PracticeAnswer, GameWord)? in
            let (first, second) = (game.flips[index], game.flips[index + 1])
            let concept = game.deal.cards[first.position].concept
            guard concept == game.deal.cards[second.position].concept, let word = words[concept] else { return nil }
            return (
                PracticeAnswer(
                    itemID: itemID(concept), skill: skill, correct: true, responseTime: second.at - first.at,
                    timeLimit: MatchingRules.pairTimeLimit, optionCount: 0, initialDifficulty: word.initialDifficulty), word
            )
        }
        return GameLearning.replayed(answers, model: model, at: now, scheduler: scheduler)
    }
}

/// What every kind of game shares in teaching the learning model.
public enum GameLearning {
    /// What the answers of a game played offline teach, in the order
    /// played, each from the model as the answers before it left it.
    ///
    /// The writes go in item order (for their locks), not in the order
    /// played, so what each would insert for a learner with no stored
    /// ability must not depend on the answers before it: each carries the
    /// ability before the game plus its own change. Today's history is
    /// where the last answer left it, so only the last write carries it.
    public static func replayed(
        _ answers: [(PracticeAnswer, GameWord)], model: LearnerModel, at now: Date, scheduler: MemoryScheduler
    ) -> [AnswerLearning] {
        var after = model
        var learned = answers.map { answer, word in
            let write = AnswerLearning.learning(from: answer, model: after, item: word.learned, at: now, scheduler: scheduler)
            after.apply(write)
            return write
        }
        let before = model.everySkill
        for index in learned.indices {
            let base = before.first { $0.skill == learned[index].skill } ?? SkillAbility(skill: learned[index].skill)
            learned[index].ability = .init(
                skill: base.skill, theta: base.theta + learned[index].abilityChange, responses: base.responses + 1)
            if index < learned.count - 1 { learned[index].snapshots = [] }
        }
        return learned
    }
}

/// A word of a game as the practice model knows it: its difficulty before
/// anyone answered it, and as answers have moved it since (nil: none yet).
/// A word the lessons' catalogue does not have teaches nothing.
public struct GameWord: Sendable, Equatable {
    public var initialDifficulty: Double
    public var learned: ItemDifficulty?

    public init(initialDifficulty: Double, learned: ItemDifficulty? = nil) {
        (self.initialDifficulty, self.learned) = (initialDifficulty, learned)
    }
}

import Foundation
import ParlaCore
import ParlaLearning

/// What spelling teaches the learning model, as `MatchingLearning` is for
/// card matching. A word spelled is an answer about its word (the memory
/// lessons and card games review, `MatchingLearning.itemID`): right when
/// no tile was put in a wrong place, wrong otherwise; its time is from
/// its first placement to its last. Spelling a word is knowing its written
/// form: vocabulary.
public enum SpellingLearning {
    public static let skill = Skill.vocabulary

    /// Whether a placement may teach: only the one that spells its word
    /// (the others need not read the learner's model).
    public static func mayTeach(_ outcome: PlacementOutcome) -> Bool {
        if case .placed(_, spelled: true) = outcome { true } else { false }
    }

    /// What one live placement teaches: only the one that spells its word.
    public static func learning(
        from outcome: PlacementOutcome, in game: SpellingGame, words: [String: GameWord], model: LearnerModel, at now: Date,
        scheduler: MemoryScheduler
    ) -> [AnswerLearning] {
        guard case .placed(let index, spelled: true) = outcome, let (answer, word) = answer(index, in: game, words: words) else {
            return []
        }
        return [AnswerLearning.learning(from: answer, model: model, item: word.learned, at: now, scheduler: scheduler)]
    }

    /// What a whole log played offline teaches (`SpellingGame.replay`):
    /// each word as in a live game, in the order spelled.
    public static func learning(
        fromReplayed game: SpellingGame, words: [String: GameWord], model: LearnerModel, at now: Date, scheduler: MemoryScheduler
    ) -> [AnswerLearning] {
        let answers = game.words.indices.compactMap { answer($0, in: game, words: words) }
        return GameLearning.replayed(answers, model: model, at: now, scheduler: scheduler)
    }

    static func answer(_ index: Int, in game: SpellingGame, words: [String: GameWord]) -> (PracticeAnswer, GameWord)? {
        let spelled = game.words[index]
        guard spelled.isSpelled, let word = words[spelled.concept] else { return nil }
        let span = game.spans.indices.contains(index) ? game.spans[index] : nil
        let letters = spelled.targets.filter { $0.letter != nil }.count
        let answer = PracticeAnswer(
            itemID: MatchingLearning.itemID(spelled.concept), skill: skill, correct: spelled.mistakes == 0,
            responseTime: span.map { $0.upperBound - $0.lowerBound }, timeLimit: SpellingGame.secondsPerLetter * Double(letters),
            optionCount: 0, initialDifficulty: word.initialDifficulty)
        return (answer, word)
    }
}

import Foundation
import ParlaCore

/// An item as the practice model has learned it from first tries: its
/// difficulty and how many answers moved it (the Elo step shrinks with them).
public struct ItemDifficulty: Sendable, Equatable {
    public var difficulty: Double
    public var responses: Int

    public init(difficulty: Double, responses: Int) { (self.difficulty, self.responses) = (difficulty, responses) }
}

/// What the model knows of a learner in a language when an answer comes:
/// the abilities measured so far, the memory of each item met, and the
/// course's level (where a learner with no measure starts).
public struct LearnerModel: Sendable, Equatable {
    public var abilities: [SkillAbility]
    /// By item id (`LessonItemID`'s text).
    public var cards: [String: MemoryCard]
    public var courseLevel: CEFRLevel?

    public init(abilities: [SkillAbility] = [], cards: [String: MemoryCard] = [:], courseLevel: CEFRLevel? = nil) {
        (self.abilities, self.cards, self.courseLevel) = (abilities, cards, courseLevel)
    }

    /// Every skill's ability, the unmeasured ones at the prior (`SkillAbility.everySkill`).
    public var everySkill: [SkillAbility] { SkillAbility.everySkill(abilities, courseLevel: courseLevel) }

    /// The model after `learned`: its skill's new ability and, when the
    /// answer reviewed it, the item's new memory.
    public mutating func apply(_ learned: AnswerLearning) {
        abilities.removeAll { $0.skill == learned.skill }
        abilities.append(learned.ability)
        if let card = learned.card { cards[learned.itemID] = card }
    }
}

/// One answer about an item, as lessons and games both give it.
public struct PracticeAnswer: Sendable, Equatable {
    public var itemID: String
    public var skill: Skill
    public var correct: Bool
    /// Seconds; nil when unknown (no speed credit).
    public var responseTime: Double?
    /// The answer's time limit: the speed factor's scale, and a third of it
    /// is the expected time that grades memory (fast is Easy, slow Hard).
    public var timeLimit: Double
    /// Options shown; 0 for a free answer (no guessing floor).
    public var optionCount: Int
    /// The item's difficulty before anyone answered it.
    public var initialDifficulty: Double
    /// How much the answer counts: 1 for an ordinary answer, less for weak
    /// evidence (a mismatch in a game counts half).
    public var weight: Double
    /// Whether the answer is a real recall that reviews the item's memory.
    public var remember: Bool
    /// Wrong at the first try, then answered right: the item is resolved
    /// and the learner's bar does not drop for it (T4.6), while the item's
    /// difficulty and memory still take the first try's evidence.
    public var foundAtLast: Bool

    public init(
        itemID: String, skill: Skill, correct: Bool, responseTime: Double?, timeLimit: Double, optionCount: Int,
        initialDifficulty: Double, weight: Double = 1, remember: Bool = true, foundAtLast: Bool = false
    ) {
        (self.itemID, self.skill, self.correct, self.responseTime, self.timeLimit) = (itemID, skill, correct, responseTime, timeLimit)
        (self.optionCount, self.initialDifficulty, self.weight, self.remember) = (optionCount, initialDifficulty, weight, remember)
        self.foundAtLast = foundAtLast
    }
}

/// What one answer teaches the model: written as it is, in one statement.
/// Changes are relative (the ability and the item's difficulty move by
/// them from whatever is stored when the write lands: learners answering
/// one item at once each add theirs); the absolute values are what a
/// learner with nothing stored starts from.
public struct AnswerLearning: Sendable, Equatable {
    public var itemID: String
    public var skill: Skill
    /// The item's memory after the review; nil leaves it as it is.
    public var card: MemoryCard?
    /// The review forgot a card that was in review.
    public var lapse: Bool
    /// The skill's ability after the answer.
    public var ability: SkillAbility
    public var abilityChange: Double
    /// Today's history rows the answer moves: its skill's and the overall one.
    public var snapshots: [ProficiencySnapshot]
    public var initialDifficulty: Double
    public var difficultyChange: Double

    public init(
        itemID: String, skill: Skill, card: MemoryCard?, lapse: Bool, ability: SkillAbility, abilityChange: Double,
        snapshots: [ProficiencySnapshot], initialDifficulty: Double, difficultyChange: Double
    ) {
        (self.itemID, self.skill, self.card, self.lapse, self.ability, self.abilityChange) = (
            itemID, skill, card, lapse, ability, abilityChange
        )
        (self.snapshots, self.initialDifficulty, self.difficultyChange) = (snapshots, initialDifficulty, difficultyChange)
    }

    /// The one rule of what an answer teaches, for lessons and games alike:
    /// the ability of the answer's skill and the item's difficulty move by
    /// the practice model (`AbilityModel.update`, scaled by the answer's
    /// weight); with `remember`, the memory of the item is reviewed (FSRS,
    /// graded by correctness and by speed against a third of the time
    /// limit); today's history takes the skill's and the overall value. An
    /// item found at last never lowers the ability: a right answer never
    /// lowers the bar (T4.6).
    public static func learning(
        from answer: PracticeAnswer, model: LearnerModel, item learned: ItemDifficulty?, at now: Date,
        scheduler: MemoryScheduler
    ) -> AnswerLearning {
        let abilities = model.everySkill
        let ability = abilities.first { $0.skill == answer.skill } ?? SkillAbility(skill: answer.skill)
        let practice = PracticeItem(
            id: answer.itemID, difficulty: learned?.difficulty ?? answer.initialDifficulty,
            responses: learned?.responses ?? 0, timeLimitSeconds: answer.timeLimit, optionCount: answer.optionCount)
        let update = AbilityModel.update(ability, item: practice, correct: answer.correct, responseTime: answer.responseTime)
        let abilityChange = answer.foundAtLast ? max(0, update.abilityChange * answer.weight) : update.abilityChange * answer.weight
        let after = SkillAbility(skill: answer.skill, theta: ability.theta + abilityChange, responses: ability.responses + 1)
        let previous = model.cards[answer.itemID]
        let rating = Rating.grade(correct: answer.correct, responseTime: answer.responseTime ?? .nan, expectedTime: answer.timeLimit / 3)
        let card = scheduler.review(previous ?? MemoryCard(due: now), rating: rating, at: now)
        // The other skills did not move: today's value of this skill and of the whole.
        let snapshots = ProficiencyReport(abilities: abilities.filter { $0.skill != answer.skill } + [after])
            .snapshots(on: now).filter { $0.skill == nil || $0.skill == answer.skill }
        return AnswerLearning(
            itemID: answer.itemID, skill: answer.skill, card: answer.remember ? card : nil,
            lapse: answer.remember && previous?.phase == .review && rating == .again, ability: after, abilityChange: abilityChange,
            snapshots: snapshots, initialDifficulty: answer.initialDifficulty, difficultyChange: update.difficultyChange * answer.weight)
    }
}

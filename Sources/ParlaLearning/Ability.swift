import Foundation
import ParlaCore

/// A learner's ability in one skill of one language, on the logit scale shared with item difficulties.
///
/// The caller keys it by learner and language; 0 is the middle of B1 on the standard cut scores.
public struct SkillAbility: Codable, Sendable, Hashable {
    public var skill: Skill
    public var theta: Double
    /// Answers recorded so far in this skill; sets the Elo step K(n).
    public var responses: Int

    public init(skill: Skill, theta: Double = 0, responses: Int = 0) {
        self.skill = skill
        self.theta = theta
        self.responses = responses
    }

    /// Every skill's ability, in `Skill.allCases` order: a measured skill as
    /// it is; any other at the prior, the mean of the skills with answers
    /// (or of those measured, when none has any), or for a learner with no
    /// measure at all the centre of the course's level (A1 when unknown).
    /// Lessons choose by it and the proficiency view shows it, so a skill
    /// never vanishes for want of answers.
    public static func everySkill(
        _ measured: [SkillAbility], courseLevel: CEFRLevel?,
        cuts: CEFRCutScores = .standard
    ) -> [SkillAbility] {
        let answered = measured.filter { $0.responses > 0 }
        let prior =
            if !answered.isEmpty {
                answered.map(\.theta).reduce(0, +) / Double(answered.count)
            } else {
                measured.first?.theta ?? cuts.centre(of: courseLevel ?? .a1)
            }
        return Skill.allCases.map { skill in measured.first { $0.skill == skill } ?? SkillAbility(skill: skill, theta: prior) }
    }

    /// This ability after one answer to `item`, and the item after it (see `AbilityModel.update`).
    public func recording(correct: Bool, responseTime: Double?, on item: PracticeItem) -> AbilityUpdate {
        AbilityModel.update(self, item: item, correct: correct, responseTime: responseTime)
    }
}

/// An item as the practice model sees it: an online difficulty and what shapes the expected success.
public struct PracticeItem: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var difficulty: Double
    /// Answers the difficulty has been updated with; damps later updates.
    public var responses: Int
    /// `nil` when the item is not timed (no speed evidence).
    public var timeLimitSeconds: Double?
    /// Choices offered; 2 or more gives a guessing floor of 1/k, 0 means an open answer.
    public var optionCount: Int

    public init(id: String, difficulty: Double, responses: Int = 0, timeLimitSeconds: Double? = nil, optionCount: Int = 0) {
        self.id = id
        self.difficulty = difficulty
        self.responses = responses
        self.timeLimitSeconds = timeLimitSeconds
        self.optionCount = optionCount
    }

    /// A new item, its difficulty set by `AbilityModel.initialDifficulty`.
    public init(
        id: String, level: CEFRLevel, frequencyRank: Int? = nil, timeLimitSeconds: Double? = nil, optionCount: Int = 0,
        cuts: CEFRCutScores = .standard
    ) {
        self.init(
            id: id, difficulty: AbilityModel.initialDifficulty(level: level, frequencyRank: frequencyRank, cuts: cuts),
            timeLimitSeconds: timeLimitSeconds, optionCount: optionCount
        )
    }
}

/// The result of one answer: new ability, new item difficulty, and what the model expected.
public struct AbilityUpdate: Codable, Sendable, Hashable {
    public var ability: SkillAbility
    public var item: PracticeItem
    /// P(correct) before the answer.
    public var expectedSuccess: Double
    /// d = K(n)(x - P)(1 + l(1 - t/d_i)); never negative for a right answer, never positive for a wrong one.
    public var abilityChange: Double
    /// Opposite in sign to the ability change, damped.
    public var difficultyChange: Double
}

/// The Elo-style practice model (DESIGN.md, "Learning model: chosen formulas").
///
/// `d = K(n)(x - P)(1 + l(1 - t/d_i))` with `P = g + (1 - g) logistic(theta - b)`, `g = 1/k` for a
/// k-option choice, `K(n) = max(0.05, 1/(1 + 0.05 n))`, `l = 1`, and `t/d_i` clamped to [0, 1]. The speed
/// factor therefore lies in [1, 2] and never changes the sign set by `x - P`: a right answer
/// (`x - P >= 0`) never lowers ability, a wrong one (`x - P = -P <= 0`) never raises it. A fast answer
/// counts up to twice as much either way, as in the SRT score: a quick right answer shows fluency,
/// a quick wrong one a guess or a misconception.
public enum AbilityModel {
    /// l, the weight of speed.
    public static let speedWeight = 1.0

    /// K(n) = max(0.05, 1 / (1 + 0.05 n)): large steps while little is known, never frozen.
    public static func learnerStep(responses: Int) -> Double {
        max(0.05, 1 / (1 + 0.05 * Double(max(responses, 0))))
    }

    /// Half the learner's step, with a lower floor: an item's difficulty is shared by every learner and
    /// settles from many answers, so one answer moves it less, but it keeps tracking slowly.
    public static func itemStep(responses: Int) -> Double {
        max(0.02, 0.5 / (1 + 0.05 * Double(max(responses, 0))))
    }

    /// 1/k for a k-option choice (k >= 2); 0 for open answers.
    public static func guessingFloor(optionCount: Int) -> Double {
        optionCount >= 2 ? 1 / Double(optionCount) : 0
    }

    /// P = g + (1 - g) logistic(theta - b).
    public static func successProbability(theta: Double, difficulty: Double, optionCount: Int) -> Double {
        ItemResponse.probability(theta: theta, difficulty: difficulty, guessing: guessingFloor(optionCount: optionCount))
    }

    /// 1 + l(1 - t/d), with t/d clamped to [0, 1], so within [1, 1 + l]. No time or no limit gives 1.
    public static func speedFactor(responseTime: Double?, timeLimit: Double?) -> Double {
        guard let responseTime, let timeLimit, timeLimit > 0, timeLimit.isFinite, !responseTime.isNaN else { return 1 }
        let fraction = min(max(responseTime / timeLimit, 0), 1)
        return 1 + speedWeight * (1 - fraction)
    }

    /// The ability and item after one answer.
    ///
    /// The item moves by `-K_item(m)(x - P)`, without the speed factor: difficulty is about whether an
    /// item is answered, and a learner's speed says more about the learner than about the item.
    public static func update(_ ability: SkillAbility, item: PracticeItem, correct: Bool, responseTime: Double?) -> AbilityUpdate {
        let p = successProbability(theta: ability.theta, difficulty: item.difficulty, optionCount: item.optionCount)
        let residual = (correct ? 1 : 0) - p
        let abilityChange =
            learnerStep(responses: ability.responses) * residual
            * speedFactor(responseTime: responseTime, timeLimit: item.timeLimitSeconds)
        let difficultyChange = -itemStep(responses: item.responses) * residual
        var newAbility = ability
        newAbility.theta += abilityChange
        newAbility.responses += 1
        var newItem = item
        newItem.difficulty += difficultyChange
        newItem.responses += 1
        return AbilityUpdate(
            ability: newAbility, item: newItem, expectedSuccess: p, abilityChange: abilityChange, difficultyChange: difficultyChange
        )
    }

    /// The starting difficulty of an item from its CEFR level and, for words, its frequency rank.
    ///
    /// `b = centre(level) + clamp(0.5 log2(rank / typicalRank(level)), -0.45, 0.45)`, where the typical rank
    /// doubles per level (A1 350, A2 700, B1 1400, B2 2800, C1 5600, C2 11200, roughly where graded word
    /// lists place each level's vocabulary). A word twice as frequent as usual for its level starts half a
    /// logit easier; the cap keeps it inside its level's band, because the level label is the stronger
    /// evidence. Without a rank, the level centre.
    public static func initialDifficulty(level: CEFRLevel, frequencyRank: Int? = nil, cuts: CEFRCutScores = .standard) -> Double {
        let centre = cuts.centre(of: level)
        guard let frequencyRank, frequencyRank > 0 else { return centre }
        let typicalRank = 350 * pow(2, Double(CEFRCutScores.index(of: level)))
        let shift = 0.5 * log2(Double(frequencyRank) / typicalRank)
        return centre + min(max(shift, -0.45), 0.45)
    }
}

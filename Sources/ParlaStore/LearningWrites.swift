import Foundation
import Logging
import ParlaCore
import PostgresNIO

/// What one answer outside a lesson (a game's pair) teaches the model: the
/// learner's memory of the item (when the answer is a real recall), the
/// ability of its skill, moved relative to the stored value, today's
/// history, and the item's shared difficulty. Lessons write the same in one
/// statement on their hot path (`LessonStore`).
public struct LearningWrite: Sendable {
    public var itemID: String
    /// Nil leaves the memory as it is (a weak answer).
    public var card: LessonStore.Card?
    public var lapse: Bool
    public var skill: Skill
    /// The ability after the answer, for a learner with no stored value.
    public var ability: AbilityStore.Ability
    public var abilityChange: Double
    public var snapshots: [AbilityStore.Snapshot]
    public var initialDifficulty: Double
    public var difficultyChange: Double

    public init(itemID: String, card: LessonStore.Card?, lapse: Bool, skill: Skill, ability: AbilityStore.Ability, abilityChange: Double,
                snapshots: [AbilityStore.Snapshot], initialDifficulty: Double, difficultyChange: Double) {
        (self.itemID, self.card, self.lapse, self.skill, self.ability, self.abilityChange) = (itemID, card, lapse, skill, ability, abilityChange)
        (self.snapshots, self.initialDifficulty, self.difficultyChange) = (snapshots, initialDifficulty, difficultyChange)
    }

    /// Writes on `connection`, inside the caller's transaction.
    func write(learner: LearnerID, language: Language, on connection: PostgresConnection, logger: Logger) async throws {
        if let card {
            try await connection.query("""
                INSERT INTO memory_cards (learner_id, language, item_id, phase, step, stability, difficulty, due, last_review, reviews, lapses)
                VALUES (\(learner.uuid), \(language.code), \(itemID), \(Int16(card.phase)), \(card.step), \(card.stability), \(card.difficulty),
                        \(card.due), \(card.lastReview), 1, \(lapse ? 1 : 0))
                ON CONFLICT (learner_id, language, item_id) DO UPDATE SET phase = EXCLUDED.phase, step = EXCLUDED.step,
                    stability = EXCLUDED.stability, difficulty = EXCLUDED.difficulty, due = EXCLUDED.due,
                    last_review = EXCLUDED.last_review, reviews = memory_cards.reviews + 1, lapses = memory_cards.lapses + EXCLUDED.lapses
                """, logger: logger)
        }
        try await connection.query("""
            INSERT INTO practice_items (language, item_id, difficulty, responses)
            VALUES (\(language.code), \(itemID), \(initialDifficulty + difficultyChange), 1)
            ON CONFLICT (language, item_id) DO UPDATE SET difficulty = practice_items.difficulty + \(difficultyChange),
                responses = practice_items.responses + 1
            """, logger: logger)
        try await connection.query("""
            INSERT INTO abilities (learner_id, language, skill, theta, responses)
            VALUES (\(learner.uuid), \(language.code), \(skill.rawValue), \(ability.theta), \(ability.responses))
            ON CONFLICT (learner_id, language, skill) DO UPDATE SET theta = abilities.theta + \(abilityChange),
                responses = abilities.responses + 1, updated_at = now()
            """, logger: logger)
        try await AbilityStore.write([], snapshots, learner: learner, language: language, on: connection, logger: logger)
    }
}

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

    /// Writes on `connection`, inside the caller's transaction: one
    /// statement. A game's writes go in item order, so that two games
    /// sharing items take their difficulty rows in one order and never
    /// wait on each other in a circle.
    func write(learner: LearnerID, language: Language, on connection: PostgresConnection, logger: Logger) async throws {
        // Today's values, one day for all (as `LessonStore` writes them).
        let day = snapshots.first?.day ?? Date()
        let history = snapshots.map { ["skill": $0.skill?.rawValue ?? "overall", "theta": $0.theta, "level": $0.level.rawValue] as [String: any Sendable] }
        let historyJSON = String(decoding: try JSONSerialization.data(withJSONObject: history), as: UTF8.self)
        try await connection.query("""
            WITH card AS (
                INSERT INTO memory_cards (learner_id, language, item_id, phase, step, stability, difficulty, due, last_review, reviews, lapses)
                SELECT \(learner.uuid), \(language.code), \(itemID), \(card.map { Int16($0.phase) }), \(card?.step), \(card?.stability),
                       \(card?.difficulty), \(card?.due), \(card?.lastReview), 1, \(lapse ? 1 : 0)
                WHERE \(card != nil)
                ON CONFLICT (learner_id, language, item_id) DO UPDATE SET phase = EXCLUDED.phase, step = EXCLUDED.step,
                    stability = EXCLUDED.stability, difficulty = EXCLUDED.difficulty, due = EXCLUDED.due,
                    last_review = EXCLUDED.last_review, reviews = memory_cards.reviews + 1, lapses = memory_cards.lapses + EXCLUDED.lapses
                RETURNING 1),
            practice AS (
                INSERT INTO practice_items (language, item_id, difficulty, responses)
                VALUES (\(language.code), \(itemID), \(initialDifficulty + difficultyChange), 1)
                ON CONFLICT (language, item_id) DO UPDATE SET difficulty = practice_items.difficulty + \(difficultyChange),
                    responses = practice_items.responses + 1
                RETURNING 1),
            ability AS (
                INSERT INTO abilities (learner_id, language, skill, theta, responses)
                VALUES (\(learner.uuid), \(language.code), \(skill.rawValue), \(ability.theta), \(ability.responses))
                ON CONFLICT (learner_id, language, skill) DO UPDATE SET theta = abilities.theta + \(abilityChange),
                    responses = abilities.responses + 1, updated_at = now()
                RETURNING 1)
            INSERT INTO ability_history (learner_id, language, skill, day, theta, level)
            SELECT \(learner.uuid), \(language.code), h.skill, \(day)::date, h.theta, h.level
            FROM jsonb_to_recordset(\(historyJSON)::jsonb) AS h (skill text, theta double precision, level text)
            ON CONFLICT (learner_id, language, skill, day) DO UPDATE SET theta = EXCLUDED.theta, level = EXCLUDED.level
            """, logger: logger)
    }
}

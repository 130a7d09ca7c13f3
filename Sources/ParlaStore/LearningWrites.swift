import Foundation
import Logging
import ParlaCore
import ParlaLearning
import PostgresNIO

/// The rows one answer's learning (`AnswerLearning`) writes, written once
/// for lessons and games: the learner's memory of the item (when the
/// answer reviewed it), the item's shared difficulty and the skill's
/// ability (both moved relative to the stored values: learners answering
/// one item at once each add their change), and today's history.
///
/// They are common table expressions, written only when the `gate` table
/// has a row: a lesson's gate is its own update (nothing is written when
/// another answer came first), a game's is a constant row.
enum LearningRows {
    static func expressions(_ learning: AnswerLearning, learner: LearnerID, language: Language, gate: String) -> SQL {
        let card = learning.card
        let day = learning.snapshots.first?.day ?? Date()
        let history = learning.snapshots.map { snapshot -> [String: any Sendable] in
            ["skill": snapshot.skill?.rawValue ?? "overall", "theta": snapshot.theta, "level": snapshot.level.rawValue]
        }
        let historyJSON = String(decoding: (try? JSONSerialization.data(withJSONObject: history)) ?? Data("[]".utf8), as: UTF8.self)
        return """
            card AS (
                INSERT INTO memory_cards (learner_id, language, item_id, phase, step, stability, difficulty, due, last_review, reviews, lapses)
                SELECT \(learner.uuid), \(language.code), \(learning.itemID), \(card.map { Int16($0.phase.rawValue) })::smallint,
                       \(card?.step)::integer, \(card?.stability)::float8, \(card?.difficulty)::float8, \(card?.due)::timestamptz,
                       \(card?.lastReview)::timestamptz, 1, \(learning.lapse ? 1 : 0)
                FROM \(unescaped: gate) WHERE \(card != nil)
                ON CONFLICT (learner_id, language, item_id) DO UPDATE SET phase = EXCLUDED.phase, step = EXCLUDED.step,
                    stability = EXCLUDED.stability, difficulty = EXCLUDED.difficulty, due = EXCLUDED.due,
                    last_review = EXCLUDED.last_review, reviews = memory_cards.reviews + 1, lapses = memory_cards.lapses + EXCLUDED.lapses
                RETURNING 1
            ), item AS (
                INSERT INTO practice_items (language, item_id, difficulty, responses)
                SELECT \(language.code), \(learning.itemID), \(learning.initialDifficulty + learning.difficultyChange), 1 FROM \(unescaped: gate)
                ON CONFLICT (language, item_id) DO UPDATE SET difficulty = practice_items.difficulty + \(learning.difficultyChange),
                    responses = practice_items.responses + 1
                RETURNING 1
            ), ability AS (
                INSERT INTO abilities (learner_id, language, skill, theta, responses)
                SELECT \(learner.uuid), \(language.code), \(learning.skill.rawValue), \(learning.ability.theta), \(learning.ability.responses)
                FROM \(unescaped: gate)
                ON CONFLICT (learner_id, language, skill) DO UPDATE SET theta = abilities.theta + \(learning.abilityChange),
                    responses = abilities.responses + 1, updated_at = now()
                RETURNING 1
            ), history AS (
                INSERT INTO ability_history (learner_id, language, skill, day, theta, level)
                SELECT \(learner.uuid), \(language.code), h.skill, \(day)::date, h.theta, h.level
                FROM \(unescaped: gate), jsonb_to_recordset(\(historyJSON)::jsonb) AS h (skill text, theta double precision, level text)
                ON CONFLICT (learner_id, language, skill, day) DO UPDATE SET theta = EXCLUDED.theta, level = EXCLUDED.level
                RETURNING 1
            )
            """
    }

    /// One answer's rows on their own (a game's pair), inside the caller's
    /// transaction: one statement.
    static func write(
        _ learning: AnswerLearning, learner: LearnerID, language: Language, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        let statement: SQL = """
            WITH gate AS (SELECT), \(expressions(learning, learner: learner, language: language, gate: "gate"))
            SELECT 1
            """
        try await connection.query(statement.query, logger: logger)
    }
}

/// A learner's model as read, with how many reviews each card had then: a
/// write computed from it lands only if the card has had no other review
/// since (a lesson and a game at the same moment).
struct ModelRead: Sendable {
    var model: LearnerModel
    var reviews: [String: Int]

    static func read(learner: LearnerID, language: Language, on connection: PostgresConnection, logger: Logger) async throws -> ModelRead {
        let abilities = try await connection.query(
            """
            SELECT skill, theta, responses FROM abilities WHERE learner_id = \(learner.uuid) AND language = \(language.code)
            """, logger: logger
        ).collect().compactMap { row -> SkillAbility? in
            let (skill, theta, responses) = try row.decode((String, Double, Int).self)
            return Skill(rawValue: skill).map { SkillAbility(skill: $0, theta: theta, responses: responses) }
        }
        var read = ModelRead(model: LearnerModel(abilities: abilities), reviews: [:])
        for row in try await connection.query(
            """
            SELECT item_id, phase, step, stability, difficulty, due, last_review, reviews FROM memory_cards
            WHERE learner_id = \(learner.uuid) AND language = \(language.code)
            """, logger: logger
        ).collect() {
            let (item, phase, step, stability, difficulty, due, lastReview, reviews) =
                try row.decode((String, Int16, Int?, Double?, Double?, Date, Date?, Int).self)
            read.model.cards[item] = MemoryCard(
                phase: MemoryPhase(rawValue: Int(phase)) ?? .learning, step: step, stability: stability,
                difficulty: difficulty, due: due, lastReview: lastReview)
            read.reviews[item] = reviews
        }
        read.model.courseLevel = try await connection.query(
            """
            SELECT level FROM courses WHERE learner_id = \(learner.uuid) AND language = \(language.code)
            """, logger: logger
        ).collect().first.flatMap { try $0.decode(String?.self) }.flatMap(CEFRLevel.init(rawValue:))
        return read
    }

    /// The model after `learning` was written.
    mutating func apply(_ learning: AnswerLearning) {
        model.apply(learning)
        if learning.card != nil { reviews[learning.itemID, default: 0] += 1 }
    }
}

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
        // Read to the end: a statement that returns rows reports what went
        // wrong as it executes (a deadlock) in its rows, and an unread
        // error would leave the transaction aborted with no one the wiser.
        _ = try await connection.query(statement.query, logger: logger).collect()
    }
}

/// A learner's model as read, with how many reviews each card had then: a
/// write computed from it lands only if the card has had no other review
/// since (a lesson and a game at the same moment).
struct ModelRead: Sendable {
    var model: LearnerModel
    var reviews: [String: Int]

    /// One query's worth: the model of `learner` in `language`.
    static func read(learner: LearnerID, language: Language, on connection: PostgresConnection, logger: Logger) async throws -> ModelRead {
        let row = try await connection.query(
            """
            SELECT \(unescaped: columns(learner: "m.learner_id", language: "m.language"))
            FROM (SELECT \(learner.uuid)::uuid AS learner_id, \(language.code)::text AS language) m
            """, logger: logger
        ).collect()[0]
        let (abilities, cards, level) = try row.decode((String, String, String?).self)
        return decode(abilities: abilities, cards: cards, courseLevel: level.flatMap(CEFRLevel.init(rawValue:)))
    }

    /// Three columns holding a model, selected beside a row that names its
    /// learner and language (SQL expressions): abilities as JSON [skill,
    /// theta, responses], cards as JSON [item, phase, step, stability,
    /// difficulty, due, last review, reviews] (times in epoch seconds), and
    /// the course's level. Read with `decode`.
    static func columns(learner: String, language: String) -> String {
        """
        (SELECT coalesce(json_agg(json_build_array(a.skill, a.theta, a.responses)), '[]')::text
           FROM abilities a WHERE a.learner_id = \(learner) AND a.language = \(language)),
        (SELECT coalesce(json_agg(json_build_array(c.item_id, c.phase, c.step, c.stability, c.difficulty,
                                                   extract(epoch FROM c.due), extract(epoch FROM c.last_review),
                                                   c.reviews)), '[]')::text
           FROM memory_cards c WHERE c.learner_id = \(learner) AND c.language = \(language)),
        (SELECT level FROM courses k WHERE k.learner_id = \(learner) AND k.language = \(language))
        """
    }

    /// The model from the three `columns`.
    static func decode(abilities: String, cards: String, courseLevel: CEFRLevel?) -> ModelRead {
        var read = ModelRead(model: LearnerModel(courseLevel: courseLevel), reviews: [:])
        for row in (try? JSONSerialization.jsonObject(with: Data(abilities.utf8))) as? [[Any]] ?? [] {
            guard row.count == 3, let skill = (row[0] as? String).flatMap(Skill.init(rawValue:)),
                let theta = (row[1] as? NSNumber)?.doubleValue,
                let responses = (row[2] as? NSNumber)?.intValue
            else { continue }
            read.model.abilities.append(SkillAbility(skill: skill, theta: theta, responses: responses))
        }
        for row in (try? JSONSerialization.jsonObject(with: Data(cards.utf8))) as? [[Any]] ?? [] where row.count == 8 {
            guard let item = row[0] as? String, let phase = (row[1] as? NSNumber).flatMap({ MemoryPhase(rawValue: $0.intValue) }),
                let due = (row[5] as? NSNumber)?.doubleValue
            else { continue }
            read.model.cards[item] = MemoryCard(
                phase: phase, step: (row[2] as? NSNumber)?.intValue, stability: (row[3] as? NSNumber)?.doubleValue,
                difficulty: (row[4] as? NSNumber)?.doubleValue, due: Date(timeIntervalSince1970: due),
                lastReview: (row[6] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) })
            read.reviews[item] = (row[7] as? NSNumber)?.intValue ?? 0
        }
        return read
    }

    /// The model after `learning` was written.
    mutating func apply(_ learning: AnswerLearning) {
        model.apply(learning)
        if learning.card != nil { reviews[learning.itemID, default: 0] += 1 }
    }
}

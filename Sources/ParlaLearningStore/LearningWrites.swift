import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import ParlaLearning
import PostgresNIO

/// The rows answers' learning (`AnswerLearning`) writes, written once for
/// lessons and games: the learner's memory of each item (when the answer
/// reviewed it), the item's shared difficulty and the skill's ability (both
/// moved relative to the stored values: learners answering one item at once
/// each add their change), and today's history.
///
/// They are common table expressions, written only when the `gate` table
/// has a row: a lesson's gate is its own update (nothing is written when
/// another answer came first), a game's is a constant row.
///
/// Design note: a game's pairs go in one statement, not one per pair. The
/// triggers on abilities and ability_history announce per statement
/// (migration 0049), so eight statements cost eight rounds of them, and
/// eight round trips. One `INSERT ... ON CONFLICT` may not touch a row
/// twice, so the answers are summed per key first (`AnswerSums`), to what one
/// statement per answer, in the order given, would have left.
package enum LearningRows {
    static func expressions(_ learning: [AnswerLearning], learner: LearnerID, language: Language, gate: String) throws -> SQL {
        let rows = AnswerSums(learning)
        let (cards, items, abilities, history) = (
            try json(rows.cards), try json(rows.items), try json(rows.abilities), try json(rows.history)
        )
        return """
            learned_cards AS (
                SELECT * FROM jsonb_to_recordset(\(cards)::jsonb) AS c (
                    item text, phase smallint, step integer, stability float8, difficulty float8, due float8, last_review float8,
                    reviews integer, lapses integer)
            ), card AS (
                INSERT INTO memory_cards (learner_id, language, item_id, phase, step, stability, difficulty, due, last_review, reviews, lapses)
                SELECT \(learner.uuid), \(language.code), c.item, c.phase, c.step, c.stability, c.difficulty, to_timestamp(c.due),
                       to_timestamp(c.last_review), c.reviews, c.lapses
                FROM \(unescaped: gate), learned_cards c
                ON CONFLICT (learner_id, language, item_id) DO UPDATE SET phase = EXCLUDED.phase, step = EXCLUDED.step,
                    stability = EXCLUDED.stability, difficulty = EXCLUDED.difficulty, due = EXCLUDED.due,
                    last_review = EXCLUDED.last_review, reviews = memory_cards.reviews + EXCLUDED.reviews,
                    lapses = memory_cards.lapses + EXCLUDED.lapses
                RETURNING 1
            ), learned_items AS (
                SELECT * FROM jsonb_to_recordset(\(items)::jsonb) AS i (item text, difficulty float8, change float8, responses integer)
            ), item AS (
                INSERT INTO practice_items (language, item_id, difficulty, responses)
                SELECT \(language.code), i.item, i.difficulty, i.responses FROM \(unescaped: gate), learned_items i
                ON CONFLICT (language, item_id) DO UPDATE
                    SET difficulty = practice_items.difficulty + (SELECT i.change FROM learned_items i WHERE i.item = EXCLUDED.item_id),
                        responses = practice_items.responses + EXCLUDED.responses
                RETURNING 1
            ), learned_abilities AS (
                SELECT * FROM jsonb_to_recordset(\(abilities)::jsonb) AS a (
                    skill text, theta float8, responses integer, change float8, answers integer)
            ), ability AS (
                INSERT INTO abilities (learner_id, language, skill, theta, responses)
                SELECT \(learner.uuid), \(language.code), a.skill, a.theta, a.responses FROM \(unescaped: gate), learned_abilities a
                ON CONFLICT (learner_id, language, skill) DO UPDATE
                    SET theta = abilities.theta + (SELECT a.change FROM learned_abilities a WHERE a.skill = EXCLUDED.skill),
                        responses = abilities.responses + (SELECT a.answers FROM learned_abilities a WHERE a.skill = EXCLUDED.skill),
                        updated_at = now()
                RETURNING skill, responses
            ), history AS (
                INSERT INTO ability_history (learner_id, language, skill, day, theta, level)
                SELECT \(learner.uuid), \(language.code), h.skill, to_timestamp(h.day)::date, h.theta, h.level
                FROM \(unescaped: gate), jsonb_to_recordset(\(history)::jsonb) AS h (skill text, day float8, theta float8, level text)
                ON CONFLICT (learner_id, language, skill, day) DO UPDATE SET theta = EXCLUDED.theta, level = EXCLUDED.level
                RETURNING skill, day, level
            )
            """
    }

    /// What the triggers of migration 0049 announce for the rows of
    /// `expressions` and an answer added to `lesson_answers`, as two columns
    /// of the statement's own result: `announced_account` (the learner's
    /// account, when a skill started or today's overall level is new or
    /// moved) and `announced_classes` (every class the learner is in).
    ///
    /// Design note: a statement outside a transaction cannot read what its
    /// triggers announced (they run after its result is made, and the
    /// setting they leave ends with it), and a transaction costs 3 more
    /// round trips. The statement's snapshot still holds the rows as they
    /// were before it, so comparing them with what it wrote says what the
    /// triggers' `WHEN` conditions say. A concurrent write of the same row
    /// can only make this say more (a kept answer dropped once more) or, for
    /// a level this answer sets back to what the snapshot held, less, which
    /// the notification then brings a moment later. KeptTests compares the
    /// two, answer by answer.
    static func announced(learner: LearnerID, language: Language) -> SQL {
        """
        (SELECT l.account_id::text FROM learners l WHERE l.id = \(learner.uuid) AND (
            EXISTS (SELECT FROM ability a WHERE a.responses > 0 AND NOT EXISTS (
                SELECT FROM abilities s WHERE s.learner_id = \(learner.uuid) AND s.language = \(language.code)
                  AND s.skill = a.skill AND s.responses > 0))
            OR EXISTS (SELECT FROM history h WHERE h.skill = 'overall' AND NOT EXISTS (
                SELECT FROM ability_history s WHERE s.learner_id = \(learner.uuid) AND s.language = \(language.code)
                  AND s.skill = 'overall' AND s.day = h.day AND s.level IS NOT DISTINCT FROM h.level)))
        ) AS announced_account,
        ARRAY(SELECT m.class_id::text FROM class_members m WHERE m.learner_id = \(learner.uuid)) AS announced_classes
        """
    }

    /// Locks the cards `learning` reviews, in item order (as the writes go),
    /// inside the caller's transaction; false when one had another review
    /// since the model was `read` (a lesson or a game at the same moment).
    package static func lockAsRead(
        _ learning: [AnswerLearning], read: ModelRead, learner: LearnerID, language: Language, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> Bool {
        let reviewed = Array(Set(learning.filter { $0.card != nil }.map(\.itemID))).sorted()
        guard !reviewed.isEmpty else { return true }
        var now: [String: Int] = [:]
        for row in try await connection.query(
            """
            SELECT item_id, reviews FROM memory_cards
            WHERE learner_id = \(learner.uuid) AND language = \(language.code) AND item_id = ANY(\(reviewed))
            ORDER BY item_id FOR UPDATE
            """, logger: logger
        ).collect() {
            let (item, reviews) = try row.decode((String, Int).self)
            now[item] = reviews
        }
        return !reviewed.contains { now[$0] ?? 0 != read.reviews[$0] ?? 0 }
    }

    /// Answers' rows on their own (a game's pairs, an offline lesson's answers), inside the caller's
    /// transaction: one statement.
    package static func write(
        _ learning: [AnswerLearning], learner: LearnerID, language: Language, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        guard !learning.isEmpty else { return }
        let rows = try expressions(learning, learner: learner, language: language, gate: "gate")
        let statement: SQL = """
            WITH gate AS (SELECT), \(rows)
            SELECT 1
            """
        // Read to the end: a statement that returns rows reports what went
        // wrong as it executes (a deadlock) in its rows, and an unread
        // error would leave the transaction aborted with no one the wiser.
        _ = try await connection.query(statement.query, logger: logger).collect()
    }

    /// Rows as JSON for `jsonb_to_recordset`, columns in snake case; a
    /// value JSON cannot hold (a NaN, never computed on purpose) fails the
    /// write, never drops it.
    static func json<Row: Encodable>(_ rows: [Row]) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return String(decoding: try encoder.encode(rows), as: UTF8.self)
    }
}

/// A learner's model as read, with how many reviews each card had then: a
/// write computed from it lands only if the card has had no other review
/// since (a lesson and a game at the same moment).
package struct ModelRead: Sendable {
    package var model: LearnerModel
    package var reviews: [String: Int]

    /// One query's worth: the model of `learner` in `language`.
    package static func read(learner: LearnerID, language: Language, on connection: PostgresConnection, logger: Logger) async throws
        -> ModelRead
    {
        let row = try await connection.query(
            """
            SELECT \(unescaped: columns)
            FROM (SELECT \(learner.uuid)::uuid AS learner_id, \(language.code)::text AS language) m
              \(unescaped: sources(learner: "m.learner_id", language: "m.language"))
            """, logger: logger
        ).collect()[0]
        return try decode(row)
    }

    /// The columns holding a model, each named `model_…` so that they may
    /// follow any others, from the `sources` joined to a row that names
    /// its learner and language. Read them with `decode`.
    ///
    /// Design note: a learner's cards are read whole on every answer, and
    /// a keen learner has thousands. They come as one binary array per
    /// field, which PostgreSQL builds and PostgresNIO reads far faster
    /// than the JSON they were before. A card is the same index in each
    /// array because one aggregate pass feeds every row to all of them:
    /// an ORDER BY or DISTINCT on some but not all would break that.
    /// PostgresNIO cannot read an array holding NULL, so a card's absent
    /// step is -1 (a real one is never negative) and its absent
    /// stability, difficulty and last review are NaN (never stored).
    static let columns = """
        model_a.skills AS model_skills, model_a.thetas AS model_thetas, model_a.responses AS model_responses,
        model_c.items AS model_card_items, model_c.phases AS model_card_phases, model_c.steps AS model_card_steps,
        model_c.stabilities AS model_card_stabilities, model_c.difficulties AS model_card_difficulties,
        model_c.dues AS model_card_dues, model_c.last_reviews AS model_card_last_reviews,
        model_c.reviews AS model_card_reviews, model_k.level AS model_course_level
        """

    /// The joins `columns` come from, after a FROM item that names the
    /// learner and language (SQL expressions). They bring the names
    /// `model_a`, `model_c`, `model_k` and their columns into the query's
    /// scope: a caller's other columns are best qualified.
    static func sources(learner: String, language: String) -> String {
        """
        CROSS JOIN LATERAL (
          SELECT coalesce(array_agg(skill), '{}') AS skills, coalesce(array_agg(theta), '{}') AS thetas,
                 coalesce(array_agg(responses::int8), '{}') AS responses
          FROM abilities WHERE learner_id = \(learner) AND language = \(language)) model_a
        CROSS JOIN LATERAL (
          SELECT coalesce(array_agg(item_id), '{}') AS items, coalesce(array_agg(phase::int8), '{}') AS phases,
                 coalesce(array_agg(coalesce(step, -1)::int8), '{}') AS steps,
                 coalesce(array_agg(coalesce(stability, 'NaN')), '{}') AS stabilities,
                 coalesce(array_agg(coalesce(difficulty, 'NaN')), '{}') AS difficulties,
                 coalesce(array_agg(extract(epoch FROM due)::float8), '{}') AS dues,
                 coalesce(array_agg(coalesce(extract(epoch FROM last_review)::float8, 'NaN')), '{}') AS last_reviews,
                 coalesce(array_agg(reviews::int8), '{}') AS reviews
          FROM memory_cards WHERE learner_id = \(learner) AND language = \(language)) model_c
        CROSS JOIN LATERAL (
          SELECT (SELECT level FROM courses WHERE learner_id = \(learner) AND language = \(language)) AS level) model_k
        """
    }

    /// The model from the `columns` of `row`.
    static func decode(_ row: PostgresRow) throws -> ModelRead {
        let columns = row.makeRandomAccess()
        func column<Value: PostgresDecodable>(_ name: String) throws -> Value {
            try columns["model_" + name].decode(Value.self)
        }
        let level: String? = try column("course_level")
        var read = ModelRead(model: LearnerModel(courseLevel: level.flatMap(CEFRLevel.init(rawValue:))), reviews: [:])
        let (skills, thetas, responses): ([String], [Double], [Int]) = (try column("skills"), try column("thetas"), try column("responses"))
        guard thetas.count == skills.count, responses.count == skills.count else { throw ParlaError(.internalError) }
        for index in skills.indices {
            guard let skill = Skill(rawValue: skills[index]) else { continue }
            read.model.abilities.append(SkillAbility(skill: skill, theta: thetas[index], responses: responses[index]))
        }
        let items: [String] = try column("card_items")
        let phases: [Int] = try column("card_phases"), steps: [Int] = try column("card_steps")
        let stabilities: [Double] = try column("card_stabilities"), difficulties: [Double] = try column("card_difficulties")
        let dues: [Double] = try column("card_dues"), lastReviews: [Double] = try column("card_last_reviews")
        let reviews: [Int] = try column("card_reviews")
        guard
            [phases.count, steps.count, stabilities.count, difficulties.count, dues.count, lastReviews.count, reviews.count]
                .allSatisfy({ $0 == items.count })
        else { throw ParlaError(.internalError) }
        func present(_ value: Double) -> Double? { value.isNaN ? nil : value }
        read.model.cards.reserveCapacity(items.count)
        read.reviews.reserveCapacity(items.count)
        for index in items.indices {
            guard let phase = MemoryPhase(rawValue: phases[index]) else { continue }
            read.model.cards[items[index]] = MemoryCard(
                phase: phase, step: steps[index] < 0 ? nil : steps[index], stability: present(stabilities[index]),
                difficulty: present(difficulties[index]), due: Date(timeIntervalSince1970: dues[index]),
                lastReview: present(lastReviews[index]).map(Date.init(timeIntervalSince1970:)))
            read.reviews[items[index]] = reviews[index]
        }
        return read
    }

    /// The model after `learning` was written.
    mutating func apply(_ learning: AnswerLearning) {
        model.apply(learning)
        if learning.card != nil { reviews[learning.itemID, default: 0] += 1 }
    }
}

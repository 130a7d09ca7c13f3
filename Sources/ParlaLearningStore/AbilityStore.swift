import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import ParlaLearning
import PostgresNIO

/// Abilities per learner, language and skill, and their daily history.
/// Writes happen inside the transaction of the answer that caused them.
public struct AbilityStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// The learner's abilities and history in `language`.
    public func proficiency(learner: AuthorizedLearner, language: Language, historyDays: Int = 90)
        async throws -> (abilities: [SkillAbility], courseLevel: CEFRLevel?, history: [ProficiencySnapshot], topics: [TopicRecord])
    {
        try await database.withConnection { connection in
            let logger = database.logger
            let abilities = try await connection.query(
                """
                SELECT skill, theta, responses FROM abilities WHERE learner_id = \(learner.uuid) AND language = \(language.code)
                """, logger: logger
            ).collect().compactMap { row -> SkillAbility? in
                let (skill, theta, responses) = try row.decode((String, Double, Int).self)
                return Skill(rawValue: skill).map { SkillAbility(skill: $0, theta: theta, responses: responses) }
            }
            let courseLevel = try await connection.query(
                """
                SELECT level FROM courses WHERE learner_id = \(learner.uuid) AND language = \(language.code)
                """, logger: logger
            ).collect().first.flatMap { try $0.decode(String?.self) }.flatMap(CEFRLevel.init(rawValue:))
            let history = try await connection.query(
                """
                SELECT day::timestamptz, skill, theta, level FROM ability_history
                WHERE learner_id = \(learner.uuid) AND language = \(language.code) AND day > current_date - \(historyDays)::integer
                ORDER BY day, skill
                """, logger: logger
            ).collect().compactMap { row -> ProficiencySnapshot? in
                let (day, skill, theta, level) = try row.decode((Date, String, Double, String).self)
                guard let level = CEFRLevel(rawValue: level) else { return nil }
                return ProficiencySnapshot(day: day, skill: Skill(rawValue: skill), theta: theta, level: level)
            }
            // Answers so far, by the topic (or grammar note) of what was asked:
            // the placement test's and the lessons' first tries.
            let topics = try await connection.query(
                """
                SELECT 'topic', i.topic, i.skill, i.level, r.item_id, count(*) FILTER (WHERE r.correct)::int,
                       count(*) FILTER (WHERE NOT r.correct)::int
                FROM placement_responses r JOIN placements p ON p.id = r.placement_id
                JOIN placement_items i ON i.language = r.language AND i.id = r.item_id
                WHERE p.learner_id = \(learner.uuid) AND p.language = \(language.code)
                GROUP BY i.topic, i.skill, i.level, r.item_id
                UNION ALL
                SELECT area_kind, area_id, skill, level, item_id, count(*) FILTER (WHERE correct)::int, count(*) FILTER (WHERE NOT correct)::int
                FROM lesson_answers WHERE learner_id = \(learner.uuid) AND language = \(language.code)
                GROUP BY area_kind, area_id, skill, level, item_id
                """, logger: logger
            ).collect().compactMap { row -> TopicRecord? in
                let (kind, topic, skill, level, item, correct, wrong) = try row.decode(
                    (String, String, String, String, String, Int, Int).self)
                guard let skill = Skill(rawValue: skill), let level = CEFRLevel(rawValue: level) else { return nil }
                return TopicRecord(kind: kind, topic: topic, skill: skill, level: level, itemID: item, correct: correct, wrong: wrong)
            }
            return (abilities, courseLevel, history, topics)
        }
    }

    /// A learner's answers to one item, with what the item tests.
    public struct TopicRecord: Sendable {
        /// `topic` or `grammarNote`.
        public var kind: String
        public var topic: String
        public var skill: Skill
        public var level: CEFRLevel
        public var itemID: String
        public var correct: Int
        public var wrong: Int
    }

    /// A level's checkpoint passed: the course moves up to `level` (never
    /// down; a learner with no course in the language gets one there, as a
    /// placement's) with the abilities a placement there would leave, in
    /// one transaction. False, and nothing written, when it was there already.
    public func advanceCourse(
        learner: AuthorizedLearner, language: Language, to level: CEFRLevel, abilities: [SkillAbility], snapshots: [ProficiencySnapshot]
    ) async throws -> Bool {
        try await database.withTransaction { connection in
            // Level codes sort as the levels do (A1 < A2 < B1 ...).
            let moved = try await connection.query(
                """
                INSERT INTO courses (learner_id, language, start, level)
                VALUES (\(learner.uuid), \(language.code), 'placement', \(level.rawValue))
                ON CONFLICT (learner_id, language) DO UPDATE SET level = EXCLUDED.level
                WHERE coalesce(courses.level, 'A1') < EXCLUDED.level
                RETURNING 1
                """, logger: database.logger
            ).collect()
            guard !moved.isEmpty else { return false }
            try await Self.write(abilities, snapshots, learner: learner.id, language: language, on: connection, logger: database.logger)
            return true
        }
    }

    /// Writes abilities and today's snapshots on `connection` (inside the
    /// caller's transaction).
    static func write(
        _ abilities: [SkillAbility], _ snapshots: [ProficiencySnapshot], learner: LearnerID, language: Language,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        for ability in abilities {
            try await connection.query(
                """
                INSERT INTO abilities (learner_id, language, skill, theta, responses)
                VALUES (\(learner.uuid), \(language.code), \(ability.skill.rawValue), \(ability.theta), \(ability.responses))
                ON CONFLICT (learner_id, language, skill) DO UPDATE SET theta = EXCLUDED.theta, responses = EXCLUDED.responses,
                    updated_at = now()
                """, logger: logger)
        }
        for snapshot in snapshots {
            try await connection.query(
                """
                INSERT INTO ability_history (learner_id, language, skill, day, theta, level)
                VALUES (\(learner.uuid), \(language.code), \(snapshot.skill?.rawValue ?? "overall"), \(snapshot.day)::date, \(snapshot.theta),
                        \(snapshot.level.rawValue))
                ON CONFLICT (learner_id, language, skill, day) DO UPDATE SET theta = EXCLUDED.theta, level = EXCLUDED.level
                """, logger: logger)
        }
    }
}

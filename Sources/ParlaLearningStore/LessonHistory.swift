import Foundation
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// The learner's past lessons, as their answers tell them.
extension LessonStore {
    /// A past or current lesson as its answers tell it: how many questions
    /// were answered, how many right at the first try, the time spent
    /// answering, and the same per skill.
    public struct Summary: Sendable, Equatable {
        public struct PerSkill: Sendable, Equatable {
            public var skill: String
            public var answers: Int
            public var right: Int
        }

        public var id: LessonID
        public var language: String
        public var startedAt: Date
        public var finishedAt: Date?
        public var expired: Bool
        public var answers: Int
        public var right: Int
        public var milliseconds: Int
        public var skills: [PerSkill]
    }

    /// The learner's lessons, newest first (`before`: older than that lesson), in two queries.
    public func summaries(learner: AuthorizedLearner, language: Language?, limit: Int, before: LessonID?) async throws -> [Summary] {
        try await database.withConnection { connection in
            let logger = database.logger
            var summaries = try await connection.query(
                """
                SELECT l.id, l.language, l.started_at, l.finished_at, l.expired_at IS NOT NULL,
                       count(a.question_id)::int, count(a.question_id) FILTER (WHERE a.correct)::int,
                       coalesce(sum(a.response_ms), 0)::int
                FROM lessons l LEFT JOIN lesson_answers a ON a.lesson_id = l.id
                WHERE l.learner_id = \(learner.uuid) AND (\(language?.code)::text IS NULL OR l.language = \(language?.code))
                  AND (\(before?.uuid)::uuid IS NULL OR l.started_at < (SELECT started_at FROM lessons WHERE id = \(before?.uuid)))
                GROUP BY l.id ORDER BY l.started_at DESC, l.id DESC LIMIT \(limit)
                """, logger: logger
            ).collect().map { row in
                let (id, language, started, finished, expired, answers, right, milliseconds) = try row.decode(
                    (UUID, String, Date, Date?, Bool, Int, Int, Int).self)
                return Summary(
                    id: LessonID(id), language: language, startedAt: started, finishedAt: finished, expired: expired, answers: answers,
                    right: right, milliseconds: milliseconds, skills: [])
            }
            let ids = summaries.map(\.id.uuid)
            guard !ids.isEmpty else { return [] }
            var skills: [UUID: [Summary.PerSkill]] = [:]
            for row in try await connection.query(
                """
                SELECT lesson_id, skill, count(*)::int, count(*) FILTER (WHERE correct)::int FROM lesson_answers
                WHERE lesson_id = ANY(\(ids)) GROUP BY lesson_id, skill ORDER BY lesson_id, skill
                """, logger: logger
            ).collect() {
                let (lesson, skill, answers, right) = try row.decode((UUID, String, Int, Int).self)
                skills[lesson, default: []].append(.init(skill: skill, answers: answers, right: right))
            }
            for index in summaries.indices { summaries[index].skills = skills[summaries[index].id.uuid] ?? [] }
            return summaries
        }
    }
}

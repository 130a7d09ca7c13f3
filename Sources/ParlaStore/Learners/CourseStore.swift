import Foundation
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// The courses of each learner.
public struct CourseStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Starts a course; `course_exists` when the language is already studied.
    public func create(_ course: Course, learner: AuthorizedLearner) async throws -> Course {
        try await database.withTransaction { connection in
            let rows = try await connection.query(
                """
                INSERT INTO courses (learner_id, language, start, level)
                SELECT l.id, \(course.language.code), \(course.start.rawValue), \(course.level?.rawValue)
                FROM learners l WHERE l.id = \(learner.uuid)
                ON CONFLICT (learner_id, language) DO NOTHING
                RETURNING created_at
                """, logger: database.logger
            ).collect()
            if let row = rows.first {
                var created = course
                created.createdAt = try row.decode(Date.self)
                return created
            }
            throw ParlaError(.courseExists)
        }
    }

    /// The learner's courses, oldest first.
    public func courses(of learner: AuthorizedLearner) async throws -> [Course] {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT c.language, c.start, c.level, c.created_at
                FROM courses c WHERE c.learner_id = \(learner.uuid)
                ORDER BY c.created_at, c.language
                """, logger: database.logger
            ).collect()
            return try rows.compactMap { row in
                let (code, start, level, createdAt) = try row.decode((String, String, String?, Date).self)
                guard let language = Language(rawValue: code), let start = Course.Start(rawValue: start) else { return nil }
                return Course(language: language, start: start, level: level.flatMap(CEFRLevel.init(rawValue:)), createdAt: createdAt)
            }
        }
    }
}

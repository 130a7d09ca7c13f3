import Foundation
import ParlaCore
import ParlaStore

/// The languages a learner studies (T3.1-T3.3).
package struct CourseService: Sendable {
    package let courses: CourseStore
    package let content: ContentService

    /// A course from the beginning starts at A1; one by placement waits for
    /// the placement test to say where.
    package func start(_ learner: AuthorizedLearner, language code: String, start: Course.Start) async throws -> Course {
        let language = try content.language(code)
        let course = Course(language: language, start: start, level: start == .beginning ? .a1 : nil, createdAt: Date())
        return try await courses.create(course, learner: learner)
    }

    package func list(_ learner: AuthorizedLearner) async throws -> [Course] {
        try await courses.courses(of: learner)
    }

    package init(courses: CourseStore, content: ContentService) {
        self.courses = courses
        self.content = content
    }
}

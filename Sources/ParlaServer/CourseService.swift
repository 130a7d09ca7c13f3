import Foundation
import ParlaCore
import ParlaStore

/// The languages a learner studies (T3.1-T3.3).
struct CourseService: Sendable {
    let courses: CourseStore
    let content: ContentService

    /// A course from the beginning starts at A1; one by placement waits for
    /// the placement test to say where.
    func start(_ caller: Caller, learner: LearnerID, language code: String, start: Course.Start) async throws -> Course {
        let language = try content.language(code)
        let course = Course(language: language, start: start, level: start == .beginning ? .a1 : nil, createdAt: Date())
        return try await courses.create(course, learner: learner, of: caller.accountID)
    }

    func list(_ caller: Caller, learner: LearnerID) async throws -> [Course] {
        guard let found = try await courses.courses(of: learner, account: caller.accountID) else { throw ParlaError(.learnerNotFound) }
        return found
    }
}

import Foundation
import OpenAPIRuntime
import ParlaAPI
import ParlaCore

extension APIHandler {
    func startCourse(_ input: Operations.StartCourse.Input) async throws -> Operations.StartCourse.Output {
        let caller = try await caller()
        let learner: LearnerID = try parseID(input.path.learnerId, orElse: .learnerNotFound)
        guard case .json(let form) = input.body, let start = Course.Start(rawValue: form.start.rawValue) else {
            throw ParlaError(.malformedRequest)
        }
        let course = try await courses.start(caller, learner: learner, language: form.language.rawValue, start: start)
        return .created(.init(body: .json(.init(course))))
    }

    func listCourses(_ input: Operations.ListCourses.Input) async throws -> Operations.ListCourses.Output {
        let caller = try await caller()
        let learner: LearnerID = try parseID(input.path.learnerId, orElse: .learnerNotFound)
        return .ok(.init(body: .json(.init(courses: try await courses.list(caller, learner: learner).map(Components.Schemas.Course.init)))))
    }
}

extension Components.Schemas.Course {
    init(_ course: Course) {
        self.init(language: .init(rawValue: course.language.code) ?? .en, start: .init(rawValue: course.start.rawValue) ?? .beginning,
                  level: course.level.flatMap { .init(rawValue: $0.rawValue) }, createdAt: course.createdAt)
    }
}

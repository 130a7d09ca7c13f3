import Foundation
import ParlaAPI
import ParlaCore
import ParlaTestSupport
import Testing

/// A teacher assigns a pack of the course, or some of its lessons (issue 34,
/// item 7): each lesson counts once finished, online or sent from offline;
/// a pack the account may not open is left out of its completion.
@Suite("the course assigned: packs and lessons, completion counted")
struct CourseAssignmentTests {
    typealias Assignment = Components.Schemas.Assignment
    typealias Detail = Operations.GetAssignment.Output.Ok.Body.JsonPayload
    typealias Mine = Operations.ListLearnerAssignments.Output.Ok.Body.JsonPayload

    @Test("a pack and two lessons assigned; lessons finished online and offline count, a locked pack's lesson is left out")
    func packAndLessons() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let (teacher, classID, code) = try await client.teacherWithClass()
            let learner = try await client.signUp(email: "learner@example.com")
            let joined = try await client.post(
                "/v1/learners/\(learner.learnerID)/classes", token: learner.token, json: ["joinCode": code, "password": learner.password])
            #expect(joined.status == 201, "\(joined.text)")
            try await client.startCourse("fr", for: learner)
            let due = ISO8601DateFormatter().string(from: Date().addingTimeInterval(7 * 86400))
            func assign(_ kind: String, _ targets: [String]) async throws -> Client.Reply {
                try await client.post(
                    "/v1/classes/\(classID)/assignments", token: teacher.token, json: ["kind": kind, "targets": targets, "dueAt": due])
            }
            let pack = try await assign("coursePack", ["fr-discover-home"])
            #expect(pack.status == 201, "\(pack.text)")
            let packAssignment = try pack.decoded(Assignment.self)
            #expect(packAssignment.kind == .coursePack && packAssignment.itemCount == 6 && packAssignment.lockedFor?.isEmpty != false)
            let lessons = try await assign("courseLessons", ["fr-read-sightwords-01", "fr-discover-food-01"])
            #expect(lessons.status == 201, "\(lessons.text)")
            let lessonsAssignment = try lessons.decoded(Assignment.self)
            // The food pack is sold: the learner cannot open its lesson, and the teacher is told.
            #expect(lessonsAssignment.itemCount == 2 && lessonsAssignment.lockedFor?.first?.lockedItemCount == 1)
            let noPack = try await assign("coursePack", ["fr-discover-nothing"])
            #expect(noPack.status == 422 && noPack.text.contains("pack_not_found"), "\(noPack.text)")
            let otherLanguage = try await assign("courseLessons", ["de-discover-home-01"])
            #expect(otherLanguage.status == 422 && otherLanguage.text.contains("course_lesson_not_found"), "\(otherLanguage.text)")

            // One lesson of the pack finished online, another sent from offline.
            let started = try await client.post(
                "/v1/learners/\(learner.learnerID)/lessons", token: learner.token,
                json: ["language": "fr", "mode": "course", "courseLesson": "fr-discover-home-01"])
            #expect(started.status == 201, "\(started.text)")
            let online = try await CoursePathHTTPTests.take(
                try started.decoded(Components.Schemas.Lesson.self), wrongFirst: true, learner: learner, client: client, app: app)
            #expect(online.0.status == .finished)
            let bundle = try await client.get("/v1/learners/\(learner.learnerID)/packs/fr-discover-home/bundle", token: learner.token)
                .decoded(Components.Schemas.CoursePackBundle.self)
            let second = try #require(bundle.lessons.first { $0.lessonId == "fr-discover-home-02" })
            let sent = try await client.put(
                "/v1/learners/\(learner.learnerID)/lessons/\(UUID().uuidString.lowercased())/log", token: learner.token,
                json: OfflineLessonHTTPTests.log(
                    second, startedAt: packAssignment.createdAt.addingTimeInterval(1),
                    tries: OfflineLessonHTTPTests.tries(second, wrongFirst: false, every: 0.1)))
            #expect(sent.status == 201, "\(sent.text)")
            // A lesson started and left counts for nothing.
            _ = try await client.post(
                "/v1/learners/\(learner.learnerID)/lessons", token: learner.token,
                json: ["language": "fr", "mode": "course", "courseLesson": "fr-discover-home-03"])

            let detail = try await client.get("/v1/classes/\(classID)/assignments/\(packAssignment.id)", token: teacher.token)
            #expect(detail.status == 200, "\(detail.text)")
            let row = try #require(try detail.decoded(Detail.self).learners.first)
            #expect(row.completion == 2.0 / 6 && row.lockedItems.isEmpty)

            func mine() async throws -> [Components.Schemas.LearnerAssignment] {
                try await client.get("/v1/learners/\(learner.learnerID)/assignments", token: learner.token).decoded(Mine.self).assignments
            }
            var seen = try await mine()
            #expect(seen.first { $0.assignment.id == packAssignment.id }?.progress.completion == 2.0 / 6)
            let locked = try #require(seen.first { $0.assignment.id == lessonsAssignment.id })
            #expect(locked.progress.completion == 0 && locked.progress.lockedItems == ["course:fr-discover-food-01"])
            #expect(locked.offer == "course-discover-food")

            // The sight-words lesson finished: all the learner may open of the lessons is done.
            let sight = try await client.post(
                "/v1/learners/\(learner.learnerID)/lessons", token: learner.token,
                json: ["language": "fr", "mode": "course", "courseLesson": "fr-read-sightwords-01"])
            _ = try await CoursePathHTTPTests.take(
                try sight.decoded(Components.Schemas.Lesson.self), wrongFirst: false, learner: learner, client: client, app: app)
            seen = try await mine()
            #expect(seen.first { $0.assignment.id == lessonsAssignment.id }?.progress.completion == 1)

            // The class's overview averages them, as it does other assignments.
            let overview = try await client.get("/v1/classes/\(classID)/overview", token: teacher.token)
                .decoded(Components.Schemas.ClassOverview.self)
            let averages = Dictionary(uniqueKeysWithValues: overview.assignments.map { ($0.assignmentId, $0.completion) })
            #expect(averages[packAssignment.id] == 2.0 / 6 && averages[lessonsAssignment.id] == 1)
        }
    }
}

import Foundation
import ParlaAPI
import ParlaCore
import ParlaTeaching
import ParlaTestSupport
import Testing

/// The course's path over HTTP (issue 34, item 6): packs by level, the
/// learner's place, and a checkpoint that, passed, moves the course level.
@Suite("the course's path: levels, the learner's place, checkpoints")
struct CoursePathHTTPTests {
    typealias Path = Components.Schemas.CoursePath
    typealias LessonView = Components.Schemas.Lesson

    /// Takes the lesson to its end: each try the key of the question on
    /// screen (read from the lesson's row) says is right; with
    /// `wrongFirst`, a wrong option first at each choice question. Returns
    /// the finished lesson and how many choice questions it asked.
    static func take(
        _ lesson: LessonView, wrongFirst: Bool, learner: Client.SignedUp, client: Client, app: TestApp
    ) async throws -> (LessonView, choices: Int) {
        var lesson = lesson, choices = 0
        while let shown = lesson.question {
            // Speaking is left for another time.
            if shown._type == .repetition {
                lesson = try await client.post(
                    "/v1/learners/\(learner.learnerID)/lessons/\(lesson.id)/speaking-pause", token: learner.token, json: [:]
                ).decoded(LessonView.self)
                continue
            }
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL, "SELECT state::text FROM lessons WHERE id = \(UUID(uuidString: lesson.id)!)")
            let state = try JSONDecoder().decode(ParlaTeaching.Lesson.self, from: Data(try #require(rows.first).decode(String.self).utf8))
            let question = try #require(state.current)
            #expect(question.id == shown.id)
            let key = OfflineAnswerKey(question)
            var tries: [(option: String, target: String?)] = []
            if let matches = key.matches {
                let placed = Set((shown.placed ?? []).map(\.optionId))
                tries = matches.filter { !placed.contains($0.item) }.map { ($0.item, $0.target) }
            } else if let order = key.order {
                let placed = shown.placed ?? []
                tries =
                    (question.sightWords != nil
                    ? Array(order.dropFirst(placed.count)) : order.filter { item in !placed.contains { $0.optionId == item } })
                    .map { ($0, nil) }
            } else if let right = key.optionID {
                choices += 1
                if wrongFirst, let wrong = question.options.first(where: { $0.id != right }) { tries.append((wrong.id, nil)) }
                tries.append((right, nil))
            }
            for attempt in tries {
                var json: [String: any Sendable] = ["questionId": shown.id, "optionId": attempt.option, "responseTimeMs": 2000]
                if let target = attempt.target { json["targetId"] = target }
                let reply = try await client.post(
                    "/v1/learners/\(learner.learnerID)/lessons/\(lesson.id)/answers", token: learner.token, json: json)
                #expect(reply.status == 200, "\(reply.text)")
                lesson = try reply.decoded(Components.Schemas.LessonAnswerResult.self).lesson
            }
        }
        return (lesson, choices)
    }

    @Test("a new learner's path; the A1 checkpoint failed changes nothing, passed moves the course and proficiency to A2, once")
    func checkpointPassed() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            _ = try await client.startCourse("fr", for: learner)
            let learnerPath = "/v1/learners/\(learner.learnerID)"
            func path() async throws -> Path {
                let reply = try await client.get(learnerPath + "/path?language=fr", token: learner.token)
                #expect(reply.status == 200, "\(reply.text)")
                return try reply.decoded(Path.self)
            }
            /// The lowest level of any skill.
            func level() async throws -> String? {
                let proficiency = try await client.get(learnerPath + "/proficiency?language=fr", token: learner.token)
                return try proficiency.decoded(Components.Schemas.Proficiency.self).skills.map(\.level.rawValue).min()
            }
            let fresh = try await path()
            #expect(fresh.levels.map(\.level.rawValue) == ["A1", "A2"] && fresh.level?.rawValue == "A1")
            #expect(fresh.next?.lessonId == "fr-read-sightwords-01")
            let a1 = fresh.levels[0]
            #expect(a1.checkpoint.lessonId == "fr-checkpoint-a1" && a1.checkpoint.status == .open && a1.checkpoint.questions >= 12)
            #expect(a1.checkpoint.title == "Checkpoint A1" && a1.checkpoint.passMark == 0.8)
            #expect(a1.packs.first?.id == "fr-read-sightwords" && a1.lessons == a1.packs.map(\.lessons).reduce(0, +) && a1.completed == 0)
            let startLevel = try await level()
            #expect(startLevel == "A1")

            func startCheckpoint() async throws -> LessonView {
                let started = try await client.post(
                    learnerPath + "/lessons", token: learner.token,
                    json: ["language": "fr", "mode": "course", "courseLesson": "fr-checkpoint-a1"])
                #expect(started.status == 201, "\(started.text)")
                let lesson = try started.decoded(LessonView.self)
                #expect(lesson.course?.lessonId == "fr-checkpoint-a1" && lesson.course?.title == "Checkpoint A1")
                return lesson
            }
            // Failed: a wrong first try at every choice question.
            let (failed, choices) = try await Self.take(
                try await startCheckpoint(), wrongFirst: true, learner: learner, client: client, app: app)
            #expect(choices >= 3, "too few choice questions to fail it")
            #expect(failed.status == .finished && failed.checkpoint?.passed == false && failed.checkpoint?.courseLevel == nil)
            let (failedPath, failedLevel) = (try await path(), try await level())
            #expect(failedPath.level?.rawValue == "A1" && failedLevel == "A1")

            // Passed: every first try right.
            let (passed, _) = try await Self.take(
                try await startCheckpoint(), wrongFirst: false, learner: learner, client: client, app: app)
            #expect(passed.summary?.firstTryCorrect == passed.summary?.questions)
            #expect(passed.checkpoint?.passed == true && passed.checkpoint?.level == .a1 && passed.checkpoint?.courseLevel == .a2)
            let after = try await path()
            #expect(after.level?.rawValue == "A2" && after.levels[0].checkpoint.status == .passed)
            // Every skill at A2 at least, as a placement at A2 would leave it.
            let passedLevel = try await level()
            #expect(passedLevel.map { $0 >= "A2" } == true, "\(passedLevel ?? "")")
            let course = try await client.get(learnerPath + "/courses", token: learner.token)
            #expect(course.text.contains("\"A2\""), "\(course.text)")

            // Passed again: the course stays where it is.
            _ = try await Self.take(try await startCheckpoint(), wrongFirst: false, learner: learner, client: client, app: app)
            let again = try await path()
            #expect(again.level?.rawValue == "A2")

            // A learner who never started a course in the language: passing puts it at A2, as a placement would.
            let newcomer = try await client.signUp(email: "newcomer@example.com")
            let started = try await client.post(
                "/v1/learners/\(newcomer.learnerID)/lessons", token: newcomer.token,
                json: ["language": "fr", "mode": "course", "courseLesson": "fr-checkpoint-a1"])
            #expect(started.status == 201, "\(started.text)")
            let (newcomerPassed, _) = try await Self.take(
                try started.decoded(LessonView.self), wrongFirst: false, learner: newcomer, client: client, app: app)
            #expect(newcomerPassed.checkpoint?.courseLevel == .a2)
            let newcomerPath = try await client.get("/v1/learners/\(newcomer.learnerID)/path?language=fr", token: newcomer.token)
                .decoded(Path.self)
            #expect(newcomerPath.level?.rawValue == "A2")

            let badLanguage = try await client.get(learnerPath + "/path?language=xx", token: learner.token)
            #expect(badLanguage.status == 400 || badLanguage.status == 422, "\(badLanguage.text)")
            let offline = try await client.put(
                learnerPath + "/lessons/\(UUID().uuidString.lowercased())/log", token: learner.token,
                json: [
                    "courseLesson": "fr-checkpoint-a1", "seed": "1", "startedAt": ISO8601DateFormatter().string(from: Date()),
                    "answers": [[String: any Sendable]](),
                ])
            #expect(offline.status == 404, "a checkpoint is not taken offline: \(offline.text)")
        }
    }
}

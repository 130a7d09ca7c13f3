import Foundation
import Logging
import ParlaAPI
import ParlaContent
import ParlaCore
import ParlaLearning
import ParlaOperations
import ParlaTestSupport
import Testing

@testable import ParlaServer

/// Courses, placement and proficiency through HTTP against real PostgreSQL
/// (main seed T3.1-T3.5).
@Suite("learning: courses")
struct CourseTests {
    typealias Course = Components.Schemas.Course
    struct Courses: Decodable { var courses: [Course] }

    @Test("T3.1-T3.3: a learner picks languages to learn, from the beginning or by placement, and finds them listed")
    func startAndList() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let parent = try await client.signUp()
            let path = "/v1/learners/\(parent.learnerID)/courses"
            #expect(try await client.get(path, token: parent.token).decoded(Courses.self).courses.isEmpty)

            let french = try await client.post(path, token: parent.token, json: ["language": "fr", "start": "beginning"])
            #expect(french.status == 201, "\(french.text)")
            let frenchCourse = try french.decoded(Course.self)
            #expect(frenchCourse.language == .fr)
            #expect(frenchCourse.level == .a1)
            let german = try await client.post(path, token: parent.token, json: ["language": "de", "start": "placement"])
            #expect(german.status == 201)
            #expect(try german.decoded(Course.self).level == nil)  // until the placement test says

            let listed = try await client.get(path, token: parent.token).decoded(Courses.self).courses
            #expect(listed.map(\.language) == [.fr, .de])
            #expect(listed.map(\.start) == [.beginning, .placement])

            let again = try await client.post(path, token: parent.token, json: ["language": "fr", "start": "placement"])
            #expect(again.status == 409 && again.code == "course_exists")
            #expect(try await client.post(path, token: parent.token, json: ["language": "xx", "start": "beginning"]).status == 400)
            #expect(try await client.post(path, token: parent.token, json: ["language": "es", "start": "middle"]).status == 400)
            #expect(try await client.get(path).status == 401)

            // Another account's learner is not found, for reading and for writing.
            let other = try await client.signUp(email: "other@example.com")
            #expect(try await client.get(path, token: other.token).code == "learner_not_found")
            #expect(
                try await client.post(path, token: other.token, json: ["language": "it", "start": "beginning"]).code == "learner_not_found")
            // Courses belong to a learner: a sibling starts with none.
            let sibling = try await client.post("/v1/learners", token: parent.token, json: ["displayName": "Tom"])
            let siblingID = try sibling.decoded(Components.Schemas.Learner.self).id
            #expect(try await client.get("/v1/learners/\(siblingID)/courses", token: parent.token).decoded(Courses.self).courses.isEmpty)
        }
    }
}

@Suite("learning: a learner's languages and skills")
struct LearnerLanguageTests {
    typealias Learner = Components.Schemas.Learner
    struct Learners: Decodable { var learners: [Learner] }

    /// Answers a French lesson's first question, trying its options in
    /// order until one is right: a question teaches once it is resolved.
    static func answerFirstQuestion(_ client: Client, _ learner: Client.SignedUp) async throws {
        let lesson = try await client.post(
            "/v1/learners/\(learner.learnerID)/lessons", token: learner.token,
            json: ["language": "fr", "mode": "teacher", "length": 4, "types": ["translationFromTarget"]]
        ).decoded(Components.Schemas.Lesson.self)
        let question = try #require(lesson.question)
        let path = "/v1/learners/\(learner.learnerID)/lessons/\(lesson.id)/answers"
        for option in question.options.map(\.id) {
            let answered = try await client.post(
                path, token: learner.token,
                json: ["questionId": question.id, "optionId": option, "responseTimeMs": 2000])
            #expect(answered.status == 200, "\(answered.text)")
            if try answered.decoded(Components.Schemas.LessonAnswerResult.self).correct { return }
        }
        Issue.record("no option of the first question was right")
    }

    @Test("T3.2: a course's language shows on the learner, with its level, wherever a learner is returned")
    func courseShowsOnLearner() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let parent = try await client.signUp()
            try await client.startCourse("it", for: parent)
            let italian = Components.Schemas.LanguageProgress(language: .it, status: .notStarted, level: .a1)

            let one = try await client.get("/v1/learners/\(parent.learnerID)", token: parent.token).decoded(Learner.self)
            #expect(one.targetLanguages == [.it])
            #expect(one.progress == [italian])
            let listed = try await client.get("/v1/learners", token: parent.token).decoded(Learners.self)
            #expect(listed.learners.first { $0.id == parent.learnerID }?.progress == [italian])
            let me = try await client.get("/v1/me", token: parent.token).decoded(Components.Schemas.Me.self)
            #expect(me.learners.first { $0.id == parent.learnerID }?.targetLanguages == [.it])

            // A language chosen in the profile comes first; the course's is not repeated.
            let updated = try await client.patch(
                "/v1/learners/\(parent.learnerID)", token: parent.token,
                json: ["targetLanguages": ["de", "it"]]
            ).decoded(Learner.self)
            #expect(updated.targetLanguages == [.de, .it])
            #expect(updated.progress == [.init(language: .de, status: .notStarted), italian])

            // The first answer puts the course in progress, at the learner's level.
            try await client.startCourse("fr", for: parent)
            try await Self.answerFirstQuestion(client, parent)
            let after = try await client.get("/v1/learners/\(parent.learnerID)", token: parent.token).decoded(Learner.self)
            #expect(after.targetLanguages == [.de, .it, .fr])
            // Its level is the learner's overall level today, as the proficiency view shows it.
            let proficiency = try await client.get("/v1/learners/\(parent.learnerID)/proficiency?language=fr", token: parent.token)
                .decoded(Components.Schemas.Proficiency.self)
            let level = try #require(Components.Schemas.LanguageProgress.LevelPayload(rawValue: proficiency.overall.level.rawValue))
            #expect(after.progress.last == .init(language: .fr, status: .inProgress, level: level))
        }
    }

    @Test("every skill of a course shows in the proficiency view, answered or not, with the responses it rests on")
    func everySkillShows() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            try await client.startCourse("fr", for: learner)
            let path = "/v1/learners/\(learner.learnerID)/proficiency?language=fr"
            let fresh = try await client.get(path, token: learner.token).decoded(Components.Schemas.Proficiency.self)
            #expect(fresh.skills.count == 5)
            #expect(fresh.skills.allSatisfy { $0.level == .a1 && $0.responses == 0 })

            try await Self.answerFirstQuestion(client, learner)

            let after = try await client.get(path, token: learner.token).decoded(Components.Schemas.Proficiency.self)
            #expect(Set(after.skills.compactMap { $0.skill?.rawValue }) == ["vocabulary", "grammar", "listening", "reading", "speaking"])
            #expect(after.skills.map(\.responses).reduce(0, +) == 1)
            #expect(after.skills.filter { $0.responses == 0 }.count == 4)
        }
    }
}

@Suite("learning: placement test")
struct PlacementTests {
    typealias Placement = Components.Schemas.Placement

    /// The right answer of every item of a language, read from the bundled banks.
    static func answers(_ language: Language) throws -> [String: String] {
        var files: [CorpusLoader.File] = []
        for skill in PlacementQuestion.skills {
            let path = "placement/\(language.code)/\(skill.rawValue).yaml"
            files.append(.init(path: path, text: try String(contentsOfFile: TestApp.corporaDirectory + "/" + path, encoding: .utf8)))
        }
        let (corpus, _) = CorpusLoader { _ in true }.load(files)
        return Dictionary(uniqueKeysWithValues: corpus.placementQuestions.map { ($0.id, $0.correct) })
    }

    /// Answers until the test ends: right (quickly) or wrong (slowly, claimed).
    func take(_ client: Client, _ learner: Client.SignedUp, language: Language, right: Bool)
        async throws -> (result: Components.Schemas.PlacementResult, questions: Int)
    {
        let answers = try Self.answers(language)
        let base = "/v1/learners/\(learner.learnerID)/placements"
        var placement = try await client.post(base, token: learner.token, json: ["language": language.code]).decoded(Placement.self)
        let id = placement.id
        var questions = 0
        while let question = placement.question {
            questions += 1
            let itemID = question.itemId
            let options = question.options
            #expect(options.count == 4)
            let correct = try #require(answers[itemID])
            let chosen = try #require(options.first { ($0.text == correct) == right })
            let reply = try await client.post(
                "\(base)/\(id)/responses", token: learner.token,
                json: ["itemId": itemID, "optionId": chosen.id, "responseTimeMs": right ? 3000 : 40000])
            #expect(reply.status == 200, "\(reply.text)")
            placement = try reply.decoded(Placement.self)
            if questions > 30 { break }
        }
        #expect(placement.status == .finished)
        return (try #require(placement.result), questions)
    }

    @Test("T3.4: the test serves one question at a time without its answer, and can be left and resumed")
    func questionsAndResume() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            let base = "/v1/learners/\(learner.learnerID)/placements"
            let first = try await client.post(base, token: learner.token, json: ["language": "fr"])
            #expect(first.status == 201, "\(first.text)")
            let started = try first.decoded(Placement.self)
            let question = try #require(started.question)
            #expect(question.number == 1)
            #expect(question.options.map(\.id) == ["a", "b", "c", "d"])
            // The answer is nowhere in the body: read as text, since a typed decode cannot show a key left out.
            #expect(!first.text.contains("correct") && !first.text.contains("distractors"))
            #expect(question.timeLimitSeconds > 0)

            // Starting again resumes the same test at the same question, options in the same order.
            let again = try await client.post(base, token: learner.token, json: ["language": "fr"])
            #expect(again.status == 200)
            let resumed = try again.decoded(Placement.self)
            #expect(resumed.id == started.id)
            #expect(resumed.question?.itemId == question.itemId)
            #expect(resumed.question?.options.map(\.text) == question.options.map(\.text))
            let id = started.id
            #expect(try await client.get("\(base)/\(id)", token: learner.token).decoded(Placement.self).answered == 0)

            let itemID = question.itemId
            func answer(_ item: String, _ option: String) async throws -> Client.Reply {
                try await client.post("\(base)/\(id)/responses", token: learner.token, json: ["itemId": item, "optionId": option])
            }
            #expect(try await answer("fr-grammar-a1-01-other", "a").code == "not_current_item")
            #expect(try await answer(itemID, "z").code == "option_not_found")
            // Someone else's learner and test are not found.
            let other = try await client.signUp(email: "other@example.com")
            #expect(try await client.get("\(base)/\(id)", token: other.token).status == 404)
            #expect(
                try await client.get("/v1/learners/\(other.learnerID)/placements/\(id)", token: other.token).code == "placement_not_found")
            #expect(try await client.post(base, token: learner.token, json: ["language": "xx"]).status == 400)

            // A claimed answer time far below what the server saw is held to the server's measure, less 2 s.
            try await Task.sleep(for: .seconds(2.6))
            let answered = try await client.post(
                "\(base)/\(id)/responses", token: learner.token,
                json: ["itemId": itemID, "optionId": "a", "responseTimeMs": 1])
            #expect(answered.status == 200)
            let afterAnswer = try answered.decoded(Placement.self)
            #expect(afterAnswer.answered == 1)
            #expect(afterAnswer.question?.number == 2)
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                "SELECT response_ms FROM placement_responses WHERE placement_id = \(UUID(uuidString: id)!)")
            let stored = try #require(rows.first).decode(Int.self)
            #expect(stored >= 500, "\(stored) ms: the claimed 1 ms was held to the server's measure less 2 s")
        }
    }

    @Test("T3.5: a learner who knows the language places higher than one who does not; the course starts there")
    func strongAboveWeak() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let strong = try await client.signUp()
            let course = try await client.post(
                "/v1/learners/\(strong.learnerID)/courses", token: strong.token,
                json: ["language": "es", "start": "placement"])
            #expect(course.status == 201)
            let (high, highCount) = try await take(client, strong, language: .spanish, right: true)
            let weak = try await client.signUp(email: "weak@example.com")
            let (low, lowCount) = try await take(client, weak, language: .spanish, right: false)
            #expect((8...25).contains(highCount) && (8...25).contains(lowCount), "\(highCount), \(lowCount)")
            #expect(high.itemsUsed == highCount)
            // Levels compared by name: A1 < A2 < B1 < ... < C2 in text as in CEFR.
            let highLevel = high.level.rawValue, lowLevel = low.level.rawValue
            #expect(highLevel > lowLevel, "\(highLevel) vs \(lowLevel)")
            #expect(lowLevel == "A1")
            #expect(high.ability > low.ability + 2)
            #expect(!high.skills.isEmpty)

            // The course (started by placement) now starts at that level; the weak learner's was started by the test.
            let strongCourses = try await client.get("/v1/learners/\(strong.learnerID)/courses", token: strong.token)
                .decoded(CourseTests.Courses.self).courses
            #expect(strongCourses.first?.level?.rawValue == highLevel)
            let weakCourses = try await client.get("/v1/learners/\(weak.learnerID)/courses", token: weak.token)
                .decoded(CourseTests.Courses.self).courses
            #expect(weakCourses.first?.level == .a1 && weakCourses.first?.start == .placement)

            // T7.2: the proficiency bar starts where the placement put the learner, with today's history and the gaps.
            let proficiency = try await client.get("/v1/learners/\(strong.learnerID)/proficiency?language=es", token: strong.token)
            #expect(proficiency.status == 200, "\(proficiency.text)")
            let strongProficiency = try proficiency.decoded(Components.Schemas.Proficiency.self)
            #expect(strongProficiency.overall.level.rawValue == highLevel)
            let skills = strongProficiency.skills
            #expect(skills.count == 5)
            #expect(skills.allSatisfy { (0...1).contains($0.progress) })
            #expect(strongProficiency.history.contains { $0.skill == .overall })
            let weakProficiency = try await client.get("/v1/learners/\(weak.learnerID)/proficiency?language=es", token: weak.token)
                .decoded(Components.Schemas.Proficiency.self)
            let gaps = weakProficiency.gaps
            #expect(!gaps.isEmpty)
            #expect(gaps.contains { !$0.missedItems.isEmpty })
            // No answers yet in a language: the middle of A1, nothing to name.
            let fresh = try await client.get("/v1/learners/\(strong.learnerID)/proficiency?language=it", token: strong.token)
                .decoded(Components.Schemas.Proficiency.self)
            #expect(fresh.overall.level == .a1)
            #expect(fresh.gaps.isEmpty)
            #expect(
                try await client.get("/v1/learners/\(strong.learnerID)/proficiency?language=es", token: weak.token).code
                    == "learner_not_found")

            // A finished test takes no more answers; a new one can start.
            let restart = try await client.post(
                "/v1/learners/\(strong.learnerID)/placements", token: strong.token, json: ["language": "es"])
            #expect(restart.status == 201)
        }
    }
}

@Suite("learning: item calibration")
struct PlacementCalibrationTests {
    @Test("parla placement calibrate re-estimates items from stored answers once enough exist, and keeps the rest")
    func calibrate() async throws {
        let app = try await TestApp.make()
        let learner = try await app.run { client in try await client.signUp().learnerID }
        let items = try PlacementTests.answers(.spanish).keys.sorted().prefix(4)
        // Three items with known difficulties answered by 400 simulated test-takers; a fourth by only 10.
        let truth: [(id: String, difficulty: Double)] = zip(items, [-1.0, 0.5, 1.5]).map { ($0, $1) }
        // Seeded: the same takers every run, so the test is about the
        // calibration, not about luck (an unlucky draw missed by 0.8).
        var random = SimulationRandom(seed: 20_261_122)
        var placements: [String] = [], responses: [String] = []
        for index in 0..<400 {
            let id = UUID().uuidString.lowercased()
            placements.append("('\(id)', '\(learner)', 'es', '{}'::jsonb, now(), '{}'::jsonb)")
            // theta ~ N(0, 1) by Box-Muller.
            let theta =
                sqrt(-2 * log(Double.random(in: 1e-12..<1, using: &random))) * cos(2 * .pi * Double.random(in: 0..<1, using: &random))
            for item in truth {
                let correct = Double.random(in: 0..<1, using: &random) < 1 / (1 + exp(-1.5 * (theta - item.difficulty)))
                responses.append("('\(id)', '\(item.id)', 'es', \(correct), 5000)")
            }
            if index < 10 { responses.append("('\(id)', '\(items.last!)', 'es', true, 5000)") }
        }
        try await TestDatabase.shared.execute(
            in: app.databaseURL,
            """
            INSERT INTO placements (id, learner_id, language, session, finished_at, result) VALUES \(unescaped: placements.joined(separator: ","))
            """)
        try await TestDatabase.shared.execute(
            in: app.databaseURL,
            """
            INSERT INTO placement_responses (placement_id, item_id, language, correct, response_ms)
            VALUES \(unescaped: responses.joined(separator: ","))
            """)

        let result = try await calibratePlacement(app.settings, language: .spanish, minimumResponses: 30, logger: Logger(label: "test"))
        #expect(result.recalibrated == 3)
        #expect(result.items == 120)
        let rows = try await TestDatabase.shared.rows(
            in: app.databaseURL,
            "SELECT item_id, discrimination, difficulty, responses FROM placement_item_parameters ORDER BY difficulty")
        let estimated = try rows.map { try $0.decode((String, Double, Double, Int).self) }
        #expect(estimated.map(\.0) == truth.map(\.id))
        for (row, item) in zip(estimated, truth) {
            #expect(abs(row.2 - item.difficulty) < 0.5, "\(item.id): b \(row.2), really \(item.difficulty)")
            #expect(row.1 > 0.7 && row.1 < 3, "\(item.id): a \(row.1), really 1.5")
            #expect(row.3 == 400)
        }
    }
}

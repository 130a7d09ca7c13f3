import Foundation
import ParlaAPI
import ParlaContent
import ParlaCore
import ParlaTestSupport
import PostgresNIO
import Testing

/// Teacher mode through HTTP against real PostgreSQL, with real speech
/// scored by pocketsphinx (main seed T4.1-T4.12; the seed has no T4.3 or
/// T4.4).
@Suite("teacher mode")
struct TeacherModeTests {
    typealias Lesson = Components.Schemas.Lesson
    typealias Question = Components.Schemas.LessonQuestion
    typealias Answer = Components.Schemas.LessonAnswerResult
    typealias BarSkill = Components.Schemas.ProficiencyBar.SkillPayload
    /// The body of `GET /v1/learners/{id}/speech/attempts` (an inline schema: no `Components.Schemas` type).
    typealias SpeechAttempts = Operations.ListSpeechAttempts.Output.Ok.Body.JsonPayload
    static let testdata = "/usr/share/pocketsphinx/test/data"

    /// The bundled words and grammar exercises, to know the right answers.
    static let corpus: Corpus = {
        var files: [CorpusLoader.File] = []
        for folder in ["wordlists", "phrases", "grammar"] {
            let directory = TestApp.corporaDirectory + "/" + folder
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() where name.hasSuffix(".yaml") {
                if let text = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8) {
                    files.append(.init(path: "\(folder)/\(name)", text: text))
                }
            }
        }
        return CorpusLoader { _ in true }.load(files).0
    }()

    /// The id of the right option of a choice question, worked out from the
    /// content as a learner who knows it would (the server never says).
    static func rightOption(_ question: Question, target: Language = .french, native: Language = .english) throws -> String {
        let options = question.options.map { (id: Optional($0.id), text: $0.text) }
        let prompt = try #require(question.prompt)
        return try rightOption(question._type, prompt, options, target: target, native: native, describing: question)
    }

    private static func rightOption(
        _ type: Components.Schemas.QuestionType?, _ prompt: String, _ options: [(id: String?, text: String?)], target: Language,
        native: Language, describing question: Any
    ) throws -> String {
        let fold = PlacementQuestion.folded
        let candidates: [String]
        switch type {
        case .translationFromTarget?:
            candidates = corpus.concepts.filter { $0.localization(target)?.word.map(fold) == fold(prompt) }
                .compactMap { $0.localization(native)?.word }
        case .translationToTarget?:
            candidates = corpus.concepts.filter { $0.localization(native)?.word.map(fold) == fold(prompt) }
                .compactMap { $0.localization(target)?.word }
        case .gapFill?:
            candidates = corpus.grammarNotes.flatMap(\.exercises).filter { $0.stem == prompt }.map(\.correct)
        default:
            throw TestFailure("not a question this helper answers: \(question)")
        }
        let right = options.filter { option in candidates.contains { fold($0) == fold(option.text ?? "") } }
        guard right.count == 1, let id = right[0].id else {
            throw TestFailure("\(right.count) right options for \(question)")
        }
        return id
    }

    static func recording(_ name: String) throws -> [UInt8] {
        let raw = try Data(contentsOf: URL(fileURLWithPath: "\(testdata)/\(name).raw"))
        let samples = stride(from: 0, to: raw.count - 1, by: 2).map { Int16(bitPattern: UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8) }
        return Audio.wav(samples)
    }

    func start(
        _ client: Client, _ learner: Client.SignedUp, language: String = "fr", length: Int = 12, types: [String]? = nil,
        focus: [String]? = nil
    ) async throws -> Client.Reply {
        var json: [String: any Sendable] = ["language": language, "mode": "teacher", "length": length]
        if let types { json["types"] = types }
        if let focus { json["focus"] = focus }
        return try await client.post("/v1/learners/\(learner.learnerID)/lessons", token: learner.token, json: json)
    }

    func answer(
        _ client: Client, _ learner: Client.SignedUp, lesson: String, question: String, option: String? = nil, text: String? = nil,
        milliseconds: Int = 2000
    ) async throws -> Client.Reply {
        var json: [String: any Sendable] = ["questionId": question, "responseTimeMs": milliseconds]
        if let option { json["optionId"] = option }
        if let text { json["text"] = text }
        return try await client.post("/v1/learners/\(learner.learnerID)/lessons/\(lesson)/answers", token: learner.token, json: json)
    }

    /// A new learner's lesson of translations from French, and its first question.
    func firstTranslation(_ client: Client) async throws -> (Client.SignedUp, Lesson, String, Question) {
        let learner = try await client.signUp()
        let lesson = try await start(client, learner, types: ["translationFromTarget"]).decoded(Lesson.self)
        return (learner, lesson, lesson.id, try #require(lesson.question))
    }

    func bar(_ lesson: Lesson, _ skill: BarSkill) -> Double? {
        lesson.proficiency.first { $0.skill == skill }?.ability
    }

    func storedTheta(_ app: TestApp, _ learner: Client.SignedUp, _ skill: String) async throws -> Double? {
        let rows = try await TestDatabase.shared.rows(
            in: app.databaseURL,
            "SELECT theta FROM abilities WHERE learner_id = \(UUID(uuidString: learner.learnerID)!) AND skill = \(skill)")
        return try rows.first?.decode(Double.self)
    }

    @Test("T4.1: teacher mode is enabled by starting a lesson; the question never carries its answer")
    func enabled() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            let reply = try await start(client, learner)
            #expect(reply.status == 201, "\(reply.text)")
            let lesson = try reply.decoded(Lesson.self)
            #expect(lesson.mode == .teacher && lesson.status == .inProgress)
            #expect(lesson.length == 12 && lesson.answered == 0)
            let question = try #require(lesson.question)
            #expect(question.number == 1 && question.tries == 0)
            // Raw JSON on purpose: the answer's keys must be absent from the question (the schema has none of them, and
            // a typed decode cannot tell absent from null); so must a listening question's prompt, which is its answer.
            let raw = try #require(reply.json["question"] as? [String: any Sendable])
            #expect(raw["correctOptionId"] == nil && raw["correctAnswer"] == nil && raw["accepted"] == nil)
            #expect(lesson.proficiency.count == 5)
            if question._type == .listening { #expect(raw["prompt"] == nil && question.audio != nil) }

            // Bad requests: clear codes, nothing started.
            let other = try await client.signUp(email: "other@example.com")
            #expect(
                try await client.post("/v1/learners/\(learner.learnerID)/lessons", token: other.token, json: ["language": "fr"]).code
                    == "learner_not_found")
            let tooLong = try await start(client, other, length: 51)
            #expect(tooLong.status == 422 && tooLong.code == "validation_failed")
            #expect(try await start(client, other, focus: ["word:no-such-word"]).code == "validation_failed")
            #expect(try await start(client, other, types: []).code == "validation_failed")
            // English for an English speaker: nothing to translate.
            let untranslatable = try await start(client, other, language: "en", types: ["typedTranslation"])
            #expect(untranslatable.status == 422 && untranslatable.code == "lesson_unavailable")
            // Audio is served under the lesson, and only for questions that have some.
            let lessonID = lesson.id
            let audio = try await client.get(
                "/v1/learners/\(learner.learnerID)/lessons/\(lessonID)/questions/q9/audio", token: learner.token)
            #expect(audio.code == "asset_not_found")
            #expect(
                try await client.post("/v1/learners/\(other.learnerID)/lessons", token: other.token, json: ["language": "xx"]).status == 400
            )
            #expect(
                try await client.get("/v1/learners/\(learner.learnerID)/lessons/\(UUID())", token: learner.token).code == "lesson_not_found"
            )
            #expect(try await client.get("/v1/learners/\(learner.learnerID)/lessons/nope", token: learner.token).code == "lesson_not_found")
        }
    }

    @Test("T4.2, T4.7: every multiple-choice question has exactly one right option and is asked until it is chosen")
    func exactlyOneRight() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            var lesson = try await start(
                client, learner, length: 6,
                types: [
                    "translationFromTarget", "translationToTarget", "gapFill",
                    "picture", "listening",
                ]
            ).decoded(Lesson.self)
            let id = lesson.id
            while let question = lesson.question {
                let questionID = question.id
                let options = question.options.map(\.id)
                #expect(options.count == 4)
                // Tries every option in order: wrong ones come back disabled, exactly one is right.
                var rights = 0
                for option in options {
                    let reply = try await answer(client, learner, lesson: id, question: questionID, option: option)
                    #expect(reply.status == 200, "\(reply.text)")
                    let result = try reply.decoded(Answer.self)
                    let after = result.lesson
                    if result.correct {
                        rights += 1
                        #expect(result.correctOptionId == option)
                        lesson = after
                        break
                    }
                    // Raw JSON on purpose: a wrong answer must not carry the right option at all (absent, not null).
                    #expect(result.feedback == .wrong && reply.json["correctOptionId"] == nil)
                    let again = try #require(after.question)
                    #expect(again.id == questionID)
                    let disabled = again.options.filter(\.disabled).map(\.id)
                    #expect(disabled.contains(option))
                    #expect(
                        try await answer(client, learner, lesson: id, question: questionID, option: option).code == "option_already_tried")
                }
                #expect(rights == 1, "\(question)")
            }
            #expect(lesson.status == .finished)
        }
    }

    @Test(
        "a lesson answered through two servers in turn: each sees the other's tries and questions (OpenLessons holds only at the lesson's version)"
    )
    func answeredThroughTwoServers() async throws {
        let app = try await TestApp.make()
        let elsewhere = TestApp(databaseURL: app.databaseURL)
        try await app.run { client in
            try await elsewhere.run { other in
                let learner = try await client.signUp()
                var lesson = try await start(
                    client, learner, length: 4, types: ["translationFromTarget", "translationToTarget", "gapFill"]
                )
                .decoded(Lesson.self)
                var turn = 0
                while let question = lesson.question {
                    let (here, there) = turn % 2 == 0 ? (client, other) : (other, client)
                    turn += 1
                    let right = try Self.rightOption(question)
                    let wrong = try #require(question.options.map(\.id).first { $0 != right })
                    // A wrong try through one server (which keeps the lesson), seen by the other.
                    let tried = try await answer(here, learner, lesson: lesson.id, question: question.id, option: wrong)
                    #expect(tried.status == 200, "\(tried.text)")
                    #expect(try tried.decoded(Answer.self).correct == false)
                    #expect(
                        try await answer(there, learner, lesson: lesson.id, question: question.id, option: wrong).code
                            == "option_already_tried")
                    // The right one through the other: the first server no longer takes the question.
                    let answered = try await answer(there, learner, lesson: lesson.id, question: question.id, option: right)
                    #expect(answered.status == 200, "\(answered.text)")
                    let result = try answered.decoded(Answer.self)
                    #expect(result.correct)
                    lesson = result.lesson
                    let again = try await answer(here, learner, lesson: lesson.id, question: question.id, option: right)
                    #expect(again.code == (lesson.status == .finished ? "lesson_finished" : "not_current_question"), "\(again.text)")
                    let seen = try await here.get("/v1/learners/\(learner.learnerID)/lessons/\(lesson.id)", token: learner.token)
                    #expect(try seen.decoded(Lesson.self).question?.id == lesson.question?.id && lesson.answered == turn)
                }
                #expect(lesson.status == .finished && turn == 4)
            }
        }
    }

    @Test("T4.5, T4.6: a right answer gets positive feedback, the next question, and the bar grows")
    func rightAnswer() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let (learner, lesson, id, question) = try await firstTranslation(client)
            let before = try #require(bar(lesson, .vocabulary))
            let reply = try await answer(client, learner, lesson: id, question: question.id, option: try Self.rightOption(question))
            #expect(reply.status == 200, "\(reply.text)")
            let result = try reply.decoded(Answer.self)
            #expect(result.correct == true && result.feedback == .correct)
            #expect(result.message == "Correct! Well done.")
            #expect(result.correctAnswer != nil && result.translation != nil)
            let proficiency = result.proficiency
            #expect(proficiency.skill == .vocabulary)
            #expect((proficiency.ability ?? -9) > before)
            #expect((0...1).contains(proficiency.value))
            #expect(["A1", "A2"].contains(proficiency.level.rawValue))
            let next = try #require(result.lesson.question)
            #expect(next.id == "q2" && next.number == 2)
            // The internal state rose too, and the memory of the word is kept.
            #expect((try await storedTheta(app, learner, "vocabulary") ?? -9) > before)
            let cards = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                "SELECT reviews, phase FROM memory_cards WHERE learner_id = \(UUID(uuidString: learner.learnerID)!)")
            #expect(try cards.map { try $0.decode((Int, Int16).self).0 } == [1])
        }
    }

    @Test("T4.7, T4.8: a wrong answer gets negative feedback, the same question, and the bar does not move; it counts as wrong")
    func wrongAnswer() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let (learner, lesson, id, question) = try await firstTranslation(client)
            let questionID = question.id
            let right = try Self.rightOption(question)
            let wrongs = question.options.map(\.id).filter { $0 != right }
            let before = try #require(bar(lesson, .vocabulary))
            for wrong in wrongs.prefix(2) {
                let reply = try await answer(client, learner, lesson: id, question: questionID, option: wrong).decoded(Answer.self)
                #expect(reply.correct == false && reply.feedback == .wrong)
                #expect(reply.message == "Not quite. Have another try.")
                #expect(reply.proficiency.ability == before)
                #expect(reply.lesson.question?.id == questionID)
                #expect(try await storedTheta(app, learner, "vocabulary") == nil)
            }
            let reply = try await answer(client, learner, lesson: id, question: questionID, option: right).decoded(Answer.self)
            #expect(reply.correct == true)
            #expect(reply.lesson.question?.id == "q2")
            // T4.6, right after wrong tries: recorded as a wrong first try (the item's evidence), but a right
            // answer never lowers the bar: it stands where it stood before the item.
            #expect(reply.proficiency.ability == before)
            #expect(try await storedTheta(app, learner, "vocabulary") ?? -99 >= before)
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                "SELECT correct, tries FROM lesson_answers WHERE lesson_id = \(UUID(uuidString: id)!)")
            #expect(try rows.map { try $0.decode((Bool, Int).self) }.map { "\($0.0) \($0.1)" } == ["false 3"])

            // Answers of the wrong kind or to another question are refused.
            let q2 = "q2"
            #expect(try await answer(client, learner, lesson: id, question: q2, text: "chat").code == "answer_kind_mismatch")
            #expect(try await answer(client, learner, lesson: id, question: "q1", option: "a").code == "not_current_question")
            #expect(try await answer(client, learner, lesson: id, question: q2, option: "z").code == "option_not_found")
            #expect(try await answer(client, learner, lesson: id, question: q2).code == "validation_failed")
        }
    }

    @Test("typed translation: case and punctuation do not matter; a missing accent is almost, with the spelling")
    func typedTranslation() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            var lesson = try await start(client, learner, length: 4, types: ["typedTranslation"]).decoded(Lesson.self)
            let id = lesson.id
            while let question = lesson.question {
                let prompt = try #require(question.prompt)
                let word = try #require(
                    Self.corpus.concepts.first { $0.localization(.english)?.word == prompt }?.localization(.french)?.word)
                #expect(
                    try await answer(client, learner, lesson: id, question: question.id, text: "zzz").decoded(Answer.self).correct
                        == false)
                #expect(try await answer(client, learner, lesson: id, question: question.id, text: "  ").code == "empty_text")
                let bare = word.folding(options: .diacriticInsensitive, locale: nil)
                let reply = try await answer(client, learner, lesson: id, question: question.id, text: " \(bare.uppercased())! ")
                let result = try reply.decoded(Answer.self)
                #expect(result.correct == true, "\(prompt) -> \(bare): \(reply.text)")
                if bare != word {
                    #expect(result.feedback == .almost && result.expected != nil)
                }
                lesson = result.lesson
            }
        }
    }

    @Test("T4.9-T4.12: a recording is graded by the speech scorer; a failing one names the words and is asked again")
    func repetition() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            let lesson = try await start(client, learner, language: "en", focus: ["phrase:directions-go-forward-ten-metres"])
                .decoded(Lesson.self)
            let id = lesson.id
            let question = try #require(lesson.question)
            #expect(question._type == .repetition && question.skill == .speaking)
            #expect(question.prompt == "Go forward ten metres.")
            let before = try #require(bar(lesson, .speaking))
            let path = "/v1/learners/\(learner.learnerID)/lessons/\(id)/recordings?questionId=q1"
            // T4.11, T4.12: another recording fails, twice; the words to work on are named and the question comes back.
            for _ in 1...2 {
                let failed = try await client.send(
                    .post, path, token: learner.token, body: try Self.recording("numbers"),
                    headers: ["Content-Type": "audio/wav"])
                #expect(failed.status == 200, "\(failed.text)")
                let result = try failed.decoded(Answer.self)
                #expect(result.correct == false)
                #expect(!(result.wordsToPractise ?? []).isEmpty)
                #expect(result.proficiency.ability == before)
                #expect(result.lesson.question?.id == "q1")
            }
            // An answer that is not a recording does not count.
            #expect(try await answer(client, learner, lesson: id, question: "q1", option: "a").code == "answer_kind_mismatch")
            // A recording of silence is not a try.
            let silence = try await client.send(
                .post, path, token: learner.token, body: Audio.wav([Int16](repeating: 0, count: 32000)),
                headers: ["Content-Type": "audio/wav"])
            #expect(silence.status == 422, "\(silence.text)")
            // T4.9, T4.10: the right phrase passes, with positive feedback and the next question.
            let passed = try await client.send(
                .post, path, token: learner.token, body: try Self.recording("goforward"),
                headers: ["Content-Type": "audio/wav", "Accept-Language": "fr"])
            #expect(passed.status == 200, "\(passed.text)")
            let result = try passed.decoded(Answer.self)
            #expect(result.correct == true)
            #expect([Answer.FeedbackPayload.great, .good].contains(result.feedback))
            #expect(result.message.hasPrefix("Bravo") || result.message.hasPrefix("Excellent"))
            #expect(result.lesson.question?.id == "q2")
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                "SELECT correct, tries FROM lesson_answers WHERE lesson_id = \(UUID(uuidString: id)!)")
            #expect(try rows.map { try $0.decode((Bool, Int).self) }.map { "\($0.0) \($0.1)" } == ["false 3"])

            // A first-try pass raises the speaking bar (T4.10).
            let fresh = try await client.signUp(email: "fresh@example.com")
            let second = try await start(client, fresh, language: "en", focus: ["phrase:directions-go-forward-ten-metres"])
                .decoded(Lesson.self)
            let secondID = second.id
            let first = try #require(bar(second, .speaking))
            let pass = try await client.send(
                .post, "/v1/learners/\(fresh.learnerID)/lessons/\(secondID)/recordings?questionId=q1",
                token: fresh.token, body: try Self.recording("goforward"), headers: ["Content-Type": "audio/wav"])
            let passing = try pass.decoded(Answer.self)
            #expect(passing.correct == true, "\(pass.text)")
            #expect((passing.proficiency.ability ?? -9) > first)
        }
    }

    /// Issue 32, item 10: never stuck on a speaking question.
    @Test("\"I can't speak now\": speaking questions skip for an hour, the lesson goes on, the skip is not wrong; a lesson can be left")
    func cannotSpeakNow() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            let focus = ["phrase:directions-go-forward-ten-metres"]
            let types = ["repetition", "translationFromTarget", "translationToTarget"]
            let lesson = try await start(client, learner, length: 6, types: types, focus: focus).decoded(Lesson.self)
            let id = lesson.id
            #expect(lesson.question?._type == .repetition)
            let base = "/v1/learners/\(learner.learnerID)/lessons/\(id)"
            let paused = try await client.post("\(base)/speaking-pause", token: learner.token, json: [:])
            #expect(paused.status == 200, "\(paused.text)")
            var view = try paused.decoded(Lesson.self)
            var current = try #require(view.question)
            // A new id: a late answer to the skipped question, or its kept audio, never meets this one.
            #expect(current._type != .repetition && current.id == "q2")
            // The lesson goes on without speaking to its end; the skip is no answer.
            while let question = view.question {
                current = question
                #expect(current._type != .repetition)
                let reply = try await answer(client, learner, lesson: id, question: current.id, option: try Self.rightOption(current))
                #expect(reply.status == 200, "\(reply.text)")
                view = try reply.decoded(Answer.self).lesson
            }
            #expect(view.status == .finished)
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                "SELECT count(*)::int, count(*) FILTER (WHERE NOT correct)::int FROM lesson_answers WHERE lesson_id = \(UUID(uuidString: id)!)"
            )
            #expect(try rows[0].decode((Int, Int).self) == (6, 0))
            // A lesson started within the hour asks no speaking either, even for a phrase in focus.
            let next = try await start(client, learner, length: 3, types: types, focus: focus).decoded(Lesson.self)
            #expect(next.question?._type != .repetition)

            // A lesson can be left at any time, and a new one started.
            let nextID = next.id
            let left = try await client.post("/v1/learners/\(learner.learnerID)/lessons/\(nextID)/abandon", token: learner.token, json: [:])
            #expect(left.status == 204, "\(left.text)")
            #expect(try await client.get("/v1/learners/\(learner.learnerID)/lessons/\(nextID)", token: learner.token).status == 410)
            let fresh = try await start(client, learner, length: 3, types: types)
            let started = try fresh.decoded(Lesson.self)
            #expect(fresh.status == 201 && started.id != nextID)
            let stranger = try await client.signUp(email: "stranger@example.com")
            #expect(
                try await client.post("/v1/learners/\(stranger.learnerID)/lessons/\(nextID)/abandon", token: stranger.token, json: [:])
                    .code == "lesson_not_found")
        }
    }

    /// Issue 32, item 7: a lesson's recording is scored like an attempt and
    /// counts as one: it is kept among the learner's attempts, and the free
    /// and lite plans' `speechAttemptsPerDay` refuse it with 402 as they
    /// refuse attempts.
    @Test("lesson recordings count against the plan's daily speech attempts (free and lite: 402) and are kept as attempts")
    func recordingsCountAgainstThePlan() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            let lesson = try await start(client, learner, language: "en", focus: ["phrase:directions-go-forward-ten-metres"])
                .decoded(Lesson.self)
            let path = "/v1/learners/\(learner.learnerID)/lessons/\(lesson.id)/recordings?questionId=q1"
            func record() async throws -> Client.Reply {
                try await client.send(
                    .post, path, token: learner.token, body: try Self.recording("numbers"), headers: ["Content-Type": "audio/wav"])
            }
            func attempts() async throws -> Int {
                try await TestDatabase.shared.rows(
                    in: app.databaseURL,
                    "SELECT count(*)::int FROM speech_attempts WHERE learner_id = \(UUID(uuidString: learner.learnerID)!)"
                )[0].decode(Int.self)
            }
            /// Attempts made earlier today, as if spoken.
            func spoken(_ count: Int) async throws {
                try await TestDatabase.shared.execute(
                    in: app.databaseURL,
                    """
                    INSERT INTO speech_attempts (id, learner_id, language, text, overall, passed, feedback, duration, result)
                    SELECT gen_random_uuid(), \(UUID(uuidString: learner.learnerID)!), 'en', 'hello', 50, false, 'tryAgain', 1, '{}'
                    FROM generate_series(1, \(count))
                    """)
            }
            let scored = try await record()
            #expect(scored.status == 200, "\(scored.text)")
            #expect(try await attempts() == 1)
            let history = try await client.get("/v1/learners/\(learner.learnerID)/speech/attempts", token: learner.token)
            #expect(try history.decoded(SpeechAttempts.self).attempts.first?.text == "Go forward ten metres.")

            // Free: 50 a day, the lesson's recordings among them.
            try await spoken(49)
            let free = try await record()
            #expect(free.status == 402 && free.code == "plan_limit_reached", "\(free.text)")
            #expect(try await attempts() == 50)

            // Lite: 200 a day.
            try await app.grant("lite", to: learner, client: client)
            #expect(try await record().status == 200)
            try await spoken(149)
            let lite = try await record()
            #expect(lite.status == 402 && lite.code == "plan_limit_reached", "\(lite.text)")
            #expect(try await attempts() == 200)
        }
    }

    /// Issue 32, item 7: the recording rate limits (per account, per
    /// address) count a lesson's recordings before anything is scored.
    @Test("lesson recordings count against the per-account and per-address recording rate limits (429)")
    func recordingsAreRateLimited() async throws {
        for perAccount in [true, false] {
            let limit = try await RateLimitTests.daily(2)
            let app = try await TestApp.make {
                if perAccount {
                    $0.rateLimits.policy.perAccount[.recording] = limit
                } else {
                    $0.rateLimits.policy.perAddress[.recording] = limit
                }
            }
            try await app.runLive { client, _ in
                let learner = try await client.signUp()
                let lesson = try await start(client, learner, language: "en", focus: ["phrase:directions-go-forward-ten-metres"])
                    .decoded(Lesson.self)
                let path = "/v1/learners/\(learner.learnerID)/lessons/\(lesson.id)/recordings?questionId=q1"
                func record() async throws -> Client.Reply {
                    try await client.send(
                        .post, path, token: learner.token, body: Array("not audio".utf8), headers: ["Content-Type": "audio/wav"])
                }
                #expect(try await record().code == "unsupported_audio")
                #expect(try await record().code == "unsupported_audio")
                let refused = try await record()
                #expect(refused.status == 429 && refused.code == "too_many_requests", "per account: \(perAccount)")
                #expect(refused.header("Retry-After") != nil)
            }
        }
    }

    /// The concept a template's word (French) or translation (English) shows.
    /// Every concept a shown word can stand for: a word can name several
    /// ("neuf" is nine and new), and the test must not guess which.
    static func concepts(_ text: String?, _ language: Language) throws -> Set<String> {
        let fold = PlacementQuestion.folded
        let matches = corpus.concepts.filter { $0.localization(language)?.word.map(fold) == text.map(fold) }.map(\.key)
        guard !matches.isEmpty else { throw TestFailure("no \(language) word \(text ?? "-")") }
        return Set(matches)
    }

    func drop(_ client: Client, _ learner: Client.SignedUp, lesson: String, question: String, item: String, target: String? = nil)
        async throws -> Client.Reply
    {
        var json: [String: any Sendable] = ["questionId": question, "optionId": item, "responseTimeMs": 1500]
        if let target { json["targetId"] = target }
        return try await client.post("/v1/learners/\(learner.learnerID)/lessons/\(lesson)/answers", token: learner.token, json: json)
    }

    @Test("seed 001 templates in a lesson: sequencing and drag matching, one drop at a time; each placed word is learnt")
    func templates() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let numbers = try #require(Self.corpus.wordLists.first { $0.id == "numbers" }).words.map(\.key)
            let learner = try await client.signUp()
            // Sequencing orders numbers: a list bought (the starter set does not open it).
            try await app.grant("numbers", to: learner, client: client)

            // Sequencing: numbers in order, one box at a time.
            var lesson = try await start(client, learner, length: 2, types: ["sequencing"]).decoded(Lesson.self)
            let id = lesson.id
            var question = try #require(lesson.question)
            #expect(question._type == .sequencing && question.prompt == nil)
            let items = question.options
            #expect(items.count == 4 && question.placed?.isEmpty == true)
            let position = { (item: Question.OptionsPayloadPayload) throws -> Int in
                let named = try Self.concepts(item.text, .french)
                return try #require(numbers.firstIndex { named.contains($0) })
            }
            let order = try items.sorted { try position($0) < position($1) }.map(\.id)
            let qid = question.id
            // The second item first: it pops back, nothing is learnt, the bar stays.
            let wrong = try await drop(client, learner, lesson: id, question: qid, item: order[1])
            let popped = try wrong.decoded(Answer.self)
            #expect(wrong.status == 200 && popped.correct == false && popped.feedback == .wrong)
            #expect(bar(popped.lesson, .vocabulary) == bar(lesson, .vocabulary))
            for (index, item) in order.enumerated() {
                let reply = try await drop(client, learner, lesson: id, question: qid, item: item)
                let result = try reply.decoded(Answer.self)
                #expect(result.correct == true, "\(reply.text)")
                lesson = result.lesson
                if index < 3 {
                    // The order is not given away before the question is done. Raw JSON on purpose: the key must be
                    // absent, which a typed decode cannot tell from null.
                    #expect(reply.json["correctAnswer"] == nil)
                    question = try #require(lesson.question)
                    #expect(question.id == qid)
                    #expect(question.placed?.map(\.optionId) == Array(order.prefix(index + 1)))
                    #expect(question.options.filter(\.disabled).count == index + 1)
                    #expect(try await drop(client, learner, lesson: id, question: qid, item: item).code == "option_already_tried")
                } else {
                    #expect(result.correctAnswer != nil)
                }
            }
            // The next question comes once all four are in place.
            question = try #require(lesson.question)
            #expect(question.id == "q2" && question._type == .sequencing)
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                """
                SELECT question_id, item_id, correct, tries FROM lesson_answers WHERE lesson_id = \(UUID(uuidString: id)!) ORDER BY answered_at, question_id
                """)
            let answers = try rows.map { try $0.decode((String, String, Bool, Int).self) }
            // Three words learnt: the fourth could go only one place.
            #expect(answers.count == 3 && answers.allSatisfy { $0.0.hasPrefix("q1/") && $0.1.hasPrefix("word:") })
            #expect(answers.filter { !$0.2 }.count == 1 && answers.first { !$0.2 }?.3 == 2)
            let cards = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                """
                SELECT count(*)::int FROM memory_cards WHERE learner_id = \(UUID(uuidString: learner.learnerID)!) AND item_id LIKE 'word:%'
                """)
            #expect(try cards.first?.decode(Int.self) == 3)

            // Drag matching: each word onto its translation.
            let other = try await client.signUp(email: "drag@example.com")
            lesson = try await start(client, other, length: 1, types: ["dragMatching"]).decoded(Lesson.self)
            let dragID = lesson.id
            question = try #require(lesson.question)
            #expect(question._type == .dragMatching)
            let words = question.options
            let targets = try #require(question.targets)
            #expect(words.count == 4 && targets.count == 4)
            let dragQuestion = question.id
            var pairs: [(String, String)] = []
            for word in words {
                // The one target that translates the word: exactly one, as the question promises.
                let named = try Self.concepts(word.text, .french)
                let fitting = try targets.filter { !named.isDisjoint(with: try Self.concepts($0.text, .english)) }
                #expect(fitting.count == 1, "\(word) fits \(fitting)")
                let target = try #require(fitting.first)
                pairs.append((word.id, target.id))
            }
            #expect(
                try await drop(client, other, lesson: dragID, question: dragQuestion, item: pairs[0].0, target: "nowhere").code
                    == "target_not_found")
            #expect(try await drop(client, other, lesson: dragID, question: dragQuestion, item: pairs[0].0).code == "answer_kind_mismatch")
            let miss = try await drop(client, other, lesson: dragID, question: dragQuestion, item: pairs[0].0, target: pairs[1].1)
            #expect(try miss.decoded(Answer.self).correct == false)
            for (index, (word, target)) in pairs.enumerated() {
                let reply = try await drop(client, other, lesson: dragID, question: dragQuestion, item: word, target: target)
                let result = try reply.decoded(Answer.self)
                #expect(result.correct == true, "\(reply.text)")
                let after = result.lesson
                if index < 3 {
                    let filled = after.question?.targets?.filter(\.filled)
                    #expect(filled?.count == index + 1)
                } else {
                    #expect(after.status == .finished)
                    let summary = try #require(after.summary)
                    #expect(summary.questions == 1)
                }
            }
        }
    }

    @Test(
        "a lesson ends with a summary; a learner who always answers right climbs, one who is always wrong first never does, nor drops (T4.6)"
    )
    func climbAndSummary() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let types = ["translationFromTarget", "translationToTarget", "gapFill"]
            var results: [Bool: Components.Schemas.LessonSummary] = [:]
            for right in [true, false] {
                let learner = try await client.signUp(email: "\(right)@example.com")
                var lesson = try await start(client, learner, length: 10, types: types).decoded(Lesson.self)
                let id = lesson.id
                let start = try #require(bar(lesson, .vocabulary))
                while let question = lesson.question {
                    let questionID = question.id
                    let correct = try Self.rightOption(question)
                    if !right {
                        let wrong = question.options.map(\.id).first { $0 != correct }!
                        _ = try await answer(client, learner, lesson: id, question: questionID, option: wrong)
                    }
                    let reply = try await answer(client, learner, lesson: id, question: questionID, option: correct).decoded(Answer.self)
                    let skill = try #require(reply.proficiency.skill)
                    let now = try #require(reply.proficiency.ability)
                    let was = try #require(bar(lesson, skill))
                    // T4.6: found at last, the bar never drops (nor rises).
                    #expect(right ? now > was : abs(now - was) < 1e-9, "\(skill.rawValue): \(was) -> \(now)")
                    lesson = reply.lesson
                }
                #expect(lesson.status == .finished && lesson.finishedAt != nil)
                let summary = try #require(lesson.summary)
                #expect(summary.questions == 10)
                #expect(summary.firstTryCorrect == (right ? 10 : 0))
                #expect(summary.accuracy == (right ? 1 : 0))
                #expect(summary.newWords > 0)
                let skills = summary.skills
                #expect(skills.contains { $0.skill == .vocabulary })
                let vocabulary = try #require(bar(lesson, .vocabulary))
                #expect(right ? vocabulary > start : abs(vocabulary - start) < 1e-9)
                results[right] = summary
                // The summary stays; no more answers.
                let again = try await client.get("/v1/learners/\(learner.learnerID)/lessons/\(id)", token: learner.token)
                #expect(try again.decoded(Lesson.self).summary?.questions == 10)
                #expect(try await answer(client, learner, lesson: id, question: "q10", option: "a").code == "lesson_finished")
                // The proficiency page shows the lessons' gaps by topic or grammar note.
                let proficiency = try await client.get("/v1/learners/\(learner.learnerID)/proficiency?language=fr", token: learner.token)
                    .decoded(Components.Schemas.Proficiency.self)
                if !right { #expect(!proficiency.gaps.isEmpty) }
            }
            let gaps = results[false]?.gaps ?? []
            #expect(gaps.count > 0)
            #expect(gaps.contains { $0.kind == .grammarNote } || gaps.contains { $0.kind == .topic })
        }
    }

    @Test("T2.4: a learner who leaves finds the lesson where it was, after a restart too; a lesson idle for a day expires")
    func resumeAndExpire() async throws {
        let app = try await TestApp.make()
        let (learner, lessonID) = try await app.run { client in
            let learner = try await client.signUp()
            let lesson = try await start(client, learner, types: ["translationFromTarget"]).decoded(Lesson.self)
            let id = lesson.id
            let question = try #require(lesson.question)
            _ = try await answer(client, learner, lesson: id, question: "q1", option: try Self.rightOption(question))
            return (learner, id)
        }
        // Another server on the same database: the lesson is where it was.
        try await TestApp(databaseURL: app.databaseURL).run { client in
            let again = try await start(client, learner, types: ["gapFill"])
            let resumed = try again.decoded(Lesson.self)
            #expect(again.status == 200 && resumed.id == lessonID)
            #expect(resumed.question?.id == "q2")
            let got = try await client.get("/v1/learners/\(learner.learnerID)/lessons/\(lessonID)", token: learner.token)
            let kept = try got.decoded(Lesson.self)
            #expect(got.status == 200 && kept.question?.id == "q2" && kept.answered == 1)

            try await TestDatabase.shared.execute(
                in: app.databaseURL,
                "UPDATE lessons SET touched_at = now() - interval '25 hours' WHERE id = \(UUID(uuidString: lessonID)!)")
            let expired = try await client.get("/v1/learners/\(learner.learnerID)/lessons/\(lessonID)", token: learner.token)
            #expect(expired.status == 410 && expired.code == "lesson_expired")
            #expect(try await answer(client, learner, lesson: lessonID, question: "q2", option: "a").code == "lesson_expired")
            let fresh = try await start(client, learner)
            let started = try fresh.decoded(Lesson.self)
            #expect(fresh.status == 201 && started.id != lessonID)
        }
    }
}

import Foundation
import ParlaAPI
import ParlaContent
import ParlaCore
import ParlaTestSupport
import Testing

/// The Learn to Read letters pack over HTTP (issue 35, seeds 001 and 003):
/// a letter heard and its tile tapped, a word spelled with letter tiles, in
/// the course's variant and the learner's letter case, live and offline.
@Suite("the course: letters and spelling screens over HTTP")
struct LettersLessonHTTPTests {
    typealias Lesson = Components.Schemas.Lesson
    typealias Verdict = Components.Schemas.LessonAnswerResult

    @Test("a letters lesson in American phonics, in capitals: the letter heard under the lesson, a word spelled tile by tile, each taught")
    func lettersAndSpelling() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp(language: "fr")
            let learnerPath = "/v1/learners/\(learner.learnerID)"
            let course = try await client.post(
                learnerPath + "/courses", token: learner.token, json: ["language": "en", "start": "beginning", "variant": "en-phonics"])
            #expect(course.status == 201, "\(course.text)")
            _ = try await client.patch(learnerPath, token: learner.token, json: ["letterCase": "upper"])
            // Letters and sounds is sold (seed 001): locked until the account has it.
            let start: [String: any Sendable] = ["language": "en", "mode": "course", "courseLesson": "en-read-letters-02"]
            let locked = try await client.post(learnerPath + "/lessons", token: learner.token, json: start)
            #expect(locked.status == 403 && locked.code == "pack_locked", "\(locked.text)")
            try await app.grant("course-read-letters", to: learner, client: client)
            let started = try await client.post(learnerPath + "/lessons", token: learner.token, json: start)
            #expect(started.status == 201, "\(started.text)")
            var lesson = try started.decoded(Lesson.self)
            let answers = "\(learnerPath)/lessons/\(lesson.id)/answers"
            func post(_ json: [String: any Sendable]) async throws -> Verdict {
                let reply = try await client.post(answers, token: learner.token, json: json)
                #expect(reply.status == 200, "\(reply.text)")
                let verdict = try reply.decoded(Verdict.self)
                lesson = verdict.lesson
                return verdict
            }

            // Screen 1: "i", heard as American phonics says it, among S, A and T.
            let letters = try #require(lesson.question)
            #expect(letters._type == .letters && letters.skill == .reading && letters.prompt == nil)
            #expect(lesson.course?.template == .letters && lesson.course?.instruction?.isEmpty == false)
            #expect(Set(letters.options.compactMap(\.text)) == ["I", "S", "A", "T"] && letters.options.allSatisfy { $0.audio == nil })
            // Its audio is served under the lesson: the asset's name would say which letter it is.
            #expect(letters.audio == "\(learnerPath)/lessons/\(lesson.id)/questions/\(letters.id)/audio")
            _ = try await app.buildAssets { $0.key == .letter(variant: "en-phonics", letter: "i", final: false) }
            let heard = try await client.get(try #require(letters.audio), token: learner.token)
            #expect(heard.status == 200 && heard.bytes.starts(with: Array("OggS".utf8)), "\(heard.status)")
            let option = { (text: String) in letters.options.first { $0.text == text }!.id }
            let wrong = try await post(["questionId": letters.id, "optionId": option("S")])
            #expect(!wrong.correct && wrong.feedback == .wrong && lesson.course?.retry?.isEmpty == false)
            let right = try await post(["questionId": letters.id, "optionId": option("I")])
            #expect(right.correct && lesson.question?.id != letters.id)

            // The other letters screens, then the first word: "man".
            while let question = lesson.question, question._type == .letters {
                lesson = try await CourseLessonHTTPTests().answerRight(client, learner, lesson, question).0
            }
            let spelling = try #require(lesson.question)
            #expect(
                spelling._type == .spelling && spelling.prompt == nil && spelling.picture != nil && lesson.course?.template == .spelling)
            // Said by the American voice, in its own slot.
            let said = try await app.buildAssets { $0.key == .variantWord(concept: "man", tag: "en-US") }
            #expect(spelling.audio == said.values.first.map { "/v1/assets/" + $0.name })
            #expect(spelling.options.compactMap(\.text).sorted() == ["A", "M", "N"])
            // Each tile says its letter, as the variant does.
            let tileAudio = spelling.options.compactMap(\.audio)
            #expect(tileAudio.count == 3 && Set(tileAudio).count == 3)
            #expect(
                spelling.targets?.map(\.id) == ["0", "1", "2"] && spelling.targets?.allSatisfy { !$0.filled && $0.text.isEmpty } == true)
            // Each place says its letter as it sounds there.
            #expect(spelling.targets?.allSatisfy { $0.audio != nil } == true)
            let tile = { (text: String) in spelling.options.first { $0.text == text }!.id }

            // A tile on the wrong place pops back; the right ones stay and show their letter.
            let popped = try await post(["questionId": spelling.id, "optionId": tile("A"), "targetId": "0"])
            #expect(!popped.correct && lesson.question?.id == spelling.id && lesson.question?.tries == 1)
            #expect(lesson.question?.options.allSatisfy { !$0.disabled } == true)
            let placed = try await post(["questionId": spelling.id, "optionId": tile("M"), "targetId": "0"])
            #expect(placed.correct && placed.correctAnswer == nil)
            #expect(lesson.question?.targets?.first?.text == "M" && lesson.question?.targets?.first?.filled == true)
            #expect(lesson.question?.options.first { $0.id == tile("M") }?.disabled == true)
            let taken = try await client.post(
                answers, token: learner.token, json: ["questionId": spelling.id, "optionId": tile("A"), "targetId": "0"])
            #expect(taken.status == 409 || taken.status == 422, "\(taken.text)")
            _ = try await post(["questionId": spelling.id, "optionId": tile("A"), "targetId": "1"])
            let spelled = try await post(["questionId": spelling.id, "optionId": tile("N"), "targetId": "2"])
            #expect(spelled.correct && spelled.correctAnswer == "MAN" && spelled.translation == "homme", "\(spelled)")
            #expect(lesson.question?.id != spelling.id)

            // The word is taught once, wrong (a tile went astray); the letters each once.
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                "SELECT question_id, correct FROM lesson_answers WHERE lesson_id = \(UUID(uuidString: lesson.id)!) ORDER BY question_id")
            let taught = try rows.reduce(into: [String: Bool]()) { taught, row in
                let (question, correct) = try row.decode((String, Bool).self)
                taught[question] = correct
            }
            #expect(taught["\(spelling.id)/man"] == false && taught[letters.id] == false && taught.count == 6, "\(taught)")
            let cards = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                "SELECT item_id FROM memory_cards WHERE learner_id = \(UUID(uuidString: learner.learnerID)!) ORDER BY item_id")
            let items = try cards.map { try $0.decode(String.self) }
            #expect(items.contains("word:man") && items.contains("letter:i") && items.contains("letter:p"), "\(items)")

            // The rest of it, to its end.
            while let question = lesson.question {
                lesson = try await CourseLessonHTTPTests().answerRight(client, learner, lesson, question).0
            }
            #expect(lesson.status == .finished && lesson.summary?.questions == 8)
        }
    }

    @Test(
        "every language: the letters pack taken offline, its spelling tiles placed where the key says, the log replayed",
        arguments: Language.allCases)
    func offline(_ language: Language) async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp(language: language == .english ? "fr" : "en")
            _ = try await client.startCourse(language.code, for: learner)
            try await app.grant("course-read-letters", to: learner, client: client)
            let learnerPath = "/v1/learners/\(learner.learnerID)"
            let bundle = try await client.get(learnerPath + "/packs/\(language.code)-read-letters/bundle", token: learner.token)
            #expect(bundle.status == 200, "\(bundle.text)")
            let lessons = try bundle.decoded(Components.Schemas.CoursePackBundle.self).lessons
            #expect(lessons.count == 6)
            var spelled = 0
            for lesson in lessons {
                for entry in lesson.questions {
                    let question = entry.question
                    switch question._type {
                    case .letters:
                        #expect(
                            entry.answer.optionId != nil && question.options.count == 4 && question.audio?.hasPrefix("/v1/assets/") == true)
                    case .spelling:
                        spelled += 1
                        let matches = try #require(entry.answer.matches)
                        #expect(Set(matches.map(\.optionId)) == Set(question.options.map(\.id)), "\(lesson.lessonId)")
                        #expect(question.options.allSatisfy { $0.audio != nil } && question.picture != nil && question.audio != nil)
                    default: Issue.record("\(lesson.lessonId): \(question._type)")
                    }
                }
            }
            #expect(spelled >= 16, "\(language.code): \(spelled) words")
            // Lesson 2 spells words in every language: taken on the device, sent back, replayed whole,
            // written as the download was though the letter case changed since.
            let second = lessons[1]
            #expect(second.seed.hasSuffix("~lower"), "\(second.seed)")
            _ = try await client.patch(learnerPath, token: learner.token, json: ["letterCase": "upper"])
            var forged = OfflineLessonHTTPTests.log(second, startedAt: Date().addingTimeInterval(-600), tries: [])
            forged["seed"] = "0~xx~upper"
            let refused = try await client.put(
                learnerPath + "/lessons/\(UUID().uuidString.lowercased())/log", token: learner.token, json: forged)
            #expect(refused.status == 422 && refused.code == "lesson_log_rejected", "\(refused.text)")
            let tries = OfflineLessonHTTPTests.tries(second, wrongFirst: false)
            let sent = try await client.put(
                learnerPath + "/lessons/\(UUID().uuidString.lowercased())/log", token: learner.token,
                json: OfflineLessonHTTPTests.log(second, startedAt: Date().addingTimeInterval(-600), tries: tries))
            #expect(sent.status == 201, "\(sent.text)")
            let replayed = try sent.decoded(Lesson.self)
            #expect(replayed.status == .finished && replayed.summary?.firstTryCorrect == second.questions.count, "\(language.code)")
        }
    }
}

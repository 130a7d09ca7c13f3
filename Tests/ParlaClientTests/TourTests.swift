import Foundation
import OpenAPIRuntime
import ParlaClient
import ParlaTestSupport
import Testing

/// Issue 33, item 9: README.md's tour walked by an app's client, the one
/// ParlaClient generates from openapi.yaml, against a live server. Each step
/// makes the requests its curl calls make (checked against the README, so a
/// new step or a changed address fails here) and decodes every answer into
/// the generated types: the spec, the server and a real client cannot drift.
@Suite("Swift client")
struct TourTests {
    @Test("README's tour, every step, through ParlaClient against a live server")
    func tour() async throws {
        let tour = try Tour.read()
        let app = try await TestApp.make()
        try await app.runLive { _, port in
            let server = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let log = RequestLog()
            var walked = 0
            /// Checks that step `number` of the README is `title` and made
            /// the requests its curl calls make, no more, no fewer.
            func step(_ number: Int, _ title: String) {
                walked = number
                let made = log.take()
                guard number <= tour.steps.count else {
                    Issue.record("README's tour has no step \(number) (\(title))")
                    return
                }
                let expected = tour.steps[number - 1]
                #expect(expected.title == "\(number). \(title)")
                for request in made where !expected.requests.contains(where: { $0.matches(request) }) {
                    Issue.record("step \(number) made \(request), which the README's step does not")
                }
                for request in expected.requests where !made.contains(where: { request.matches($0) }) {
                    Issue.record("step \(number) did not make \(request), which the README's step does")
                }
            }
            let parla = Client(serverURL: server, middlewares: [log])

            // 1. Sign up.
            let signedUp = try await parla.createAccount(
                body: .json(
                    .init(
                        firstName: "Zoë", lastName: "Martin", email: "zoe@example.com", password: "correct horse battery",
                        acceptTerms: true, uiLanguage: "en"))
            ).created.body.json
            let learner = try #require(signedUp.learners.first)
            #expect(signedUp.account.termsVersion == "2026-11-01")
            #expect(learner.displayName == "Zoë" && learner.nativeLanguage == .en)
            let zoe = Client(serverURL: server, token: signedUp.session.token, middlewares: [log])
            let path = learner.id
            step(1, "Sign up.")

            // 2. Start a course.
            let course = try await zoe.startCourse(path: .init(learnerId: path), body: .json(.init(language: .fr, start: .placement)))
                .created.body.json
            #expect(course.language == .fr && course.start == .placement && course.level == nil)
            step(2, "Start a course.")

            // 3. Look a word up.
            let word = try await parla.getWord(path: .init(language: "fr", wordId: "cat")).ok.body.json
            #expect(word.word == "chat" && word.article == "le" && word.plural == "chats" && word.level == "A1")
            #expect(word.definition == "Le chat est un petit animal domestique qui miaule.")
            #expect(word.lists == ["animals"])
            step(3, "Look a word up.")

            // 4. Begin the placement test.
            var placement = try await zoe.startPlacement(path: .init(learnerId: path), body: .json(.init(language: .fr))).created.body
                .json
            let first = try #require(placement.question)
            #expect(placement.status == .inProgress && placement.answered == 0)
            #expect(first.number == 1 && !first.stem.isEmpty && first.options.map(\.id) == ["a", "b", "c", "d"])
            step(4, "Begin the placement test.")

            // 5. Answer three questions.
            for answered in 1...3 {
                let question = try #require(placement.question)
                placement = try await zoe.answerPlacement(
                    path: .init(learnerId: path, placementId: placement.id),
                    body: .json(.init(itemId: question.itemId, optionId: "a", responseTimeMs: 5000))
                ).ok.body.json
                #expect(placement.answered == answered && placement.status == .inProgress)
                #expect(placement.question?.number == answered + 1 && placement.question?.itemId != question.itemId)
            }
            step(5, "Answer three questions.")

            // 6. Start a lesson.
            let lesson = try await zoe.startLesson(
                path: .init(learnerId: path),
                body: .json(.init(language: .fr, length: 5, types: [.translationFromTarget], focus: ["word:cat"]))
            ).created.body.json
            let question = try #require(lesson.question)
            #expect(lesson.length == 5 && question.id == "q1" && question.prompt == "chat")
            #expect(question.options.count == 4)
            step(6, "Start a lesson.")

            // 7. Answer it.
            let cat = try #require(question.options.first { $0.text == "cat" })
            let answer = try await zoe.answerLesson(
                path: .init(learnerId: path, lessonId: lesson.id),
                body: .json(.init(questionId: "q1", optionId: cat.id, responseTimeMs: 2500))
            ).ok.body.json
            #expect(answer.correct && answer.feedback == .correct && answer.message == "Correct! Well done.")
            #expect(answer.proficiency.skill == .vocabulary && answer.proficiency.value > 0)
            #expect(answer.lesson.answered == 1 && answer.lesson.question?.id == "q2")
            step(7, "Answer it.")

            // 8. Score a recording.
            let clip = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav"
            let sentence = "He was not an ill-disposed young man."
            let attempt = try await zoe.createSpeechAttempt(
                path: .init(learnerId: path), query: .init(language: .en, text: sentence),
                body: .audioWav(HTTPBody(try Data(contentsOf: URL(fileURLWithPath: clip))))
            ).created.body.json
            #expect(attempt.text == sentence && attempt.language == "en")
            #expect(attempt.result.words.map(\.text) == ["He", "was", "not", "an", "ill-disposed", "young", "man"])
            #expect(attempt.result.words.allSatisfy { !$0.phones.isEmpty } && (0...100).contains(attempt.result.overall))
            #expect(attempt.result.passed && !attempt.result.message.isEmpty)
            #expect(attempt.result.prosody != nil && attempt.result.words.allSatisfy { $0.stress != nil })
            // The same recording as "nut": the alignment hears /ɑ/ in /ʌ/'s place.
            let nut = try await zoe.createSpeechAttempt(
                path: .init(learnerId: path), query: .init(language: .en, text: "He was nut an ill-disposed young man."),
                body: .audioWav(HTTPBody(try Data(contentsOf: URL(fileURLWithPath: clip))))
            ).created.body.json
            let heard = nut.result.words.flatMap(\.phones).filter { $0.substituted == true }
            #expect(heard.map(\.ipa) == ["ʌ"] && heard.map(\.heardAs) == ["ɑ"])
            step(8, "Score a recording.")

            // 9. Deal a card game.
            var game = try await zoe.startGame(
                path: .init(learnerId: path), body: .json(.init(language: .fr, kind: .matching, pairs: 2, faces: .wordTranslation))
            ).created.body.json
            #expect(game.status == .inProgress && game.cards.map(\.position) == [0, 1, 2, 3])
            #expect(game.cards.allSatisfy { $0.state == .faceDown && $0.text == nil })
            step(9, "Deal a card game.")

            // 10. Play it: card 0 against each other card until they match,
            // then the last two.
            func flip(_ position: Int) async throws -> Components.Schemas.FlipResult {
                try await zoe.flipCard(path: .init(learnerId: path, gameId: game.id), body: .json(.init(position: position))).ok.body
                    .json
            }
            var turns: [Components.Schemas.FlipResult.OutcomePayload] = []
            for card in 1...3 {
                let shown = try await flip(0)
                #expect(shown.outcome == .revealed && shown.cards.count == 1 && shown.cards.first?.text != nil)
                let turn = try await flip(card)
                #expect(turn.cards.map(\.position) == [0, card] && turn.cards.allSatisfy { $0.text != nil })
                turns.append(turn.outcome)
                game = turn.game
                if turn.outcome == .match { break }
            }
            #expect(turns.last == .match && turns.dropLast().allSatisfy { $0 == .mismatch })
            var last: Components.Schemas.FlipResult?
            for card in game.cards where card.state == .faceDown { last = try await flip(card.position) }
            let finished = try #require(last)
            let result = try #require(finished.game.result)
            #expect(finished.outcome == .match && finished.message == "All pairs found! Great memory.")
            #expect(finished.game.status == .finished && result.pairs == 2 && result.mismatches == turns.count - 1)
            #expect(result.flips == 2 * turns.count + 2 && result.score > 0)
            step(10, "Play it.")

            // 11. Read the leaderboard.
            let board = try await zoe.getLeaderboard(path: .init(kind: .matching), query: .init(language: .fr, learnerId: path)).ok.body
                .json
            #expect(board.total == 1 && board.entries.map(\.displayName) == ["Zoë"] && board.entries.first?.score == result.score)
            #expect(board.own?.rank == 1 && board.own?.learnerId == path)
            step(11, "Read the leaderboard.")

            // 12. See the plan, the shop, and try everything.
            let plan = try await zoe.getPlan().ok.body.json
            #expect(plan.plan == .free && plan.ads)
            let limits = Dictionary(
                uniqueKeysWithValues: plan.features.compactMap { feature in feature.limit.map { (feature.feature, $0) } })
            #expect(limits == [.lessonsPerDay: 10, .gamesPerDay: 10, .speechAttemptsPerDay: 50])
            #expect(Set(plan.switchTo.map(\.plan)) == [.full, .lite, .trial])
            let shop = try await zoe.getCatalogue(query: .init(currency: "EUR"), headers: .init(xAppVersion: "2.0")).ok.body.json
            #expect(shop.currency == "EUR" && shop.products.contains { $0.kind != .list && $0.price > 0 && $0.updateRequired == false })
            let trial = try await zoe.startTrial().created.body.json
            #expect(trial.plan == .trial && !trial.ads)
            #expect(trial.endsAt.map { abs($0.timeIntervalSinceNow - 7 * 86_400) < 3_600 } == true)
            step(12, "See the plan, the shop, and try everything.")

            // 13. Open the course.
            let packs = try await zoe.listCoursePacks(path: .init(learnerId: path), query: .init(language: .fr)).ok.body.json
            #expect(packs.sections.map(\.section) == [.learnToRead, .readAStory, .discover] && packs._continue == nil)
            #expect(packs.sections.flatMap(\.packs).allSatisfy { $0.completed == 0 && $0.lessons >= 6 && !$0.locked })
            let coursePath = try await zoe.getCoursePath(path: .init(learnerId: path), query: .init(language: .fr)).ok.body.json
            #expect(coursePath.level == .a1 && coursePath.next?.lessonId == "fr-read-sightwords-01")
            #expect(
                coursePath.levels.map { "\($0.checkpoint.title): \($0.checkpoint.questions) questions, \($0.checkpoint.status.rawValue)" }
                    == [
                        "Checkpoint A1: 16 questions, open", "Checkpoint A2: 18 questions, open",
                    ])
            let menu = try await zoe.getCourseMenu(path: .init(learnerId: path), query: .init(language: .fr)).ok.body.json
            #expect(
                [menu.intro.text] + menu.suggestions.map(\.line.text) == [
                    "Let's dive in!", "Shall we practise Sight words 1?", "Or find out about My house?", "Or read Nina's Breakfast?",
                ])
            #expect(menu.suggestions.allSatisfy { !$0.line.audio.isEmpty })
            let sightWords = try await zoe.startLesson(
                path: .init(learnerId: path),
                body: .json(.init(language: .fr, mode: .course, courseLesson: "fr-read-sightwords-01"))
            ).created.body.json
            let tiles = try #require(sightWords.question)
            #expect(sightWords.course?.template == .sightWords && sightWords.course?.screen == 1 && tiles._type == .sightWords)
            #expect(tiles.prompt?.isEmpty == false && !tiles.options.isEmpty && tiles.skill == .reading)
            step(13, "Open the course.")

            // 14. Spell a word with letter tiles: each tile on the first open place, then where it fits.
            let spelling = try await zoe.startSpelling(
                path: .init(learnerId: path), body: .json(.init(language: .fr, words: 1, difficulty: .easy))
            ).created.body.json
            let toSpell = try #require(spelling.words.first)
            #expect(spelling.variant == "fr" && spelling.status == .inProgress && !toSpell.tiles.isEmpty && toSpell.word == nil)
            var lastPlaced: Components.Schemas.TilePlacement?
            for tile in toSpell.tiles {
                let game = try await zoe.getSpelling(path: .init(learnerId: path, gameId: spelling.id)).ok.body.json
                let open = try #require(game.words.first?.targets.first { !$0.filled && !$0.fixed })
                var placed = try await zoe.placeTile(
                    path: .init(learnerId: path, gameId: spelling.id), body: .json(.init(tileId: tile.id, target: open.index))
                ).ok.body.json
                if placed.outcome == .wrong {
                    placed = try await zoe.placeTile(
                        path: .init(learnerId: path, gameId: spelling.id),
                        body: .json(.init(tileId: tile.id, target: try #require(placed.accepting.first)))
                    ).ok.body.json
                }
                lastPlaced = placed
            }
            #expect(
                lastPlaced?.feedback == .finished && lastPlaced?.game.result?.words == 1
                    && lastPlaced?.game.words.first?.word?.isEmpty == false)
            step(14, "Spell a word with letter tiles.")

            // 15. Forget the password, and reset it.
            _ = try await parla.requestPasswordReset(body: .json(.init(email: "zoe@example.com"))).accepted
            let outbox = app.settings.mail.outboxDirectory
            var letter: String?
            #expect(
                try await eventually {
                    letter = try? FileManager.default.contentsOfDirectory(atPath: outbox).first { $0.contains("-password_reset-") }
                    return letter != nil
                })
            let mail = try TestMail(file: outbox + "/" + (try #require(letter)))
            #expect(mail.header("To") == "zoe@example.com" && mail.header("Subject") == "Reset your Parla password")
            #expect(mail.text.contains("Hello Zoë,"))
            _ = try await parla.resetPassword(body: .json(.init(token: try #require(mail.token), newPassword: "a stable new horse")))
                .noContent
            switch try await zoe.getMe() {
            case .default(let status, let problem):
                #expect(try status == 401 && problem.body.applicationProblemJson.code == "authentication_required")
            case let other: Issue.record("the old token still works: \(other)")
            }
            let signedIn = try await parla.createSession(body: .json(.init(email: "zoe@example.com", password: "a stable new horse")))
                .created.body.json
            #expect(signedIn.account.email == "zoe@example.com" && signedIn.account.emailVerified)
            step(15, "Forget the password, and reset it.")

            #expect(walked == tour.steps.count, "README's tour has steps this walk does not make")
        }
    }
}

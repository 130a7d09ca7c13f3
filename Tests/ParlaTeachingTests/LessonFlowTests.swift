import Foundation
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaLearning
import Testing

@testable import ParlaTeaching

@Suite("how a lesson goes on after an answer")
struct LessonFlowTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let id = LessonID(UUID(uuidString: "0190a0b0-0000-7000-8000-000000000001")!)
    let planner = QuestionPlanner(catalog: Content.catalog(.french))

    /// A lesson of `length` questions of `types`, its first one asked.
    func lesson(_ types: Set<QuestionType>, length: Int = 3) throws -> Lesson {
        var lesson = Lesson(
            language: .french, native: .english, length: length, types: types, focus: [], gapWeights: [:], startAbilities: [])
        let asked = lesson.askNext(Self.id, planner: planner, state: LearnerState(LearnerModel()), at: Self.now)
        #expect(asked)
        return lesson
    }

    func record(_ lesson: inout Lesson, _ answer: LessonAnswer, after seconds: Double, model: LearnerModel = LearnerModel())
        throws -> LessonLearning?
    {
        try lesson.record(
            answer, to: lesson.current!.id, of: Self.id, at: Self.now + seconds, claimedMilliseconds: nil, planner: planner,
            model: model, difficulties: [:])
    }

    @Test("T4.7: a wrong try teaches nothing and the same question stays on screen")
    func wrongTry() throws {
        var lesson = try lesson([.translationFromTarget])
        let question = try #require(lesson.current)
        let wrong = try #require(question.options.first { $0.id != question.correctOptionID })
        #expect(try record(&lesson, .option(wrong.id), after: 3) == nil)
        #expect(lesson.current?.id == question.id && lesson.questions.count == 1)
        #expect(lesson.current?.tries.map(\.correct) == [false])
    }

    @Test("T4.5: a right first try teaches the model, and the next question is chosen from the model as it left it")
    func rightFirstTry() throws {
        var lesson = try lesson([.translationFromTarget])
        let question = try #require(lesson.current)
        var byHand = lesson
        let taught = try #require(try record(&lesson, .option(question.correctOptionID!), after: 4))

        let item = try #require(planner.catalog.item(question.item))
        #expect(taught.answerID == question.id && taught.item == item)
        #expect(taught.learned.correct && taught.learned.tries == 1 && taught.responseMilliseconds == 4000)
        let answer = PracticeAnswer(
            itemID: question.item.description, skill: question.skill, correct: true, responseTime: 4,
            timeLimit: question.type.timeLimitSeconds, optionCount: question.options.count, initialDifficulty: item.initialDifficulty)
        let learning = AnswerLearning.learning(
            from: answer, model: LearnerModel(), item: nil, at: Self.now + 4, scheduler: planner.scheduler)
        #expect(taught.learning == learning)

        // The same steps by hand: answer, then ask from the model and difficulties after it.
        _ = try byHand.answer(.option(question.correctOptionID!), to: question.id, at: Self.now + 4, claimedMilliseconds: nil)
        var model = LearnerModel()
        model.apply(learning)
        let known = [item.id: ItemDifficulty(difficulty: item.initialDifficulty + learning.difficultyChange, responses: 1)]
        byHand.askNext(Self.id, planner: planner, state: LearnerState(model, difficulties: known), at: Self.now + 4)
        #expect(lesson.questions.count == 2 && lesson == byHand)
    }

    @Test("T4.6, T4.8: found at last, a question teaches its wrong first try without lowering the bar")
    func foundAtLast() throws {
        var lesson = try lesson([.translationFromTarget])
        let question = try #require(lesson.current)
        let wrong = try #require(question.options.first { $0.id != question.correctOptionID })
        _ = try record(&lesson, .option(wrong.id), after: 2)
        let taught = try #require(try record(&lesson, .option(question.correctOptionID!), after: 5))
        #expect(!taught.learned.correct && taught.learned.tries == 2 && taught.responseMilliseconds == 2000)
        #expect(taught.learning.abilityChange == 0 && taught.learning.difficultyChange > 0)
        #expect(lesson.questions.count == 2)
    }

    @Test("a spoken answer's words to practise and score stay with its try")
    func spoken() throws {
        var lesson = try lesson([.repetition])
        let question = try #require(lesson.current)
        _ = try lesson.record(
            .recording(passed: false, feedback: "tryAgain"), to: question.id, of: Self.id, at: Self.now + 3, claimedMilliseconds: nil,
            wordsToPractise: ["bonjour"], score: 0.4, planner: planner, model: LearnerModel(), difficulties: [:])
        let tried = try #require(lesson.current?.tries.last)
        #expect(tried.wordsToPractise == ["bonjour"] && tried.score == 0.4 && tried.feedback == "tryAgain")
    }

    @Test("a template teaches each item placed as its own word, one row each; the last item teaches nothing; then the next question")
    func template() throws {
        var lesson = try lesson([.dragMatching])
        let question = try #require(lesson.current)
        let drops = TemplateTests.rightDrops(question)
        #expect(drops.count == 4)
        var taught: [LessonLearning?] = []
        for (index, drop) in drops.enumerated() {
            #expect(lesson.questions.count == 1)
            taught.append(try record(&lesson, drop, after: 2 + Double(index)))
        }
        let keys = question.dragMatching!.items.prefix(3).map(\.concept)
        #expect(taught.prefix(3).map { $0?.answerID } == keys.map { "\(question.id)/\($0)" })
        #expect(taught.prefix(3).map { $0?.item.id } == keys.map { LessonItemID(.word, $0) })
        #expect(taught.last == .some(nil))
        #expect(lesson.questions.count == 2)
    }

    @Test("an item gone from the content since it was asked teaches nothing, and the lesson goes on")
    func itemGone() throws {
        var lesson = try lesson([.translationFromTarget])
        lesson.questions[0].item = LessonItemID(.word, "no-such-concept")
        #expect(try record(&lesson, .option(lesson.current!.correctOptionID!), after: 2) == nil)
        #expect(lesson.questions.count == 2 && lesson.current != nil)
    }

    @Test("the last question answered ends the lesson")
    func last() throws {
        var lesson = try lesson([.translationFromTarget], length: 1)
        #expect(try record(&lesson, .option(lesson.current!.correctOptionID!), after: 2) != nil)
        #expect(lesson.questions.count == 1 && lesson.isFinished)
    }

    @Test("with nothing left to ask (only speaking, and it is paused) the lesson ends where it is")
    func nothingToAsk() throws {
        var lesson = try lesson([.repetition], length: 5)
        lesson.speakingPausedUntil = Self.now + 600
        #expect(try record(&lesson, .recording(passed: true, feedback: "good"), after: 2) != nil)
        #expect(lesson.length == 1 && lesson.isFinished)
    }

    @Test("the same lesson and step always choose the same question: a retried request agrees")
    func sameChoice() throws {
        var first = Lesson.random(Self.id.description, step: 3)
        var again = Lesson.random(Self.id.description, step: 3)
        var next = Lesson.random(Self.id.description, step: 4)
        let (a, b, c) = (first.next(), again.next(), next.next())
        #expect(a == b && a != c)
        #expect(try lesson([.translationFromTarget]) == (try lesson([.translationFromTarget])))
    }

    @Test("the audio a question plays: a word heard, pictured or translated from, a phrase to repeat; nothing else")
    func audio() throws {
        for type in [QuestionType.listening, .picture, .translationFromTarget, .repetition, .typedTranslation, .gapFill] {
            let lesson = try lesson([type])
            let question = try #require(lesson.current)
            let expected: AssetSlot? =
                switch type {
                case .listening, .picture, .translationFromTarget: .word(concept: question.item.key, .french)
                case .repetition: .phrase(id: question.item.key, .french)
                default: nil
                }
            #expect(lesson.audioSlot(of: question) == expected, "\(type)")
        }
    }

    @Test("the planner's view of the model: every skill's ability, the cards met by item, the learnt difficulties")
    func learnerState() throws {
        let card = MemoryCard(due: Self.now)
        let model = LearnerModel(
            abilities: [SkillAbility(skill: .listening, theta: 1.2, responses: 4)], cards: ["word:cat": card, "nonsense": card])
        let state = LearnerState(model, difficulties: [LessonItemID(.word, "cat"): ItemDifficulty(difficulty: 0.7, responses: 9)])
        #expect(state.abilities.count == Skill.allCases.count && state.abilities[.listening] == 1.2)
        #expect(state.cards == [LessonItemID(.word, "cat"): card])
        #expect(state.difficulties == [LessonItemID(.word, "cat"): 0.7])
    }

    @Test("a game's card and a lesson's question about one word review the same item")
    func gamesShareItems() {
        #expect(MatchingLearning.itemID("cat") == LessonItemID(.word, "cat").description)
    }
}

import Foundation
import ParlaContent
import ParlaCore
import ParlaLearning
import Testing

@testable import ParlaTeaching

/// Course lessons taken offline (issue 34): laid out by a seed for the
/// download, then replayed from their log through the live rule.
@Suite("offline course lessons")
struct OfflineLessonTests {
    static let now = CourseLessonTests.now
    static let id = LessonID(UUID(uuidString: "0190a0b0-0000-7000-8000-0000000000f1")!)

    static func offline(_ authored: CourseLesson, of pack: CoursePack, seed: String, planner: QuestionPlanner) -> Lesson {
        Lesson(
            offline: authored, of: pack, seed: seed, in: planner.catalog, native: CourseLessonTests.native(for: pack.language),
            startAbilities: [])
    }

    /// The right tries at every question of `script`, one a minute apart from `now`.
    static func rightLog(_ script: Lesson) -> [OfflineAnswer] {
        var log: [OfflineAnswer] = []
        for question in script.questions {
            for answer in CourseLessonTests.rightAnswers(to: question) {
                log.append(OfflineAnswer(questionID: question.id, answer: answer, at: now.addingTimeInterval(Double(log.count + 1) * 60)))
            }
        }
        return log
    }

    @Test(
        "every lesson's script is what its replay asks: the same questions and options, speaking screens left out",
        arguments: Language.allCases)
    func scriptIsReplayed(language: Language) throws {
        let planner = QuestionPlanner(catalog: LessonCatalog(corpus: CourseLessonTests.corpus, language: language))
        for pack in CourseLessonTests.corpus.packs where pack.language == language {
            for authored in pack.lessons {
                let lesson = Self.offline(authored, of: pack, seed: "5eed", planner: planner)
                let script = lesson.script(planner: planner, state: LearnerState(LearnerModel()), at: Self.now)
                let speaking = authored.screens.filter { $0.template == .repeatPhrase }.count
                #expect(!script.questions.isEmpty && script.questions.allSatisfy { $0.type != .repetition }, "\(authored.id)")
                #expect(script.questions.allSatisfy { $0.tries.isEmpty }, "\(authored.id)")
                #expect(script.questions.count == planner.catalog.questionCount(of: authored) - speaking, "\(authored.id)")
                // The same seed lays it out the same way again.
                #expect(lesson.script(planner: planner, state: LearnerState(LearnerModel()), at: Self.now).questions == script.questions)

                var replayed = lesson
                var (model, known) = (LearnerModel(), [LessonItemID: ItemDifficulty]())
                let taught = try replayed.replay(
                    Self.rightLog(script), of: Self.id, startedAt: Self.now, planner: planner, model: &model, difficulties: &known)
                #expect(replayed.isFinished, "\(authored.id)")
                #expect(replayed.questions.map(\.id) == script.questions.map(\.id), "\(authored.id)")
                #expect(replayed.questions.map(\.options) == script.questions.map(\.options), "\(authored.id)")
                #expect(replayed.questions.map(\.correctOptionID) == script.questions.map(\.correctOptionID), "\(authored.id)")
                #expect(!taught.isEmpty && taught.allSatisfy(\.learning.learned.correct), "\(authored.id)")
                // Each at the time of the try that resolved it, in order.
                #expect(taught.map(\.at) == taught.map(\.at).sorted())
                #expect(model.cards.count >= Set(taught.map(\.learning.item.id)).count - 1)
            }
        }
    }

    @Test("another seed lays the options out otherwise; the answer key says what is right")
    func seedsAndKeys() throws {
        let planner = QuestionPlanner(catalog: LessonCatalog(corpus: CourseLessonTests.corpus, language: .french))
        let pack = try #require(CourseLessonTests.corpus.packs.first { $0.id == "fr-discover-home" })
        let state = LearnerState(LearnerModel())
        var differ = 0
        for authored in pack.lessons {
            let one = Self.offline(authored, of: pack, seed: "1", planner: planner).script(planner: planner, state: state, at: Self.now)
            let two = Self.offline(authored, of: pack, seed: "2", planner: planner).script(planner: planner, state: state, at: Self.now)
            differ += zip(one.questions, two.questions).filter { $0.options != $1.options }.count
            for question in one.questions {
                let key = OfflineAnswerKey(question)
                switch question.type {
                case .sequencing: #expect(key.order == question.sequencing?.order && key.optionID == nil)
                case .sightWords: #expect(key.order == question.sightWords?.order)
                case .dragMatching: #expect(key.matches?.count == question.options.count)
                default: #expect(key.optionID != nil && key.optionID == question.correctOptionID && key.order == nil)
                }
            }
        }
        #expect(differ > 0)
    }

    @Test("a log is refused at the first try the live lesson would refuse; a wrong first try is taught as wrong")
    func refusalsAndWrongTries() throws {
        let planner = QuestionPlanner(catalog: LessonCatalog(corpus: CourseLessonTests.corpus, language: .french))
        let pack = try #require(CourseLessonTests.corpus.packs.first { $0.id == "fr-discover-home" })
        let authored = pack.lessons[0]
        let lesson = Self.offline(authored, of: pack, seed: "refused", planner: planner)
        let script = lesson.script(planner: planner, state: LearnerState(LearnerModel()), at: Self.now)
        let right = Self.rightLog(script)
        func replay(_ log: [OfflineAnswer]) throws(OfflineReplayError) -> (Lesson, [(learning: LessonLearning, at: Date)]) {
            var replayed = lesson
            var (model, known) = (LearnerModel(), [LessonItemID: ItemDifficulty]())
            let taught = try replayed.replay(log, of: Self.id, startedAt: Self.now, planner: planner, model: &model, difficulties: &known)
            return (replayed, taught)
        }
        let first = right[0]
        var unknown = right
        unknown[1] = OfflineAnswer(questionID: "q99", answer: right[1].answer, at: right[1].at)
        #expect(throws: OfflineReplayError(index: 1, error: .notCurrentQuestion)) { try replay(unknown) }
        let noSuchOption = [OfflineAnswer(questionID: first.questionID, answer: .option("z"), at: first.at)]
        if script.questions[0].correctOptionID != nil {
            #expect(throws: OfflineReplayError(index: 0, error: .optionNotFound)) { try replay(noSuchOption) }
        }
        // A log that stops early leaves the lesson where it stopped.
        let (partial, partly) = try replay(Array(right.prefix(1)))
        #expect(!partial.isFinished && partly.count <= 1)

        // The first choice question answered wrong first: taught as wrong, found at last.
        let index = try #require(script.questions.firstIndex { $0.correctOptionID != nil && $0.options.count > 1 })
        let question = script.questions[index]
        let wrongOption = try #require(question.options.first { $0.id != question.correctOptionID }?.id)
        var log = right
        let at = try #require(log.firstIndex { $0.questionID == question.id })
        log.insert(OfflineAnswer(questionID: question.id, answer: .option(wrongOption), at: log[at].at.addingTimeInterval(-1)), at: at)
        let (finished, taught) = try replay(log)
        #expect(finished.isFinished)
        let learned = try #require(taught.first { $0.learning.answerID == question.id })
        #expect(!learned.learning.learned.correct && learned.learning.learned.tries == 2)
        #expect(taught.filter { !$0.learning.learned.correct }.count == 1)
    }
}

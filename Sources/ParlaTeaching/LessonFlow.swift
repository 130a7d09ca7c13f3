import Foundation
import ParlaContent
import ParlaCore
import ParlaLearning

/// How a lesson goes on after an answer (T4), decided here and not by the
/// server, which only reads the lesson and the learner's model, calls
/// `record`, and writes what it returns with the lesson's new state:
///
/// 1. the answer is judged (`answer(_:to:at:claimedMilliseconds:)`) and
///    what the learner is told beyond right or wrong is kept with the try;
/// 2. a wrong try, or a template's item still to place, asks the same
///    question again and teaches nothing yet;
/// 3. a question resolved (or a template's item placed) teaches the model
///    its first try (`AnswerLearning`), unless the item has left the
///    content since it was asked: the lesson goes on all the same;
/// 4. once the question is done the next one is asked, chosen from the
///    model as this answer left it (a course lesson's: its next screen,
///    `AuthoredQuestions.swift`), or the lesson ends when nothing more can
///    be asked.
extension Lesson {
    /// Takes an answer and goes on as above. `model` and `difficulties` are
    /// as stored before the answer; `planner` holds the language's
    /// catalogue and the words the learner may be taught. Returns what the
    /// answer teaches, if anything.
    public mutating func record(
        _ answer: LessonAnswer, to questionID: String, of id: LessonID, at now: Date, claimedMilliseconds: Int?,
        wordsToPractise: [String]? = nil, score: Double? = nil, planner: QuestionPlanner, model: LearnerModel,
        difficulties: [LessonItemID: ItemDifficulty]
    ) throws(LessonAnswerError) -> LessonLearning? {
        var (model, known) = (model, difficulties)
        return try record(
            answer, to: questionID, of: id, at: now, claimedMilliseconds: claimedMilliseconds, wordsToPractise: wordsToPractise,
            score: score, planner: planner, model: &model, difficulties: &known)
    }

    /// As above, leaving in `model` and `known` what the answer taught: a
    /// log replayed answer by answer (`replay`) goes on from them.
    public mutating func record(
        _ answer: LessonAnswer, to questionID: String, of id: LessonID, at now: Date, claimedMilliseconds: Int?,
        wordsToPractise: [String]? = nil, score: Double? = nil, planner: QuestionPlanner, model: inout LearnerModel,
        difficulties known: inout [LessonItemID: ItemDifficulty]
    ) throws(LessonAnswerError) -> LessonLearning? {
        let outcome = try self.answer(answer, to: questionID, at: now, claimedMilliseconds: claimedMilliseconds)
        annotateLastTry(wordsToPractise: wordsToPractise, score: score, expected: outcome.expected)
        guard outcome.learned != nil || current == nil else { return nil }
        var taught: LessonLearning?
        // A template's last item, which could go only one place, teaches nothing.
        if let learned = outcome.learned, let item = planner.catalog.item(learned.item) {
            let answerID = learned.type.isTemplate ? "\(questionID)/\(item.id.key)" : questionID
            let learning = AnswerLearning.learning(
                from: learned.answer(about: item), model: model, item: known[item.id], at: now, scheduler: planner.scheduler)
            taught = LessonLearning(answerID: answerID, item: item, learned: learned, learning: learning)
            model.apply(learning)
            known[item.id] = ItemDifficulty(
                difficulty: (known[item.id]?.difficulty ?? item.initialDifficulty) + learning.difficultyChange,
                responses: (known[item.id]?.responses ?? 0) + 1)
        }
        if current == nil, questions.count < length {
            askNext(id, planner: planner, state: LearnerState(model, difficulties: known), at: now)
        }
        return taught
    }

    /// Adds the next question, of the types askable now; false when
    /// nothing more can be asked (the content ran out for the types chosen,
    /// or only speaking was chosen and it is paused): the lesson ends there.
    @discardableResult
    public mutating func askNext(_ id: LessonID, planner: QuestionPlanner, state: LearnerState, at now: Date) -> Bool {
        var random = Self.random(course?.seed ?? id.description, step: questions.count)
        if course != nil { return askNextScreen(planner: planner, state: state, at: now, using: &random) }
        var asking = self
        asking.types = askableTypes(at: now)
        guard !asking.types.isEmpty, let next = planner.next(for: asking, state: state, at: now, using: &random) else {
            length = questions.count
            return false
        }
        questions.append(next)
        return true
    }

    /// A course lesson's next question: its next screen that can be asked
    /// here (a speaking screen not while speaking is paused), or none, and
    /// the lesson ends there.
    mutating func askNextScreen(
        planner: QuestionPlanner, state: LearnerState, at now: Date, using random: inout SimulationRandom
    ) -> Bool {
        guard var place = course, let authored = planner.catalog.courseLesson(place.lesson) else {
            length = questions.count
            return false
        }
        let speaking = askableTypes(at: now).contains(.repetition)
        defer { course = place }
        while place.nextScreen < authored.screens.count {
            let index = place.nextScreen
            // A screen asks its parts (a story its questions) until it has no more.
            let part = place.screens.values.count { $0 == index }
            if authored.screens[index].template != .repeatPhrase || speaking,
                let next = planner.question(forScreen: index, part: part, of: authored, in: self, state: state, at: now, using: &random)
            {
                place.screens[next.id] = index
                questions.append(next)
                return true
            }
            place.nextScreen += 1
        }
        length = questions.count
        return false
    }

    /// The generator for the question after `step` questions: a retried
    /// request makes the same choice.
    /// An offline lesson's questions are laid out by its bundle's seed
    /// instead of its id (`OfflineLessons.swift`).
    public static func random(_ seed: String, step: Int) -> SimulationRandom {
        SimulationRandom(seed: StableHash.of("\(seed)#\(step)"))
    }
}

/// What one answer of a lesson teaches, and the row it leaves.
public struct LessonLearning: Sendable, Equatable {
    /// The question's id; a template teaches each of its words, one row
    /// per item placed: `<question>/<item key>`.
    public var answerID: String
    public var item: LessonItem
    public var learned: AnswerOutcome.Learned
    public var learning: AnswerLearning

    /// The first try's time, as the row keeps it.
    public var responseMilliseconds: Int { Int((learned.responseTime * 1000).rounded()) }
}

extension AnswerOutcome.Learned {
    /// The first try as the practice model takes it. `learned` comes only
    /// with a right answer: a wrong first try was found at last.
    func answer(about item: LessonItem) -> PracticeAnswer {
        PracticeAnswer(
            itemID: item.id.description, skill: type.skill, correct: correct, responseTime: responseTime,
            timeLimit: type.timeLimitSeconds, optionCount: optionCount, initialDifficulty: item.initialDifficulty,
            foundAtLast: !correct)
    }
}

extension LearnerState {
    /// What the planner weighs, from the model as stored: every skill's
    /// ability (the unmeasured at the prior), the memory of each item met,
    /// and the difficulties answers have learnt.
    public init(_ model: LearnerModel, difficulties: [LessonItemID: ItemDifficulty] = [:]) {
        var cards: [LessonItemID: MemoryCard] = [:]
        for (key, card) in model.cards { if let item = LessonItemID(key) { cards[item] = card } }
        self.init(
            abilities: Dictionary(model.everySkill.map { ($0.skill, $0.theta) }, uniquingKeysWith: { first, _ in first }),
            cards: cards, difficulties: difficulties.mapValues(\.difficulty))
    }
}

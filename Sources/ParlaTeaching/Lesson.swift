import Foundation
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaLearning

/// A question of a lesson as stored: what was asked, what is right, and
/// every try at it.
public struct LessonQuestion: Codable, Sendable, Equatable {
    public struct Option: Codable, Sendable, Equatable {
        public var id: String
        /// The text shown; absent for a picture, whose concept names it.
        public var text: String?
        /// The concept a picture option shows.
        public var concept: String?
    }

    public struct Try: Codable, Sendable, Equatable {
        public var optionID: String?
        /// For a drag-matching drop: the target the item was dropped on.
        public var targetID: String?
        public var text: String?
        public var correct: Bool
        public var feedback: String
        public var at: Date
        /// For an "almost": how it is spelt.
        public var expected: String?
        /// For a recording: its overall score and the words to work on.
        public var score: Double?
        public var wordsToPractise: [String]?
    }

    /// "q1", "q2", …: unique within the lesson.
    public var id: String
    public var item: LessonItemID
    public var type: QuestionType
    /// What is shown: the word to translate, the sentence with its gap, the
    /// phrase to say; absent for listening (the prompt is the word's audio).
    public var prompt: String?
    public var options: [Option]
    public var correctOptionID: String?
    /// Typed answers accepted, or the phrase a repetition expects.
    public var accepted: [String]
    /// Shown once answered: the meaning of what was asked.
    public var translation: String?
    /// The learner had never met the item before this question.
    public var isNew: Bool
    public var servedAt: Date
    public var tries: [Try] = []
    /// A sequencing question's task: its options are the items, boxes are
    /// filled in order.
    public var sequencing: SequencingTask?
    /// A drag-matching question's task: its options are the items to drag,
    /// `targets` where they go.
    public var dragMatching: DragMatchingTask?
    /// A sight-words question's task: its options are the tiles, tapped as
    /// the sentence (the prompt) says their words.
    public var sightWords: SightWordsTask?
    /// A spelling question's word: its options are the tiles, `targets`
    /// its characters (id: the place, from 0).
    public var spelling: SpellingWord?
    public var targets: [Option]?

    public init(
        id: String, item: LessonItemID, type: QuestionType, prompt: String?, options: [Option], correctOptionID: String?,
        accepted: [String], translation: String?, isNew: Bool, servedAt: Date
    ) {
        (self.id, self.item, self.type, self.prompt, self.options, self.correctOptionID) = (
            id, item, type, prompt, options, correctOptionID
        )
        (self.accepted, self.translation, self.isNew, self.servedAt) = (accepted, translation, isNew, servedAt)
    }

    /// Answered right, or for a template every item in place.
    public var isResolved: Bool {
        if let sequencing { return sequencing.isComplete }
        if let dragMatching { return dragMatching.isComplete }
        if let sightWords { return sightWords.isComplete }
        if let spelling { return spelling.isSpelled }
        return tries.last?.correct == true
    }

    /// Options that can no longer be chosen: tried wrong, or (templates)
    /// already in place.
    public var disabledOptionIDs: [String] {
        if let sequencing { return sequencing.placed }
        if let dragMatching { return dragMatching.items.map(\.id).filter { dragMatching.matched[$0] != nil } }
        // A tile is tapped at each of its word's turns: never used up.
        if sightWords != nil { return [] }
        if let spelling { return spelling.filled.values.sorted() }
        return tries.compactMap { $0.correct ? nil : $0.optionID }
    }

    /// Targets already taken by their items.
    public var filledTargetIDs: [String] {
        // A spelling target is taken by its letter, or by what it shows (a space, a hyphen).
        if let spelling {
            return spelling.targets.indices.filter { spelling.filled[$0] != nil || spelling.targets[$0].letter == nil }.map(String.init)
        }
        return dragMatching.map { Array($0.matched.values).sorted() } ?? []
    }
    /// The first try decides what the learning model records.
    public var firstTryCorrect: Bool? { tries.first?.correct }
    public var skill: Skill { type.skill }

    /// The right answer as the learner reads it once they have found it.
    public var correctAnswer: String? {
        // A sequence's answer is its items in order.
        if let sequencing {
            return sequencing.order.compactMap { id in options.first { $0.id == id }?.text }.joined(separator: ", ")
        }
        if let sightWords {
            return sightWords.order.compactMap { id in sightWords.tiles.first { $0.id == id }?.word }.joined(separator: ", ")
        }
        if let spelling { return spelling.shown }
        // A picture's answer is the option itself: there is no text to show.
        if let correctOptionID { return options.first { $0.id == correctOptionID }?.text }
        return accepted.first
    }
}

/// What a learner gives in answer.
public enum LessonAnswer: Sendable, Equatable {
    case option(String)
    case text(String)
    /// A recording the speech scorer has judged.
    case recording(passed: Bool, feedback: String)
    /// A template's item dropped in the active box (sequencing) or on a
    /// target (drag matching).
    case drop(item: String, target: String?)
}

/// Why an answer cannot be taken.
public enum LessonAnswerError: Error, Sendable, Equatable {
    case finished
    case notCurrentQuestion
    case optionNotFound
    case optionAlreadyTried
    /// A drop on a target the question does not have (a taken one is
    /// `optionAlreadyTried`).
    case targetNotFound
    /// A text to a choice question, an option to a typed one, and so on.
    case wrongAnswerKind
}

/// What one answer did.
public struct AnswerOutcome: Sendable, Equatable {
    public var correct: Bool
    /// `correct`, `almost`, `wrong`, or the speech scorer's code.
    public var feedback: String
    /// For an "almost": how it is spelt.
    public var expected: String?
    /// What the learning model records: set when the question is resolved
    /// by this answer (the first try's result and time), or for a template
    /// when an item is placed (that item's word).
    public var learned: Learned?

    public struct Learned: Sendable, Equatable {
        public var item: LessonItemID
        public var type: QuestionType
        public var correct: Bool
        public var responseTime: Double
        public var tries: Int
        public var isNew: Bool
        /// The places or options it could have gone to: the chance of a
        /// right guess is one in this (0: no guessing, as in typing).
        public var optionCount: Int
    }
}

/// A lesson in teacher mode: a fixed number of questions, each chosen when
/// the one before it is answered right.
public struct Lesson: Codable, Sendable, Equatable {
    public static let lengths = 1...50
    public static let defaultLength = 12
    /// How much quicker than the server measured a client may say it
    /// answered (network and drawing), and no quicker.
    public static let clientAllowance = 2.0

    public var language: Language
    /// The learner's own language: translations go to and from it.
    public var native: Language
    public var length: Int
    public var types: Set<QuestionType>
    /// Items the learner asked to practise: asked first.
    public var focus: [LessonItemID]
    /// Areas (skill, topic or grammar note ids) the learner should work on,
    /// with weights ≥ 1: choices lean towards them.
    public var gapWeights: [String: Double]
    /// Abilities when the lesson started, for the summary.
    public var startAbilities: [SkillAbility]
    public var questions: [LessonQuestion] = []
    /// Seconds spent answering, summed over first tries (the response times used).
    public var responseTimes: [String: Double] = [:]
    /// "I can't speak now": no speaking question until then (absent in
    /// lessons stored before it existed: none paused).
    public var speakingPausedUntil: Date?
    /// Questions taken back unanswered: ids are never given twice, so a
    /// late answer or a kept audio of a skipped question never meets the
    /// one that replaced it.
    public var skippedQuestions: Int?
    /// A lesson of the course: its questions are an authored lesson's
    /// screens, in order (absent: teacher mode, each question planned).
    public var course: CourseLessonPlace?
    /// The variant and letter case it writes in (`LetterScreens.swift`;
    /// absent in lessons stored before them: `writes`).
    public var writing: WordWriting?

    /// The id the next question gets.
    public var nextQuestionID: String { "q\(questions.count + (skippedQuestions ?? 0) + 1)" }

    public init(
        language: Language, native: Language, length: Int, types: Set<QuestionType>, focus: [LessonItemID],
        gapWeights: [String: Double], startAbilities: [SkillAbility]
    ) {
        (self.language, self.native, self.length, self.types, self.focus) = (language, native, length, types, focus)
        (self.gapWeights, self.startAbilities) = (gapWeights, startAbilities)
    }

    /// The types the next question may have at `now`: the lesson's, less
    /// speaking ones while they are paused.
    public func askableTypes(at now: Date) -> Set<QuestionType> {
        guard let until = speakingPausedUntil, now < until else { return types }
        return types.filter { $0.skill != .speaking }
    }

    /// "I can't speak now" (never stuck on a speaking question): speaking
    /// questions pause until `until`, and a speaking question on screen is
    /// taken back unanswered, its tries forgotten (a skip is not wrong).
    /// The caller then asks the next question. Returns whether one was taken back.
    public mutating func pauseSpeaking(until: Date) -> Bool {
        speakingPausedUntil = max(until, speakingPausedUntil ?? until)
        guard let question = current, question.type.skill == .speaking else { return false }
        questions.removeLast()
        responseTimes[question.id] = nil
        skippedQuestions = (skippedQuestions ?? 0) + 1
        return true
    }

    /// The question on screen, if the lesson is not over.
    public var current: LessonQuestion? { questions.last.flatMap { $0.isResolved ? nil : $0 } }
    public var isFinished: Bool { questions.count >= length && current == nil }
    public var answeredCount: Int { questions.filter(\.isResolved).count }

    /// The audio a question plays, as a content asset: a word heard,
    /// pictured or translated from is spoken; a phrase to repeat is heard
    /// first. Nil when it has none.
    public func audioSlot(of question: LessonQuestion) -> AssetSlot? {
        switch (question.type, question.item.kind) {
        case (.listening, .word), (.picture, .word), (.translationFromTarget, .word): wordSlot(question.item.key)
        case (.repetition, .phrase): .phrase(id: question.item.key, language)
        case (.letters, .letter): .letter(variant: writes.variant, letter: question.item.key, final: false)
        case (.spelling, .word): wordSlot(question.item.key)
        default: nil
        }
    }

    /// Takes an answer to the current question at `now`; `claimedMilliseconds`
    /// is the client's measure, held within the server's.
    public mutating func answer(_ answer: LessonAnswer, to questionID: String, at now: Date, claimedMilliseconds: Int?)
        throws(LessonAnswerError) -> AnswerOutcome
    {
        guard !isFinished else { throw .finished }
        guard var question = current, question.id == questionID else { throw .notCurrentQuestion }
        let correct: Bool, feedback: String, expected: String?
        var tried = LessonQuestion.Try(optionID: nil, text: nil, correct: false, feedback: "", at: now)
        switch (answer, question.type) {
        case (.option(let id), let type) where type.isChoice:
            guard question.options.contains(where: { $0.id == id }) else { throw .optionNotFound }
            guard !question.disabledOptionIDs.contains(id) else { throw .optionAlreadyTried }
            correct = id == question.correctOptionID
            (feedback, expected) = (correct ? "correct" : "wrong", nil)
            tried.optionID = id
        case (.text(let text), .typedTranslation):
            switch TypedAnswer.judge(text, accepted: question.accepted) {
            case .correct: (correct, feedback, expected) = (true, "correct", nil)
            case .almost(let spelling): (correct, feedback, expected) = (true, "almost", spelling)
            case .wrong: (correct, feedback, expected) = (false, "wrong", nil)
            }
            tried.text = String(text.prefix(200))
        case (.recording(let passed, let code), .repetition):
            (correct, feedback, expected) = (passed, code, nil)
        case (.option(let tile), .sightWords), (.drop(let tile, nil), .sightWords):
            guard var task = question.sightWords else { throw .wrongAnswerKind }
            correct = try Self.templateMove { () throws(TemplateRejection) -> Bool in try task.tap(tile) }
            (feedback, expected) = (correct ? "correct" : "wrong", nil)
            question.sightWords = task
            tried.optionID = tile
        case (.option(let item), .sequencing), (.drop(let item, nil), .sequencing):
            guard var task = question.sequencing else { throw .wrongAnswerKind }
            correct = try Self.templateMove { () throws(TemplateRejection) -> Bool in try task.drop(item) }
            (feedback, expected) = (correct ? "correct" : "wrong", nil)
            question.sequencing = task
            tried.optionID = item
        case (.drop(let tile, let target?), .spelling):
            correct = try Self.spell(&question, tile: tile, on: target)
            (feedback, expected) = (correct ? "correct" : "wrong", nil)
            (tried.optionID, tried.targetID) = (tile, target)
        case (.drop(let item, let target?), .dragMatching):
            guard var task = question.dragMatching else { throw .wrongAnswerKind }
            correct = try Self.templateMove { () throws(TemplateRejection) -> Bool in try task.drop(item, on: target) }
            (feedback, expected) = (correct ? "correct" : "wrong", nil)
            question.dragMatching = task
            (tried.optionID, tried.targetID) = (item, target)
        default:
            throw .wrongAnswerKind
        }
        tried.correct = correct
        tried.feedback = feedback
        if question.tries.isEmpty {
            let measured = max(0, now.timeIntervalSince(question.servedAt))
            let claimed = claimedMilliseconds.map { Double(max(0, $0)) / 1000 } ?? measured
            responseTimes[question.id] = max(min(claimed, measured), measured - Self.clientAllowance)
        }
        let before = question.tries
        question.tries.append(tried)
        questions[questions.count - 1] = question
        var outcome = AnswerOutcome(correct: correct, feedback: feedback, expected: expected, learned: nil)
        if correct, question.type.isTemplate, let item = tried.optionID {
            // Each item placed teaches its own word, timed from the drop
            // before. Sequencing: right if it went in at the first drop for
            // its box. Drag matching: right unless this item was dropped
            // wrong before. The last item can only go one place: it teaches
            // nothing.
            let placedBefore = before.filter(\.correct).count
            let remaining = question.options.count - placedBefore
            let wrongs =
                question.type != .dragMatching
                ? before.reversed().prefix { !$0.correct }.count
                : before.filter { !$0.correct && $0.optionID == item }.count
            let started = before.last(where: \.correct)?.at ?? question.servedAt
            let concept =
                question.sequencing?.items.first { $0.id == item }?.concept
                ?? question.dragMatching?.items.first { $0.id == item }?.concept
            if let concept, remaining > 1 {
                outcome.learned = .init(
                    item: LessonItemID(.word, concept), type: question.type, correct: wrongs == 0,
                    responseTime: max(0, now.timeIntervalSince(started)), tries: wrongs + 1, isNew: false,
                    optionCount: remaining)
            }
            // Sight words: a word's first tap teaches it, when there was another tile to tap.
            if let task = question.sightWords, task.tiles.count > 1, task.isFirstOfItsWord(task.tapped - 1),
                let word = task.tiles.first(where: { $0.id == item })?.word
            {
                outcome.learned = .init(
                    item: LessonItemID(.sightWord, word), type: question.type, correct: wrongs == 0,
                    responseTime: max(0, now.timeIntervalSince(started)), tries: wrongs + 1, isNew: false,
                    optionCount: task.tiles.count)
            }
            if let spelled = Self.spelled(question, at: now) { outcome.learned = spelled }
        } else if correct {
            outcome.learned = .init(
                item: question.item, type: question.type, correct: question.firstTryCorrect ?? false,
                responseTime: responseTimes[question.id] ?? 0, tries: question.tries.count, isNew: question.isNew,
                optionCount: question.type.isChoice ? question.options.count : 0)
        }
        return outcome
    }

    /// A template's move, its rejections as answer errors.
    static func templateMove(_ move: () throws(TemplateRejection) -> Bool) throws(LessonAnswerError) -> Bool {
        do throws(TemplateRejection) {
            return try move()
        } catch {
            switch error {
            case .unknownItem: throw .optionNotFound
            case .unknownTarget: throw .targetNotFound
            case .alreadyPlaced: throw .optionAlreadyTried
            case .complete: throw .finished
            }
        }
    }

    /// Adds what the learner is told beyond right or wrong to the last try.
    public mutating func annotateLastTry(wordsToPractise: [String]?, score: Double?, expected: String?) {
        guard var question = questions.last, var last = question.tries.last else { return }
        (last.wordsToPractise, last.score, last.expected) = (wordsToPractise, score, expected)
        question.tries[question.tries.count - 1] = last
        questions[questions.count - 1] = question
    }

    /// The lesson's account once it is over (or so far).
    public func summary(abilities now: [SkillAbility], cuts: CEFRCutScores = .standard) -> LessonSummary {
        let resolved = questions.filter(\.isResolved)
        let right = resolved.filter { $0.firstTryCorrect == true }.count
        let seconds =
            (questions.last?.tries.last?.at).map { last in max(0, last.timeIntervalSince(questions.first?.servedAt ?? last)) } ?? 0
        let newWords = Set(resolved.filter { $0.isNew && $0.item.kind == .word }.map(\.item)).count
        let before = Dictionary(startAbilities.map { ($0.skill, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(now.map { ($0.skill, $0) }, uniquingKeysWith: { first, _ in first })
        let practised = Set(resolved.map(\.skill))
        let changes = Skill.allCases.filter { practised.contains($0) }.map { skill -> LessonSummary.SkillChange in
            let start = before[skill]?.theta ?? after[skill]?.theta ?? cuts.centre(of: .a1)
            let end = after[skill]?.theta ?? start
            return .init(
                skill: skill, before: ProficiencyStatus(skill: skill, theta: start, responses: 0, cuts: cuts),
                after: ProficiencyStatus(skill: skill, theta: end, responses: after[skill]?.responses ?? 0, cuts: cuts))
        }
        return LessonSummary(
            questions: resolved.count, firstTryCorrect: right,
            accuracy: resolved.isEmpty ? 0 : Double(right) / Double(resolved.count),
            seconds: seconds, newWords: newWords, changes: changes)
    }
}

/// How a lesson went.
public struct LessonSummary: Sendable, Equatable {
    public struct SkillChange: Sendable, Equatable {
        public var skill: Skill
        public var before: ProficiencyStatus
        public var after: ProficiencyStatus
    }

    public var questions: Int
    public var firstTryCorrect: Int
    /// Right at the first try, over questions answered.
    public var accuracy: Double
    /// From the first question shown to the last answer.
    public var seconds: Double
    /// Words met for the first time.
    public var newWords: Int
    /// Each skill practised: where it was and where it is.
    public var changes: [SkillChange]
}

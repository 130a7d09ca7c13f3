import Foundation
import ParlaContent
import ParlaCore
import ParlaLearning
import ParlaSpeech
import ParlaStore
import ParlaTeaching
import Synchronization

/// Teacher mode (IF 1, IF 3, T4): the server chooses each question, grades
/// the answer or the recording, repeats a question until it is answered
/// right, and feeds the first try of each question to the learning model
/// (memory, ability, item difficulty) in the answer's transaction.
struct LessonService: Sendable {
    let lessons: LessonStore
    let learners: LearnerStore
    let content: ContentService
    let proficiency: ProficiencyService
    /// Spoken answers are scored and kept as attempts are, under the same
    /// limits (a speech worker or this server scores them).
    let speech: SpeechService
    let catalogs: LessonCatalogs
    let plans: EntitlementService
    let assignments: AssignmentStore
    /// How long "I can't speak now" keeps speaking questions out.
    let speakingPause: TimeInterval
    let scheduler = MemoryScheduler()

    /// A lesson as the learner sees it.
    struct View: Sendable {
        var id: LessonID
        var learner: LearnerID
        var lesson: Lesson
        var startedAt: Date
        var finishedAt: Date?
        /// Abilities now, for the bar and the summary.
        var abilities: [SkillAbility]
        /// Once the lesson is over: what to work on next.
        var gaps: [ProficiencyGap] = []
    }

    /// What a learner may ask for when starting.
    struct Start: Sendable {
        var language: String
        var length: Int?
        var types: [QuestionType]?
        var focus: [String]?
        /// An assignment of one of the learner's classes: its items not yet
        /// answered right come after `focus`.
        var assignment: String?
    }

    func start(_ authorized: AuthorizedLearner, _ start: Start) async throws -> (View, created: Bool) {
        let language = try content.language(start.language)
        let learner = try await learners.learner(authorized)
        let length = start.length ?? Lesson.defaultLength
        var problems: [FieldError] = []
        if !Lesson.lengths.contains(length) { problems.append(FieldError("length", .validationFailed)) }
        if let types = start.types, types.isEmpty { problems.append(FieldError("types", .required)) }
        let catalog = try catalogs.catalog(language, content: content)
        var focus = try (start.focus ?? []).map { text -> LessonItemID in
            guard let item = LessonItemID(text), catalog.item(item) != nil else {
                throw ParlaError.validation([FieldError("focus", .validationFailed)])
            }
            return item
        }
        // An assignment's items left to answer right, those of this lesson's language.
        if let raw = start.assignment {
            guard let id = AssignmentID(raw) else { throw ParlaError(.assignmentNotFound) }
            let remaining = try await assignments.remainingItems(id, for: authorized).compactMap(LessonItemID.init)
                .filter { catalog.item($0) != nil && !focus.contains($0) }
            focus += remaining.prefix(max(0, 50 - focus.count))
        }
        if focus.count > 50 { problems.append(FieldError("focus", .validationFailed)) }
        guard problems.isEmpty else { throw ParlaError.validation(problems) }

        if let open = try await lessons.open(learner: authorized, language: language) {
            return (try await view(open, learner: authorized), false)
        }
        let ownership = try await plans.ownership(for: authorized)
        try await plans.checkDailyLimit(.lessonsPerDay, for: authorized, under: ownership)
        let words = try content.openWords(ownership.lists)
        let learning = try await lessons.learning(learner: authorized, language: language)
        let abilities = learning.everySkill
        let gaps = try await proficiency.proficiency(authorized, language: language.code).gaps
        // A gap weighs 1 + its severity (at most 3): a lean, not a rule.
        let weights = Dictionary(gaps.map { ($0.id, 1 + min(max($0.severity, 0), 2)) }, uniquingKeysWith: max)
        var lesson = Lesson(
            language: language, native: learner.nativeLanguage, length: length,
            types: Set(start.types ?? QuestionType.allCases), focus: focus, gapWeights: weights, startAbilities: abilities)
        lesson.speakingPausedUntil = try await learners.speakingPausedUntil(authorized)
        let lessonID = LessonID.generate()
        guard askNext(&lesson, id: lessonID, state: state(learning, catalog: catalog), catalog: catalog, words: words, at: Date())
        else { throw ParlaError(.lessonUnavailable) }
        let stored = try await lessons.create(lessonID, learner: authorized, language: language, state: try Self.encode(lesson))
        // Another device's lesson may have come first: then it is read whole.
        let created = stored.id == lessonID
        return (try await view(stored, learner: authorized, model: created ? learning : nil), created)
    }

    /// The audio of a question (a listening question's word, a phrase to
    /// repeat), read from the content's assets.
    func audio(_ learner: AuthorizedLearner, lesson id: LessonID, question questionID: String) async throws -> [UInt8] {
        let stored = try await lessons.lesson(id, learner: learner)
        let lesson = try JSONDecoder().decode(Lesson.self, from: stored.state)
        guard let question = lesson.questions.first(where: { $0.id == questionID }), let slot = lesson.audioSlot(of: question) else {
            throw ParlaError(.assetNotFound)
        }
        guard let name = try content.snapshot().assets[slot.description] else { throw ParlaError(.assetNotFound) }
        return try await content.asset(name).bytes
    }

    func get(_ learner: AuthorizedLearner, lesson id: LessonID) async throws -> View {
        let stored = try await lessons.lesson(id, learner: learner)
        return try await view(stored, learner: learner)
    }

    /// A chosen option or a typed text.
    func answer(
        _ learner: AuthorizedLearner, lesson id: LessonID, question: String, answer: LessonAnswer,
        responseTimeMilliseconds: Int?
    ) async throws -> View {
        try await record(learner, lesson: id, question: question, answer: answer, claimed: responseTimeMilliseconds)
    }

    /// A recording of the phrase on screen: scored first (outside any lock)
    /// and kept as a speech attempt, under the same limits (a lesson is no
    /// way around the plan's daily attempts), then taken as the answer.
    func recording(
        _ learner: AuthorizedLearner, lesson id: LessonID, question questionID: String, audio: [UInt8], mediaType: String
    ) async throws -> (View, AttemptScore) {
        try await speech.admit(learner)
        let stored = try await lessons.lesson(id, learner: learner)
        let lesson = try JSONDecoder().decode(Lesson.self, from: stored.state)
        guard !lesson.isFinished else { throw ParlaError(.lessonFinished) }
        guard let question = lesson.current, question.id == questionID else { throw ParlaError(.notCurrentQuestion) }
        guard question.type == .repetition, let text = question.accepted.first else { throw ParlaError(.answerKindMismatch) }
        let (_, score) = try await speech.scoreAndKeep(
            learner, text, phraseID: question.item.kind == .phrase ? question.item.key : nil, in: lesson.language, audio: audio,
            mediaType: mediaType)
        // A recording with no speech in it is not a try.
        guard score.feedback != .noSpeech else { throw ParlaError(.noSpeech) }
        let view = try await record(
            learner, lesson: id, question: questionID,
            answer: .recording(passed: score.passed, feedback: score.feedback.rawValue), claimed: nil,
            wordsToPractise: score.words.filter { $0.error != .none }.map(\.text), score: score.overall)
        return (view, score)
    }

    private func record(
        _ learner: AuthorizedLearner, lesson id: LessonID, question: String, answer: LessonAnswer, claimed: Int?,
        wordsToPractise: [String]? = nil, score: Double? = nil
    ) async throws -> View {
        let now = Date()
        let difficulties = try await catalogs.difficulties(lessons)
        let words = try await openWords(learner)
        let (stored, learningAfter, lesson) = try await lessons.update(id, learner: learner) { stored, learning in
            var lesson = try JSONDecoder().decode(Lesson.self, from: stored.state)
            let catalog = try catalogs.catalog(lesson.language, content: content)
            let outcome: AnswerOutcome
            do throws(LessonAnswerError) {
                outcome = try lesson.answer(answer, to: question, at: now, claimedMilliseconds: claimed)
            } catch {
                throw ParlaError(Self.code(for: error))
            }
            lesson.annotateLastTry(wordsToPractise: wordsToPractise, score: score, expected: outcome.expected)
            // A wrong try, or a template's item still to place: the same question again.
            guard outcome.learned != nil || lesson.current == nil else {
                return (.init(state: try Self.encode(lesson), finished: false, record: nil), lesson)
            }
            var model = learning
            var record: LessonStore.Record?
            var known = difficulties[lesson.language] ?? [:]
            // An item gone from the content since it was asked teaches nothing, but the lesson goes on;
            // so does a template's last item, which could go only one place.
            if let learned = outcome.learned, let item = catalog.item(learned.item) {
                // A template teaches each of its words: one answer row per item placed.
                let answerID = learned.type.isTemplate ? "\(question)/\(item.id.key)" : question
                let update = learn(learned, item: item, question: answerID, model: model, learned: known[item.id], at: now)
                record = update
                model.apply(update.learning)
                known[item.id] = .init(
                    difficulty: (known[item.id]?.difficulty ?? item.initialDifficulty) + update.learning.difficultyChange,
                    responses: (known[item.id]?.responses ?? 0) + 1)
            }
            // The next question once this one is done (a template takes several drops).
            if lesson.current == nil, lesson.questions.count < lesson.length {
                var state = state(model, catalog: catalog)
                state.difficulties = known.mapValues(\.difficulty)
                askNext(&lesson, id: stored.id, state: state, catalog: catalog, words: words, at: now)
            }
            return (.init(state: try Self.encode(lesson), finished: lesson.isFinished, record: record), lesson)
        }
        var view = View(
            id: stored.id, learner: learner.id, lesson: lesson, startedAt: stored.startedAt, finishedAt: stored.finishedAt,
            abilities: learningAfter.everySkill)
        if lesson.isFinished { view.gaps = try await proficiency.proficiency(learner, language: lesson.language.code).gaps }
        return view
    }

    /// Adds the next question, of the types askable now; false when
    /// nothing more can be asked (the content ran out for the types chosen,
    /// or only speaking was chosen and it is paused): the lesson ends there.
    @discardableResult
    private func askNext(
        _ lesson: inout Lesson, id: LessonID, state: LearnerState, catalog: LessonCatalog, words: Set<String>, at now: Date
    ) -> Bool {
        var random = Self.random(id, step: lesson.questions.count)
        var asking = lesson
        asking.types = lesson.askableTypes(at: now)
        guard !asking.types.isEmpty, let next = planner(catalog, words).next(for: asking, state: state, at: now, using: &random) else {
            lesson.length = lesson.questions.count
            return false
        }
        lesson.questions.append(next)
        return true
    }

    /// "I can't speak now": speaking questions leave the learner's lessons
    /// for `speakingPause`, this one's and those started meanwhile; a
    /// speaking question on screen gives way to another, and the skip
    /// counts as nothing (neither wrong nor asked).
    func pauseSpeaking(_ learner: AuthorizedLearner, lesson id: LessonID) async throws -> View {
        let now = Date()
        let until = now.addingTimeInterval(speakingPause)
        try await learners.pauseSpeaking(learner, until: until)
        let words = try await openWords(learner)
        let difficulties = try await catalogs.difficulties(lessons)
        let (stored, learning, lesson) = try await lessons.update(id, learner: learner) { stored, learning in
            var lesson = try JSONDecoder().decode(Lesson.self, from: stored.state)
            guard !lesson.isFinished else { throw ParlaError(.lessonFinished) }
            if lesson.pauseSpeaking(until: until) {
                let catalog = try catalogs.catalog(lesson.language, content: content)
                var state = state(learning, catalog: catalog)
                state.difficulties = (difficulties[lesson.language] ?? [:]).mapValues(\.difficulty)
                askNext(&lesson, id: stored.id, state: state, catalog: catalog, words: words, at: now)
            }
            return (.init(state: try Self.encode(lesson), finished: lesson.isFinished, record: nil), lesson)
        }
        return View(
            id: stored.id, learner: learner.id, lesson: lesson, startedAt: stored.startedAt, finishedAt: stored.finishedAt,
            abilities: learning.everySkill)
    }

    /// Leaves the lesson unfinished, at any time: a new one may start.
    func abandon(_ learner: AuthorizedLearner, lesson id: LessonID) async throws {
        try await lessons.abandon(id, learner: learner)
    }

    /// What one resolved question teaches the model (`AnswerLearning`): the
    /// first try's result moves the ability of the question's skill, the
    /// item's difficulty and the learner's memory of the item.
    private func learn(
        _ learned: AnswerOutcome.Learned, item: LessonItem, question: String, model: LearnerModel,
        learned stored: ItemDifficulty?, at now: Date
    ) -> LessonStore.Record {
        let answer = PracticeAnswer(
            itemID: item.id.description, skill: learned.type.skill, correct: learned.correct,
            responseTime: learned.responseTime, timeLimit: learned.type.timeLimitSeconds,
            optionCount: learned.optionCount, initialDifficulty: item.initialDifficulty,
            // `learned` comes only with a right answer: a wrong first try was found at last.
            foundAtLast: !learned.correct)
        return LessonStore.Record(
            questionID: question, questionType: learned.type.rawValue, areaKind: item.area.rawValue, areaID: item.areaID,
            level: item.level, correct: learned.correct, tries: learned.tries,
            responseMilliseconds: Int((learned.responseTime * 1000).rounded()),
            learning: AnswerLearning.learning(from: answer, model: model, item: stored, at: now, scheduler: scheduler))
    }

    /// The lesson as the learner sees it; `model` when it was just read.
    private func view(_ stored: LessonStore.Stored, learner: AuthorizedLearner, model: LearnerModel? = nil) async throws -> View {
        let lesson = try JSONDecoder().decode(Lesson.self, from: stored.state)
        let learning = if let model { model } else { try await lessons.learning(learner: learner, language: stored.language) }
        var view = View(
            id: stored.id, learner: learner.id, lesson: lesson, startedAt: stored.startedAt, finishedAt: stored.finishedAt,
            abilities: learning.everySkill)
        if lesson.isFinished { view.gaps = try await proficiency.proficiency(learner, language: lesson.language.code).gaps }
        return view
    }

    /// The learner's lessons as their answers tell them, newest first.
    func history(_ learner: AuthorizedLearner, language: Language?, limit: Int, before: LessonID?) async throws
        -> [LessonStore.Summary]
    {
        try await lessons.summaries(learner: learner, language: language, limit: limit, before: before)
    }

    /// New words come only from what the learner's account may open.
    private func planner(_ catalog: LessonCatalog, _ openWords: Set<String>) -> QuestionPlanner {
        QuestionPlanner(catalog: catalog, scheduler: scheduler, openWords: openWords)
    }

    private func openWords(_ learner: AuthorizedLearner) async throws -> Set<String> {
        try content.openWords(try await plans.ownership(for: learner).lists)
    }

    private func state(_ model: LearnerModel, catalog: LessonCatalog) -> LearnerState {
        var cards: [LessonItemID: MemoryCard] = [:]
        for (key, card) in model.cards { if let item = LessonItemID(key) { cards[item] = card } }
        return LearnerState(
            abilities: Dictionary(model.everySkill.map { ($0.skill, $0.theta) }, uniquingKeysWith: { first, _ in first }),
            cards: cards, difficulties: [:])
    }

    static func code(for error: LessonAnswerError) -> ErrorCode {
        switch error {
        case .finished: .lessonFinished
        case .notCurrentQuestion: .notCurrentQuestion
        case .optionNotFound: .optionNotFound
        case .optionAlreadyTried: .optionAlreadyTried
        case .targetNotFound: .targetNotFound
        case .wrongAnswerKind: .answerKindMismatch
        }
    }

    /// The generator for the question after `step` questions: a retried
    /// request makes the same choice.
    static func random(_ lesson: LessonID, step: Int) -> SimulationRandom {
        SimulationRandom(seed: StableHash.of("\(lesson)#\(step)"))
    }

    /// Lesson states as JSON: written and read on every answer, so without
    /// the cost of sorted keys.
    static func encode(_ value: some Encodable) throws -> Data { try JSONEncoder().encode(value) }
}

/// Each language's catalogue, built once per content version, and the
/// learned item difficulties, re-read at most every `refreshInterval`
/// (choices tolerate a slightly old difficulty; each answer's own update is
/// written relative to the stored value).
final class LessonCatalogs: Sendable {
    static let refreshInterval: TimeInterval = 30
    private let built = Mutex<[Language: (version: String, catalog: LessonCatalog)]>([:])
    private let learned = Mutex<(at: Date, values: [Language: [LessonItemID: ItemDifficulty]])?>(nil)

    func catalog(_ language: Language, content: ContentService) throws -> LessonCatalog {
        let snapshot = try content.snapshot()
        // Assets appear while a background build runs: their count is part of the key.
        let version = "\(snapshot.version)+\(snapshot.assets.count)"
        if let cached = built.withLock({ $0[language] }), cached.version == version { return cached.catalog }
        let catalog = LessonCatalog(corpus: snapshot.corpus, language: language, isAvailable: { snapshot.assets[$0.description] != nil })
        built.withLock { $0[language] = (version, catalog) }
        return catalog
    }

    /// The learned difficulties; a stale cache is refreshed by one caller
    /// while the others go on with the old values.
    func difficulties(_ store: LessonStore) async throws -> [Language: [LessonItemID: ItemDifficulty]] {
        let now = Date()
        let (cached, refresh) = learned.withLock { cache -> ([Language: [LessonItemID: ItemDifficulty]]?, Bool) in
            guard let current = cache else { return (nil, true) }
            guard now.timeIntervalSince(current.at) >= Self.refreshInterval else { return (current.values, false) }
            cache = (now, current.values)
            return (current.values, true)
        }
        guard refresh else { return cached ?? [:] }
        do {
            let values = try await store.difficulties().mapValues { items in
                Dictionary(
                    items.compactMap { key, value in LessonItemID(key).map { ($0, value) } }, uniquingKeysWith: { first, _ in first })
            }
            learned.withLock { $0 = (Date(), values) }
            return values
        } catch {
            if let cached { return cached }
            throw error
        }
    }
}

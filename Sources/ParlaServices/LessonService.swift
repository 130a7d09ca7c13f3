import Foundation
import ParlaContent
import ParlaCore
import ParlaLearning
import ParlaLearningStore
import ParlaSpeech
import ParlaStore
import ParlaTeaching
import Synchronization

/// Teacher mode (IF 1, IF 3, T4): the server chooses each question, grades
/// the answer or the recording, repeats a question until it is answered
/// right, and feeds the first try of each question to the learning model
/// (memory, ability, item difficulty) in the answer's transaction.
package struct LessonService: Sendable {
    package let lessons: LessonStore
    package let learners: LearnerStore
    package let content: ContentService
    package let proficiency: ProficiencyService
    /// Spoken answers are scored and kept as attempts are, under the same
    /// limits (a speech worker or this server scores them).
    package let speech: SpeechService
    package let catalogs: LessonCatalogs
    package let plans: EntitlementService
    package let assignments: AssignmentStore
    /// The variant each course is in: lessons write as it does.
    package let courses: CourseService
    /// How long "I can't speak now" keeps speaking questions out.
    package let speakingPause: TimeInterval
    package let scheduler = MemoryScheduler()
    /// Nil when `lessons.keepOpen` is off.
    package let openLessons: OpenLessons?

    /// A lesson as the learner sees it.
    package struct View: Sendable {
        package var id: LessonID
        package var learner: LearnerID
        package var lesson: Lesson
        package var startedAt: Date
        package var finishedAt: Date?
        /// Abilities now, for the bar and the summary.
        package var abilities: [SkillAbility]
        /// Once the lesson is over: what to work on next.
        package var gaps: [ProficiencyGap] = []
    }

    /// What a learner may ask for when starting.
    package struct Start: Sendable {
        package var language: String
        package var length: Int?
        package var types: [QuestionType]?
        package var focus: [String]?
        /// An assignment of one of the learner's classes: its items not yet
        /// answered right come after `focus`.
        package var assignment: String?
        /// A lesson of the course (`<pack>-NN`) instead of teacher mode.
        package var courseLesson: String?

        package init(
            language: String, length: Int? = nil, types: [QuestionType]? = nil, focus: [String]? = nil, assignment: String? = nil,
            courseLesson: String? = nil
        ) {
            self.language = language
            self.length = length
            self.types = types
            self.focus = focus
            self.assignment = assignment
            self.courseLesson = courseLesson
        }
    }

    package func start(_ authorized: AuthorizedLearner, _ start: Start) async throws -> (View, created: Bool) {
        let language = try content.language(start.language)
        if let courseLesson = start.courseLesson { return try await startCourse(authorized, language: language, lesson: courseLesson) }
        let learner = try await learners.learner(authorized)
        let length = start.length ?? Lesson.defaultLength
        var problems: [FieldError] = []
        if !Lesson.lengths.contains(length) { problems.append(FieldError("length", .validationFailed)) }
        if let types = start.types, types.isEmpty { problems.append(FieldError("types", .required)) }
        // Sight words and story questions are the course's: its lessons ask them.
        if let types = start.types, types.contains(where: { !QuestionType.practice.contains($0) }) {
            problems.append(FieldError("types", .validationFailed))
        }
        let catalog = try catalogs.catalog(language, content: content)
        var focus = try (start.focus ?? []).map { text -> LessonItemID in
            guard let item = LessonItemID(text), catalog.item(item)?.types.isEmpty == false else {
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
            types: Set(start.types ?? QuestionType.practice), focus: focus, gapWeights: weights, startAbilities: abilities)
        lesson.writing = try await courses.writing(of: authorized, in: language, letterCase: learner.letterCase)
        lesson.speakingPausedUntil = try await learners.speakingPausedUntil(authorized)
        let lessonID = LessonID.generate()
        guard lesson.askNext(lessonID, planner: planner(catalog, words), state: LearnerState(learning), at: Date()) else {
            throw ParlaError(.lessonUnavailable)
        }
        let stored = try await lessons.create(lessonID, learner: authorized, language: language, state: try Self.encode(lesson))
        // Another device's lesson may have come first: then it is read whole.
        let created = stored.id == lessonID
        if created { openLessons?.keep(lessonID, version: stored.version, lesson) }
        return (try await view(stored, learner: authorized, model: created ? learning : nil), created)
    }

    /// A lesson of the course: resumed when it is the one open; another
    /// open lesson of the language is left (as `abandon` does), since the
    /// learner chose this one from the course. Counts against the plan's
    /// daily lessons as any lesson does.
    private func startCourse(_ authorized: AuthorizedLearner, language: Language, lesson courseLesson: String) async throws -> (
        View, created: Bool
    ) {
        guard let entry = try content.snapshot().courseLesson(courseLesson, in: language) else {
            throw ParlaError(.courseLessonNotFound)
        }
        let open = try await lessons.open(learner: authorized, language: language)
        if let open, try lesson(open).course?.lesson == courseLesson {
            return (try await view(open, learner: authorized), false)
        }
        // Over the plan's daily lessons, the open lesson stays as it is.
        let ownership = try await plans.ownership(for: authorized)
        // A level's checkpoint is open to all, to test out of the level.
        let checkpoint = Corpus.checkpointLevel(courseLesson, in: language) != nil
        guard checkpoint || ownership.mayOpen(coursePack: entry.pack.sharedID) else { throw ParlaError(.packLocked) }
        try await plans.checkDailyLimit(.lessonsPerDay, for: authorized, under: ownership)
        if let open {
            try await lessons.abandon(open.id, learner: authorized)
            openLessons?.drop(open.id)
        }
        let learner = try await learners.learner(authorized)
        let catalog = try catalogs.catalog(language, content: content)
        let learning = try await lessons.learning(learner: authorized, language: language)
        var lesson = Lesson(
            course: entry.lesson, of: entry.pack, in: catalog, native: learner.nativeLanguage, startAbilities: learning.everySkill,
            writing: try await courses.writing(of: authorized, in: language, letterCase: learner.letterCase))
        lesson.speakingPausedUntil = try await learners.speakingPausedUntil(authorized)
        let lessonID = LessonID.generate()
        let words = try content.openWords(ownership.lists)
        guard lesson.askNext(lessonID, planner: planner(catalog, words), state: LearnerState(learning), at: Date()) else {
            throw ParlaError(.lessonUnavailable)
        }
        let stored = try await lessons.create(
            lessonID, learner: authorized, language: language, state: try Self.encode(lesson), courseLesson: courseLesson)
        let created = stored.id == lessonID
        if created { openLessons?.keep(lessonID, version: stored.version, lesson) }
        return (try await view(stored, learner: authorized, model: created ? learning : nil), created)
    }

    /// How the learner's lessons in `language` write: in its course's
    /// variant (the default one without a course) and its letter case.
    /// The audio of a question (a listening question's word, a phrase to
    /// repeat), read from the content's assets.
    package func audio(_ learner: AuthorizedLearner, lesson id: LessonID, question questionID: String) async throws -> [UInt8] {
        let stored = try await lessons.lesson(id, learner: learner)
        let lesson = try lesson(stored)
        guard let question = lesson.questions.first(where: { $0.id == questionID }), let slot = lesson.audioSlot(of: question) else {
            throw ParlaError(.assetNotFound)
        }
        guard let name = try content.snapshot().assetName(slot) else { throw ParlaError(.assetNotFound) }
        return try await content.asset(name).bytes
    }

    package func get(_ learner: AuthorizedLearner, lesson id: LessonID) async throws -> View {
        let stored = try await lessons.lesson(id, learner: learner)
        return try await view(stored, learner: learner)
    }

    /// A chosen option or a typed text.
    package func answer(
        _ learner: AuthorizedLearner, lesson id: LessonID, question: String, answer: LessonAnswer,
        responseTimeMilliseconds: Int?
    ) async throws -> View {
        try await record(learner, lesson: id, question: question, answer: answer, claimed: responseTimeMilliseconds)
    }

    /// A recording of the phrase on screen: scored first (outside any lock)
    /// and kept as a speech attempt, under the same limits (a lesson is no
    /// way around the plan's daily attempts), then taken as the answer.
    package func recording(
        _ learner: AuthorizedLearner, lesson id: LessonID, question questionID: String, audio: [UInt8], mediaType: String
    ) async throws -> (View, AttemptScore) {
        try await speech.admit(learner)
        let stored = try await lessons.lesson(id, learner: learner)
        let lesson = try lesson(stored)
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

    /// Reads the lesson and the model, lets `Lesson.record` decide, and
    /// writes what it says, unless another answer came first.
    private func record(
        _ learner: AuthorizedLearner, lesson id: LessonID, question: String, answer: LessonAnswer, claimed: Int?,
        wordsToPractise: [String]? = nil, score: Double? = nil
    ) async throws -> View {
        let now = Date()
        let difficulties = try await catalogs.difficulties(lessons)
        let words = try await openWords(learner)
        let kept = openLessons?.lesson(id)
        let (stored, learningAfter, lesson) = try await lessons.update(id, learner: learner, known: kept?.version) { stored, learning in
            var lesson = try Self.lesson(stored, kept: kept)
            let planner = self.planner(try catalogs.catalog(lesson.language, content: content), words)
            let taught: LessonLearning?
            do throws(LessonAnswerError) {
                taught = try lesson.record(
                    answer, to: question, of: stored.id, at: now, claimedMilliseconds: claimed, wordsToPractise: wordsToPractise,
                    score: score, planner: planner, model: learning, difficulties: difficulties[lesson.language] ?? [:])
            } catch {
                throw ParlaError(Self.code(for: error))
            }
            return (.init(state: try Self.encode(lesson), finished: lesson.isFinished, record: taught.map(Self.record)), lesson)
        }
        openLessons?.keep(stored.id, version: stored.version, lesson)
        var view = View(
            id: stored.id, learner: learner.id, lesson: lesson, startedAt: stored.startedAt, finishedAt: stored.finishedAt,
            abilities: learningAfter.everySkill)
        if lesson.isFinished, let passed = try await passCheckpoint(lesson, learner: learner, abilities: view.abilities) {
            view.abilities = passed
        }
        if lesson.isFinished { view.gaps = try await proficiency.proficiency(learner, language: lesson.language.code).gaps }
        return view
    }

    /// A level's checkpoint just finished (`CoursePath`): passed, the course
    /// moves to the next level, and the abilities as a placement there
    /// would leave them, which are returned; nil for any other lesson, a
    /// checkpoint not passed, or a course already past the level.
    private func passCheckpoint(_ lesson: Lesson, learner: AuthorizedLearner, abilities: [SkillAbility]) async throws
        -> [SkillAbility]?
    {
        guard let place = lesson.course, let level = Corpus.checkpointLevel(place.lesson, in: lesson.language) else { return nil }
        let summary = lesson.summary(abilities: abilities)
        guard CoursePath.passes(firstTryCorrect: summary.firstTryCorrect, questions: summary.questions) else { return nil }
        let next = CoursePath.level(after: level)
        let raised = CoursePath.abilities(passingTo: next, from: abilities)
        let snapshots = ProficiencyReport(abilities: raised).snapshots(on: Date())
        let moved = try await proficiency.abilities.advanceCourse(
            learner: learner, language: lesson.language, to: next, abilities: raised, snapshots: snapshots)
        return moved ? raised : nil
    }

    /// "I can't speak now": speaking questions leave the learner's lessons
    /// for `speakingPause`, this one's and those started meanwhile; a
    /// speaking question on screen gives way to another, and the skip
    /// counts as nothing (neither wrong nor asked).
    package func pauseSpeaking(_ learner: AuthorizedLearner, lesson id: LessonID) async throws -> View {
        let now = Date()
        let until = now.addingTimeInterval(speakingPause)
        try await learners.pauseSpeaking(learner, until: until)
        let words = try await openWords(learner)
        let difficulties = try await catalogs.difficulties(lessons)
        let kept = openLessons?.lesson(id)
        let (stored, learning, lesson) = try await lessons.update(id, learner: learner, known: kept?.version) { stored, learning in
            var lesson = try Self.lesson(stored, kept: kept)
            guard !lesson.isFinished else { throw ParlaError(.lessonFinished) }
            if lesson.pauseSpeaking(until: until) {
                let planner = self.planner(try catalogs.catalog(lesson.language, content: content), words)
                lesson.askNext(
                    stored.id, planner: planner, state: LearnerState(learning, difficulties: difficulties[lesson.language] ?? [:]), at: now)
            }
            return (.init(state: try Self.encode(lesson), finished: lesson.isFinished, record: nil), lesson)
        }
        openLessons?.keep(stored.id, version: stored.version, lesson)
        return View(
            id: stored.id, learner: learner.id, lesson: lesson, startedAt: stored.startedAt, finishedAt: stored.finishedAt,
            abilities: learning.everySkill)
    }

    /// Leaves the lesson unfinished, at any time: a new one may start.
    package func abandon(_ learner: AuthorizedLearner, lesson id: LessonID) async throws {
        try await lessons.abandon(id, learner: learner)
        openLessons?.drop(id)
    }

    /// The row a resolved question leaves, with what it teaches.
    static func record(_ taught: LessonLearning) -> LessonStore.Record {
        LessonStore.Record(
            questionID: taught.answerID, questionType: taught.learned.type.rawValue, areaKind: taught.item.area.rawValue,
            areaID: taught.item.areaID, level: taught.item.level, correct: taught.learned.correct, tries: taught.learned.tries,
            responseMilliseconds: taught.responseMilliseconds, learning: taught.learning)
    }

    /// The lesson as the learner sees it; `model` when it was just read.
    private func view(_ stored: LessonStore.Stored, learner: AuthorizedLearner, model: LearnerModel? = nil) async throws -> View {
        let lesson = try lesson(stored)
        let learning = if let model { model } else { try await lessons.learning(learner: learner, language: stored.language) }
        var view = View(
            id: stored.id, learner: learner.id, lesson: lesson, startedAt: stored.startedAt, finishedAt: stored.finishedAt,
            abilities: learning.everySkill)
        if lesson.isFinished { view.gaps = try await proficiency.proficiency(learner, language: lesson.language.code).gaps }
        return view
    }

    /// The learner's lessons as their answers tell them, newest first.
    package func history(_ learner: AuthorizedLearner, language: Language?, limit: Int, before: LessonID?) async throws
        -> [LessonStore.Summary]
    {
        try await lessons.summaries(learner: learner, language: language, limit: limit, before: before)
    }

    /// New words come only from what the learner's account may open.
    func planner(_ catalog: LessonCatalog, _ openWords: Set<String>) -> QuestionPlanner {
        QuestionPlanner(catalog: catalog, scheduler: scheduler, openWords: openWords)
    }

    func openWords(_ learner: AuthorizedLearner) async throws -> Set<String> {
        try content.openWords(try await plans.ownership(for: learner).lists)
    }

    package static func code(for error: LessonAnswerError) -> ErrorCode {
        switch error {
        case .finished: .lessonFinished
        case .notCurrentQuestion: .notCurrentQuestion
        case .optionNotFound: .optionNotFound
        case .optionAlreadyTried: .optionAlreadyTried
        case .targetNotFound: .targetNotFound
        case .wrongAnswerKind: .answerKindMismatch
        }
    }

    /// Lesson states as JSON: written and read on every answer, so without
    /// the cost of sorted keys.
    package static func encode(_ value: some Encodable) throws -> Data { try JSONEncoder().encode(value) }

    package init(
        lessons: LessonStore, learners: LearnerStore, content: ContentService, proficiency: ProficiencyService, speech: SpeechService,
        catalogs: LessonCatalogs, plans: EntitlementService, assignments: AssignmentStore, courses: CourseService,
        speakingPause: TimeInterval, openLessons: OpenLessons? = OpenLessons()
    ) {
        self.courses = courses
        self.lessons = lessons
        self.learners = learners
        self.content = content
        self.proficiency = proficiency
        self.speech = speech
        self.catalogs = catalogs
        self.plans = plans
        self.assignments = assignments
        self.speakingPause = speakingPause
        self.openLessons = openLessons
    }

    /// The lesson `stored` holds: `kept` when it is at its version (its
    /// state may then not have been read), else its state decoded.
    static func lesson(_ stored: LessonStore.Stored, kept: OpenLessons.Kept?) throws -> Lesson {
        if let kept, kept.version == stored.version { return kept.lesson }
        return try JSONDecoder().decode(Lesson.self, from: stored.state)
    }

    private func lesson(_ stored: LessonStore.Stored) throws -> Lesson {
        try Self.lesson(stored, kept: openLessons?.lesson(stored.id))
    }
}

/// Each language's catalogue, built once per content version, and the
/// learned item difficulties, re-read at most every `refreshInterval`
/// (choices tolerate a slightly old difficulty; each answer's own update is
/// written relative to the stored value).
package final class LessonCatalogs: Sendable {
    package static let refreshInterval: TimeInterval = 30
    private let built = Mutex<[Language: (version: String, catalog: LessonCatalog)]>([:])
    private let learned = Mutex<(at: Date, values: [Language: [LessonItemID: ItemDifficulty]])?>(nil)

    package func catalog(_ language: Language, content: ContentService) throws -> LessonCatalog {
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
    package func difficulties(_ store: LessonStore) async throws -> [Language: [LessonItemID: ItemDifficulty]] {
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

    package init() {}
}

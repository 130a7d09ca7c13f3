import Foundation
import ParlaContent
import ParlaCore
import ParlaLearning
import ParlaLearningStore
import ParlaStore
import ParlaTeaching

/// A pack's lessons taken offline (issue 34; the design note is in
/// `ParlaTeaching/OfflineLessons.swift`): laid out for the download, and
/// their logs replayed.
extension LessonService {
    /// A lesson of a pack laid out for the device: the scripted lesson (all
    /// its questions, none answered) and the seed that laid it out.
    package struct OfflineLesson: Sendable {
        package var authored: CourseLesson
        package var seed: String
        package var lesson: Lesson
    }

    /// Every lesson of `pack` as this learner would take it offline now.
    /// The seed is the same for every download of the same content, so a
    /// bundle asked again says the same.
    package func offlineLessons(_ authorized: AuthorizedLearner, pack: CoursePack, contentVersion: String) async throws
        -> [OfflineLesson]
    {
        let catalog = try catalogs.catalog(pack.language, content: content)
        async let learner = learners.learner(authorized)
        async let learning = lessons.learning(learner: authorized, language: pack.language)
        let difficulties = try await catalogs.difficulties(lessons)[pack.language] ?? [:]
        let planner = planner(catalog, try await openWords(authorized))
        let (native, model) = try await (learner.nativeLanguage, learning)
        let writing = try await courses.writing(of: authorized, in: pack.language, letterCase: try await learner.letterCase)
        let state = LearnerState(model, difficulties: difficulties)
        let now = Date()
        return pack.lessons.map { authored in
            let hash = String(StableHash.of("\(authored.id)/\(authorized.id)/\(contentVersion)"), radix: 16)
            let seed = writing?.carried(by: hash) ?? hash
            let lesson = Lesson(
                offline: authored, of: pack, seed: seed, in: catalog, native: native, startAbilities: model.everySkill,
                writing: writing)
            return OfflineLesson(authored: authored, seed: seed, lesson: lesson.script(planner: planner, state: state, at: now))
        }
    }

    /// An offline lesson's log, as the app sends it.
    package struct OfflineLog: Sendable {
        package var courseLesson: String
        package var seed: String
        package var startedAt: Date
        /// Each answer at its time (`startedAt` plus the seconds the app gave).
        package var answers: [OfflineAnswer]

        package init(courseLesson: String, seed: String, startedAt: Date, answers: [OfflineAnswer]) {
            (self.courseLesson, self.seed, self.startedAt, self.answers) = (courseLesson, seed, startedAt, answers)
        }
    }

    /// Replays `log` as lesson `id` (the app's own id for this run) and
    /// keeps it, with what its first tries taught; sent again, the lesson
    /// comes back as kept (`created` false). Refused, with the field at
    /// fault, when it could not have been answered: times out of order,
    /// in the future or older than `Lesson.offlineReach`, or an answer the
    /// live lesson would refuse. The pack must be open to the account, and
    /// a new lesson counts against the plan's daily lessons, as online.
    package func replay(_ authorized: AuthorizedLearner, lesson id: LessonID, _ log: OfflineLog) async throws -> (View, created: Bool) {
        let snapshot = try content.snapshot()
        guard let language = Language.allCases.first(where: { log.courseLesson.hasPrefix("\($0.code)-") }),
            Corpus.checkpointLevel(log.courseLesson, in: language) == nil,
            let entry = snapshot.courseLesson(log.courseLesson, in: language)
        else { throw ParlaError(.courseLessonNotFound) }
        try Self.checkTimes(log, now: Date())
        let catalog = try catalogs.catalog(language, content: content)
        let difficulties = try await catalogs.difficulties(lessons)[language] ?? [:]
        let learner = try await learners.learner(authorized)
        // As the bundle was laid out: its seed says in which variant and case.
        let writing = try await offlineWriting(authorized, seed: log.seed, letterCase: learner.letterCase, in: language)
        let (stored, model, created) = try await lessons.replay(id, learner: authorized, language: language, courseLesson: entry.lesson.id)
        {
            model in
            let ownership = try await plans.ownership(for: authorized)
            guard ownership.mayOpen(coursePack: entry.pack.sharedID) else { throw ParlaError(.packLocked) }
            try await plans.checkDailyLimit(.lessonsPerDay, for: authorized, under: ownership)
            let planner = planner(catalog, try content.openWords(ownership.lists))
            var lesson = Lesson(
                offline: entry.lesson, of: entry.pack, seed: log.seed, in: catalog, native: learner.nativeLanguage,
                startAbilities: model.everySkill, writing: writing)
            var (model, known) = (model, difficulties)
            let taught: [(learning: LessonLearning, at: Date)]
            do throws(OfflineReplayError) {
                taught = try lesson.replay(
                    log.answers, of: id, startedAt: log.startedAt, planner: planner, model: &model, difficulties: &known)
            } catch {
                let field = error.index.map { "answers[\($0)]" } ?? "courseLesson"
                throw ParlaError(.lessonLogRejected, fieldErrors: [FieldError(field, Self.code(for: error.error))])
            }
            return LessonStore.Replayed(
                change: .init(state: try Self.encode(lesson), finished: lesson.isFinished, record: nil), startedAt: log.startedAt,
                touchedAt: log.answers.last?.at ?? log.startedAt, records: taught.map { (Self.record($0.learning), $0.at) })
        }
        var view = View(
            id: stored.id, learner: authorized.id, lesson: try JSONDecoder().decode(Lesson.self, from: stored.state),
            startedAt: stored.startedAt, finishedAt: stored.finishedAt, abilities: model.everySkill)
        if view.lesson.isFinished { view.gaps = try await proficiency.proficiency(authorized, language: language.code).gaps }
        return (view, created)
    }

    /// The writing an offline lesson was laid out in, as its seed carries
    /// it; for a seed that carries none, the learner's now. A variant that
    /// is none of the language's is refused.
    func offlineWriting(_ authorized: AuthorizedLearner, seed: String, letterCase: LetterCase, in language: Language) async throws
        -> WordWriting?
    {
        guard let carried = WordWriting.carried(in: seed) else {
            return try await courses.writing(of: authorized, in: language, letterCase: letterCase)
        }
        guard let alphabet = try content.snapshot().corpus.alphabet(carried.variant), alphabet.language == language else {
            throw ParlaError(.lessonLogRejected, fieldErrors: [FieldError("seed", .validationFailed)])
        }
        return WordWriting(alphabet, letterCase: carried.letterCase)
    }

    /// A log's times: from `startedAt`, in order, none ahead of the
    /// server's clock (a minute's leeway) nor older than the reach.
    static func checkTimes(_ log: OfflineLog, now: Date) throws {
        var problems = FieldErrors()
        if log.startedAt < now.addingTimeInterval(-Lesson.offlineReach) || log.startedAt > now.addingTimeInterval(60) {
            problems.add("startedAt", .validationFailed)
        }
        var last = log.startedAt
        for (index, answer) in log.answers.enumerated() {
            if answer.at < last || answer.at > now.addingTimeInterval(60) { problems.add("answers[\(index)].at", .validationFailed) }
            last = max(last, answer.at)
        }
        try problems.throwIfAny()
    }
}

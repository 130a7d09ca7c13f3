import Foundation
import ParlaContent
import ParlaCore
import ParlaLearning
import Testing

@testable import ParlaTeaching

/// The course's path (issue 34, item 6): packs by level, a learner's place,
/// and each level's checkpoint, made from the level's lessons.
@Suite("the course's path and its checkpoints")
struct CoursePathTests {
    static let corpus = CourseLessonTests.corpus

    @Test(
        "every language: each level's checkpoint reviews its lessons, one screen each, askable, served as a lesson",
        arguments: Language.allCases)
    func checkpoints(language: Language) throws {
        let planner = QuestionPlanner(catalog: LessonCatalog(corpus: Self.corpus, language: language))
        let path = Self.corpus.path(of: language)
        #expect(path.map(\.level) == path.map(\.level).sorted() && path.count == Self.corpus.packs.filter { $0.language == language }.count)
        let lessons = CourseLessons(Self.corpus, language: language)
        for pack in path { for lesson in pack.lessons { #expect(lessons[lesson.id]?.pack.id == pack.id, "\(lesson.id)") } }
        for level in Set(path.map(\.level)).sorted() {
            let id = Corpus.checkpointID(level, in: language)
            #expect(Corpus.checkpointLevel(id, in: language) == level)
            let entry = try #require(lessons[id], "\(id)")
            let checkpoint = entry.lesson
            #expect(entry.pack.level == level && checkpoint.id == id && checkpoint.titles[.french]?.contains(level.rawValue) == true)
            let lessons = path.filter { $0.level == level }.flatMap(\.lessons)
            #expect(checkpoint.screens.count == min(Corpus.checkpointLength, lessons.count), "\(id)")
            #expect(checkpoint.screens.allSatisfy { !$0.workedExample && $0.instruction == nil })
            #expect(checkpoint.screens.allSatisfy { $0.template != .repeatPhrase })
            // A story only from a lesson that asks nothing else.
            for screen in checkpoint.screens where screen.template == .story {
                let from = lessons.filter { $0.screens.contains { $0.task == screen.task } }
                #expect(from.allSatisfy { $0.screens.allSatisfy { [.story, .repeatPhrase].contains($0.template) } }, "\(id)")
            }
            // Each screen is one of the level's lessons' screens.
            let taught = lessons.flatMap(\.screens).map(\.task)
            #expect(checkpoint.screens.allSatisfy { screen in taught.contains(screen.task) })
            let lesson = Lesson(
                course: checkpoint, of: entry.pack, in: planner.catalog, native: CourseLessonTests.native(for: language), startAbilities: []
            )
            var random = SimulationRandom(seed: 6)
            for index in checkpoint.screens.indices {
                let question = planner.question(
                    forScreen: index, of: checkpoint, in: lesson, state: LearnerState(LearnerModel()), at: CourseLessonTests.now,
                    using: &random)
                #expect(question != nil, "\(id) screen \(index + 1)")
            }
        }
        #expect(CourseLessons(Self.corpus, language: language)[Corpus.checkpointID(.a2, in: language)] != nil)
        #expect(CourseLessons(Self.corpus, language: language)[Corpus.checkpointID(.c2, in: language)] == nil)
    }

    @Test("a learner's place: the first lesson not finished at its level among the packs it may open; checkpoints passed below it")
    func place() throws {
        let packs = Self.corpus.packs.filter { $0.language == .french }
        let sold: Set = ["fr-stories-a2", "fr-discover-food", "fr-discover-family", "fr-discover-clothing"]
        func progress(_ records: [String: CourseLessonRecord]) -> CourseProgress {
            CourseProgress(packs: packs, records: records) { sold.contains($0.id) }
        }
        let fresh = CoursePath(corpus: Self.corpus, language: .french, progress: progress([:]), courseLevel: nil)
        #expect(fresh.levels.map(\.level) == [.a1, .a2] && fresh.level == .a1)
        #expect(fresh.levels.allSatisfy { $0.status == .open } && fresh.levels[0].checkpoint == "fr-checkpoint-a1")
        #expect(fresh.next?.lesson.id == "fr-read-sightwords-01")
        #expect(
            fresh.levels[0].packs.map(\.pack.id).prefix(4) == [
                "fr-read-sightwords", "fr-read-letters", "fr-stories-a1", "fr-discover-home",
            ])

        // Every lesson of the open A1 packs finished: the checkpoint's time has come.
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var records: [String: CourseLessonRecord] = [:]
        for pack in packs where pack.level == .a1 && !sold.contains(pack.id) {
            for lesson in pack.lessons { records[lesson.id] = CourseLessonRecord(finished: true, lastOpened: now, inProgress: false) }
        }
        let done = CoursePath(corpus: Self.corpus, language: .french, progress: progress(records), courseLevel: .a1)
        #expect(done.levels[0].status == .ready && done.next == nil && done.levels[0].completed == records.count)

        // Past A1 (a checkpoint passed, or a placement): A2's first open lesson; its only pack is sold.
        let past = CoursePath(corpus: Self.corpus, language: .french, progress: progress([:]), courseLevel: .a2)
        #expect(past.level == .a2 && past.levels[0].status == .passed && past.levels[1].status == .open && past.next == nil)
        let owned = CoursePath(
            corpus: Self.corpus, language: .french, progress: CourseProgress(packs: packs, records: [:]) { _ in false }, courseLevel: .a2)
        #expect(owned.next?.lesson.id == "fr-stories-a2-01" && owned.levels[1].status == .open)
        // Beyond the course's levels: the last level, all passed.
        let beyond = CoursePath(corpus: Self.corpus, language: .french, progress: progress([:]), courseLevel: .b1)
        #expect(beyond.level == .a2 && beyond.levels.allSatisfy { $0.status == .passed })
    }

    @Test("a checkpoint passes at 80 % of first tries right and moves the course up a level, abilities to its lower cut at least")
    func passing() {
        #expect(CoursePath.passes(firstTryCorrect: 10, questions: 12) && !CoursePath.passes(firstTryCorrect: 9, questions: 12))
        #expect(CoursePath.passes(firstTryCorrect: 8, questions: 10) && !CoursePath.passes(firstTryCorrect: 0, questions: 0))
        #expect(CoursePath.level(after: .a1) == .a2 && CoursePath.level(after: .c2) == .c2)
        let before = [
            SkillAbility(skill: .vocabulary, theta: -2.5, responses: 12), SkillAbility(skill: .reading, theta: 0.2, responses: 3),
        ]
        let after = CoursePath.abilities(passingTo: .a2, from: before)
        #expect(after == [SkillAbility(skill: .vocabulary, theta: -1.5, responses: 12), before[1]])
        #expect(CEFRCutScores.standard.level(for: after[0].theta) == .a2)
    }
}

import Foundation
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaLearning
import Testing

@testable import ParlaTeaching

/// A course lesson served as a lesson (issue 34): its screens, in order,
/// asked as their templates say, judged and taught as any lesson's answers.
@Suite("course lessons")
struct CourseLessonTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let id = LessonID(UUID(uuidString: "0190a0b0-0000-7000-8000-000000000034")!)

    /// The whole bundled content, course included.
    static let corpus: Corpus = {
        let root = ChoiceQuestionTests.corpora.path
        let paths = (try? FileManager.default.subpathsOfDirectory(atPath: root).sorted()) ?? []
        let files = paths.filter { $0.hasSuffix(".yaml") && $0 != "products.yaml" }.compactMap { path in
            (try? String(contentsOfFile: root + "/" + path, encoding: .utf8)).map { CorpusLoader.File(path: path, text: $0) }
        }
        let (corpus, problems) = CorpusLoader { _ in true }.load(files)
        precondition(problems.isEmpty, "content problems: \(problems.prefix(5))")
        return corpus
    }()

    static func native(for language: Language) -> Language { language == .english ? .french : .english }

    /// The type each template asks with.
    static func type(of screen: CourseScreen) -> QuestionType {
        switch screen.task {
        case .wordPicture: .picture
        case .choice(_, _, .fromTarget): .translationFromTarget
        case .choice: .translationToTarget
        case .listen: .listening
        case .gapFill: .gapFill
        case .repeatPhrase: .repetition
        case .sequencing: .sequencing
        case .matching: .dragMatching
        case .sightWords: .sightWords
        case .story: .reading
        case .letters: .letters
        case .spelling: .spelling
        }
    }

    /// The right answers to `question`, in order: one option, one
    /// recording, or each drop of a template not yet made.
    static func rightAnswers(to question: LessonQuestion) -> [LessonAnswer] {
        if let task = question.sightWords { return task.order.dropFirst(task.tapped).map { .drop(item: $0, target: nil) } }
        if let task = question.sequencing { return task.order.filter { !task.placed.contains($0) }.map { .drop(item: $0, target: nil) } }
        if let task = question.dragMatching {
            return task.items.filter { task.matched[$0.id] == nil }.map { item in
                .drop(item: item.id, target: task.targets.first { $0.concept == item.concept }!.id)
            }
        }
        if let word = question.spelling {
            return OfflineAnswerKey.places(of: word).map { .drop(item: $0.item, target: $0.target) }
        }
        if question.type == .repetition { return [.recording(passed: true, feedback: "")] }
        return [.option(question.correctOptionID!)]
    }

    @Test("every screen of every bundled lesson is asked as its template says, with exactly one right answer", arguments: Language.allCases)
    func everyScreenAsked(language: Language) throws {
        let planner = QuestionPlanner(catalog: LessonCatalog(corpus: Self.corpus, language: language))
        let packs = Self.corpus.packs.filter { $0.language == language }
        var asked = 0
        for pack in packs {
            for authored in pack.lessons {
                let lesson = Lesson(
                    course: authored, of: pack, in: planner.catalog, native: Self.native(for: language), startAbilities: [])
                var random = SimulationRandom(seed: 34)
                for (index, screen) in authored.screens.enumerated() {
                    let type = Self.type(of: screen)
                    func built(part: Int) -> LessonQuestion? {
                        planner.question(
                            forScreen: index, part: part, of: authored, in: lesson, state: LearnerState(LearnerModel()), at: Self.now,
                            using: &random)
                    }
                    if case .story(let id) = screen.task {
                        // Each of the story's questions, then no more.
                        let story = try #require(planner.catalog.story(id), "\(authored.id): story \(id)")
                        for (number, authoredQuestion) in story.questions.enumerated() {
                            let question = try #require(built(part: number), "\(authored.id): \(id) question \(number + 1)")
                            asked += 1
                            #expect(question.type == .reading && question.prompt == authoredQuestion.prompt)
                            #expect(question.item == LessonItemID(.story, "\(id)/\(number + 1)"))
                            #expect(question.item.storyQuestion?.story == id && question.item.storyQuestion?.number == number + 1)
                            let right = question.options.filter { $0.id == question.correctOptionID }.map { $0.text }
                            #expect(right == [authoredQuestion.options[authoredQuestion.answer]])
                        }
                        #expect(built(part: story.questions.count) == nil)
                        continue
                    }
                    #expect(built(part: 1) == nil, "one question a screen")
                    let built = try #require(built(part: 0), "\(authored.id) screen \(index + 1) (\(screen.template))")
                    asked += 1
                    #expect(built.type == type)
                    switch screen.task {
                    case .wordPicture(let word, let others), .choice(let word, let others, _), .listen(let word, let others):
                        #expect(built.item == LessonItemID(.word, word))
                        #expect(built.options.count == others.count + 1)
                        let right = built.options.filter { $0.id == built.correctOptionID }
                        #expect(right.count == 1)
                        if type == .picture { #expect(right.first?.concept == word) }
                        if type == .translationFromTarget || type == .translationToTarget { #expect(built.prompt != nil) }
                        if type == .listening { #expect(built.prompt == nil) }
                    case .gapFill(let sentence, let answer, let others, _):
                        #expect(built.prompt == sentence && built.options.count == others.count + 1)
                        #expect(built.options.filter { $0.id == built.correctOptionID }.map(\.text) == [answer])
                    case .repeatPhrase(let phrase):
                        #expect(built.item == LessonItemID(.phrase, phrase) && built.accepted == [built.prompt!])
                    case .sequencing(let items):
                        let task = try #require(built.sequencing)
                        #expect(task.order.compactMap { id in task.items.first { $0.id == id }?.concept } == items)
                        #expect(task.placed.count == (screen.workedExample ? 1 : 0))
                    case .matching(let words):
                        let task = try #require(built.dragMatching)
                        #expect(Set(task.items.map(\.concept)) == Set(words) && Set(task.targets.map(\.concept)) == Set(words))
                        #expect(task.matched.count == (screen.workedExample ? 1 : 0))
                        #expect(built.targets?.allSatisfy { $0.concept != nil && $0.text == nil } == true)
                    case .sightWords(let sentence, let words):
                        let task = try #require(built.sightWords)
                        #expect(built.prompt == sentence && built.item == LessonItemID(.sightWord, words[0]))
                        #expect(task.order.compactMap { id in task.tiles.first { $0.id == id }?.word } == words)
                        #expect(Set(task.tiles.map { $0.word }).count == task.tiles.count && task.tapped == (screen.workedExample ? 1 : 0))
                    case .letters(let letter, let others):
                        #expect(built.item == LessonItemID(.letter, letter) && built.prompt == nil)
                        #expect(Set(built.options.compactMap(\.text)) == Set([letter] + others))
                        #expect(built.options.filter { $0.id == built.correctOptionID }.map(\.text) == [letter])
                    case .spelling(let word):
                        let spelling = try #require(built.spelling)
                        let written = try #require(planner.catalog.concept(word)?.localization(language)?.word)
                        #expect(built.item == LessonItemID(.word, word) && built.prompt == nil && spelling.shown == written)
                        #expect(spelling.tiles.count == spelling.targets.filter { $0.letter != nil }.count, "no distractor")
                        #expect(built.targets?.count == spelling.targets.count)
                    case .story:
                        break
                    }
                }
            }
        }
        #expect(asked >= 200, "\(language.code): \(asked) screens asked")
    }

    @Test("a course lesson asks its screens in order, teaches each right first try, and ends after its last screen")
    func walkedThrough() throws {
        let pack = try #require(Self.corpus.packs.first { $0.id == "fr-discover-family" })
        let authored = try #require(pack.lessons.first)
        let planner = QuestionPlanner(catalog: LessonCatalog(corpus: Self.corpus, language: .french))
        var lesson = Lesson(course: authored, of: pack, in: planner.catalog, native: .english, startAbilities: [])
        let asked = lesson.askNext(Self.id, planner: planner, state: LearnerState(LearnerModel()), at: Self.now)
        #expect(asked)
        var model = LearnerModel()
        var seconds = 0.0
        var screens: [Int] = []
        while let question = lesson.current {
            screens.append(try #require(lesson.course?.screens[question.id]))
            var taught: [LessonLearning] = []
            for answer in Self.rightAnswers(to: question) {
                seconds += 3
                if let learning = try lesson.record(
                    answer, to: question.id, of: Self.id, at: Self.now + seconds, claimedMilliseconds: nil, planner: planner,
                    model: model, difficulties: [:])
                {
                    taught.append(learning)
                    model.apply(learning.learning)
                }
            }
            if question.item.kind == .word { #expect(!taught.isEmpty, "\(question.id): \(question.type)") }
            #expect(taught.allSatisfy { $0.learned.correct })
        }
        #expect(screens == Array(authored.screens.indices))
        #expect(lesson.isFinished && lesson.questions.count == authored.screens.count)
        #expect(!model.cards.isEmpty)
    }

    @Test(
        "a sight-words lesson and a story lesson are walked through in every language, each answer teaching its item",
        arguments: Language.allCases)
    func sightWordsAndStories(language: Language) throws {
        let planner = QuestionPlanner(catalog: LessonCatalog(corpus: Self.corpus, language: language))
        let packs = Self.corpus.packs.filter { $0.language == language }
        let sightWords = try #require(packs.flatMap(\.lessons).first { $0.screens.contains { $0.template == .sightWords } })
        let story = try #require(packs.flatMap(\.lessons).first { $0.screens.contains { $0.template == .story } })
        for authored in [sightWords, story] {
            let pack = try #require(packs.first { $0.lessons.contains(authored) })
            var lesson = Lesson(course: authored, of: pack, in: planner.catalog, native: Self.native(for: language), startAbilities: [])
            let asked = lesson.askNext(Self.id, planner: planner, state: LearnerState(LearnerModel()), at: Self.now)
            #expect(asked)
            var (model, seconds, taught) = (LearnerModel(), 0.0, [LessonItemID.Kind: Int]())
            while let question = lesson.current {
                for answer in Self.rightAnswers(to: question) {
                    seconds += 2
                    if let learning = try lesson.record(
                        answer, to: question.id, of: Self.id, at: Self.now + seconds, claimedMilliseconds: nil, planner: planner,
                        model: model, difficulties: [:])
                    {
                        taught[learning.item.id.kind, default: 0] += 1
                        #expect(learning.learned.correct)
                        if [.sightWord, .story].contains(learning.item.id.kind) { #expect(learning.learning.skill == .reading) }
                        model.apply(learning.learning)
                    }
                }
            }
            #expect(lesson.isFinished && lesson.questions.count == planner.catalog.questionCount(of: authored))
            if authored == story {
                #expect(taught[.story] == lesson.questions.count, "\(authored.id): every story question teaches")
            } else {
                #expect(taught[.sightWord, default: 0] > 0 && model.abilities.contains { $0.skill == .reading }, "\(authored.id)")
            }
        }
    }

    @Test("while speaking is paused, a course lesson's speaking screens are passed over")
    func speakingPaused() throws {
        let pack = try #require(Self.corpus.packs.first { $0.id == "fr-discover-family" })
        let authored = try #require(pack.lessons.first { $0.screens.contains { $0.template == .repeatPhrase } })
        let planner = QuestionPlanner(catalog: LessonCatalog(corpus: Self.corpus, language: .french))
        var lesson = Lesson(course: authored, of: pack, in: planner.catalog, native: .english, startAbilities: [])
        _ = lesson.pauseSpeaking(until: Self.now + 3600)
        let asked = lesson.askNext(Self.id, planner: planner, state: LearnerState(LearnerModel()), at: Self.now)
        #expect(asked)
        var types: [QuestionType] = []
        var seconds = 0.0
        while let question = lesson.current {
            types.append(question.type)
            for answer in Self.rightAnswers(to: question) {
                seconds += 2
                _ = try lesson.record(
                    answer, to: question.id, of: Self.id, at: Self.now + seconds, claimedMilliseconds: nil, planner: planner,
                    model: LearnerModel(), difficulties: [:])
            }
        }
        #expect(!types.isEmpty && !types.contains(.repetition) && lesson.isFinished)
    }
}

@Suite("course progress")
struct CourseProgressTests {
    @Test("per pack: lessons finished, last opened, the next to take; the lesson in progress; packs by section and order")
    func progress() throws {
        let packs = CourseLessonTests.corpus.packs.filter { $0.language == .french }
        let family = try #require(packs.first { $0.id == "fr-discover-family" })
        let day = CourseLessonTests.now
        let ids = family.lessons.map(\.id)
        let records: [String: CourseLessonRecord] = [
            ids[0]: .init(finished: true, lastOpened: day, inProgress: false),
            ids[2]: .init(finished: true, lastOpened: day + 60, inProgress: false),
            // Opened after, never finished: the next to take, and open now.
            ids[1]: .init(finished: false, lastOpened: day + 120, inProgress: true),
            ids[3]: .init(finished: false, lastOpened: day - 86_400, inProgress: false),
        ]
        let progress = CourseProgress(packs: packs.shuffled(), records: records) { $0.id == "fr-stories-a2" }
        let sections = CourseSection.allCases
        let places = progress.packs.map { (sections.firstIndex(of: $0.pack.section)!, $0.pack.order) }
        #expect(places.map(\.0) == places.map(\.0).sorted() && progress.packs.count == packs.count)
        let shown = try #require(progress.packs.first { $0.pack.id == family.id })
        #expect(shown.completed == 2 && shown.lastAccessed == day + 120 && shown.next?.id == ids[1] && !shown.locked)
        #expect(progress.inProgress == ids[1])
        #expect(progress.packs.filter(\.locked).map(\.pack.id) == ["fr-stories-a2"])
        let untouched = try #require(progress.packs.first { $0.pack.id == "fr-discover-home" })
        #expect(untouched.completed == 0 && untouched.lastAccessed == nil && untouched.next?.number == 1)
        #expect(CourseProgress.status(records[ids[3]]) == .started && CourseProgress.status(nil) == .notStarted)
        #expect(CourseProgress.status(records[ids[0]]) == .completed)
    }
}

@Suite("the main menu's suggestions")
struct CourseMenuTests {
    let packs = CourseLessonTests.corpus.packs.filter { $0.language == .french }
    let locked: Set<String> = ["fr-stories-a2", "fr-discover-food", "fr-discover-family", "fr-discover-clothing"]

    func menu(_ records: [String: CourseLessonRecord] = [:], appeal: [String: LessonAppeal] = [:]) -> CourseMenu {
        let progress = CourseProgress(packs: packs, records: records) { locked.contains($0.id) }
        return CourseMenu(progress: progress, records: records, appeal: appeal)
    }

    @Test("nobody has taken anything: the first lesson of Learn to Read, of the first open Discover pack, the first story")
    func inOrder() {
        let first = menu()
        #expect(first.suggestions.map(\.kind) == [.learnToRead, .discover, .story])
        #expect(first.suggestions.map(\.lesson.id) == ["fr-read-sightwords-01", "fr-discover-home-01", "fr-stories-a1-01"])
        #expect(first.suggestions[2].storyID?.hasPrefix("fr-story-") == true && first.suggestions[0].storyID == nil)
    }

    @Test("what learners finish and take again wins; a few learners cannot outweigh order; locked and finished lessons are never offered")
    func byAppeal() {
        let day = CourseLessonTests.now
        let finished = CourseLessonRecord(finished: true, lastOpened: day, inProgress: false)
        // Animals is finished and taken again by most; Home by few.
        let liked = menu(appeal: [
            "fr-discover-animals-01": .init(started: 40, finished: 36, repeated: 12),
            "fr-discover-home-01": .init(started: 40, finished: 20, repeated: 0),
            "fr-discover-family-01": .init(started: 100, finished: 100, repeated: 90),  // locked
            "fr-stories-a1-03": .init(started: 30, finished: 29, repeated: 10),
        ])
        #expect(liked.suggestions.map(\.lesson.id) == ["fr-read-sightwords-01", "fr-discover-animals-01", "fr-stories-a1-03"])
        // One learner who loved the second lesson of Animals is not enough
        // to pass Home's first, which nobody has taken (order wins there).
        let one = LessonAppeal(started: 1, finished: 1, repeated: 1)
        #expect(one.score < 0.9 && LessonAppeal(started: 0, finished: 0, repeated: 0).score == 0.5)
        // Finished lessons move on: Learn to Read's next, Home's next, another story.
        let stories = packs.first { $0.id == "fr-stories-a1" }!.lessons.map(\.id)
        let records = Dictionary(uniqueKeysWithValues: (["fr-read-sightwords-01", "fr-discover-home-01"] + stories).map { ($0, finished) })
        let later = menu(records)
        #expect(later.suggestions.map(\.lesson.id) == ["fr-read-sightwords-02", "fr-discover-home-02"])
        #expect(!later.suggestions.contains { $0.kind == .story })  // the open stories are all read; A2 is locked
    }
}

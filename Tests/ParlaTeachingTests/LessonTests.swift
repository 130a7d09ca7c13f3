import Foundation
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaLearning
import Testing

@testable import ParlaTeaching

/// The whole bundled content: word lists, phrases and grammar notes.
enum Content {
    static let corpus: Corpus = {
        let root = ChoiceQuestionTests.corpora
        var files: [CorpusLoader.File] = []
        for folder in ["wordlists", "phrases", "grammar"] {
            let directory = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".yaml") {
                if let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) {
                    files.append(CorpusLoader.File(path: "\(folder)/\(name)", text: text))
                }
            }
        }
        if let text = try? String(contentsOf: root.appendingPathComponent("homophones.yaml"), encoding: .utf8) {
            files.append(CorpusLoader.File(path: "homophones.yaml", text: text))
        }
        let (corpus, problems) = CorpusLoader { _ in true }.load(files)
        precondition(problems.isEmpty, "content problems: \(problems.prefix(5))")
        return corpus
    }()

    static func catalog(_ language: Language) -> LessonCatalog { LessonCatalog(corpus: corpus, language: language) }
}

@Suite("gap-fill exercises")
struct GapFillTests {
    @Test("every exercise of every language makes a question with four options and exactly one right", arguments: Language.allCases)
    func exactlyOneRight(language: Language) throws {
        let catalog = Content.catalog(language)
        let planner = QuestionPlanner(catalog: catalog)
        let lesson = Lesson(
            language: language, native: language == .english ? .french : .english, length: 12, types: [.gapFill],
            focus: [], gapWeights: [:], startAbilities: [])
        var generator = SimulationRandom(seed: 7)
        let exercises = catalog.items.filter { $0.id.kind == .grammar }
        #expect(exercises.count >= 60, "\(language.code): \(exercises.count) exercises")
        for item in exercises {
            let question = try #require(planner.question(.gapFill, about: item, in: lesson, isNew: true, at: Date(), using: &generator))
            let exercise = try #require(catalog.exercise(item.id.key)).exercise
            #expect(question.prompt?.components(separatedBy: "___").count == 2)
            #expect(question.options.count == 4)
            #expect(Set(question.options.compactMap(\.text).map(PlacementQuestion.folded)).count == 4)
            #expect(question.options.filter { $0.text == exercise.correct }.map(\.id) == [question.correctOptionID])
        }
    }
}

@Suite("listening questions")
struct ListeningTests {
    @Test("a word heard is never offered beside a word that sounds the same (mer, mère)")
    func homophones() throws {
        let corpus = Content.corpus
        #expect(corpus.homophones[.french]?.contains(["mother", "sea"]) == true)
        let maker = ChoiceQuestionMaker(corpus: corpus)
        var generator = SimulationRandom(seed: 11)
        for (language, groups) in corpus.homophones {
            for group in groups {
                for key in group {
                    let concept = try #require(corpus.concepts.first { $0.key == key })
                    for _ in 0..<50 {
                        guard
                            let question = maker.question(
                                .listening, about: concept, native: language == .english ? .french : .english,
                                target: language, using: &generator)
                        else { continue }
                        #expect(question.options.filter { group.contains($0.concept) }.map(\.concept) == [key], "\(language.code) \(key)")
                    }
                }
            }
        }
    }
}

@Suite("lesson answers")
struct LessonAnswerTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    func lesson(_ types: Set<QuestionType>, language: Language = .french) throws -> Lesson {
        let catalog = Content.catalog(language)
        var lesson = Lesson(language: language, native: .english, length: 3, types: types, focus: [], gapWeights: [:], startAbilities: [])
        var generator = SimulationRandom(seed: 1)
        let state = LearnerState(abilities: [:], cards: [:], difficulties: [:])
        lesson.questions.append(
            try #require(QuestionPlanner(catalog: catalog).next(for: lesson, state: state, at: Self.start, using: &generator)))
        return lesson
    }

    @Test("T4.7, T4.8: a wrong choice disables the option and teaches nothing yet; the right one after it counts as wrong")
    func wrongThenRight() throws {
        var lesson = try lesson([.translationFromTarget])
        let question = try #require(lesson.current)
        let wrong = try #require(question.options.first { $0.id != question.correctOptionID })
        let first = try lesson.answer(.option(wrong.id), to: question.id, at: Self.start.addingTimeInterval(3), claimedMilliseconds: 2500)
        #expect(!first.correct && first.feedback == "wrong" && first.learned == nil)
        #expect(lesson.current?.disabledOptionIDs == [wrong.id])
        #expect(throws: LessonAnswerError.optionAlreadyTried) {
            try lesson.answer(.option(wrong.id), to: question.id, at: Self.start.addingTimeInterval(4), claimedMilliseconds: nil)
        }
        let second = try lesson.answer(
            .option(question.correctOptionID!), to: question.id, at: Self.start.addingTimeInterval(6),
            claimedMilliseconds: nil)
        #expect(second.correct)
        // The first try decides: wrong, with the first try's time.
        #expect(second.learned?.correct == false)
        #expect(second.learned?.responseTime == 2.5)
        #expect(second.learned?.tries == 2)
        #expect(lesson.current == nil)
    }

    @Test("T4.5, T4.6: a right first choice is learnt as right, with the client's time held within the server's")
    func rightFirst() throws {
        var lesson = try lesson([.picture, .translationToTarget])
        let question = try #require(lesson.current)
        let outcome = try lesson.answer(
            .option(question.correctOptionID!), to: question.id, at: Self.start.addingTimeInterval(5),
            claimedMilliseconds: 1)
        #expect(outcome.correct && outcome.feedback == "correct")
        // Claimed 1 ms, measured 5 s: at most 2 s quicker than measured.
        #expect(
            outcome.learned
                == .init(
                    item: question.item, type: question.type, correct: true, responseTime: 3, tries: 1, isNew: true,
                    optionCount: question.options.count))
    }

    @Test("typed translations: a missing accent is almost, and right")
    func typed() throws {
        var lesson = try lesson([.typedTranslation])
        let question = try #require(lesson.current)
        let spelt = try #require(question.accepted.first)
        let unaccented = spelt.folding(options: .diacriticInsensitive, locale: nil)
        let outcome = try lesson.answer(.text(unaccented.uppercased() + " !"), to: question.id, at: Self.start, claimedMilliseconds: nil)
        #expect(outcome.correct)
        #expect(outcome.feedback == (unaccented == spelt ? "correct" : "almost"))
    }

    @Test("an answer of the wrong kind, to another question, or after the end is refused")
    func refused() throws {
        var lesson = try lesson([.translationFromTarget])
        let question = try #require(lesson.current)
        #expect(throws: LessonAnswerError.wrongAnswerKind) {
            try lesson.answer(.text("chat"), to: question.id, at: Self.start, claimedMilliseconds: nil)
        }
        #expect(throws: LessonAnswerError.wrongAnswerKind) {
            try lesson.answer(.recording(passed: true, feedback: "good"), to: question.id, at: Self.start, claimedMilliseconds: nil)
        }
        #expect(throws: LessonAnswerError.notCurrentQuestion) {
            try lesson.answer(.option("a"), to: "q9", at: Self.start, claimedMilliseconds: nil)
        }
        #expect(throws: LessonAnswerError.optionNotFound) {
            try lesson.answer(.option("z"), to: question.id, at: Self.start, claimedMilliseconds: nil)
        }
    }
}

@Suite("question planner")
struct QuestionPlannerTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    let catalog = Content.catalog(.spanish)

    /// Plays a lesson of `length` questions, answering each as `answers`
    /// says, the model updated after every question as the server does.
    func play(
        length: Int, types: Set<QuestionType> = Set(QuestionType.allCases), seed: UInt64 = 3, theta: Double = 0,
        gaps: [String: Double] = [:], answers: (LessonQuestion) -> Bool
    ) throws -> (lesson: Lesson, state: LearnerState) {
        let planner = QuestionPlanner(catalog: catalog)
        var lesson = Lesson(
            language: .spanish, native: .english, length: length, types: types, focus: [], gapWeights: gaps,
            startAbilities: [])
        var state = LearnerState(
            abilities: Dictionary(uniqueKeysWithValues: Skill.allCases.map { ($0, theta) }), cards: [:], difficulties: [:])
        var generator = SimulationRandom(seed: seed)
        var clock = Self.now
        for _ in 0..<length {
            let question = try #require(planner.next(for: lesson, state: state, at: clock, using: &generator))
            lesson.questions.append(question)
            clock += 8
            let right = answers(question)
            var outcomes: [AnswerOutcome] = []
            if question.type.isTemplate {
                // Every drop in turn, a wrong one first when answering wrong.
                if !right { _ = try lesson.answer(TemplateTests.wrongDrop(question), to: question.id, at: clock, claimedMilliseconds: nil) }
                for drop in TemplateTests.rightDrops(question) {
                    outcomes.append(try lesson.answer(drop, to: question.id, at: clock, claimedMilliseconds: nil))
                }
                #expect(lesson.current == nil)
            } else {
                if !right, let wrong = question.options.first(where: { $0.id != question.correctOptionID }) {
                    _ = try lesson.answer(.option(wrong.id), to: question.id, at: clock, claimedMilliseconds: nil)
                }
                let answer: LessonAnswer =
                    switch question.type {
                    case .typedTranslation: .text(question.accepted[0])
                    case .repetition: .recording(passed: true, feedback: "good")
                    default: .option(question.correctOptionID!)
                    }
                if !right, !question.type.isChoice {
                    let failed: LessonAnswer =
                        question.type == .repetition ? .recording(passed: false, feedback: "wrong_phrase") : .text("zzz")
                    _ = try lesson.answer(failed, to: question.id, at: clock, claimedMilliseconds: nil)
                }
                outcomes.append(try lesson.answer(answer, to: question.id, at: clock, claimedMilliseconds: nil))
            }
            for (index, outcome) in outcomes.enumerated() {
                // A template's last item, which could go only one place, teaches nothing.
                guard let learned = outcome.learned else {
                    #expect(question.type.isTemplate && index == outcomes.count - 1)
                    continue
                }
                let skill = learned.type.skill
                let item = try #require(catalog.item(learned.item))
                let update = AbilityModel.update(
                    SkillAbility(skill: skill, theta: state.ability(skill)),
                    item: PracticeItem(
                        id: item.id.description, difficulty: item.initialDifficulty,
                        timeLimitSeconds: learned.type.timeLimitSeconds),
                    correct: learned.correct, responseTime: learned.responseTime)
                state.abilities[skill] = update.ability.theta
                let rating = Rating.grade(
                    correct: learned.correct, responseTime: learned.responseTime, expectedTime: learned.type.timeLimitSeconds / 3)
                state.cards[learned.item] = MemoryScheduler().review(
                    state.cards[learned.item] ?? MemoryCard(due: clock), rating: rating, at: clock)
            }
        }
        return (lesson, state)
    }

    @Test("never the same item twice in a row; a phrase to repeat in every five questions; a mix of types")
    func rules() throws {
        for seed in 1...4 as ClosedRange<UInt64> {
            let (lesson, _) = try play(length: 40, seed: seed) { _ in true }
            let items = lesson.questions.map(\.item)
            #expect(zip(items, items.dropFirst()).allSatisfy { $0 != $1 })
            for start in 0...(lesson.questions.count - QuestionPlanner.repetitionEvery) {
                let window = lesson.questions[start..<(start + QuestionPlanner.repetitionEvery)]
                #expect(window.contains { $0.type == .repetition }, "no repetition in questions \(start + 1)-\(start + 5)")
            }
            #expect(Set(lesson.questions.map(\.type)).count >= 5, "\(Set(lesson.questions.map(\.type)))")
        }
    }

    @Test("due reviews come first, least likely to be recalled first")
    func dueFirst() throws {
        let planner = QuestionPlanner(catalog: catalog)
        let words = catalog.items.filter { $0.id.kind == .word }.prefix(3).map(\.id)
        let scheduler = MemoryScheduler()
        // Reviewed long ago with low stability (weak), recently (strong), and not due.
        var weak = scheduler.review(MemoryCard(due: Self.now - 40 * 86400), rating: .hard, at: Self.now - 40 * 86400)
        weak.due = Self.now - 86400
        var strong = scheduler.review(MemoryCard(due: Self.now - 3 * 86400), rating: .easy, at: Self.now - 3 * 86400)
        strong.due = Self.now - 60
        let later = scheduler.review(MemoryCard(due: Self.now), rating: .easy, at: Self.now)
        let state = LearnerState(abilities: [:], cards: [words[0]: strong, words[1]: weak, words[2]: later], difficulties: [:])
        let lesson = Lesson(
            language: .spanish, native: .english, length: 5, types: Set(QuestionType.allCases), focus: [], gapWeights: [:],
            startAbilities: [])
        var generator = SimulationRandom(seed: 5)
        #expect(scheduler.retrievability(of: weak, at: Self.now) < scheduler.retrievability(of: strong, at: Self.now))
        #expect(planner.next(for: lesson, state: state, at: Self.now, using: &generator)?.item == words[1])
    }

    @Test("items the learner asked for come first, in their order")
    func focusFirst() throws {
        let planner = QuestionPlanner(catalog: catalog)
        let phrase = LessonItemID(.phrase, "directions-go-forward-ten-metres")
        let lesson = Lesson(
            language: .spanish, native: .english, length: 5, types: Set(QuestionType.allCases), focus: [phrase], gapWeights: [:],
            startAbilities: [])
        var generator = SimulationRandom(seed: 5)
        let question = try #require(
            planner.next(
                for: lesson, state: LearnerState(abilities: [:], cards: [:], difficulties: [:]), at: Self.now,
                using: &generator))
        #expect(question.item == phrase && question.type == .repetition && question.prompt == "Avance diez metros.")
        #expect(question.translation == "Go forward ten metres.")
    }

    @Test("new items are chosen among the closest to a 3-in-4 chance of success")
    func nearTarget() throws {
        for theta in [-2.0, 0, 2] {
            for seed in 1...5 as ClosedRange<UInt64> {
                let (lesson, _) = try play(length: 1, types: [.translationFromTarget, .gapFill, .picture], seed: seed, theta: theta) { _ in
                    true
                }
                let question = try #require(lesson.questions.first)
                let distance = { (item: LessonItem) in
                    abs(
                        AbilityModel.successProbability(theta: theta, difficulty: item.initialDifficulty, optionCount: 4)
                            - QuestionPlanner.targetSuccess)
                }
                let candidates = catalog.items.filter { $0.types.contains(question.type) }.map(distance).sorted()
                let chosen = distance(catalog.item(question.item)!)
                #expect(chosen <= candidates[QuestionPlanner.candidatePool - 1] + 1e-9, "theta \(theta) \(question.type): \(chosen)")
            }
        }
    }

    @Test("choices lean towards the learner's gaps")
    func gapsWeigh() throws {
        func share(_ gaps: [String: Double]) throws -> Double {
            var inArea = 0, total = 0
            for seed in 1...6 as ClosedRange<UInt64> {
                let (lesson, _) = try play(length: 20, types: [.translationFromTarget, .translationToTarget], seed: seed, gaps: gaps) { _ in
                    true
                }
                inArea += lesson.questions.filter { catalog.item($0.item)?.areaID == "food" }.count
                total += lesson.questions.count
            }
            return Double(inArea) / Double(total)
        }
        let plain = try share([:]), leaning = try share(["food": 3])
        #expect(leaning > plain + 0.1, "food: \(plain) without the gap, \(leaning) with it")
    }

    @Test("only the types allowed are asked")
    func typesAllowed() throws {
        let (lesson, _) = try play(length: 15, types: [.gapFill, .listening]) { _ in true }
        #expect(Set(lesson.questions.map(\.type)) == [.gapFill, .listening])
    }

    @Test("a learner who always answers right climbs; one who always answers wrong never does")
    func climbs() throws {
        let (_, right) = try play(length: 30, theta: -1) { _ in true }
        let (_, wrong) = try play(length: 30, theta: -1) { _ in false }
        for skill in [Skill.vocabulary, .speaking] {
            #expect(right.ability(skill) > -1, "\(skill)")
            #expect(wrong.ability(skill) <= -1, "\(skill)")
        }
    }
}

@Suite("templates in lessons")
struct TemplateTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The drops that solve a template question, in order.
    static func rightDrops(_ question: LessonQuestion) -> [LessonAnswer] {
        if let task = question.sequencing { return task.order.map { .drop(item: $0, target: nil) } }
        guard let task = question.dragMatching else { return [] }
        return task.items.map { item in .drop(item: item.id, target: task.targets.first { $0.concept == item.concept }!.id) }
    }

    /// A drop that pops back.
    static func wrongDrop(_ question: LessonQuestion) -> LessonAnswer {
        if let task = question.sequencing { return .drop(item: task.order[1], target: nil) }
        let task = question.dragMatching!
        return .drop(item: task.items[0].id, target: task.targets.first { $0.concept != task.items[0].concept }!.id)
    }

    func lesson(_ language: Language, _ type: QuestionType) -> Lesson {
        Lesson(
            language: language, native: language == .english ? .french : .english, length: 3, types: [type], focus: [],
            gapWeights: [:], startAbilities: [])
    }

    @Test(
        "sequencing: four numbers with the item among them, one right order, read from the list; every language",
        arguments: Language.allCases)
    func sequencing(_ language: Language) throws {
        let catalog = Content.catalog(language)
        let planner = QuestionPlanner(catalog: catalog)
        let numbers = try #require(Content.corpus.wordLists.first { $0.id == "numbers" }).words.map(\.key)
        var generator = SimulationRandom(seed: 11)
        let items = catalog.items.filter { $0.types.contains(.sequencing) }
        #expect(items.count >= 20 && items.allSatisfy { numbers.contains($0.id.key) })
        for item in items {
            let question = try #require(
                planner.question(
                    .sequencing, about: item, in: lesson(language, .sequencing), isNew: true, at: Self.now,
                    using: &generator))
            let task = try #require(question.sequencing)
            #expect(question.options.count == 4 && question.options.map(\.id) == task.items.map(\.id))
            #expect(task.items.contains { $0.concept == item.id.key })
            let values = task.order.map { id in numbers.firstIndex(of: task.items.first { $0.id == id }!.concept)! }
            #expect(values == values.sorted() && Set(values).count == 4)
            #expect(task.items.map(\.id) != task.order)
            #expect(question.correctOptionID == nil && question.prompt == nil)
        }
    }

    @Test(
        "drag matching: four words and four translations, each word one target, no two alike; every language", arguments: Language.allCases)
    func dragMatching(_ language: Language) throws {
        let catalog = Content.catalog(language)
        let planner = QuestionPlanner(catalog: catalog)
        var generator = SimulationRandom(seed: 12)
        let native: Language = language == .english ? .french : .english
        let fold = { (text: String?) in text?.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
        // Every word and meaning a concept of the content joins.
        let translations = Content.corpus.concepts.compactMap { concept -> (word: String?, meaning: String?)? in
            guard let word = concept.localization(language), let meaning = concept.localization(native), !word.isDisabled,
                !meaning.isDisabled
            else { return nil }
            return (fold(word.word), fold(meaning.word))
        }
        let items = catalog.items.filter { $0.types.contains(.dragMatching) }
        // Words of several meanings ("fille": girl, daughter) are asked 8 times each besides.
        let ambiguous = items.filter { item in
            let word = fold(catalog.concept(item.id.key)?.localization(language)?.word)
            return translations.filter { $0.word == word }.count > 1
        }
        var built = 0
        for (index, item) in (Array(items.prefix(200)) + Array(repeating: ambiguous, count: 8).joined()).enumerated() {
            guard
                let question = planner.question(
                    .dragMatching, about: item, in: lesson(language, .dragMatching), isNew: true, at: Self.now,
                    using: &generator)
            else { continue }
            if index < 200 { built += 1 }
            let task = try #require(question.dragMatching)
            let targets = try #require(question.targets)
            #expect(task.items.contains { $0.concept == item.id.key })
            #expect(Set(question.options.compactMap { fold($0.text) }).count == 4 && Set(targets.compactMap { fold($0.text) }).count == 4)
            for (option, card) in zip(question.options, task.items) {
                // The word shown is the concept's word; its one target shows its translation.
                let concept = try #require(catalog.concept(card.concept))
                #expect(option.text == concept.localization(language)?.word)
                let matching = targets.filter { target in task.targets.first { $0.id == target.id }?.concept == card.concept }
                #expect(matching.count == 1 && matching.first?.text == concept.localization(native)?.word)
                // Read as a learner reads it: no other target is a meaning the word also has ("neuf": nine, new).
                let readable = targets.filter { target in
                    translations.contains(where: { $0.word == fold(option.text) && $0.meaning == fold(target.text) })
                }
                #expect(readable.map(\.id) == matching.map(\.id), "\(option.text ?? "-"): \(readable.map(\.text))")
            }
        }
        #expect(built >= 190, "\(built) of 200")
    }

    @Test("a wrong drop pops back and is a try; each item placed teaches its word; the question ends with the last")
    func drops() throws {
        for type in [QuestionType.sequencing, .dragMatching] {
            let catalog = Content.catalog(.french)
            let planner = QuestionPlanner(catalog: catalog)
            var generator = SimulationRandom(seed: 13)
            var lesson = lesson(.french, type)
            let item = try #require(catalog.items.first { $0.types.contains(type) })
            let question = try #require(planner.question(type, about: item, in: lesson, isNew: true, at: Self.now, using: &generator))
            lesson.questions.append(question)
            let wrong = try lesson.answer(Self.wrongDrop(question), to: question.id, at: Self.now + 3, claimedMilliseconds: nil)
            #expect(!wrong.correct && wrong.learned == nil && lesson.current != nil)
            var learned: [AnswerOutcome.Learned] = []
            for (index, drop) in Self.rightDrops(question).enumerated() {
                let outcome = try lesson.answer(drop, to: question.id, at: Self.now + 5 + Double(index) * 2, claimedMilliseconds: nil)
                #expect(outcome.correct)
                // The last item can go only one place: it teaches nothing.
                if index == 3 { #expect(outcome.learned == nil) } else { learned.append(try #require(outcome.learned)) }
                // Placed items cannot be dropped again.
                if index < 3 {
                    #expect(throws: LessonAnswerError.optionAlreadyTried) {
                        try lesson.answer(drop, to: question.id, at: Self.now + 6, claimedMilliseconds: nil)
                    }
                }
            }
            #expect(lesson.current == nil && lesson.questions[0].isResolved)
            // The wrong drop was at the first item: it counts wrong, the rest right, each timed from the drop before,
            // with the chance of a guess among the places left.
            #expect(learned.map(\.correct) == [false, true, true])
            #expect(learned.map(\.responseTime) == [5, 2, 2])
            #expect(learned.map(\.optionCount) == [4, 3, 2])
            #expect(Set(learned.map(\.item)).count == 3 && learned.allSatisfy { $0.type == type && $0.item.kind == .word })
            // A drop needs the right form: a target for drag matching, none for sequencing.
            var other = self.lesson(.french, type)
            other.questions.append(question)
            if type == .dragMatching {
                #expect(throws: LessonAnswerError.wrongAnswerKind) {
                    try other.answer(.drop(item: "a", target: nil), to: question.id, at: Self.now, claimedMilliseconds: nil)
                }
                #expect(throws: LessonAnswerError.targetNotFound) {
                    try other.answer(.drop(item: "a", target: "9"), to: question.id, at: Self.now, claimedMilliseconds: nil)
                }
            } else {
                #expect(throws: LessonAnswerError.optionNotFound) {
                    try other.answer(.drop(item: "z", target: nil), to: question.id, at: Self.now, claimedMilliseconds: nil)
                }
            }
        }
    }
}

@Suite("teacher mode within what the account owns")
struct OpenWordsTests {
    @Test("new words come only from the lists the account may open; a focus on a locked word is passed over")
    func onlyOpenWords() throws {
        let corpus = Content.corpus
        let home = try #require(corpus.wordLists.first { $0.id == "home" })
        let open = Set(home.words.map(\.key)).union(corpus.wordLists.flatMap(\.freeKeys))
        let locked = try #require(corpus.concepts.first { !open.contains($0.key) })
        let planner = QuestionPlanner(catalog: Content.catalog(.french), openWords: open)
        var lesson = Lesson(
            language: .french, native: .english, length: 60, types: Set(QuestionType.allCases),
            focus: [LessonItemID(.word, locked.key)], gapWeights: [:], startAbilities: [])
        let state = LearnerState(
            abilities: Dictionary(uniqueKeysWithValues: Skill.allCases.map { ($0, 0) }), cards: [:], difficulties: [:])
        var generator = SimulationRandom(seed: 5)
        var words = 0
        for _ in 0..<60 {
            let question = try #require(planner.next(for: lesson, state: state, at: Date(), using: &generator))
            lesson.questions.append(question)
            if question.item.kind == .word {
                words += 1
                #expect(open.contains(question.item.key), "\(question.item) is not open")
            }
        }
        #expect(words >= 10)
        // The same planner with every word open teaches the locked one first (the focus).
        let everything = QuestionPlanner(catalog: Content.catalog(.french))
        var fresh = lesson
        fresh.questions = []
        let first = try #require(everything.next(for: fresh, state: state, at: Date(), using: &generator))
        #expect(first.item == LessonItemID(.word, locked.key))
    }
}

extension OpenWordsTests {
    /// Issue 32, item 8: a free learner's lessons show only the words its
    /// account may open: the item, every option, every sequence's word and
    /// every matching tile, over 20 lessons of every type, in two languages.
    /// The learner met every list's words during a trial (their cards are
    /// due), and a locked list may open a few words as a sample (`free:`).
    @Test(
        "20 lessons of a free learner after a trial show no locked word, in any template or option", arguments: [Language.french, .german])
    func noLockedWordShown(_ language: Language) throws {
        let corpus = Content.corpus
        let starter: Set<String> = ["home", "animals", "food", "body", "clothing", "transport", "weather", "family"]
        let samples = corpus.wordLists.filter { !starter.contains($0.id) }.flatMap { $0.words.prefix(7).map(\.key) }
        let open = Set(corpus.wordLists.filter { starter.contains($0.id) }.flatMap { $0.words.map(\.key) }).union(samples)
        let locked = Set(corpus.concepts.map(\.key)).subtracting(open)
        #expect(open.count == 280 + 4 * 7 && !locked.isEmpty)
        let native: Language = .english
        // What a locked word can look like on screen, and no open word does.
        let lockedFaces = Set(
            corpus.concepts.filter { locked.contains($0.key) }.flatMap { concept in
                [concept.localization(language)?.word, concept.localization(native)?.word, concept.picture.description].compactMap { $0 }
            }
        ).subtracting(
            corpus.concepts.filter { open.contains($0.key) }.flatMap { concept in
                [concept.localization(language)?.word, concept.localization(native)?.word, concept.picture.description].compactMap { $0 }
            })
        let catalog = Content.catalog(language)
        let planner = QuestionPlanner(catalog: catalog, openWords: open)
        var state = LearnerState(
            abilities: Dictionary(uniqueKeysWithValues: Skill.allCases.map { ($0, 0) }), cards: [:], difficulties: [:])
        var generator = SimulationRandom(seed: 32)
        let scheduler = MemoryScheduler()
        var now = Date(timeIntervalSince1970: 1_800_000_000)
        // The trial: a word of every list learnt, due again now.
        for list in corpus.wordLists {
            for word in list.words.suffix(3) {
                state.cards[LessonItemID(.word, word.key)] = scheduler.review(
                    MemoryCard(due: now - 86_400 * 8), rating: .good, at: now - 86_400 * 8)
            }
        }
        var shown = 0
        for _ in 1...20 {
            var lesson = Lesson(
                language: language, native: native, length: 12, types: Set(QuestionType.allCases), focus: [], gapWeights: [:],
                startAbilities: [])
            while lesson.questions.count < lesson.length,
                let question = planner.next(for: lesson, state: state, at: now, using: &generator)
            {
                lesson.questions.append(question)
                var concepts = (question.sequencing?.items.map(\.concept) ?? []) + (question.dragMatching?.items.map(\.concept) ?? [])
                concepts += question.dragMatching?.targets.map(\.concept) ?? []
                concepts += question.options.compactMap(\.concept)
                if question.item.kind == .word { concepts.append(question.item.key) }
                for concept in concepts where !open.contains(concept) { Issue.record("\(question.type): \(concept) is locked") }
                // A word question's options and tiles are words (a gap-fill's are grammar: "un" is no number).
                let faces =
                    question.item.kind == .word ? question.options.compactMap(\.text) + (question.targets ?? []).compactMap(\.text) : []
                for face in faces where lockedFaces.contains(face) { Issue.record("\(question.type): \(face) is a locked word") }
                shown += concepts.count + faces.count
                // Answered right at once: the item joins the learner's memory.
                let answers: [LessonAnswer] =
                    question.type.isTemplate
                    ? TemplateTests.rightDrops(question)
                    : [
                        question.correctOptionID.map { .option($0) }
                            ?? (question.type == .repetition
                                ? .recording(passed: true, feedback: "good") : .text(question.accepted.first ?? ""))
                    ]
                for answer in answers { _ = try lesson.answer(answer, to: question.id, at: now + 3, claimedMilliseconds: nil) }
                state.cards[question.item] = scheduler.review(state.cards[question.item] ?? MemoryCard(due: now), rating: .good, at: now)
                now += 60
            }
            now += 86_400
        }
        #expect(shown > 500)
    }
}

@Suite("assignments' items")
struct AssignmentRuleTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a list's words, phrases, a note's exercises; every problem at once")
    func items() throws {
        let corpus = Content.corpus
        let list = try AssignmentRules.items("wordList", targets: ["home"], due: now + 86400, in: .french, corpus: corpus, now: now)
        #expect(list.kind == .wordList && list.items.count == 35 && list.items.allSatisfy { $0.kind == .word })
        let phrase = try #require(corpus.phrases.first { $0.texts[.german] != nil })
        let phrases = try AssignmentRules.items(
            "phrases", targets: [phrase.id, phrase.id], due: now + 86400, in: .german, corpus: corpus, now: now)
        #expect(phrases.items == [LessonItemID(.phrase, phrase.id)])
        let note = try #require(corpus.grammarNotes.first { $0.language == .spanish && !$0.exercises.isEmpty })
        let grammar = try AssignmentRules.items("grammarNote", targets: [note.id], due: now + 86400, in: .spanish, corpus: corpus, now: now)
        #expect(grammar.items.count == note.exercises.count)
        #expect(throws: ParlaError.validation([FieldError("kind", .validationFailed), FieldError("dueAt", .validationFailed)])) {
            try AssignmentRules.items("poem", targets: [], due: now - 1, in: .french, corpus: corpus, now: now)
        }
        #expect(throws: ParlaError.validation([FieldError("targets", .grammarNoteNotFound)])) {
            try AssignmentRules.items("grammarNote", targets: [note.id], due: now + 86400, in: .french, corpus: corpus, now: now)
        }
        #expect(throws: ParlaError.validation([FieldError("dueAt", .validationFailed)])) {
            try AssignmentRules.items("wordList", targets: ["home"], due: now + 400 * 86400, in: .french, corpus: corpus, now: now)
        }
    }
}

@Suite("class report")
struct ClassReportTests {
    let today = Date(timeIntervalSince1970: 1_800_000_000)

    func day(_ offset: Int) -> Date { today.addingTimeInterval(Double(offset) * 86400) }

    @Test("trends over 7 and 30 days, the weakest skill practised, levels counted, completion averaged")
    func summaries() throws {
        let (first, second) = (AssignmentID.generate(), AssignmentID.generate())
        let steady = ClassReport.Member(
            id: .generate(), displayName: "Ana", lastActive: day(-1),
            history: [(day(-40), -1.0, .a2), (day(-30), -0.6, .a2), (day(-8), 0.0, .b1), (day(0), 0.4, .b1)],
            skills: [(.vocabulary, 0.6, 10), (.listening, 0.2, 10), (.speaking, -3, 0)], completions: [first: 1, second: 0.5])
        let newcomer = ClassReport.Member(
            id: .generate(), displayName: "=Bob, \"the\" new", lastActive: nil, history: [], skills: [], completions: [:])
        let report = ClassReport(
            members: [steady, newcomer],
            missed: [.init(item: "word:house", misses: 2, answers: 5), .init(item: "word:door", misses: 4, answers: 4)], today: today)
        let ana = report.learners[0]
        #expect(ana.level == .b1 && ana.theta == 0.4)
        #expect(abs(ana.trend7! - 0.4) < 1e-9 && abs(ana.trend30! - 1.0) < 1e-9)
        #expect(ana.weakestSkill == .listening)  // speaking was never practised
        #expect(ana.assignmentCompletion == 0.75)
        let bob = report.learners[1]
        #expect(bob.level == nil && bob.trend7 == nil && bob.weakestSkill == nil && bob.assignmentCompletion == nil)
        #expect(report.levels == [.b1: 1])
        #expect(report.mostMissed.map(\.item) == ["word:door", "word:house"])
        // Per assignment, over the whole class (Bob did none of either).
        // Bob has no completion of either (he may open none of them): the means leave him out.
        #expect(report.assignments == [first: 1, second: 0.5])
        let csv = report.csv().split(separator: "\r\n")
        #expect(csv.count == 3)
        #expect(csv[1].hasSuffix(",B1,0.40,0.40,1.00,listening,0.75"))
        // A name that a spreadsheet would run as a formula is quoted and defused.
        #expect(csv[2].contains(",\"'=Bob, \"\"the\"\" new\","))
    }

    @Test("the class's progress: weekly means over the learners with a level by then, the last known value carried")
    func progress() {
        func member(_ history: [(Int, Double)]) -> ClassReport.Member {
            .init(
                id: .generate(), displayName: "x", lastActive: nil, history: history.map { (day($0.0), $0.1, .a2) }, skills: [],
                completions: [:])
        }
        let report = ClassReport(
            members: [member([(-100, -1), (-20, 0)]), member([(-10, 1), (-3, 2)]), member([])], missed: [], today: today)
        #expect(report.progress.count == ClassReport.progressWeeks + 1)
        #expect(report.progress.first == .init(day: day(-84), theta: -1, learners: 1))
        #expect(report.progress.first { $0.day == day(-14) } == .init(day: day(-14), theta: 0, learners: 1))
        #expect(report.progress.first { $0.day == day(-7) } == .init(day: day(-7), theta: 0.5, learners: 2))
        #expect(report.progress.last == .init(day: today, theta: 1, learners: 2))
        #expect(ClassReport(members: [member([])], missed: [], today: today).progress.isEmpty)
    }

    /// Issue 32, item 19: three learners who had only started a course at
    /// A1 were counted at no level and shown "–", while each one's own
    /// page said A1. The class counts a learner where its own page puts it.
    @Test("a learner with only a course at A1 is at A1, as its own page says; one with nothing known has no level")
    func levelFromCourse() {
        func member(_ courseLevel: CEFRLevel?, skills: [(skill: Skill, theta: Double, responses: Int)] = []) -> ClassReport.Member {
            .init(
                id: .generate(), displayName: "x", lastActive: nil, history: [], skills: skills, courseLevel: courseLevel,
                completions: [:])
        }
        let beginners = ClassReport(members: [member(.a1), member(.a1), member(.a1)], missed: [], today: today)
        #expect(beginners.levels == [.a1: 3])
        for learner in beginners.learners {
            // The bar the learner sees: the middle of A1, half way to A2.
            #expect(learner.level == .a1 && learner.overall?.nextLevel == .a2 && learner.overall?.progress == 0.5)
            #expect(learner.trend7 == nil && learner.weakestSkill == nil)
        }
        #expect(beginners.progress.isEmpty)  // no answer yet: nothing to draw
        #expect(beginners.csv().split(separator: "\r\n")[1].contains(",A1,-2.00,,,,"))

        // Measured skills and the course's prior for the others, as the learner's page weighs them.
        let practised: [(skill: Skill, theta: Double, responses: Int)] = [(.vocabulary, 0.3, 30), (.listening, -0.4, 4)]
        let own = ProficiencyReport(
            abilities: SkillAbility.everySkill(
                practised.map { SkillAbility(skill: $0.skill, theta: $0.theta, responses: $0.responses) }, courseLevel: .b1)
        ).overall
        let mixed = ClassReport(members: [member(.b1, skills: practised), member(nil)], missed: [], today: today)
        #expect(mixed.learners[0].overall == own && own.level == .b1)
        // No course level (a placement test running) and no ability: nothing known, not counted.
        #expect(mixed.learners[1].overall == nil && mixed.learners[1].level == nil)
        #expect(mixed.levels == [.b1: 1])
    }
}

@Suite("assignments and locks")
struct AssignmentLockTests {
    let items = ["word:cat", "word:dog", "word:whale", "phrase:hello"]

    static func open(_ words: Set<String>, packs: Set<String> = []) -> AssignmentRules.Open { .init(words: words, packs: packs) }

    @Test("locked items are the words the account may not open; phrases never are")
    func locked() {
        #expect(AssignmentRules.lockedItems(items, open: Self.open(["cat", "dog"])) == ["word:whale"])
        #expect(AssignmentRules.lockedItems(items, open: Self.open(["cat", "dog", "whale"])).isEmpty)
        #expect(AssignmentRules.lockedItems(items, open: Self.open([])) == ["word:cat", "word:dog", "word:whale"])
    }

    @Test("a lesson of the course is locked while its pack is, in any language")
    func lockedLessons() {
        let lessons = ["course:fr-discover-food-01", "course:de-discover-home-02", "course:fr-stories-a2-06"]
        #expect(CoursePack.sharedID(ofLesson: "fr-discover-food-01") == "discover-food")
        #expect(CoursePack.sharedID(ofLesson: "es-stories-a2-06") == "stories-a2")
        #expect(AssignmentRules.lockedItems(lessons, open: Self.open([], packs: ["discover-home"])) == [lessons[0], lessons[2]])
        #expect(AssignmentRules.lockedItems(lessons, open: Self.open([], packs: ["discover-home", "discover-food", "stories-a2"])).isEmpty)
        #expect(AssignmentRules.completion(rightItems: [lessons[1]], of: lessons, open: Self.open([], packs: ["discover-home"])) == 1)
    }

    @Test("completion counts only what the learner may open: a free learner reaches 1")
    func completion() {
        // Whale is locked: cat, dog and the phrase right are all of it.
        #expect(
            AssignmentRules.completion(rightItems: ["word:cat", "word:dog", "phrase:hello"], of: items, open: Self.open(["cat", "dog"]))
                == 1)
        #expect(AssignmentRules.completion(rightItems: ["word:cat"], of: items, open: Self.open(["cat", "dog"])) == 1.0 / 3)
        // Once opened, whale counts; an answer right while locked does not count for more than the items.
        #expect(AssignmentRules.completion(rightItems: ["word:cat"], of: items, open: Self.open(["cat", "dog", "whale"])) == 0.25)
        // All locked, or no items: no completion at all.
        #expect(AssignmentRules.completion(rightItems: [], of: ["word:whale"], open: Self.open([])) == nil)
        #expect(AssignmentRules.completion(rightItems: [], of: [], open: Self.open([])) == nil)
    }
}

import Foundation
import ParlaContent
import ParlaCore
import Testing

@Suite("the bundled course")
struct BundledCourseTests {
    static let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Corpora").standardized

    /// Every YAML file of Corpora but the catalogue, as `parla content import` reads them.
    static func load() throws -> (Corpus, [ContentProblem]) {
        let root = corpora.path
        let paths = try #require(FileManager.default.subpathsOfDirectory(atPath: root).sorted())
        let files = try paths.filter { $0.hasSuffix(".yaml") && $0 != "products.yaml" }.map {
            CorpusLoader.File(path: $0, text: try String(contentsOfFile: root + "/" + $0, encoding: .utf8))
        }
        let drawn = Set(paths.filter { $0.hasPrefix("pictures/") && $0.hasSuffix(".svg") }.map { String($0.dropFirst(9).dropLast(4)) })
        // OpenMoji's drawings are checked by the importer where they are installed.
        return CorpusLoader { reference in
            if case .svg(let name) = reference { return drawn.contains(name) }
            return true
        }.load(files)
    }

    @Test("every language: 8 packs of at least 6 lessons, a sight-words pack, two story packs, 12 stories of 80-250 words")
    func sizes() throws {
        let (corpus, problems) = try Self.load()
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        for language in Language.allCases {
            let packs = corpus.packs.filter { $0.language == language }
            #expect(packs.count >= 8, "\(language.code): \(packs.count) packs")
            for pack in packs { #expect(pack.lessons.count >= 6, "\(pack.id): \(pack.lessons.count) lessons") }
            #expect(
                packs.contains { $0.section == .learnToRead && $0.lessons.contains { $0.screens.contains { $0.template == .sightWords } } })
            #expect(packs.filter { $0.section == .readAStory }.count >= 2, "\(language.code)")
            #expect(packs.filter { $0.section == .discover }.allSatisfy { $0.wordList != nil })
            let stories = corpus.stories.filter { $0.language == language }
            #expect(stories.count >= 12, "\(language.code): \(stories.count) stories")
            #expect(Set(stories.map(\.level)) == [.a1, .a2], "\(language.code)")
            for story in stories { #expect(Story.wordCount.contains(story.wordCount), "\(story.id): \(story.wordCount) words") }
            // Every template a lesson can use is used somewhere in the language's course.
            let templates = Set(packs.flatMap(\.lessons).flatMap(\.screens).map(\.template))
            #expect(templates == Set(ScreenTemplate.allCases), "\(language.code): \(templates)")
            #expect(corpus.sightWords[language]?.count == 40, "\(language.code)")
        }
        for template in ScreenTemplate.allCases {
            #expect(corpus.instructions.templates[template]?.instruction.count == Language.allCases.count, "\(template)")
        }
    }
}

@Suite("the course's voice")
struct CourseVoiceTests {
    @Test("every narrator line in every UI language, every story and every sight-words sentence is spoken, with word timings")
    func planned() throws {
        let (corpus, _) = try BundledCourseTests.load()
        let plan = AssetPlan(corpus: corpus, files: [])
        let lines = corpus.instructions.lines
        #expect(lines.count >= 9 * 2 + 2)
        for (line, texts) in lines {
            for language in Language.allCases {
                #expect(plan.sources[.narratorLine(line, language)] == texts[language].map { .synthetic(text: $0, language) }, "\(line)")
            }
        }
        for story in corpus.stories {
            let text = story.paragraphs.joined(separator: "\n\n")
            #expect(plan.sources[.storyAudio(id: story.id, story.language)] == .synthetic(text: text, story.language))
            #expect(
                plan.sources[.storyTimings(id: story.id, story.language)]
                    == .narration(audio: .storyAudio(id: story.id, story.language), text: text, story.language))
        }
        var sentences = 0
        for pack in corpus.packs {
            for lesson in pack.lessons {
                for (index, screen) in lesson.screens.enumerated() {
                    guard case .sightWords(let sentence, _) = screen.task else { continue }
                    let key = CourseLine.screenKey(lesson: lesson.id, screen: index + 1)
                    #expect(plan.sources[.sentenceAudio(screen: key, pack.language)] == .synthetic(text: sentence, pack.language))
                    #expect(plan.sources[.sentenceTimings(screen: key, pack.language)] != nil)
                    sentences += 1
                }
            }
        }
        #expect(sentences >= 5 * 6)
    }

    @Test(
        "the narrator on a screen: its own instruction before its template's, the example only on a worked example; the closing lines in turn"
    )
    func narration() {
        let lines = CourseInstructions.Lines(
            instruction: [.english: "Drag them."], example: [.english: "Watch."], retry: [.english: "Again."])
        let screens = [
            CourseScreen(task: .sequencing(items: ["a", "b", "c"]), workedExample: true),
            CourseScreen(task: .sequencing(items: ["a", "b", "c"]), instruction: [.english: "Put the day in order."]),
            CourseScreen(task: .repeatPhrase(phrase: "greetings-hello")),
        ]
        let lesson = CourseLesson(id: "en-discover-home-02", number: 2, titles: [:], screens: screens)
        let corpus = Corpus(
            packs: [
                CoursePack(
                    id: "en-discover-home", language: .english, section: .discover, level: .a1, order: 1, icon: .emoji("1f3e0"),
                    wordList: "home", titles: [:], summaries: [:], lessons: [lesson])
            ],
            instructions: CourseInstructions(
                templates: [.sequencing: lines], closing: [[.english: "Well done!"], [.english: "Great work!"], [.english: "Bravo!"]]))
        let first = corpus.narration(of: lesson, screen: 0, finished: false)
        #expect(first.instruction == .template(.sequencing, .instruction) && first.example == .template(.sequencing, .example))
        #expect(first.retry == .template(.sequencing, .retry) && first.closing == nil)
        let second = corpus.narration(of: lesson, screen: 1, finished: false)
        #expect(second.instruction == .screen(lesson: lesson.id, number: 2) && second.example == nil)
        #expect(corpus.texts(of: second.instruction!)?[.english] == "Put the day in order.")
        #expect(corpus.narration(of: lesson, screen: 2, finished: false) == CourseNarration())
        let end = corpus.narration(of: lesson, screen: 2, finished: true)
        #expect(end.closing == .closing(2) && end.instruction == nil)
        #expect(corpus.texts(of: .closing(2))?[.english] == "Great work!" && corpus.texts(of: .closing(4)) == nil)
        #expect(CourseLine.template(.repeatPhrase, .retry).description == "repeat.retry")
        // Right tries are praised in turn; a wrong last try is not.
        #expect(first.praise == nil && corpus.narration(of: lesson, screen: 1, finished: false, rightAnswer: 1).praise == nil)
        let praising = Corpus(packs: corpus.packs, instructions: .init(praise: [[.english: "Yes!"], [.english: "Great!"]]))
        #expect(praising.narration(of: lesson, screen: 1, finished: false, rightAnswer: 3).praise == .praise(1))
        #expect(praising.narration(of: lesson, screen: 0, finished: true, rightAnswer: 2).praise == .praise(2))

        // What the pack's download holds for a French-speaking learner.
        let concept = Concept(key: "a", level: .a1, picture: .emoji("1f34e"), localizations: [:])
        let slots = corpus.assetSlots(of: corpus.packs[0], native: .french) { $0 == "a" ? concept : nil }
        #expect(slots.first == .picture(.emoji("1f3e0")) && Set(slots).count == slots.count)
        #expect(slots.contains(.narratorLine(.template(.sequencing, .example), .french)))
        #expect(slots.contains(.narratorLine(.screen(lesson: lesson.id, number: 2), .french)))
        #expect(slots.contains(.narratorLine(.closing(2), .french)) && !slots.contains(.narratorLine(.closing(1), .french)))
        #expect(slots.contains(.picture(.emoji("1f34e"))) && slots.contains(.word(concept: "a", .english)))
        #expect(slots.contains(.phrase(id: "greetings-hello", .english)))
        #expect(!slots.contains { if case .narratorLine(_, .english) = $0 { true } else { false } })
        #expect(
            AssetSlot.narratorLine(.screen(lesson: lesson.id, number: 2), .french).description == "line:fr:screen.en-discover-home-02.2")
    }
}

import Foundation
import ParlaContent
import ParlaCore
import Testing

/// A small valid French course on `Fixture`'s word list, each test breaking
/// it in one way.
enum CourseFixture {
    static func five(_ text: String) -> String {
        "{en: \"\(text)\", fr: \"\(text) fr\", it: \"\(text) it\", de: \"\(text) de\", es: \"\(text) es\"}"
    }

    /// `Fixture`'s list with a picture of its own for each word.
    static let list = Fixture.list(
        words: (1...35).map { Fixture.word($0).replacingOccurrences(of: "emoji:1f3e0", with: "emoji:1f3\(String(0x10 + $0, radix: 16))") }
            .joined())

    static let packs = CorpusLoader.File(
        path: "course/fr/packs.yaml",
        text: """
            language: fr
            packs:
              - id: fr-read-sightwords
                section: learnToRead
                level: A1
                order: 1
                icon: emoji:1f4d6
                title: \(five("Sight words"))
                summary: \(five("Words to read at a glance."))
              - id: fr-discover-things
                section: discover
                level: A1
                order: 1
                icon: emoji:1f3e0
                words: things
                title: \(five("Things"))
                summary: \(five("Things around us."))
              - id: fr-stories-a1
                section: readAStory
                level: A1
                order: 1
                icon: emoji:1f4da
                title: \(five("First stories"))
                summary: \(five("Short stories to read along."))
            """)

    static func lesson(_ path: String, _ screens: String) -> CorpusLoader.File {
        CorpusLoader.File(path: "course/fr/lessons/\(path)", text: "title: \(five("A lesson"))\nscreens:\n\(screens)")
    }

    static let discoverScreens = """
          - template: wordPicture
            word: thing-1
            options: [thing-2, thing-3, thing-4]
          - template: choice
            direction: fromTarget
            word: thing-2
            options: [thing-1, thing-3, thing-4]
          - template: listen
            word: thing-3
            options: [thing-1, thing-2, thing-4]
          - template: gapFill
            sentence: "La ___ est ici."
            answer: chose1
            options: [chose2, chose3, chose4]
          - template: repeat
            phrase: greetings-hello
          - template: sequencing
            items: [thing-1, thing-2, thing-3]
            example: true
          - template: matching
            words: [thing-4, thing-5, thing-6, thing-7]
        """
    static let discover = lesson("fr-discover-things/01.yaml", discoverScreens)
    static let sightWordsLesson = lesson(
        "fr-read-sightwords/01.yaml",
        """
          - template: sightWords
            sentence: "Le chat et le chien."
            words: [le, et, le]
            example: true
        """)
    static let storyLesson = lesson(
        "fr-stories-a1/01.yaml",
        """
          - template: story
            story: fr-story-01-le-chat
        """)

    static func story(paragraph: String = String(repeating: "Le chat dort sur le lit. ", count: 14)) -> CorpusLoader.File {
        CorpusLoader.File(
            path: "course/fr/stories/01-le-chat.yaml",
            text: """
                id: fr-story-01-le-chat
                language: fr
                level: A1
                pack: fr-stories-a1
                title: \(five("The cat"))
                summary: \(five("A cat sleeps."))
                words: [thing-1, thing-2, thing-3, thing-4, thing-5]
                paragraphs:
                  - "\(paragraph)"
                questions:
                  - {prompt: "Qui dort ?", options: ["Le chat", "Le chien"], answer: 0}
                  - {prompt: "Où ?", options: ["Sur le lit", "Dans le jardin"], answer: 0}
                  - {prompt: "Le chat dort ?", options: ["Oui", "Non"], answer: 0}
                """)
    }

    static let sightWords = CorpusLoader.File(
        path: "course/fr/sightwords.yaml",
        text: """
            language: fr
            words:
              - {word: le, set: 1}
              - {word: et, set: 1}
              - {word: la, set: 2}
            """)

    static let instructions = CorpusLoader.File(
        path: "course/instructions.yaml",
        text: "templates:\n"
            + ScreenTemplate.allCases.map { "  \($0.rawValue):\n    instruction: \(five("Do \($0.rawValue)"))\n" }.joined()
            + "closing:\n  - \(five("Well done"))\npraise:\n  - \(five("Yes"))\n"
            + "menu:\n"
            + CourseInstructions.MenuLine.allCases.map { "  \($0.rawValue): \(five($0.namesTitle ? "Try {title}" : "Hello"))\n" }.joined())

    static var files: [CorpusLoader.File] {
        [list, Fixture.phrases, packs, discover, sightWordsLesson, storyLesson, story(), sightWords, instructions]
    }

    static func replacing(_ path: String, with file: CorpusLoader.File) -> [CorpusLoader.File] {
        files.filter { $0.path != path } + [file]
    }
}

@Suite("Corpora validation: the course")
struct CourseLoaderTests {
    @Test("a valid course loads: packs in their sections, lessons in order, every template's screen, the story and its pack")
    func valid() throws {
        let (corpus, problems) = Fixture.loader.load(CourseFixture.files)
        #expect(problems == [])
        #expect(corpus.packs.map(\.id) == ["fr-discover-things", "fr-read-sightwords", "fr-stories-a1"])
        let discover = try #require(corpus.packs.first)
        #expect(discover.section == .discover && discover.wordList == "things" && discover.titles[.german] == "Things de")
        let lesson = try #require(discover.lessons.first)
        #expect(lesson.id == "fr-discover-things-01" && lesson.number == 1)
        #expect(
            lesson.screens.map(\.template) == [.wordPicture, .choice, .listen, .gapFill, .repeatPhrase, .sequencing, .matching])
        #expect(lesson.screens[1].task == .choice(word: "thing-2", others: ["thing-1", "thing-3", "thing-4"], direction: .fromTarget))
        #expect(lesson.screens[5].workedExample && !lesson.screens[0].workedExample)
        #expect(corpus.packs[1].lessons[0].screens[0].task == .sightWords(sentence: "Le chat et le chien.", words: ["le", "et", "le"]))
        let story = try #require(corpus.stories.first)
        #expect(story.wordCount == 84 && story.questions.count == 3 && story.pack == "fr-stories-a1")
        #expect(corpus.sightWords[.french]?.map(\.set) == [1, 1, 2])
        #expect(corpus.instructions.templates[.story]?.instruction[.italian] == "Do story it")
        #expect(corpus.instructions.menu[.story]?[.german] == "Try {title} de" && corpus.instructions.menu.count == 6)
    }

    /// The one problem a broken file gives, with where it is.
    func problem(_ files: [CorpusLoader.File]) -> ContentProblem? {
        let problems = Fixture.loader.load(files).1
        #expect(problems.count == 1, "\(problems)")
        return problems.first
    }

    @Test("a menu line says its title's place once, and only a suggestion's names one")
    func menuLines() throws {
        let text = CourseFixture.instructions.text
            .replacingOccurrences(of: "story: {en: \"Try {title}\"", with: "story: {en: \"Try it\"")
            .replacingOccurrences(of: "welcome: {en: \"Hello\"", with: "welcome: {en: \"Hello {title}\"")
        let problems = Fixture.loader.load(
            CourseFixture.replacing(CourseFixture.instructions.path, with: .init(path: CourseFixture.instructions.path, text: text))
        ).1
        #expect(
            problems.map(\.message).sorted() == ["menu story (en) must say {title} once", "menu welcome (en) must say {title} nowhere"])
        #expect(problems.allSatisfy { $0.file == "course/instructions.yaml" && $0.line > 1 })
        #expect(CourseInstructions.part(.beforeTitle, of: "Oder {title} lesen?") == "Oder")
        #expect(CourseInstructions.part(.afterTitle, of: "Oder {title} lesen?") == "lesen?")
        #expect(CourseInstructions.part(.afterTitle, of: "Ou lire {title} ?") == nil)
    }

    @Test("an answer that is not the only right one is refused: a word offered twice, two words alike, two pictures alike")
    func ambiguous() throws {
        let answerAmongOptions = CourseFixture.discoverScreens.replacingOccurrences(
            of: "options: [thing-2, thing-3, thing-4]", with: "options: [thing-1, thing-3, thing-4]")
        let first = try #require(
            problem(
                CourseFixture.replacing(
                    CourseFixture.discover.path, with: CourseFixture.lesson("fr-discover-things/01.yaml", answerAmongOptions))))
        #expect(first.file == "course/fr/lessons/fr-discover-things/01.yaml" && first.line == 3 && first.kind == .invalidValue)

        // Two concepts written alike in French (chose1 twice) cannot both be offered.
        var list = CourseFixture.list
        list.text = list.text.replacingOccurrences(of: "word: chose2,", with: "word: chose1,")
        let alike = Fixture.loader.load(CourseFixture.files.filter { $0.path != list.path } + [list]).1
        #expect(alike.contains { $0.message.contains("same word in fr") }, "\(alike)")

        // A matching screen whose pictures are alike.
        list = CourseFixture.list
        list.text = list.text.replacingOccurrences(of: "emoji:1f316", with: "emoji:1f317")  // thing-6 drawn as thing-7
        let pictures = Fixture.loader.load(CourseFixture.files.filter { $0.path != list.path } + [list]).1
        #expect(pictures.map(\.message).contains { $0.contains("same picture") }, "\(pictures)")

        let twoGaps = CourseFixture.discoverScreens.replacingOccurrences(of: "La ___ est ici.", with: "La ___ est ___.")
        #expect(
            problem(
                CourseFixture.replacing(CourseFixture.discover.path, with: CourseFixture.lesson("fr-discover-things/01.yaml", twoGaps)))?
                .message.contains("one gap") == true)
    }

    @Test("sight words are listed each time the sentence says them, in order")
    func sightWords() throws {
        for words in ["[le, et]", "[et, le, le]", "[le, et, la]"] {
            let lesson = CourseFixture.lesson(
                "fr-read-sightwords/01.yaml",
                "  - template: sightWords\n    sentence: \"Le chat et le chien.\"\n    words: \(words)\n")
            let found = try #require(problem(CourseFixture.replacing(lesson.path, with: lesson)), "\(words)")
            #expect(found.line == 3, "\(words)")
        }
    }

    @Test("every reference is checked: words, phrases, stories, packs; lessons numbered without a gap")
    func references() throws {
        let unknownWord = CourseFixture.discoverScreens.replacingOccurrences(of: "word: thing-3", with: "word: unicorn")
        #expect(
            problem(
                CourseFixture.replacing(CourseFixture.discover.path, with: CourseFixture.lesson("fr-discover-things/01.yaml", unknownWord)))?
                .kind == .unknownReference)
        let unknownPhrase = CourseFixture.discoverScreens.replacingOccurrences(of: "greetings-hello", with: "greetings-howdy")
        #expect(
            problem(
                CourseFixture.replacing(
                    CourseFixture.discover.path, with: CourseFixture.lesson("fr-discover-things/01.yaml", unknownPhrase)))?
                .message == "phrase greetings-howdy does not exist")
        // A lesson of a pack nobody defined.
        let stray = CourseFixture.lesson("fr-discover-dragons/01.yaml", CourseFixture.discoverScreens)
        #expect(problem(CourseFixture.files + [stray])?.file == stray.path)
        // A gap in the numbering.
        let third = CourseFixture.lesson("fr-discover-things/03.yaml", CourseFixture.discoverScreens)
        let numbering = try #require(problem(CourseFixture.files + [third]))
        #expect(numbering.file == third.path && numbering.message.contains("without a gap"))
        // A story whose pack's lessons never tell it.
        let untold = CourseFixture.lesson("fr-stories-a1/01.yaml", CourseFixture.discoverScreens)
        let story = try #require(problem(CourseFixture.replacing(CourseFixture.storyLesson.path, with: untold)))
        #expect(story.file == "course/fr/stories/01-le-chat.yaml" && story.line == 1 && story.message.contains("never tell it"))
    }

    @Test("a story has 80 to 250 words and three questions with one right answer each")
    func stories() throws {
        let short = try #require(
            problem(CourseFixture.replacing(CourseFixture.story().path, with: CourseFixture.story(paragraph: "Le chat dort."))))
        #expect(short.message.contains("has 3"))
        var badAnswer = CourseFixture.story()
        badAnswer.text = badAnswer.text.replacingOccurrences(
            of: "options: [\"Oui\", \"Non\"], answer: 0", with: "options: [\"Oui\", \"Non\"], answer: 2")
        let answer = Fixture.loader.load(CourseFixture.replacing(badAnswer.path, with: badAnswer)).1
        #expect(answer.contains { $0.message.contains("index of the right option") }, "\(answer)")
    }

    @Test("letters screens offer four letters of every alphabet of the language; a spelling word is one its variants can spell")
    func lettersAndSpelling() throws {
        let alphabet = CorpusLoader.File(
            path: "alphabets/fr.yaml",
            text: "variant: fr\nvoice: fr\nflag: fr\ndefault: true\nall: Tous\nletters:\n"
                + "abcdefghijklmnopqrstuvwxyzé".map { "  - letter: \"\($0)\"\n    say: \($0)\n" }.joined())
        let cat = Fixture.word(1, key: "cat").replacingOccurrences(of: "chose1", with: "chat")
            .replacingOccurrences(of: "emoji:1f3e0", with: "emoji:1f431")
        // The fixture's list, its last word a cat ("chat": letters only).
        let words = (1...34).map {
            Fixture.word($0).replacingOccurrences(of: "emoji:1f3e0", with: "emoji:1f3\(String(0x10 + $0, radix: 16))")
        }
        let things = Fixture.list(words: words.joined() + cat)
        func files(_ extra: CorpusLoader.File...) -> [CorpusLoader.File] { CourseFixture.replacing(things.path, with: things) + extra }
        func lesson(_ screens: String) -> CorpusLoader.File { CourseFixture.lesson("fr-read-sightwords/02.yaml", screens) }
        let good = lesson(
            """
              - template: letters
                letter: "c"
                others: ["h", "a", "é"]
              - template: spelling
                word: cat
            """)
        let (corpus, problems) = Fixture.loader.load(files(alphabet, good))
        #expect(problems.isEmpty, "\(problems)")
        let screens = try #require(corpus.packs.first { $0.id == "fr-read-sightwords" }?.lessons.last?.screens)
        #expect(screens.map(\.task) == [.letters(letter: "c", others: ["h", "a", "é"]), .spelling(word: "cat")])
        #expect(screens.map(\.template) == [.letters, .spelling] && screens[1].concepts == ["cat"] && screens[0].concepts.isEmpty)

        for (screen, kind, says) in [
            ("letters\n    letter: \"ç\"\n    others: [\"h\", \"a\", \"t\"]", ContentProblem.Kind.unknownReference, "no small letter"),
            ("letters\n    letter: \"c\"\n    others: [\"h\", \"a\"]", .invalidValue, "3 other letters"),
            ("letters\n    letter: \"c\"\n    others: [\"h\", \"a\", \"c\"]", .invalidValue, "all different"),
            ("spelling\n    word: thing-1", .invalidValue, "chose1 (thing-1) is no word of 2 to 10 letters"),
            ("spelling\n    word: unicorn", .unknownReference, "unicorn is no word's key"),
        ] {
            let bad = lesson("  - template: \(screen)\n")
            let found = Fixture.loader.load(files(alphabet, bad)).1
            #expect(found.count == 1 && found.first?.kind == kind && found.first?.message.contains(says) == true, "\(screen): \(found)")
        }
        // Letters come from the language's alphabet: without one, there are none.
        let none = Fixture.loader.load(files(good)).1
        #expect(none.count == 2 && none.allSatisfy { $0.message.contains("has no alphabet") }, "\(none)")
    }
}

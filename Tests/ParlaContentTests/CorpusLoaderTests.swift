import Foundation
import ParlaContent
import ParlaCore
import Testing

/// A small valid corpus, written as the YAML files would be, that each test
/// breaks in one way.
enum Fixture {
    static func word(_ index: Int, key: String? = nil, extra: String = "") -> String {
        let key = key ?? "thing-\(index)"
        return """
              - key: \(key)
                level: A1
                picture: emoji:1f3e0
            \(extra)    en: {word: thing\(index), article: the, plural: things, frequency: \(100 + index), definition: "A thing\(index) is a thing."}
                fr: {word: chose\(index), article: la, gender: f, plural: choses, frequency: \(200 + index), definition: "Une chose\(index) est une chose."}
                it: {word: cosa\(index), article: la, gender: f, plural: cose, frequency: null, definition: "Una cosa\(index) è una cosa."}
                de: {word: Ding\(index), article: das, gender: n, plural: Dinge, frequency: 300, definition: "Ein Ding\(index) ist ein Ding."}
                es: {word: cosa\(index), article: la, gender: f, plural: cosas, frequency: 400, definition: "Una cosa\(index) es una cosa."}

            """
    }

    static func list(id: String = "things", count: Int = 35, words: String? = nil, free: String = "[thing-1, thing-2]") -> CorpusLoader.File
    {
        let body = words ?? (1...max(1, count)).prefix(count).map { word($0) }.joined()
        return CorpusLoader.File(
            path: "wordlists/\(id).yaml",
            text: """
                id: \(id)
                icon: emoji:1f3e0
                names: {en: Things, fr: Les choses, it: Le cose, de: Die Dinge, es: Las cosas}
                free: \(free)
                words:
                \(body)
                """)
    }

    static let phrases = CorpusLoader.File(
        path: "phrases/greetings.yaml",
        text: """
            topic: greetings
            phrases:
              - id: greetings-hello
                level: A1
                skill: speaking
                en: Hello there!
                fr: Salut !
                it: Ciao!
                de: Hallo!
                es: ¡Hola!
              - id: greetings-good-morning
                level: A1
                skill: listening
                en: Good morning!
                fr: Bonjour !
                it: Buongiorno!
                de: Guten Morgen!
                es: ¡Buenos días!
            """)

    static let grammar = CorpusLoader.File(
        path: "grammar/fr.yaml",
        text: """
            language: fr
            notes:
              - id: fr-greetings
                level: A1
                title: Greetings
                summary: How to greet people.
                body: |
                  Say *bonjour* in the day and *salut* to friends.
                examples: [greetings-hello, greetings-good-morning]
            """)

    /// The note explained in each other UI language (DF5).
    static func explanation(_ ui: String) -> CorpusLoader.File {
        CorpusLoader.File(
            path: "grammar/fr.\(ui).yaml",
            text: """
                language: fr
                explainedIn: \(ui)
                notes:
                  - id: fr-greetings
                    title: Greetings (\(ui))
                    summary: Greeting people, in \(ui).
                    body: |
                      *bonjour*, *salut* (\(ui)).
                """)
    }

    static let explanations = ["fr", "it", "de", "es"].map { explanation($0) }

    static let loader = CorpusLoader { reference in
        if case .svg(let name) = reference { return name == "drawn" }
        return true
    }

    static func problems(_ files: [CorpusLoader.File]) -> [ContentProblem] { loader.load(files).1 }
}

@Suite("Corpora validation")
struct CorpusLoaderTests {
    @Test("a valid corpus loads with no problem")
    func valid() throws {
        let (corpus, problems) = Fixture.loader.load([Fixture.list(), Fixture.phrases, Fixture.grammar] + Fixture.explanations)
        #expect(problems == [])
        #expect(corpus.wordLists.count == 1)
        #expect(corpus.wordLists[0].words.count == 35)
        #expect(corpus.wordLists[0].freeKeys == ["thing-1", "thing-2"])
        let word = try #require(corpus.wordLists[0].words.first)
        #expect(word.localization(.german)?.gender == .neuter)
        #expect(word.localization(.italian)?.frequency == nil)
        #expect(corpus.phrases.map(\.id) == ["greetings-hello", "greetings-good-morning"])
        #expect(corpus.grammarNotes.first?.examples.count == 2)
        #expect(corpus.grammarNotes.first?.explanation(in: .german).title == "Greetings (de)")
        #expect(corpus.grammarNotes.first?.explanation(in: .english).title == "Greetings")
    }

    @Test("DF5: a note must be explained in every UI language, each explanation of a note that exists")
    func explanations() {
        let missing = Fixture.problems([Fixture.phrases, Fixture.grammar] + Fixture.explanations.dropLast())
        #expect(missing.map(\.kind) == [.missingLocalization])
        #expect(missing.first?.message.contains("no explanation in es") == true && missing.first?.file == "grammar/fr.yaml")
        let stray = CorpusLoader.File(
            path: "grammar/fr.es.yaml", text: Fixture.explanation("es").text.replacingOccurrences(of: "fr-greetings", with: "fr-nothing"))
        #expect(
            Set(Fixture.problems([Fixture.phrases, Fixture.grammar] + Fixture.explanations.dropLast() + [stray]).map(\.kind))
                == [.unknownReference, .missingLocalization])
        let english = CorpusLoader.File(
            path: "grammar/fr.en.yaml",
            text: Fixture.explanation("es").text.replacingOccurrences(of: "explainedIn: es", with: "explainedIn: en"))
        #expect(Fixture.problems([Fixture.phrases, Fixture.grammar, english] + Fixture.explanations).map(\.kind) == [.invalidValue])
    }

    @Test("a list not of 35 words")
    func listSize() {
        let problems = Fixture.problems([Fixture.list(count: 34)])
        #expect(problems.map(\.kind) == [.listSize])
        #expect(problems.first?.file == "wordlists/things.yaml")
        #expect(problems.first?.line == 6)  // where the words start
    }

    @Test("a missing localization, reported at its concept's line")
    func missingLocalization() {
        let broken =
            (1...34).map { Fixture.word($0) }.joined()
            + Fixture.word(35).replacingOccurrences(
                of: #"    es: {word: cosa35, article: la, gender: f, plural: cosas, frequency: 400, definition: "Una cosa35 es una cosa."}"#
                    + "\n", with: "")
        let problems = Fixture.problems([Fixture.list(words: broken)])
        #expect(problems.map(\.kind) == [.missingLocalization])
        #expect(problems.first?.message.contains("es") == true)
        #expect(problems.first?.line == 6 + 34 * 8)
    }

    @Test("a key used twice, naming both places")
    func duplicateKey() {
        let problems = Fixture.problems([
            Fixture.list(),
            Fixture.list(
                id: "more", words: (1...35).map { Fixture.word($0, key: $0 == 7 ? "thing-3" : "other-\($0)") }.joined(), free: "[]"),
        ])
        #expect(problems.map(\.kind) == [.duplicateKey])
        #expect(problems.first?.file == "wordlists/things.yaml" || problems.first?.file == "wordlists/more.yaml")
        #expect(problems.first?.message.contains("thing-3") == true)
    }

    @Test("an unknown language")
    func unknownLanguage() {
        let words = (1...35).map {
            Fixture.word($0, extra: $0 == 1 ? "    pt: {word: coisa, frequency: 1, definition: \"Uma coisa.\"}\n" : "")
        }.joined()
        #expect(Fixture.problems([Fixture.list(words: words)]).map(\.kind) == [.unknownLanguage])
    }

    @Test("a language variant falls back to its base")
    func variant() throws {
        let words = (1...35).map { Fixture.word($0, extra: $0 == 1 ? "    en-GB: {plural: thingies}\n" : "") }.joined()
        let (corpus, problems) = Fixture.loader.load([Fixture.list(words: words)])
        #expect(problems == [])
        let british = try #require(corpus.wordLists.first?.words.first?.localization("en-GB"))
        #expect(british.plural == "thingies")
        #expect(british.word == "thing1")
        #expect(corpus.wordLists.first?.words.first?.localization("fr-CA")?.word == "chose1")
    }

    @Test("a missing asset and a malformed picture reference")
    func assets() {
        let words = (1...35).map { index in
            Fixture.word(index).replacingOccurrences(
                of: "picture: emoji:1f3e0",
                with: index == 2
                    ? "picture: svg:undrawn"
                    : index == 3 ? "picture: emoji:XYZ" : index == 4 ? "picture: svg:drawn" : "picture: emoji:1f3e0")
        }.joined()
        #expect(Fixture.problems([Fixture.list(words: words)]).map(\.kind) == [.missingAsset, .invalidValue])
    }

    @Test("a bad level, a phrase too long, a grammar note citing nothing")
    func levelsAndReferences() {
        let words = (1...35).map { Fixture.word($0).replacingOccurrences(of: "level: A1", with: $0 == 9 ? "level: D1" : "level: A1") }
            .joined()
        #expect(Fixture.problems([Fixture.list(words: words)]).map(\.kind) == [.badLevel])
        let longPhrase = CorpusLoader.File(
            path: "phrases/x.yaml",
            text: Fixture.phrases.text.replacingOccurrences(
                of: "en: Hello there!", with: "en: one two three four five six seven eight nine ten eleven twelve thirteen"))
        #expect(Fixture.problems([longPhrase]).map(\.kind) == [.invalidValue])
        let grammar = CorpusLoader.File(
            path: "grammar/fr.yaml", text: Fixture.grammar.text.replacingOccurrences(of: "greetings-hello", with: "greetings-nowhere"))
        let problems = Fixture.problems([Fixture.phrases, grammar] + Fixture.explanations)
        #expect(problems.map(\.kind) == [.unknownReference])
        #expect(problems.first?.message.contains("greetings-nowhere") == true)
    }

    @Test("YAML syntax errors and duplicate mapping keys give their line")
    func syntax() {
        let broken = CorpusLoader.File(path: "phrases/broken.yaml", text: "topic: x\nphrases:\n  - id: [unclosed\n")
        let problems = Fixture.problems([broken])
        #expect(problems.map(\.kind) == [.syntax])
        #expect(problems.first?.line ?? 0 >= 3)
        let twice = CorpusLoader.File(path: "phrases/twice.yaml", text: "topic: x\ntopic: y\nphrases: []\n")
        #expect(Fixture.problems([twice]).map(\.kind) == [.syntax])
    }

    @Test("every problem is reported, not just the first")
    func allProblems() {
        let words = (1...30).map { Fixture.word($0).replacingOccurrences(of: "level: A1", with: $0 == 1 ? "level: Z9" : "level: A1") }
            .joined()
        let kinds = Set(
            Fixture.problems([Fixture.list(words: words, free: "[thing-99]"), Fixture.phrases, Fixture.grammar] + Fixture.explanations).map(
                \.kind))
        #expect(kinds == [.listSize, .badLevel, .unknownReference])
    }
}

@Suite("placement banks")
struct PlacementBankTests {
    static func bank(_ items: String, path: String = "placement/fr/grammar.yaml") -> CorpusLoader.File {
        CorpusLoader.File(path: path, text: "items:\n" + items)
    }

    static let gapFill = """
          - id: fr-grammar-a2-01
            level: A2
            topic: passe-compose
            stem: "Hier, nous ___ au cinéma."
            correct: sommes allés
            distractors: [avons allé, allons, irons]

        """

    @Test("an item loads with its language and skill from the path")
    func loads() throws {
        let (corpus, problems) = Fixture.loader.load([Self.bank(Self.gapFill)])
        #expect(problems == [])
        let item = try #require(corpus.placementQuestions.first)
        #expect(item.language == .french && item.skill == .grammar && item.level == .a2)
        #expect(item.correct == "sommes allés" && item.distractors == ["avons allé", "allons", "irons"])
    }

    @Test("two options that read the same (case, accents, spaces) would be two right answers: refused")
    func twoRightAnswers() {
        let problems = Fixture.problems([
            Self.bank(
                Self.gapFill.replacingOccurrences(
                    of: "[avons allé, allons, irons]",
                    with: "[\"Sommes alles \", allons, irons]"))
        ])
        #expect(problems.map(\.kind) == [.invalidValue])
        #expect(problems.first?.message.contains("two right answers") == true)
    }

    @Test("exactly three distractors, a gap in grammar, a passage for reading, audio for listening, A1-C1 only")
    func mechanicalRules() {
        let two = Self.gapFill.replacingOccurrences(of: "[avons allé, allons, irons]", with: "[allons, irons]")
        #expect(Fixture.problems([Self.bank(two)]).map(\.kind) == [.invalidValue])
        let noGap = Self.gapFill.replacingOccurrences(of: "___", with: "...")
        #expect(Fixture.problems([Self.bank(noGap)]).map(\.kind) == [.invalidValue])
        let reading = Self.gapFill.replacingOccurrences(of: "fr-grammar", with: "fr-reading")
        #expect(Fixture.problems([Self.bank(reading, path: "placement/fr/reading.yaml")]).map(\.kind) == [.missingField])
        let listening = Self.gapFill.replacingOccurrences(of: "fr-grammar", with: "fr-listening")
        #expect(Fixture.problems([Self.bank(listening, path: "placement/fr/listening.yaml")]).map(\.kind) == [.missingField])
        let c2 = Self.gapFill.replacingOccurrences(of: "level: A2", with: "level: C2")
        #expect(Fixture.problems([Self.bank(c2)]).map(\.kind) == [.badLevel])
        #expect(Fixture.problems([Self.bank(Self.gapFill, path: "placement/xx/grammar.yaml")]).map(\.kind) == [.unknownLanguage])
        #expect(Fixture.problems([Self.bank(Self.gapFill, path: "placement/fr/speaking.yaml")]).map(\.kind) == [.invalidValue])
        #expect(Fixture.problems([Self.bank(Self.gapFill + Self.gapFill)]).map(\.kind) == [.duplicateKey])
    }

    @Test("a listening item's audio is spoken by the synthetic voice unless recorded")
    func listeningAudio() {
        let item = Self.gapFill.replacingOccurrences(of: "fr-grammar", with: "fr-listening")
            .replacingOccurrences(of: "    level: A2", with: "    level: A2\n    audio: \"Nous sommes allés au cinéma hier soir.\"")
        let (corpus, problems) = Fixture.loader.load([Self.bank(item, path: "placement/fr/listening.yaml")])
        #expect(problems == [])
        let plan = AssetPlan(corpus: corpus, files: [])
        #expect(
            plan.sources[.placementAudio(item: "fr-listening-a2-01", .french)]
                == .synthetic(text: "Nous sommes allés au cinéma hier soir.", .french))
    }
}

@Suite("the bundled placement banks")
struct BundledPlacementBankTests {
    static let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Corpora").standardized

    @Test("every language has at least 120 valid items, A1 to C1, in every placement skill")
    func complete() throws {
        let root = Self.corpora.appendingPathComponent("placement")
        var files: [CorpusLoader.File] = []
        for language in Language.allCases {
            for skill in PlacementQuestion.skills {
                let path = "placement/\(language.code)/\(skill.rawValue).yaml"
                guard
                    let text = try? String(
                        contentsOf: root.appendingPathComponent("\(language.code)/\(skill.rawValue).yaml"), encoding: .utf8)
                else { continue }
                files.append(CorpusLoader.File(path: path, text: text))
            }
        }
        let (corpus, problems) = Fixture.loader.load(files)
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        for language in Language.allCases {
            let items = corpus.placementQuestions.filter { $0.language == language }
            #expect(items.count >= 120, "\(language.code): \(items.count) items")
            for skill in PlacementQuestion.skills {
                let levels = Set(items.filter { $0.skill == skill }.map(\.level))
                #expect(levels == [.a1, .a2, .b1, .b2, .c1], "\(language.code) \(skill.rawValue): \(levels)")
            }
        }
    }
}

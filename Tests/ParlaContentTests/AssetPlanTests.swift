import ParlaContent
import ParlaCore
import Testing

@Suite("asset plan")
struct AssetPlanTests {
    let elephant = Concept(
        key: "elephant", level: .a1, picture: .emoji("1f418"),
        localizations: [
            "en": Localization(word: "elephant", article: "the", definition: "An elephant is a very big grey animal."),
            "fr": Localization(word: "éléphant", article: "l'", gender: .masculine, definition: "L'éléphant est un très gros animal gris."),
            "de": Localization(
                word: "Elefant", article: "der", gender: .masculine, definition: "Der Elefant ist ein sehr großes Tier.",
                speech: "elefant-anna.wav"),
            "es": Localization(
                word: "elefante", article: "el", gender: .masculine, definition: "El elefante es un animal muy grande.",
                disabled: true),
        ])

    var corpus: Corpus {
        Corpus(
            wordLists: [WordList(id: "animals", icon: .svg("paw"), names: [:], freeKeys: [], words: [elephant])],
            phrases: [
                Phrase(
                    id: "greetings-hello", topic: "greetings", level: .a1, skill: .speaking,
                    texts: [.english: "Hello!", .italian: "Ciao!"])
            ])
    }

    @Test("every word, definition, phrase and picture has a source; synthetic unless recorded; definitions get timings")
    func synthetic() {
        let plan = AssetPlan(corpus: corpus, files: ["audio/de/elefant-anna.wav"])
        #expect(plan.problems.isEmpty)
        #expect(plan.sources[.picture(.emoji("1f418"))] == .drawing(.emoji("1f418")))
        #expect(plan.sources[.picture(.svg("paw"))] == .drawing(.svg("paw")))
        #expect(plan.sources[.word(concept: "elephant", .english)] == .synthetic(text: "elephant", .english))
        #expect(plan.sources[.word(concept: "elephant", .french)] == .synthetic(text: "l'éléphant", .french))
        #expect(
            plan.sources[.definition(concept: "elephant", .french)] == .synthetic(text: "L'éléphant est un très gros animal gris.", .french)
        )
        #expect(plan.sources[.word(concept: "elephant", .german)] == .recorded(path: "audio/de/elefant-anna.wav"))
        #expect(plan.sources[.phrase(id: "greetings-hello", .italian)] == .synthetic(text: "Ciao!", .italian))
        // Disabled in Spanish, absent in Italian: nothing to say.
        #expect(plan.sources[.word(concept: "elephant", .spanish)] == nil)
        #expect(plan.sources[.word(concept: "elephant", .italian)] == nil)
        // Each definition's audio is aligned with its text.
        #expect(
            plan.sources[.definitionTimings(concept: "elephant", .french)]
                == .narration(audio: .definition(concept: "elephant", .french), text: "L'éléphant est un très gros animal gris.", .french))
        #expect(plan.sources.count == 2 + 3 * 3 + 2)
    }

    @Test("a recording in audio/<lang>/ replaces the synthetic voice, by its name")
    func recorded() {
        let plan = AssetPlan(
            corpus: corpus,
            files: [
                "audio/de/elefant-anna.wav", "audio/fr/elephant.ogg", "audio/fr/elephant.definition.flac",
                "audio/en/greetings-hello.wav", "audio/it/elephant.wav",
            ])
        #expect(plan.sources[.word(concept: "elephant", .french)] == .recorded(path: "audio/fr/elephant.ogg"))
        #expect(plan.sources[.definition(concept: "elephant", .french)] == .recorded(path: "audio/fr/elephant.definition.flac"))
        #expect(plan.sources[.phrase(id: "greetings-hello", .english)] == .recorded(path: "audio/en/greetings-hello.wav"))
        #expect(
            plan.sources[.definition(concept: "elephant", .english)] == .synthetic(text: "An elephant is a very big grey animal.", .english)
        )
    }

    @Test("a speech file that is not there is a missing asset")
    func missingSpeech() {
        let plan = AssetPlan(corpus: corpus, files: [])
        #expect(plan.problems.map(\.kind) == [.missingAsset])
        #expect(plan.problems.first?.file == "audio/de/elefant-anna.wav")
    }

    @Test("the word is said with its article where the language has gender")
    func spokenWord() {
        #expect(AssetPlan.spokenWord("eau", article: "l'", in: .french) == "l'eau")
        #expect(AssetPlan.spokenWord("acqua", article: "l’", in: .italian) == "l’acqua")
        #expect(AssetPlan.spokenWord("Bett", article: "das", in: .german) == "das Bett")
        #expect(AssetPlan.spokenWord("bed", article: "the", in: .english) == "bed")
        #expect(AssetPlan.spokenWord("uno", article: nil, in: .spanish) == "uno")
    }

    @Test("slots have stable names")
    func slotNames() {
        #expect(AssetSlot.word(concept: "bed", .german).description == "word:de:bed")
        #expect(AssetSlot.definition(concept: "bed", .french).description == "definition:fr:bed")
        #expect(AssetSlot.phrase(id: "greetings-hello", .spanish).description == "phrase:es:greetings-hello")
        #expect(AssetSlot.picture(.emoji("1f6cf")).description == "picture:emoji:1f6cf")
    }
}

import ParlaContent
import ParlaCore
import Testing

/// Issue 35, item 1: each language variant's alphabet (seed 003).
@Suite("alphabets")
struct AlphabetTests {
    @Test("the bundled alphabets: every variant, the languages' own letters in order, phonics says y two ways")
    func bundled() throws {
        let (corpus, problems) = try BundledCourseTests.load()
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        let variants = ["en", "en-GB", "en-phonics", "en-GB-phonics", "fr", "it", "de", "es"]
        #expect(corpus.alphabets.map(\.variant).sorted() == variants.sorted())
        func letters(_ variant: String) -> [String] { corpus.alphabet(variant)?.letters.map(\.letter) ?? [] }
        let latin = (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }
        for variant in ["en", "en-GB", "en-phonics", "en-GB-phonics"] { #expect(letters(variant) == latin, "\(variant)") }
        #expect(Array(letters("fr").prefix(26)) == latin && letters("fr").contains("é") && letters("fr").contains("ç"))
        #expect(letters("de") == latin + ["ä", "ö", "ü", "ß"])
        #expect(letters("es") == Array(latin.prefix(14)) + ["ñ"] + Array(latin.dropFirst(14)))
        #expect(letters("it").prefix(21).allSatisfy { !["j", "k", "w", "x", "y"].contains($0) } && letters("it").contains("à"))
        for alphabet in corpus.alphabets {
            #expect(alphabet.language != nil && !alphabet.all.isEmpty && alphabet.letters.allSatisfy { !$0.say.isEmpty })
            #expect(alphabet.isPhonics == alphabet.letters.contains { $0.final != nil }, "\(alphabet.variant)")
        }
        #expect(corpus.alphabet("en-phonics")?.letters.first { $0.letter == "y" }?.final != nil)
        #expect(corpus.alphabet("de")?.all == "Alle Wörter" && corpus.alphabet("fr")?.other == "Autres…")
        #expect(corpus.alphabet("de")?.letters.last?.upper == "ß" && corpus.alphabet("fr")?.letters.first?.upper == "A")
        // Every letter is said: a slot, spoken by the variant's voice.
        let plan = AssetPlan(corpus: corpus, files: [])
        let british = try #require(corpus.alphabet("en-GB-phonics"))
        for letter in british.letters {
            #expect(
                plan.sources[.letter(variant: "en-GB-phonics", letter: letter.letter, final: false)]
                    == .voiced(text: letter.say, voice: "en-gb"))
        }
        #expect(plan.sources[.letter(variant: "en-GB-phonics", letter: "y", final: true)] != nil)
        #expect(plan.sources[.letter(variant: "en-GB-phonics", letter: "b", final: true)] == nil)
        // Each alphabet's flag, as SVG and PNG, a file of Corpora: named when missing.
        #expect(plan.sources[.flag(name: "gb", png: true)] == nil)
        #expect(plan.problems.contains { $0.file == "flags/gb.png" })
        let flagged = AssetPlan(corpus: corpus, files: ["flags/us.svg", "flags/us.png", "flags/gb.svg", "flags/gb.png"])
        #expect(flagged.sources[.flag(name: "gb", png: true)] == .image(path: "flags/gb.png"))
        #expect(Set(corpus.alphabets.map(\.flag)) == ["us", "gb", "fr", "it", "de", "es"])
    }

    @Test("a course's variants: one default per language (British English), American words in en-US with their own voice")
    func variants() throws {
        let (corpus, _) = try BundledCourseTests.load()
        #expect(corpus.variants(of: .english).map(\.variant).sorted() == ["en", "en-GB", "en-GB-phonics", "en-phonics"])
        #expect(Language.allCases.map { corpus.defaultVariant(of: $0)?.variant } == ["en-GB", "fr", "it", "de", "es"])
        #expect(corpus.variant(nil, of: .english)?.variant == "en-GB")
        #expect(corpus.variant("en-phonics", of: .english)?.wordsTag == "en-US")
        // A variant of another language, or one that is gone, is the default.
        #expect(corpus.variant("fr", of: .english)?.variant == "en-GB" && corpus.variant("en-AU", of: .english)?.variant == "en-GB")
        #expect(corpus.alphabet("en-GB")?.wordsTag == "en" && corpus.alphabet("de")?.wordsTag == "de")
        let grey = try #require(corpus.concepts.first { $0.key == "grey" })
        #expect(grey.localization("en-US")?.word == "gray" && grey.localization("en-GB")?.word == "grey")
        #expect(grey.localization("en-US")?.article == grey.localization(.english)?.article)
        // American words are said by the American voice; British ones keep the language's slot.
        let plan = AssetPlan(corpus: corpus, files: [])
        #expect(plan.sources[.variantWord(concept: "grey", tag: "en-US")] == .voiced(text: "gray", voice: "en-us"))
        #expect(plan.sources[.variantWord(concept: "dog", tag: "en-US")] == .voiced(text: "dog", voice: "en-us"))
        #expect(plan.sources[.variantWord(concept: "dog", tag: "en-GB")] == nil)
        // Two defaults for a language is a mistake.
        let second = "variant: fr-CA\nvoice: fr\nflag: fr\ndefault: true\nall: Tous\nletters:\n  - letter: a\n    say: a\n"
        let first = second.replacingOccurrences(of: "fr-CA", with: "fr")
        let problems = CorpusLoader { _ in true }.load([
            .init(path: "alphabets/fr.yaml", text: first), .init(path: "alphabets/fr-CA.yaml", text: second),
        ]).1
        #expect(problems.map(\.kind) == [.duplicateKey] && problems.first?.message.contains("default variant") == true)
    }

    @Test("a bad alphabet: each problem named with its line")
    func problems() {
        let text = """
            variant: fr
            voice: fr
            flag: fr
            all: Tous les mots
            letters:
              - letter: a
                say: a
              - letter: a
                say: a
              - letter: Bb
                say: bé
              - letter: c
                say: cé
                final: k
              - letter: d
            """
        let (corpus, problems) = CorpusLoader { _ in true }.load([.init(path: "alphabets/fr.yaml", text: text)])
        #expect(
            problems.map { "\($0.line) \($0.kind.rawValue)" } == [
                "8 duplicate_key", "10 invalid_value", "14 invalid_value", "15 missing_field",
            ])
        #expect(corpus.alphabet("fr")?.letters.map(\.letter) == ["a", "c"])
        let misnamed = CorpusLoader { _ in true }.load([.init(path: "alphabets/de.yaml", text: text)]).1
        #expect(misnamed.map(\.kind) == [.invalidValue])
        let unknown = "variant: xx\nvoice: xx\nflag: xx\nall: All\nletters:\n  - letter: a\n    say: a\n"
        #expect(CorpusLoader { _ in true }.load([.init(path: "alphabets/xx.yaml", text: unknown)]).1.map(\.kind) == [.unknownLanguage])
    }
}

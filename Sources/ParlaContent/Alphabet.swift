import ParlaCore
import Yams

/// A language variant's letters as young children learn them (seed 003,
/// "Alphabets"): in order, each with what the narrator says for it (its
/// name, or for a phonics variant its sound), and where a letter sounds
/// different at the end of a word, what it says there. `all` and `other`
/// are the variant's own "All Words" and "Other…" labels.
public struct Alphabet: Sendable, Codable, Equatable {
    public struct Letter: Sendable, Codable, Equatable {
        public var letter: String
        public var say: String
        public var final: String?

        public init(letter: String, say: String, final: String? = nil) { (self.letter, self.say, self.final) = (letter, say, final) }

        /// The letter as a capital (`LetterCase.capital`).
        public var upper: String { LetterCase.capital(letter) }
    }

    /// `en`, `en-GB`, `en-phonics`, `en-GB-phonics`, `fr`, ...
    public var variant: String
    /// The espeak-ng voice that says it.
    public var voice: String
    /// Its main country's flag: `flags/<flag>.svg` and `.png` in Corpora.
    public var flag: String
    public var all: String
    public var other: String?
    public var letters: [Letter]
    /// The localization its words are spelled in (`en-US`), when not the
    /// language's own (the Corpora's English is British).
    public var words: String?
    /// Whether a course in the language is in this variant unless it says
    /// otherwise; one variant of each language is.
    public var isDefault: Bool?

    public init(
        variant: String, voice: String, flag: String, all: String, other: String? = nil, letters: [Letter], words: String? = nil,
        isDefault: Bool? = nil
    ) {
        (self.variant, self.voice, self.flag, self.all, self.other, self.letters) = (variant, voice, flag, all, other, letters)
        (self.words, self.isDefault) = (words, isDefault)
    }

    /// The localization tag its words are read in: `Concept.localization(_:)`
    /// fills what a variant's localization leaves out from the language's.
    public var wordsTag: String { words ?? language?.code ?? variant }

    /// The language the variant is of (its tag's first part).
    public var language: Language? { Language(rawValue: String(variant.prefix { $0 != "-" })) }

    /// Whether letters are said by their sound rather than their name.
    public var isPhonics: Bool { variant.hasSuffix("-phonics") }
}

extension CorpusReading {
    /// `alphabets/<variant>.yaml`: one variant's alphabet. The file's name
    /// is its variant; letters are single characters, each once.
    mutating func readAlphabet(_ node: Node, path: String) {
        let named = String(path.split(separator: "/").last?.dropLast(".yaml".count) ?? "")
        guard let variant = string(node, "variant"), let voice = string(node, "voice"), let flag = string(node, "flag"),
            let all = string(node, "all")
        else { return }
        let words = string(node, "words", required: false)
        let alphabet = Alphabet(
            variant: variant, voice: voice, flag: flag, all: all, other: string(node, "other", required: false), letters: [],
            words: words, isDefault: node["default"]?.bool == true ? true : nil)
        if let words, words.prefix(while: { $0 != "-" }) != variant.prefix(while: { $0 != "-" }) {
            problem(line: line(node["words"]), .invalidValue, "words \(words) is not a variant of \(variant)'s language")
        }
        guard variant == named else {
            problem(line: line(node["variant"]), .invalidValue, "variant \(variant) is not the file's name, \(named)")
            return
        }
        guard alphabet.language != nil else {
            problem(line: line(node["variant"]), .unknownLanguage, "\(variant) is not a variant of a language Parla teaches")
            return
        }
        guard corpus.alphabets.allSatisfy({ $0.variant != variant }) else {
            problem(line: line(node["variant"]), .duplicateKey, "the alphabet \(variant) is given twice")
            return
        }
        if alphabet.isDefault == true,
            let other = corpus.alphabets.first(where: { $0.isDefault == true && $0.language == alphabet.language })
        {
            problem(line: line(node["default"]), .duplicateKey, "\(other.variant) is already its language's default variant")
        }
        var letters: [Alphabet.Letter] = []
        for entry in node["letters"]?.sequence.map(Array.init) ?? [] {
            guard let letter = string(entry, "letter"), let say = string(entry, "say") else { continue }
            guard letter.count == 1, letter == letter.lowercased() else {
                problem(line: line(entry), .invalidValue, "letter \(letter) is not one lowercase character")
                continue
            }
            guard !letters.contains(where: { $0.letter == letter }) else {
                problem(line: line(entry), .duplicateKey, "letter \(letter) is given twice")
                continue
            }
            let final = string(entry, "final", required: false)
            if final != nil, !alphabet.isPhonics {
                problem(line: line(entry["final"]), .invalidValue, "only a phonics variant says a letter differently at a word's end")
            }
            letters.append(Alphabet.Letter(letter: letter, say: say, final: final))
        }
        guard !letters.isEmpty else {
            problem(line: line(node), .missingField, "letters is missing or empty")
            return
        }
        var read = alphabet
        read.letters = letters
        corpus.alphabets.append(read)
    }
}

// A course's letters and spelling screens, checked against the alphabets.
extension CorpusReading {
    /// A letters screen's letter and its three others: different small
    /// letters of every variant's alphabet of the language.
    mutating func checkLetters(_ letters: [String], language: Language, at: Int) {
        guard let variants = alphabets(of: language, at: at) else { return }
        if letters.count != 4 || Set(letters).count != 4 {
            problem(line: at, .invalidValue, "letters offers its letter and 3 other letters, all different: \(letters)")
        }
        for variant in variants {
            let known = Set(variant.letters.map(\.letter))
            for letter in letters where !known.contains(letter) {
                problem(line: at, .unknownReference, "\(letter) is no small letter of the \(variant.variant) alphabet")
            }
        }
    }

    /// The language's alphabets, one per variant; nil (a problem) when it has none.
    mutating func alphabets(of language: Language, at: Int) -> [Alphabet]? {
        let variants = corpus.variants(of: language)
        if variants.isEmpty {
            problem(line: at, .unknownReference, "\(language.code) has no alphabet (alphabets/\(language.code).yaml) to take letters from")
        }
        return variants.isEmpty ? nil : variants
    }

    /// A spelling screen's word: a concept whose word each variant of the
    /// language spells with its alphabet's letters (a space or a hyphen
    /// is shown, not spelled), of 2 to 10 letters.
    mutating func checkSpelling(_ key: String, concept: Concept?, language: Language, at: Int) {
        guard let concept else { return problem(line: at, .unknownReference, "\(key) is no word's key") }
        for variant in alphabets(of: language, at: at) ?? [] {
            guard let localization = concept.localization(variant.wordsTag), !localization.isDisabled, let word = localization.word
            else {
                problem(line: at, .invalidValue, "\(key) has no word in \(variant.wordsTag) to spell")
                continue
            }
            if Letters.spelled(word, in: Set(variant.letters.map(\.letter)), longest: CourseScreen.longestSpelledWord) == nil {
                problem(
                    line: at, .invalidValue,
                    "\(word) (\(key)) is no word of 2 to \(CourseScreen.longestSpelledWord) letters of the \(variant.variant) alphabet to spell"
                )
            }
        }
    }
}

// What a course's letters and spelling screens say, as a variant says it.
extension Corpus {
    /// A letters screen's letter, or a spelling screen's word and each of
    /// its letters (the last one's final sound too), as `variant` says them.
    func letterSlots(of task: CourseScreen.Task, _ variant: Alphabet, concepts: (String) -> Concept?) -> [AssetSlot] {
        switch task {
        case .letters(let letter, _): return [.letter(variant: variant.variant, letter: letter, final: false)]
        case .spelling(let key):
            guard let language = variant.language, let word = concepts(key)?.localization(variant.wordsTag)?.word else { return [] }
            let said = Letters.spelled(word, in: Set(variant.letters.map(\.letter)), longest: CourseScreen.longestSpelledWord) ?? []
            var slots: [AssetSlot] = variant.wordsTag == language.code ? [] : [.variantWord(concept: key, tag: variant.wordsTag)]
            slots += said.map { .letter(variant: variant.variant, letter: $0, final: false) }
            if let last = said.last, variant.letters.first(where: { $0.letter == last })?.final != nil {
                slots.append(.letter(variant: variant.variant, letter: last, final: true))
            }
            return slots
        default: return []
        }
    }
}

import ParlaCore

/// How a word or a letter is shown to a learner: in its letter case
/// setting (seed 003), unless the word's own case override says otherwise
/// ("If present, always show this word using the indicated case").
///
/// The Corpora write each word as it is written in a sentence, so "lower"
/// shows it as written: a German noun or a name keeps its capital. Capitals
/// are made a letter at a time (`LetterCase.capital`), so that a word's letters are
/// its tiles' letters.
public enum Casing {
    public static func word(_ word: String, override: CaseOverride?, letterCase: LetterCase) -> String {
        switch override {
        case .upper: return capitals(word)
        case .lower: return word.lowercased()
        case .capitalized:
            return word.split(separator: " ", omittingEmptySubsequences: false).map { titled(String($0)) }.joined(separator: " ")
        case nil: break
        }
        switch letterCase {
        case .lower: return word
        case .upper: return capitals(word)
        case .title: return titled(word)
        }
    }

    /// A letter of an alphabet or a tile on its own: `title` shows it as a
    /// capital, as a word's first letter would be.
    public static func letter(_ letter: String, letterCase: LetterCase) -> String {
        letterCase == .lower ? letter : LetterCase.capital(letter)
    }

    static func capitals(_ word: String) -> String { word.map { LetterCase.capital(String($0)) }.joined() }

    static func titled(_ word: String) -> String {
        guard let first = word.first else { return word }
        return LetterCase.capital(String(first)) + word.dropFirst()
    }
}

extension Concept {
    /// The word as a learner sees it: as the localization `tag` writes it
    /// (a variant's, `en-US` "gray", or a language's), in `letterCase`; nil
    /// when it has no word there or it is disabled.
    public func shown(_ tag: String, letterCase: LetterCase) -> String? {
        guard let localization = localization(tag), !localization.isDisabled, let word = localization.word else { return nil }
        return Casing.word(word, override: localization.caseOverride, letterCase: letterCase)
    }
}

/// How a learner's words of a language are written and said (issue 35):
/// the variant of the learner's course, whose alphabet says the letters and
/// whose localization spells the words (`en-US` "gray"), and the learner's
/// letter case. A lesson fixes it when it starts, as a game does: a setting
/// changed mid-lesson never changes a question on screen. Word pages and
/// word cards show a learner's words by it too.
public struct WordWriting: Codable, Sendable, Equatable {
    /// The alphabet's variant (`en-GB-phonics`).
    public var variant: String
    /// The localization its words are read in (`Alphabet.wordsTag`).
    public var words: String
    public var letterCase: LetterCase

    public init(variant: String, words: String, letterCase: LetterCase) {
        (self.variant, self.words, self.letterCase) = (variant, words, letterCase)
    }

    public init(_ alphabet: Alphabet, letterCase: LetterCase) {
        self.init(variant: alphabet.variant, words: alphabet.wordsTag, letterCase: letterCase)
    }

    /// An offline lesson's seed that carries the writing it was laid out
    /// in (`<seed>~<variant>~<case>`): its replay writes as the download
    /// did, whatever the learner's settings have become since.
    public func carried(by seed: String) -> String { "\(seed)~\(variant)~\(letterCase.rawValue)" }

    /// The variant and letter case a seed carries; nil for a seed that
    /// carries none (laid out before seeds did) or not these.
    public static func carried(in seed: String) -> (variant: String, letterCase: LetterCase)? {
        let parts = seed.split(separator: "~", omittingEmptySubsequences: false)
        guard parts.count == 3, let letterCase = LetterCase(rawValue: String(parts[2])) else { return nil }
        return (String(parts[1]), letterCase)
    }

    /// A word as it writes it; nil where its localization has none.
    public func shown(_ concept: Concept) -> String? { concept.shown(words, letterCase: letterCase) }

    /// An article or a plural in its letter case (a word's own case
    /// override is the word's, not theirs).
    public func cased(_ text: String) -> String { Casing.word(text, override: nil, letterCase: letterCase) }

    /// What a page or card shown this way is named by in an entity tag.
    public var tag: String { "\(words)~\(letterCase.rawValue)" }

    /// Whether it writes `language` (its words' tag is one of it).
    public func writes(_ language: Language) -> Bool { words.prefix { $0 != "-" } == language.code }
}

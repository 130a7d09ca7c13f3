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

import Foundation

/// Judges a typed answer the way a patient teacher would: case,
/// punctuation and spacing never matter; a missing or wrong accent is
/// "almost" (the right spelling is shown); anything else is wrong.
public enum TypedAnswer {
    public enum Verdict: Sendable, Equatable {
        case correct
        /// Right but for accents: `expected` is how it is spelt.
        case almost(expected: String)
        case wrong
    }

    /// `accepted`: every way the answer may be written ("chat", "le chat").
    public static func judge(_ given: String, accepted: [String]) -> Verdict {
        let typed = normalized(given)
        guard !typed.isEmpty else { return .wrong }
        if accepted.contains(where: { normalized($0) == typed }) { return .correct }
        if let match = accepted.first(where: { withoutAccents(normalized($0)) == withoutAccents(typed) }) {
            return .almost(expected: match)
        }
        return .wrong
    }

    /// Lower case, apostrophes made one, punctuation dropped, runs of
    /// spaces made one.
    static func normalized(_ text: String) -> String {
        let lowered = text.lowercased().replacingOccurrences(of: "’", with: "'")
        let kept = lowered.unicodeScalars.map { scalar -> String in
            if scalar == "'" || scalar == "-" { return " " }
            return CharacterSet.punctuationCharacters.union(.symbols).contains(scalar) ? " " : String(scalar)
        }.joined()
        return kept.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func withoutAccents(_ text: String) -> String {
        text.folding(options: .diacriticInsensitive, locale: nil).replacingOccurrences(of: "ß", with: "ss")
    }
}

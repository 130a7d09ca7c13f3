import Foundation
import ParlaCore

/// A language's alphabet and how its words sort.
///
/// - French, Italian and English sort accented letters with their base
///   letter (é with e), accents only breaking ties (in French, from the
///   end of the word).
/// - Spanish has ñ as a letter of its own, after n.
/// - German sorts ä, ö, ü with a, o, u and ß as ss (DIN 5007-1).
///
/// Letters outside the alphabet (another script, digits) sort after it by
/// code point, so Hebrew, Korean or Japanese words stay in a stable order
/// until their languages get alphabets of their own.
public struct Collation: Sendable {
    public let language: Language
    /// The letters of the alphabet bar, in order, upper case.
    public let alphabet: [String]
    private let letterRanks: [String: Int]

    public init(_ language: Language) {
        self.language = language
        var letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        if language == .spanish { letters.insert("Ñ", at: letters.firstIndex(of: "O")!) }
        alphabet = letters
        letterRanks = Dictionary(uniqueKeysWithValues: letters.enumerated().map { ($1.lowercased(), $0) })
    }

    /// The primary letters of a word: folded to the alphabet, without
    /// spaces, hyphens or apostrophes.
    public func letters(of word: String) -> [String] {
        var result: [String] = []
        for character in word.lowercased() {
            let text = String(character)
            if language == .spanish, text == "ñ" || text == "n\u{303}" {
                result.append("ñ")
                continue
            }
            if language == .german, text == "ß" {
                result += ["s", "s"]
                continue
            }
            switch text {
            case "œ":
                result += ["o", "e"]
                continue
            case "æ":
                result += ["a", "e"]
                continue
            default: break
            }
            let folded = text.folding(options: [.diacriticInsensitive], locale: nil)
            guard let scalar = folded.unicodeScalars.first else { continue }
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil { result.append(folded) }
        }
        return result
    }

    /// Compares two words as a dictionary of the language would.
    public func sortsBefore(_ a: String, _ b: String) -> Bool { key(a) < key(b) }

    /// What a word sorts by, computed once so that sorting a list does not
    /// fold every word at every comparison.
    public struct SortKey: Comparable, Sendable {
        let primary: [UInt32]
        let accents: [UInt32]
        let exact: [UInt32]

        public static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            if lhs.primary != rhs.primary { return lhs.primary.lexicographicallyPrecedes(rhs.primary) }
            if lhs.accents != rhs.accents { return lhs.accents.lexicographicallyPrecedes(rhs.accents) }
            return lhs.exact.lexicographicallyPrecedes(rhs.exact)
        }
    }

    public func key(_ word: String) -> SortKey {
        // Accents break ties; French compares them from the end of the word
        // (cote, côte, coté, côté). Lower case sorts before upper case.
        var accents = word.lowercased().unicodeScalars.map(\.value)
        if language == .french { accents.reverse() }
        return SortKey(primary: weights(word), accents: accents, exact: word.unicodeScalars.map { UInt32.max - $0.value })
    }

    /// The letter a word is filed under in the alphabet bar, or nil when it
    /// starts outside the alphabet.
    public func initial(of word: String) -> String? {
        guard let first = letters(of: word).first, letterRanks[first] != nil else { return nil }
        return first.uppercased()
    }

    private func weights(_ word: String) -> [UInt32] {
        letters(of: word).map { letter in
            if let rank = letterRanks[letter] { return UInt32(rank) }
            return 1_000 + (letter.unicodeScalars.first?.value ?? 0)
        }
    }
}

import Foundation

/// How a word is said, as a model's phones.
public typealias Pronunciation = [String]

/// Turns espeak-ng's IPA phonemes into one acoustic model's phones, from a
/// table in `Models/phonemaps/<name>.json` (IPA phoneme -> phones, space
/// separated; an empty string drops the phoneme).
public struct PhoneMap: Sendable, Equatable {
    public var name: String
    public var table: [String: Pronunciation]

    public init(name: String, table: [String: String]) {
        self.name = name
        self.table = table.mapValues { $0.split(separator: " ").map(String.init) }
    }

    public static func load(_ path: String) throws -> PhoneMap {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let table = try JSONDecoder().decode([String: String].self, from: data)
        return PhoneMap(name: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, table: table)
    }

    /// The phones of IPA phonemes separated by `_` (espeak-ng's `--sep=_`):
    /// stress and length marks are dropped, then a phoneme not in the table
    /// is tried without its diacritics. Unknown phonemes are returned apart.
    public func phones(ofIPA ipa: String) -> (phones: Pronunciation, unknown: [String]) {
        var phones: Pronunciation = []
        var unknown: [String] = []
        for token in ipa.split(whereSeparator: { $0 == "_" || $0 == " " || $0 == "\n" }) {
            let phoneme = String(token.unicodeScalars.filter { !Self.marks.contains($0) })
            // "(en)" ... "(de)": espeak-ng switching voice for a loanword, not a phoneme.
            guard !phoneme.isEmpty, !(phoneme.hasPrefix("(") && phoneme.hasSuffix(")")) else { continue }
            if let mapped = table[phoneme] ?? table[Self.withoutDiacritics(phoneme)] {
                phones += mapped
            } else {
                unknown.append(phoneme)
            }
        }
        return (phones, unknown)
    }

    /// Each phone as IPA, read backwards: the shortest IPA phoneme that
    /// maps to that phone alone (for a model with no table of its own).
    public var ipaOfPhones: [String: String] {
        var ipa: [String: String] = [:]
        for (phoneme, phones) in table.sorted(by: { ($0.key.count, $0.key) < ($1.key.count, $1.key) }) where phones.count == 1 {
            if ipa[phones[0]] == nil { ipa[phones[0]] = phoneme }
        }
        return ipa
    }

    /// Stress, length and syllable marks, which the tables do not use.
    static let marks: Set<Unicode.Scalar> = ["ˈ", "ˌ", "ː", "ˑ", ".", "‿", "-", "|", "‖", "'", ","]

    static func withoutDiacritics(_ phoneme: String) -> String {
        String(
            String.UnicodeScalarView(
                phoneme.unicodeScalars.filter { !(0x0300...0x036F).contains($0.value) && !"ʰʲʷ̃".unicodeScalars.contains($0) }))
    }
}

/// A phrase as the learner should say it: its words as shown, and how each
/// may be said.
public struct ExpectedWord: Sendable, Equatable {
    public var text: String
    /// One or more ways to say it, the commonest first.
    public var pronunciations: [Pronunciation]

    public init(text: String, pronunciations: [Pronunciation]) {
        (self.text, self.pronunciations) = (text, pronunciations)
    }

    /// The commonest way to say it.
    public var commonest: Pronunciation { pronunciations.first ?? [] }
}

public enum PhraseText {
    /// The words of a phrase as a learner sees them: split on spaces,
    /// punctuation around them removed, apostrophes and hyphens inside kept.
    public static func words(_ text: String) -> [String] {
        let punctuation = CharacterSet.punctuationCharacters.union(.symbols).subtracting(CharacterSet(charactersIn: "'’-"))
        return text.replacingOccurrences(of: "’", with: "'")
            .split(whereSeparator: { $0.isWhitespace || $0 == "—" || $0 == "–" })
            .map { $0.trimmingCharacters(in: punctuation.union(CharacterSet(charactersIn: "'-"))) }
            .filter { word in word.unicodeScalars.contains { CharacterSet.alphanumerics.contains($0) } }
    }

    /// The same words, each with where it starts in `text`, in Unicode
    /// scalars from the start.
    public static func wordOffsets(_ text: String) -> [(word: String, offset: Int)] {
        let normalized = text.replacingOccurrences(of: "’", with: "'")
        var searchFrom = normalized.startIndex
        return words(text).compactMap { word in
            guard let range = normalized.range(of: word, range: searchFrom..<normalized.endIndex) else { return nil }
            searchFrom = range.upperBound
            return (word, normalized.unicodeScalars.distance(from: normalized.unicodeScalars.startIndex, to: range.lowerBound))
        }
    }
}

import Foundation
import Synchronization

/// How words are said for one model: its pronouncing dictionary first,
/// then espeak-ng for the words it lacks (elisions, hyphenated words,
/// numbers, names), mapped to the model's phones. Loaded once per language
/// and shared by every decoder of it.
public final class Lexicon: Sendable {
    let dictionary: [String: [Pronunciation]]
    let voice: String
    let phoneMap: PhoneMap
    private let guessed = Mutex<[String: [Pronunciation]]>([:])

    public init(dictionaryPath: String?, voice: String, phoneMap: PhoneMap) throws {
        self.voice = voice
        self.phoneMap = phoneMap
        var entries: [String: [Pronunciation]] = [:]
        if let dictionaryPath {
            let text = try String(contentsOfFile: dictionaryPath, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard fields.count >= 2 else { continue }
                entries[Self.headword(fields[0]), default: []].append(fields.dropFirst().map(String.init))
            }
        }
        dictionary = entries
    }

    /// `word(2)` and `word_2` are variants of `word`.
    static func headword(_ field: Substring) -> String {
        var word = field
        if word.hasSuffix(")"), let open = word.lastIndex(of: "(") { word = word[..<open] }
        if let underscore = word.lastIndex(of: "_"), word[word.index(after: underscore)...].allSatisfy(\.isNumber),
            underscore != word.startIndex
        {
            word = word[..<underscore]
        }
        return word.lowercased()
    }

    /// Up to three ways to say `word`, or none when even espeak-ng has
    /// nothing for it.
    public func pronunciations(of word: String) -> [Pronunciation] {
        let key = word.lowercased()
        if let known = dictionary[key] { return Array(known.prefix(3)) }
        // l'éléphant, dell'acqua, vingt-deux: the parts, when the
        // dictionary knows every one of them.
        for separator in ["'", "-"] where key.contains(separator) {
            let parts = key.split(separator: Character(separator)).map(String.init)
            let found = parts.enumerated().map { index, part in
                dictionary[part + (separator == "'" && index < parts.count - 1 ? "'" : "")]?.first ?? dictionary[part]?.first
            }
            if found.allSatisfy({ $0 != nil }) { return [found.compactMap { $0 }.flatMap { $0 }] }
        }
        if let cached = guessed.withLock({ $0[key] }) { return cached }
        var result: [Pronunciation] = []
        if let ipa = Espeak.ipa(key, voice: voice) {
            let phones = phoneMap.phones(ofIPA: ipa).phones
            if !phones.isEmpty { result = [phones] }
        }
        guessed.withLock { $0[key] = result }
        return result
    }

    /// The dictionary's word (letters only) pronounced `phones`, if there is one: of
    /// several, the shortest spelling, then the first alphabetically (a
    /// scan, not an index: it runs only for a word the alignment heard a
    /// substitute in, and keeps no second copy of the dictionary in memory).
    public func word(pronounced phones: Pronunciation) -> String? {
        var found: String?
        // Words only: not abbreviations, possessives or the dictionary's symbols.
        for (word, pronunciations) in dictionary where pronunciations.contains(phones) && word.allSatisfy(\.isLetter) {
            if let best = found, (best.count, best) <= (word.count, word) { continue }
            found = word
        }
        return found
    }

    /// The phrase's words with their pronunciations; words nobody can say
    /// (no letters, no phones) are left out.
    public func expectedWords(_ text: String) -> [ExpectedWord] {
        PhraseText.words(text).compactMap { word in
            let pronunciations = pronunciations(of: word)
            return pronunciations.isEmpty ? nil : ExpectedWord(text: word, pronunciations: pronunciations)
        }
    }
}

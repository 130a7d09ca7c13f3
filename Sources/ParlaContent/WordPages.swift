import ParlaCore

/// One page of a word list as the learner sees it: at most 35 words (7 x 5)
/// in alphabetical order, and the alphabet bar that the pages drive: each
/// letter links to the first page holding a word that starts with it.
public struct WordPage<Word: Sendable>: Sendable {
    public var number: Int
    public var pageCount: Int
    public var words: [Word]
    public var alphabetBar: [AlphabetBarEntry]
    /// The first and last letter this page's words start with.
    public var covers: ClosedRange<Int>?

    public static var size: Int { WordList.size }
}

extension WordPage: Equatable where Word: Equatable {}

public struct AlphabetBarEntry: Sendable, Equatable {
    public var letter: String
    /// The first page with a word starting with this letter; nil if none.
    public var firstPage: Int?
    /// Whether this page's words reach this letter.
    public var onThisPage: Bool
}

public enum WordPaging {
    /// Sorts `words` by `text` in the language, cuts them into pages of 35
    /// and returns page `number` (1-based), or nil past the last page.
    public static func page<Word: Sendable>(
        _ number: Int, of words: [Word], collation: Collation,
        text: (Word) -> String
    ) -> WordPage<Word>? {
        let sorted = words.map { word in
            let spelled = text(word)
            return (word: word, key: collation.key(spelled), initial: collation.initial(of: spelled))
        }.sorted { $0.key < $1.key }
        let size = WordPage<Word>.size
        let pageCount = max(1, (sorted.count + size - 1) / size)
        guard (1...pageCount).contains(number) else { return nil }

        var firstPage: [String: Int] = [:]
        for (index, entry) in sorted.enumerated() {
            if let letter = entry.initial, firstPage[letter] == nil { firstPage[letter] = index / size + 1 }
        }
        let slice = Array(sorted.dropFirst((number - 1) * size).prefix(size))
        let positions = slice.compactMap(\.initial).compactMap { collation.alphabet.firstIndex(of: $0) }
        let covers = positions.min().flatMap { low in positions.max().map { low...$0 } }
        let bar = collation.alphabet.enumerated().map { index, letter in
            AlphabetBarEntry(letter: letter, firstPage: firstPage[letter], onThisPage: covers?.contains(index) ?? false)
        }
        return WordPage(number: number, pageCount: pageCount, words: slice.map(\.word), alphabetBar: bar, covers: covers)
    }
}

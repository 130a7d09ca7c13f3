import Foundation

/// Which letters of a word spell each of its phones, so that a hint can name
/// letters as well as a sound ("the “th” in “think”"). A language's table,
/// `Models/<lang>/graphemes.json`, lists per phone as learners see it (IPA)
/// the letter sequences that commonly spell it, commonest first.
///
/// Design note: the alignment is the cheapest cover of the word's letters by
/// its phones, in order, by dynamic programming: a phone takes a listed
/// spelling (free, the commonest preferred), or one unlisted letter (3), or
/// no letter (2: the /s/ of "x"); a letter no phone takes is silent (1). A
/// table need not be complete: an unknown phone still takes a letter, and
/// the phones around it keep their spellings.
public struct Graphemes: Sendable, Decodable, Equatable {
    public var source: String?
    /// Per phone (IPA), its spellings in lower case, commonest first.
    public var phones: [String: [String]]

    public init(phones: [String: [String]], source: String? = nil) { (self.phones, self.source) = (phones, source) }

    public static func load(_ path: String) throws -> Graphemes {
        try JSONDecoder().decode(Graphemes.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static let unlisted = 3.0, noLetter = 2.0, silent = 1.0, rank = 0.001

    /// Per phone of `word`, the letters that spell it, as written in `word`
    /// (nil: none); `phones` in IPA, in order.
    public func spellings(of word: String, phones: [String]) -> [Substring?] {
        let letters = word.indices.filter { word[$0].isLetter }
        let lower = letters.map { word[$0].lowercased() }
        let (n, m) = (letters.count, phones.count)
        guard m > 0 else { return [] }
        // cost[i][j]: the cheapest cover of letters i... by phones j...; step[i][j]: letters phone j takes there (-1: letter i silent).
        var cost = Array(repeating: Array(repeating: Double.infinity, count: m + 1), count: n + 1)
        var step = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        cost[n][m] = 0
        for i in stride(from: n, through: 0, by: -1) {
            for j in stride(from: m, through: 0, by: -1) where !(i == n && j == m) {
                var (best, taken) = (Double.infinity, 0)
                func consider(_ value: Double, _ letters: Int) {
                    if value < best { (best, taken) = (value, letters) }
                }
                if j < m {
                    for (r, spelling) in (self.phones[phones[j]] ?? []).enumerated() {
                        let length = spelling.count
                        guard length > 0, i + length <= n, lower[i..<(i + length)].joined() == spelling else { continue }
                        consider(cost[i + length][j + 1] + Double(r) * Self.rank, length)
                    }
                    if i < n { consider(cost[i + 1][j + 1] + Self.unlisted, 1) }
                    consider(cost[i][j + 1] + Self.noLetter, 0)
                }
                if i < n { consider(cost[i + 1][j] + Self.silent, -1) }
                (cost[i][j], step[i][j]) = (best, taken)
            }
        }
        var result: [Substring?] = []
        var (i, j) = (0, 0)
        while j < m {
            let taken = step[i][j]
            if taken < 0 {
                i += 1
                continue
            }
            result.append(taken == 0 ? nil : word[letters[i]...letters[i + taken - 1]])
            (i, j) = (i + taken, j + 1)
        }
        return result
    }
}

import Foundation

/// How well a scorer agrees with human raters (issue 18): Pearson
/// correlation, folds that keep each speaker's utterances together, and
/// the detection of mispronounced phones. Pure: unit-tested without audio.
public enum Agreement {
    /// Pearson's r; nan with fewer than two pairs or no spread.
    public static func pearson(_ xs: [Double], _ ys: [Double]) -> Double {
        let n = Double(min(xs.count, ys.count))
        guard n >= 2 else { return .nan }
        let (mx, my) = (xs.reduce(0, +) / n, ys.reduce(0, +) / n)
        var (sxx, syy, sxy) = (0.0, 0.0, 0.0)
        for (x, y) in zip(xs, ys) {
            (sxx, syy, sxy) = (sxx + (x - mx) * (x - mx), syy + (y - my) * (y - my), sxy + (x - mx) * (y - my))
        }
        guard sxx > 0, syy > 0 else { return .nan }
        return sxy / (sxx * syy).squareRoot()
    }

    /// Each item's fold, 0..<count, so that a speaker's items share one:
    /// speakers in sorted order, dealt round the folds. Nothing fitted on
    /// the other folds has heard the speaker it is tested on.
    public static func folds(speakers: [String], count: Int) -> [Int] {
        let order = Dictionary(uniqueKeysWithValues: Set(speakers).sorted().enumerated().map { ($1, $0) })
        return speakers.map { order[$0]! % max(1, count) }
    }

    /// Mispronounced phones found, missed and wrongly flagged.
    public struct Detection: Sendable, Equatable {
        public var truePositives = 0, falsePositives = 0, falseNegatives = 0

        public init(truePositives: Int = 0, falsePositives: Int = 0, falseNegatives: Int = 0) {
            (self.truePositives, self.falsePositives, self.falseNegatives) = (truePositives, falsePositives, falseNegatives)
        }

        public var precision: Double {
            truePositives + falsePositives == 0 ? 0 : Double(truePositives) / Double(truePositives + falsePositives)
        }
        public var recall: Double {
            truePositives + falseNegatives == 0 ? 0 : Double(truePositives) / Double(truePositives + falseNegatives)
        }
        public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }

        public static func + (a: Detection, b: Detection) -> Detection {
            Detection(
                truePositives: a.truePositives + b.truePositives, falsePositives: a.falsePositives + b.falsePositives,
                falseNegatives: a.falseNegatives + b.falseNegatives)
        }
    }

    /// A phone as scored, and whether the raters heard it mispronounced.
    public struct PhoneJudgement: Sendable, Equatable {
        public var score: Double
        public var mispronounced: Bool

        public init(score: Double, mispronounced: Bool) { (self.score, self.mispronounced) = (score, mispronounced) }
    }

    /// What flagging every phone scored below `threshold` finds.
    public static func detection(_ phones: [PhoneJudgement], threshold: Double) -> Detection {
        var result = Detection()
        for phone in phones {
            switch (phone.score < threshold, phone.mispronounced) {
            case (true, true): result.truePositives += 1
            case (true, false): result.falsePositives += 1
            case (false, true): result.falseNegatives += 1
            case (false, false): break
            }
        }
        return result
    }

    /// The threshold with the best F1 on `phones`: halfway between two
    /// neighbouring scores (the lower one is flagged), or above them all.
    public static func bestThreshold(_ phones: [PhoneJudgement]) -> Double {
        let scores = Array(Set(phones.map(\.score))).sorted()
        guard let highest = scores.last else { return 0 }
        let candidates = zip(scores, scores.dropFirst()).map { ($0 + $1) / 2 } + [highest + 1]
        // Counted in one sweep: phones sorted by score, flagged up to each candidate.
        let sorted = phones.sorted { $0.score < $1.score }
        let positives = phones.filter(\.mispronounced).count
        var (index, flaggedRight, flaggedWrong) = (0, 0, 0)
        var best = (f1: -1.0, threshold: highest + 1)
        for threshold in candidates {
            while index < sorted.count, sorted[index].score < threshold {
                if sorted[index].mispronounced { flaggedRight += 1 } else { flaggedWrong += 1 }
                index += 1
            }
            let f1 = Detection(truePositives: flaggedRight, falsePositives: flaggedWrong, falseNegatives: positives - flaggedRight).f1
            if f1 > best.f1 { best = (f1, threshold) }
        }
        return best.threshold
    }

    /// Pairs of indices (human, scored) of words matched in order by text,
    /// ignoring case and all but letters and apostrophes: each human word
    /// takes the next scored word with its text, scored words in between
    /// are skipped (as the corpus's `evaluate.py` pairs them).
    public static func pairWords(human: [String], scored: [String]) -> [(human: Int, scored: Int)] {
        func norm(_ word: String) -> String { String(word.lowercased().filter { $0.isLetter || $0 == "'" }) }
        let scoredText = scored.map(norm)
        var pairs: [(Int, Int)] = []
        var next = 0
        for (h, word) in human.enumerated() {
            let text = norm(word)
            if let k = scoredText[min(next, scoredText.count)...].firstIndex(of: text) {
                pairs.append((h, k))
                next = k + 1
            }
        }
        return pairs
    }

    /// Pairs of indices (human, scored) of two phone sequences aligned with
    /// the fewest edits (stress digits and case ignored): phones matched or
    /// substituted; inserted and deleted ones have no partner.
    public static func pairPhones(human: [String], scored: [String]) -> [(human: Int, scored: Int)] {
        func base(_ phone: String) -> String { phone.uppercased().filter { !$0.isNumber } }
        let (a, b) = (human.map(base), scored.map(base))
        let (n, m) = (a.count, b.count)
        guard n > 0, m > 0 else { return [] }
        // cost[i][j]: edits to turn a[i...] into b[j...].
        var cost = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in (0...n).reversed() {
            for j in (0...m).reversed() {
                if i == n || j == m {
                    cost[i][j] = (n - i) + (m - j)
                } else {
                    cost[i][j] = min(cost[i + 1][j + 1] + (a[i] == b[j] ? 0 : 1), cost[i + 1][j] + 1, cost[i][j + 1] + 1)
                }
            }
        }
        var pairs: [(Int, Int)] = []
        var (i, j) = (0, 0)
        while i < n, j < m {
            if cost[i][j] == cost[i + 1][j + 1] + (a[i] == b[j] ? 0 : 1) {
                pairs.append((i, j))
                (i, j) = (i + 1, j + 1)
            } else if cost[i][j] == cost[i + 1][j] + 1 {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }
}

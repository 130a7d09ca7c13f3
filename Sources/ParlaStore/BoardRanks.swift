import Foundation

/// How many entries hold each bucket (a score, or a tenth of a second), so
/// that "how many are at most b" takes O(log n) whatever the board's size: a
/// Fenwick tree over the buckets, grown by doubling as larger ones come.
/// Buckets past `treeLimit` (times of more than a day) are rare and kept
/// sorted beside it, so that one stray value cannot make the tree huge.
struct BucketCounts: Sendable {
    static let treeLimit = 1 << 20

    /// Fenwick tree, 1-based: `tree[i]` counts buckets (i - lowbit(i), i],
    /// shifted by one (bucket b is index b + 1).
    private var tree: [Int32] = [0]
    /// Buckets at or past `treeLimit`, sorted, one element per entry.
    private var beyond: [Int] = []
    private(set) var total = 0

    private var capacity: Int { tree.count - 1 }

    /// One entry more (+1) or less (-1) in `bucket`.
    mutating func add(_ bucket: Int, _ delta: Int) {
        let bucket = max(0, bucket)
        total += delta
        guard bucket < Self.treeLimit else {
            let at = Self.firstIndex(in: beyond, above: bucket - 1)
            if delta > 0 { beyond.insert(bucket, at: at) } else if at < beyond.count, beyond[at] == bucket { beyond.remove(at: at) }
            return
        }
        while bucket >= capacity { grow() }
        var index = bucket + 1
        while index <= capacity {
            tree[index] += Int32(delta)
            index += index & -index
        }
    }

    /// Doubles the tree: the new root covers everything before, and the
    /// nodes between cover only new, empty buckets.
    private mutating func grow() {
        let old = capacity
        let size = max(1024, old * 2)
        let everything = old == 0 ? 0 : prefix(old)
        tree += [Int32](repeating: 0, count: size - old)
        tree[size] = Int32(everything)
    }

    /// Entries in buckets 0...index-1 of the tree.
    private func prefix(_ count: Int) -> Int {
        var sum = 0
        var index = min(count, capacity)
        while index > 0 {
            sum += Int(tree[index])
            index -= index & -index
        }
        return sum
    }

    /// Entries whose bucket is at most `bucket`.
    func atMost(_ bucket: Int) -> Int {
        guard bucket >= 0 else { return 0 }
        let inTree = prefix(min(bucket, Self.treeLimit - 1) + 1)
        return bucket < Self.treeLimit ? inTree : inTree + Self.firstIndex(in: beyond, above: bucket)
    }

    /// The index of the first element of sorted `values` greater than `value`.
    private static func firstIndex(in values: [Int], above value: Int) -> Int {
        var (low, high) = (0, values.count)
        while low < high {
            let middle = (low + high) / 2
            if values[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// One board's ranks in memory (a language, game kind and period): each
/// learner's best score and best time, and how many hold each. A change is
/// either "the learner's best is now this" (`set`, from the table, in
/// commit order) or "at least this" (`improve`: applying one twice, or two
/// in either order, leaves the same board).
struct BoardRanks: Sendable {
    /// A learner's best score and best time in tenths of a second.
    struct Best: Sendable, Equatable {
        var score: Int32
        var tenths: Int32
    }

    private(set) var learners: [UUID: Best] = [:]
    private var scores = BucketCounts()
    private var times = BucketCounts()

    init(capacity: Int = 0) { learners.reserveCapacity(capacity) }

    var total: Int { learners.count }

    /// The learner's best improves to `best` where it is better (a higher
    /// score, a shorter time), or is set if they had none.
    mutating func improve(_ learner: UUID, to best: Best) {
        set(learner, to: learners[learner].map { Best(score: max($0.score, best.score), tenths: min($0.tenths, best.tenths)) } ?? best)
    }

    /// The learner's best is `new`, better or worse than before.
    mutating func set(_ learner: UUID, to new: Best) {
        let old = learners[learner]
        guard new != old else { return }
        if let old {
            scores.add(Int(old.score), -1)
            times.add(Int(old.tenths), -1)
        }
        scores.add(Int(new.score), 1)
        times.add(Int(new.tenths), 1)
        learners[learner] = new
    }

    mutating func remove(_ learner: UUID) {
        guard let old = learners.removeValue(forKey: learner) else { return }
        scores.add(Int(old.score), -1)
        times.add(Int(old.tenths), -1)
    }

    /// The rank of a row in `bucket` (its score, or its tenth of a second):
    /// 1 + the learners strictly better, so that ties share a rank.
    func rank(_ metric: LeaderboardStore.Metric, bucket: Int) -> Int {
        switch metric {
        case .score: 1 + scores.total - scores.atMost(bucket)
        case .time: 1 + times.atMost(bucket - 1)
        }
    }

    /// `learner`'s rank, or nil when they have no entry.
    func rank(_ metric: LeaderboardStore.Metric, of learner: UUID) -> Int? {
        learners[learner].map { rank(metric, bucket: Int(metric == .score ? $0.score : $0.tenths)) }
    }

    static func bucket(seconds: Double) -> Int32 { Int32(clamping: LeaderboardStore.bucket(seconds: min(seconds, 1e15))) }
}

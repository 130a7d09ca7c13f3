import Foundation

/// What a board ranks by. Its order (`BoardPlace`) and buckets are pure and
/// live here; how SQL sorts and buckets the same is in ParlaStore's
/// `LeaderboardOrder.swift`.
public enum LeaderboardMetric: String, Sendable, CaseIterable {
    /// Higher is better.
    case score
    /// Fewer seconds is better.
    case time
}

/// Where an entry stands in a metric's order: its bucket (the score
/// negated, so that the better comes first; or the time's tenth), then the
/// exact time within that tenth (0 for scores), the instant it was reached
/// (microseconds since 2000, as PostgreSQL keeps it) and the learner.
public struct BoardPlace: Sendable, Equatable, Comparable {
    public var bucket: Int32
    public var fine: Double
    public var at: Int64
    public var learner: UUID

    public init(bucket: Int32, fine: Double, at: Int64, learner: UUID) {
        (self.bucket, self.fine, self.at, self.learner) = (bucket, fine, at, learner)
    }

    public static func < (one: BoardPlace, other: BoardPlace) -> Bool {
        if one.bucket != other.bucket { return one.bucket < other.bucket }
        if one.fine != other.fine { return one.fine < other.fine }
        if one.at != other.at { return one.at < other.at }
        return withUnsafeBytes(of: one.learner.uuid) { mine in
            withUnsafeBytes(of: other.learner.uuid) { theirs in memcmp(mine.baseAddress!, theirs.baseAddress!, 16) < 0 }
        }
    }
}

extension LeaderboardMetric {
    /// The place of an entry with these bests in this metric's order.
    public func place(learner: UUID, score: Int32, seconds: Double, scoreAt: Int64, secondsAt: Int64) -> BoardPlace {
        switch self {
        case .score: BoardPlace(bucket: -score, fine: 0, at: scoreAt, learner: learner)
        case .time: BoardPlace(bucket: Self.tenths(seconds), fine: seconds, at: secondsAt, learner: learner)
        }
    }

    /// The bucket a time ranks in: its tenth of a second, cut.
    public static func tenths(_ seconds: Double) -> Int32 { Int32(clamping: Int((min(seconds, 1e15) * 10).rounded(.down))) }
}

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
        BoardOrder.firstIndex(in: values) { $0 <= value }
    }
}

/// One board's ranks and order in memory (a language, game kind and
/// period): each learner's best score and best time, how many hold each
/// (for ranks), and the board in order (for its top and a learner's
/// neighbours). A change is either "the learner's best is now this"
/// (`set`, from the table, in commit order) or "at least this" (`improve`:
/// applying one twice, or two in either order, leaves the same board).
public struct BoardRanks: Sendable {
    /// A learner's best score and best time, with when each was set (in
    /// microseconds since 2000, as PostgreSQL keeps instants: ties go to
    /// the earlier, in the table's order exactly).
    public struct Best: Sendable, Equatable {
        public var score: Int32
        /// The time's bucket, in tenths of a second.
        public var tenths: Int32
        public var seconds: Double
        public var scoreAt: Int64
        public var secondsAt: Int64

        public init(score: Int32, tenths: Int32, seconds: Double, scoreAt: Int64, secondsAt: Int64) {
            (self.score, self.tenths, self.seconds, self.scoreAt, self.secondsAt) = (score, tenths, seconds, scoreAt, secondsAt)
        }

        /// The best of both: the higher score, the shorter time, each with
        /// its own instant (as recording a result keeps them).
        public func improved(by other: Best) -> Best {
            var best = self
            if other.score > score { (best.score, best.scoreAt) = (other.score, other.scoreAt) }
            if other.seconds < seconds { (best.seconds, best.tenths, best.secondsAt) = (other.seconds, other.tenths, other.secondsAt) }
            return best
        }
    }

    private(set) var learners: [UUID: Best] = [:]
    private var scores = BucketCounts()
    private var times = BucketCounts()
    private var scoreOrder = BoardOrder()
    private var timeOrder = BoardOrder()

    public init(capacity: Int = 0) { learners.reserveCapacity(capacity) }

    /// A board read whole: ordered once at the end, not entry by entry.
    public init(entries: [(UUID, Best)]) {
        learners.reserveCapacity(entries.count)
        var scoreMembers: [Int32: [BoardOrder.Member]] = [:], timeMembers: [Int32: [BoardOrder.Member]] = [:]
        for (learner, best) in entries where learners.updateValue(best, forKey: learner) == nil {
            scores.add(Int(best.score), 1)
            times.add(Int(best.tenths), 1)
            scoreMembers[-best.score, default: []].append(Self.member(.score, learner, best))
            timeMembers[best.tenths, default: []].append(Self.member(.time, learner, best))
        }
        scoreOrder = BoardOrder(unsorted: scoreMembers)
        timeOrder = BoardOrder(unsorted: timeMembers)
    }

    public var total: Int { learners.count }

    /// The learner's best improves to `best` where it is better (a higher
    /// score, a shorter time), or is set if they had none.
    public mutating func improve(_ learner: UUID, to best: Best) {
        set(learner, to: learners[learner].map { $0.improved(by: best) } ?? best)
    }

    /// The learner's best is `new`, better or worse than before.
    public mutating func set(_ learner: UUID, to new: Best) {
        let old = learners[learner]
        guard new != old else { return }
        if let old { leave(learner, old) }
        scores.add(Int(new.score), 1)
        times.add(Int(new.tenths), 1)
        scoreOrder.insert(Self.member(.score, learner, new), in: -new.score)
        timeOrder.insert(Self.member(.time, learner, new), in: new.tenths)
        learners[learner] = new
    }

    public mutating func remove(_ learner: UUID) {
        guard let old = learners.removeValue(forKey: learner) else { return }
        leave(learner, old)
    }

    private mutating func leave(_ learner: UUID, _ old: Best) {
        scores.add(Int(old.score), -1)
        times.add(Int(old.tenths), -1)
        scoreOrder.remove(Self.member(.score, learner, old), from: -old.score)
        timeOrder.remove(Self.member(.time, learner, old), from: old.tenths)
    }

    /// Where a learner stands in a metric's order (`BoardPlace`).
    static func member(_ metric: LeaderboardMetric, _ learner: UUID, _ best: Best) -> BoardPlace {
        metric.place(learner: learner, score: best.score, seconds: best.seconds, scoreAt: best.scoreAt, secondsAt: best.secondsAt)
    }

    /// The rank of a row in `bucket` (its score, or its tenth of a second):
    /// 1 + the learners strictly better, so that ties share a rank.
    public func rank(_ metric: LeaderboardMetric, bucket: Int) -> Int {
        switch metric {
        case .score: 1 + scores.total - scores.atMost(bucket)
        case .time: 1 + times.atMost(bucket - 1)
        }
    }

    /// `learner`'s rank, or nil when they have no entry.
    public func rank(_ metric: LeaderboardMetric, of learner: UUID) -> Int? {
        learners[learner].map { rank(metric, bucket: Int(metric == .score ? $0.score : $0.tenths)) }
    }

    /// A learner on the board with their best and rank.
    public struct Placed: Sendable, Equatable {
        public var learner: UUID
        public var best: Best
        public var rank: Int
    }

    /// The board's first `limit` learners, `learner`'s own place and up to
    /// two either side of it: a page, in the table's order.
    public func page(_ metric: LeaderboardMetric, limit: Int, learner: UUID?, neighbours: Int = 2)
        -> (top: [Placed], own: Placed?, neighbours: [Placed])
    {
        let order = metric == .score ? scoreOrder : timeOrder
        func placed(_ member: BoardOrder.Member) -> Placed {
            let best = learners[member.learner]!
            return Placed(learner: member.learner, best: best, rank: rank(metric, bucket: Int(metric == .score ? best.score : best.tenths)))
        }
        let top = order.first(limit).map(placed)
        guard let learner, let best = learners[learner] else { return (top, nil, []) }
        let own = Self.member(metric, learner, best)
        let around = neighbours > 0 ? order.around(own, in: metric == .score ? -best.score : best.tenths, count: neighbours) : []
        return (top, placed(own), around.map(placed))
    }

    /// Microseconds since 2000 as PostgreSQL keeps an instant, and back,
    /// both as PostgresNIO converts them (so a date read back is equal).
    public static let epoch = Date(timeIntervalSince1970: 946_684_800)
    public static func microseconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince(epoch) * 1_000_000) }
    /// The microseconds a date read from PostgreSQL was made from (rounded,
    /// not cut: the read divided them by a million).
    public static func microseconds(read date: Date) -> Int64 { Int64((date.timeIntervalSince(epoch) * 1_000_000).rounded()) }
    public static func date(_ microseconds: Int64) -> Date { Date(timeInterval: Double(microseconds) / 1_000_000, since: epoch) }
}

/// A board in one metric's order: its non-empty buckets sorted, each with
/// its learners sorted. A change moves one learner within its bucket's
/// array, not the whole board: linear in the bucket's size (a score held
/// by a tenth of a million learners costs a 3 MB move, under the ranks'
/// lock; a tree per bucket would be the next step if boards grow so).
struct BoardOrder: Sendable {
    typealias Member = BoardPlace

    /// The non-empty buckets, best first.
    private var keys: [Int32] = []
    private var members: [Int32: [Member]] = [:]

    init() {}

    init(unsorted: [Int32: [Member]]) {
        members = unsorted.mapValues { $0.sorted() }
        keys = members.keys.sorted()
    }

    mutating func insert(_ member: Member, in bucket: Int32) {
        // The index is found without holding the array, so that it grows in place.
        guard let at = members[bucket].map({ list in Self.firstIndex(in: list) { $0 < member } }) else {
            keys.insert(bucket, at: Self.firstIndex(in: keys) { $0 < bucket })
            members[bucket] = [member]
            return
        }
        members[bucket]!.insert(member, at: at)
    }

    mutating func remove(_ member: Member, from bucket: Int32) {
        guard var list = members.removeValue(forKey: bucket) else { return }
        let at = Self.firstIndex(in: list) { $0 < member }
        if at < list.count, list[at] == member { list.remove(at: at) }
        if list.isEmpty {
            let index = Self.firstIndex(in: keys) { $0 < bucket }
            if index < keys.count, keys[index] == bucket { keys.remove(at: index) }
        } else {
            members[bucket] = list
        }
    }

    /// The first `count` members.
    func first(_ count: Int) -> [Member] {
        var found: [Member] = []
        for key in keys where found.count < count { found += members[key]!.prefix(count - found.count) }
        return found
    }

    /// Up to `count` members before `member` (in `bucket`) and after it, in order.
    func around(_ member: Member, in bucket: Int32, count: Int) -> [Member] {
        var keyIndex = Self.firstIndex(in: keys) { $0 < bucket }
        guard keyIndex < keys.count, keys[keyIndex] == bucket, let list = members[bucket] else { return [] }
        let at = Self.firstIndex(in: list) { $0 < member }
        var before = Array(list[max(0, at - count)..<at])
        var previous = keyIndex
        while before.count < count, previous > 0 {
            previous -= 1
            before = members[keys[previous]]!.suffix(count - before.count) + before
        }
        var after = Array(list[min(list.count, at + 1)..<min(list.count, at + 1 + count)])
        while after.count < count, keyIndex + 1 < keys.count {
            keyIndex += 1
            after += members[keys[keyIndex]]!.prefix(count - after.count)
        }
        return before + after
    }

    /// The index of the first element of sorted `values` for which
    /// `isBefore` is false.
    static func firstIndex<Value>(in values: [Value], where isBefore: (Value) -> Bool) -> Int {
        var (low, high) = (0, values.count)
        while low < high {
            let middle = (low + high) / 2
            if isBefore(values[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

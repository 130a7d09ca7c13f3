import Foundation
import Logging
import Metrics
import ParlaCore
import ParlaGames
import ParlaStore
import ServiceLifecycle
import Synchronization

/// The leaderboards' ranks in this server's memory, kept in step with
/// `leaderboard_entries`: a rank is a Fenwick-tree sum (`BoardRanks`), with
/// no query at all.
///
/// A board is loaded on first use, while this server listens for the
/// entries' changes (`ChangeFeed`, migration 0019), so that every change
/// committed after the load's snapshot also arrives as a notification; the notifications
/// that arrive while it loads are applied after it, in commit order, each
/// setting a learner's values as the table has them then. This server's
/// own results are applied at once after their commit as improvements
/// (harmless twice, or before their notification).
///
/// Until a board is loaded, or whenever notifications may have been missed
/// (every board is then dropped and loaded again), callers get nil and read
/// the ranks from SQL. A board nobody asked for in `idleLimit` leaves
/// memory (last week's, say).
public final class LeaderboardRanks: Service, ChangeSubscriber, Sendable {

    /// A board: one language, game kind and period.
    public typealias BoardID = LeaderboardBoard

    /// One notification: a learner's best on a board, or their leaving it.
    public struct Change: Sendable, Equatable {
        var board: BoardID
        var learner: UUID
        var best: BoardRanks.Best?
        /// An improvement this server applies after its own commit (the
        /// table's notifications set values as they are).
        var improvesOnly = false

        /// "language kind period learner score tenths seconds score_at
        /// seconds_at" (after the kind, "entry"), or "language kind period
        /// learner -" when the entry was deleted.
        init?(fields: [Substring]) {
            guard fields.count >= 5, let learner = UUIDText.parse(String(fields[3])) else { return nil }
            board = BoardID(language: String(fields[0]), kind: String(fields[1]), period: String(fields[2]))
            self.learner = learner
            if fields.count == 5, fields[4] == "-" {
                best = nil
                return
            }
            // Fields a newer server adds come after these, and are not ours to read.
            guard fields.count >= 9, let score = Int32(fields[4]), let tenths = Int32(fields[5]), let seconds = Double(fields[6]),
                let scoreAt = Int64(fields[7]), let secondsAt = Int64(fields[8])
            else { return nil }
            best = BoardRanks.Best(score: score, tenths: tenths, seconds: seconds, scoreAt: scoreAt, secondsAt: secondsAt)
        }

        public init(board: BoardID, learner: UUID, best: BoardRanks.Best?, improvesOnly: Bool = false) {
            (self.board, self.learner, self.best, self.improvesOnly) = (board, learner, best, improvesOnly)
        }
    }

    enum Slot {
        /// Being read; the changes that arrive meanwhile wait here.
        case loading(generation: Int, waiting: [Change])
        case ready(Loaded)
    }

    /// A board in memory, by reference so that a change mutates it in
    /// place; only ever touched under the lock.
    final class Loaded: @unchecked Sendable {
        var ranks: BoardRanks
        var lastUsed = ContinuousClock.now
        init(_ ranks: BoardRanks) { self.ranks = ranks }
    }

    struct State {
        /// Whether notifications are flowing: boards may be loaded and used.
        var listening = false
        /// Counts the times listening started, so that a load begun before
        /// a lost connection is not kept.
        var generation = 0
        var boards: [BoardID: Slot] = [:]
        /// Learners whose entries were deleted: a late change of theirs
        /// (this server's own, applied after commit) must not bring them back.
        var departed: Set<UUID> = []
    }

    let store: LeaderboardStore
    let logger: Logger
    let idleLimit: Duration
    private let state = Mutex(State())
    /// How many boards are in memory, at `/metrics` (a benchmark waits for it).
    private let boardsGauge = Gauge(label: "parla_leaderboard_boards_in_memory")
    /// Boards asked for, with the generation they were asked for in.
    private let loads: AsyncStream<(BoardID, Int)>
    private let requestLoad: AsyncStream<(BoardID, Int)>.Continuation

    /// Subscribes to `feed`, which must run beside it.
    public init(store: LeaderboardStore, feed: ChangeFeed, logger: Logger, idleLimit: Duration = .seconds(30 * 60)) {
        self.store = store
        self.logger = logger
        self.idleLimit = idleLimit
        (loads, requestLoad) = AsyncStream.makeStream(of: (BoardID, Int).self)
        feed.subscribe(self)
    }

    // MARK: Reading

    /// `body` with the board's ranks, or nil (and the board is asked for)
    /// when they are not in memory.
    public func withBoard<Value>(_ board: BoardID, _ body: (BoardRanks) -> Value) -> Value? {
        let (value, load): (Value?, Int?) = state.withLock { state in
            switch state.boards[board] {
            case .ready(let loaded)?:
                loaded.lastUsed = .now
                return (body(loaded.ranks), nil)
            case .loading?: return (nil, nil)
            case nil:
                guard state.listening else { return (nil, nil) }
                state.boards[board] = .loading(generation: state.generation, waiting: [])
                return (nil, state.generation)
            }
        }
        if let load { requestLoad.yield((board, load)) }
        return value
    }

    /// How many boards are in memory.
    var loadedBoards: Int { state.withLock { Self.loadedBoards($0) } }

    static func loadedBoards(_ state: State) -> Int {
        state.boards.values.filter { if case .ready = $0 { true } else { false } }.count
    }

    /// Whether `board` is in memory (and it is asked for when not).
    func isLoaded(_ board: BoardID) -> Bool { withBoard(board) { _ in true } ?? false }

    /// Waits until `board` is in memory (tests, benchmarks); false if it
    /// could not be within `seconds`.
    public func waitUntilLoaded(language: String, kind: String, period: String, seconds: Double = 30) async -> Bool {
        let board = BoardID(language: language, kind: kind, period: period)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if isLoaded(board) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    // MARK: Changes

    /// A change this server committed itself: applied now, so that its
    /// caller reads its own result at once (the notification follows).
    public func apply(_ change: Change) {
        state.withLock { Self.apply(change, to: &$0) }
    }

    /// Learners this server removed (with their entries): gone from every
    /// board now, as their notifications will say.
    public func remove(_ learners: [UUID]) {
        state.withLock { state in
            for learner in learners {
                state.departed.insert(learner)
                for board in Array(state.boards.keys) {
                    Self.apply(Change(board: board, learner: learner, best: nil), to: &state)
                }
            }
        }
    }

    static func apply(_ change: Change, to state: inout State) {
        if change.best == nil { state.departed.insert(change.learner) }
        switch state.boards[change.board] {
        case .ready(let loaded)?:
            apply(change, to: &loaded.ranks, departed: state.departed)
        case .loading(let generation, var waiting)?:
            // Out of the dictionary while it grows, so it is not copied.
            state.boards[change.board] = nil
            waiting.append(change)
            state.boards[change.board] = .loading(generation: generation, waiting: waiting)
        case nil:
            break
        }
    }

    static func apply(_ change: Change, to ranks: inout BoardRanks, departed: Set<UUID>) {
        guard let best = change.best else { return ranks.remove(change.learner) }
        if change.improvesOnly {
            if !departed.contains(change.learner) { ranks.improve(change.learner, to: best) }
        } else {
            ranks.set(change.learner, to: best)
        }
    }

    // MARK: Running

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.loadBoards() }
                group.addTask { await self.forgetIdleBoards() }
            }
        }
    }

    // MARK: Notifications

    public var changeKind: String { "entry" }

    public func startedListening() {
        state.withLock {
            $0.listening = true
            $0.generation += 1
        }
    }

    /// One entry's change, or "*": too many changed to name (every board
    /// is read again).
    public func received(_ fields: [Substring]) -> Bool {
        if fields == ["*"] {
            state.withLock { state in
                state.generation += 1
                state.boards = [:]
                state.departed = []
            }
            boardsGauge.record(0)
            return true
        }
        guard let change = Change(fields: fields) else { return false }
        apply(change)
        return true
    }

    /// Changes may have been missed: every board is read again.
    public func stoppedListening() {
        state.withLock { state in
            state.listening = false
            state.boards = [:]
            state.departed = []
        }
        boardsGauge.record(0)
    }

    /// Drops the boards nobody asked for in `idleLimit`.
    private func forgetIdleBoards() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: idleLimit / 4)
            let now = ContinuousClock.now
            state.withLock { state in
                state.boards = state.boards.filter { _, slot in
                    if case .ready(let loaded) = slot { now - loaded.lastUsed < idleLimit } else { true }
                }
            }
            boardsGauge.record(loadedBoards)
        }
    }

    /// Loads the boards asked for, one at a time.
    private func loadBoards() async {
        for await (board, asked) in loads {
            guard !Task.isCancelled else { return }
            // Only the load asked for while listening now: one asked for
            // before a lost connection began before changes that were missed.
            func current(_ state: State) -> Bool {
                guard case .loading(let generation, _)? = state.boards[board] else { return false }
                return generation == asked && asked == state.generation && state.listening
            }
            guard state.withLock({ current($0) }) else { continue }
            let started = ContinuousClock.now
            do {
                let loaded = Loaded(try await store.entries(of: board))
                let learners = loaded.ranks.total
                let kept = state.withLock { state -> Bool in
                    guard current(state), case .loading(_, let waiting)? = state.boards[board] else { return false }
                    for change in waiting { Self.apply(change, to: &loaded.ranks, departed: state.departed) }
                    state.boards[board] = .ready(loaded)
                    return true
                }
                boardsGauge.record(loadedBoards)
                logger.info(
                    "leaderboard ranks loaded",
                    metadata: [
                        "board": "\(board.language) \(board.kind) \(board.period)", "learners": "\(learners)", "kept": "\(kept)",
                        "took": "\(ContinuousClock.now - started)",
                    ])
            } catch {
                logger.warning("leaderboard ranks not loaded", metadata: ["error": "\(error)"])
                state.withLock { state in
                    if current(state) { state.boards[board] = nil }
                }
            }
        }
    }
}

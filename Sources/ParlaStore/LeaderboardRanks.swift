import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The leaderboards' ranks in this server's memory, kept in step with
/// `leaderboard_entries`: a rank is a Fenwick-tree sum (`BoardRanks`), with
/// no query at all.
///
/// A board is loaded on first use, after this server listens on the
/// entries' channel (migration 0018), so that every change committed after
/// the load's snapshot also arrives as a notification. Changes only ever
/// improve a best or remove a learner, so applying one twice or out of
/// order is harmless. Until a board is loaded, or whenever the listening
/// connection is lost (changes may have been missed: every board is dropped
/// and loaded again), callers get nil and read the ranks from SQL. A board
/// nobody asked for in `idleLimit` leaves memory (last week's, say).
public final class LeaderboardRanks: Service, Sendable {
    static let channel = "leaderboard_entries"

    /// A board: one language, game kind and period.
    struct BoardID: Hashable, Sendable {
        var language: String, kind: String, period: String
    }

    /// One notification: a learner's best on a board, or their leaving it.
    struct Change: Sendable, Equatable {
        var board: BoardID
        var learner: UUID
        var best: BoardRanks.Best?

        /// "language kind period learner score tenths", tab-separated, or
        /// "-" for score and tenths when the entry was deleted.
        init?(payload: String) {
            let fields = payload.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 6, let learner = UUID(uuidString: String(fields[3])) else { return nil }
            board = BoardID(language: String(fields[0]), kind: String(fields[1]), period: String(fields[2]))
            self.learner = learner
            if fields[4] == "-" { best = nil; return }
            guard let score = Int32(fields[4]), let tenths = Int32(fields[5]) else { return nil }
            best = BoardRanks.Best(score: score, tenths: tenths)
        }

        init(board: BoardID, learner: UUID, best: BoardRanks.Best?) { (self.board, self.learner, self.best) = (board, learner, best) }
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

    let database: Database
    let logger: Logger
    let idleLimit: Duration
    private let state = Mutex(State())
    private let loads: AsyncStream<BoardID>
    private let requestLoad: AsyncStream<BoardID>.Continuation

    public init(database: Database, logger: Logger, idleLimit: Duration = .seconds(30 * 60)) {
        self.database = database
        self.logger = logger
        self.idleLimit = idleLimit
        (loads, requestLoad) = AsyncStream.makeStream(of: BoardID.self)
    }

    // MARK: Reading

    /// `body` with the board's ranks, or nil (and the board is asked for)
    /// when they are not in memory.
    func withBoard<Value>(_ board: BoardID, _ body: (BoardRanks) -> Value) -> Value? {
        let (value, load): (Value?, Bool) = state.withLock { state in
            switch state.boards[board] {
            case .ready(let loaded)?:
                loaded.lastUsed = .now
                return (body(loaded.ranks), false)
            case .loading?: return (nil, false)
            case nil:
                guard state.listening else { return (nil, false) }
                state.boards[board] = .loading(generation: state.generation, waiting: [])
                return (nil, true)
            }
        }
        if load { requestLoad.yield(board) }
        return value
    }

    /// How many boards are in memory.
    var loadedBoards: Int {
        state.withLock { $0.boards.values.filter { if case .ready = $0 { true } else { false } }.count }
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
    func apply(_ change: Change) {
        state.withLock { Self.apply(change, to: &$0) }
    }

    static func apply(_ change: Change, to state: inout State) {
        if change.best == nil { state.departed.insert(change.learner) }
        switch state.boards[change.board] {
        case .ready(let loaded)?:
            apply(change, to: &loaded.ranks, departed: state.departed)
        case .loading(let generation, var waiting)?:
            waiting.append(change)
            state.boards[change.board] = .loading(generation: generation, waiting: waiting)
        case nil:
            break
        }
    }

    static func apply(_ change: Change, to ranks: inout BoardRanks, departed: Set<UUID>) {
        if let best = change.best {
            if !departed.contains(change.learner) { ranks.improve(change.learner, to: best) }
        } else {
            ranks.remove(change.learner)
        }
    }

    // MARK: Running

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.listen() }
                group.addTask { await self.loadBoards() }
                group.addTask { await self.forgetIdleBoards() }
            }
        }
    }

    /// Listens on the entries' channel, again after each lost connection.
    private func listen() async {
        while !Task.isCancelled {
            do {
                try await database.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        state.withLock {
                            $0.listening = true
                            $0.generation += 1
                        }
                        for try await notification in notifications {
                            guard let change = Change(payload: notification.payload) else {
                                logger.warning("leaderboard change not understood", metadata: ["payload": "\(notification.payload)"])
                                continue
                            }
                            apply(change)
                        }
                    }
                }
            } catch {
                if !Task.isCancelled { logger.warning("leaderboard ranks lost their notifications", metadata: ["error": "\(error)"]) }
            }
            // Changes may have been missed: every board is read again.
            state.withLock { state in
                state.listening = false
                state.boards = [:]
                state.departed = []
            }
            try? await Task.sleep(for: .seconds(1))
        }
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
        }
    }

    /// Loads the boards asked for, one at a time.
    private func loadBoards() async {
        for await board in loads {
            guard !Task.isCancelled else { return }
            let started = ContinuousClock.now
            do {
                let loaded = Loaded(try await read(board))
                let learners = loaded.ranks.total
                let kept = state.withLock { state -> Bool in
                    guard case .loading(let generation, let waiting)? = state.boards[board], generation == state.generation,
                          state.listening else { return false }
                    for change in waiting { Self.apply(change, to: &loaded.ranks, departed: state.departed) }
                    state.boards[board] = .ready(loaded)
                    return true
                }
                logger.info("leaderboard ranks loaded", metadata: [
                    "board": "\(board.language) \(board.kind) \(board.period)", "learners": "\(learners)", "kept": "\(kept)",
                    "took": "\(ContinuousClock.now - started)"])
            } catch {
                logger.warning("leaderboard ranks not loaded", metadata: ["error": "\(error)"])
                state.withLock { state in
                    if case .loading? = state.boards[board] { state.boards[board] = nil }
                }
            }
        }
    }

    /// Every entry of `board`, as it stands now.
    private func read(_ board: BoardID) async throws -> BoardRanks {
        try await database.withConnection { connection in
            let total = try await connection.query("""
                SELECT coalesce(sum(entries), 0)::int FROM leaderboard_counts
                WHERE language = \(board.language) AND kind = \(board.kind) AND period = \(board.period) AND metric = 'score' AND span = 64
                """, logger: logger).collect().first?.decode(Int.self) ?? 0
            var ranks = BoardRanks(capacity: total)
            let rows = try await connection.query("""
                SELECT learner_id, best_score, leaderboard_bucket('time', 0, best_seconds) FROM leaderboard_entries
                WHERE language = \(board.language) AND kind = \(board.kind) AND period = \(board.period)
                """, logger: logger)
            for try await (learner, score, tenths) in rows.decode((UUID, Int32, Int32).self) {
                ranks.improve(learner, to: BoardRanks.Best(score: score, tenths: tenths))
            }
            return ranks
        }
    }
}

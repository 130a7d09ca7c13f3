import Foundation
import ParlaCore
import ParlaDatabase
import ParlaGames
import ParlaKept
import ParlaStore

/// Leaderboard pages, standings and ranks: from this server's memory once
/// the board is loaded there (`LeaderboardRanks`, with the learners' cards
/// from `LearnerDirectory`: no query at all), else one statement ranked
/// from the counts (the fallback, until the board loads or while
/// notifications are lost). A friends' board is read whole and ranked here.
public struct LeaderboardService: Sendable {
    package let store: LeaderboardStore
    package let friends: FriendStore
    /// Nil: every page from SQL (`leaderboards.keepInMemory` off, tests).
    package let ranks: LeaderboardRanks?
    package let directory: LearnerDirectory

    public init(store: LeaderboardStore, friends: FriendStore, ranks: LeaderboardRanks?, directory: LearnerDirectory) {
        (self.store, self.friends, self.ranks, self.directory) = (store, friends, ranks, directory)
    }

    /// The top `limit` of a board with their ranks (ties share one), the
    /// total, and `learner`'s own row with its neighbours;
    /// `learner_not_found` if `learner` was deleted since it was authorized.
    public func page(
        language: Language, kind: String, period: String, metric: LeaderboardStore.Metric, limit: Int,
        learner: AuthorizedLearner?
    ) async throws -> LeaderboardStore.Page {
        let board = LeaderboardBoard(language: language.code, kind: kind, period: period)
        if let page = try await pageInMemory(board, metric: metric, limit: limit, learner: learner?.id) { return page }
        return try await store.page(language: language, kind: kind, period: period, metric: metric, limit: limit, learner: learner)
    }

    /// The board among `learner` and their friends.
    package func friendsPage(
        language: Language, kind: String, period: String, metric: LeaderboardStore.Metric, limit: Int, learner: LearnerID
    ) async throws -> LeaderboardStore.Page {
        try await store.page(
            language: language, kind: kind, period: period, metric: metric, limit: limit, learner: learner,
            among: try await friends.friends(of: learner))
    }

    /// `learner`'s own row with its rank, and the board's total: what a profile shows.
    package func standing(language: Language, kind: String, period: String, metric: LeaderboardStore.Metric, learner: LearnerID)
        async throws
        -> (own: LeaderboardStore.Row?, total: Int)
    {
        let board = LeaderboardBoard(language: language.code, kind: kind, period: period)
        if let page = try await pageInMemory(board, metric: metric, limit: 0, learner: learner, neighbours: 0) {
            return (page.own, page.total)
        }
        return try await store.standing(language: language, kind: kind, period: period, metric: metric, learner: learner)
    }

    /// `learner`'s rank and the board's total, nil when they have no entry.
    public func rank(language: Language, kind: String, period: String, metric: LeaderboardStore.Metric, learner: LearnerID) async throws
        -> (rank: Int, total: Int)?
    {
        let board = LeaderboardBoard(language: language.code, kind: kind, period: period)
        if let ranks, let found = ranks.withBoard(board, { board in (board.rank(metric, of: learner.uuid), board.total) }) {
            return found.0.map { ($0, found.1) }
        }
        let standing = try await store.standing(language: language, kind: kind, period: period, metric: metric, learner: learner)
        return standing.own.map { ($0.rank, standing.total) }
    }

    /// A result this server committed, into its ranks in memory at once as
    /// an improvement, so that its caller reads it back at once; the
    /// notification of the same change follows and changes nothing.
    public func recorded(_ result: LeaderboardStore.Result) {
        guard let ranks else { return }
        let at = BoardRanks.microseconds(result.at)
        let best = BoardRanks.Best(
            score: Int32(clamping: result.score), tenths: LeaderboardStore.Metric.tenths(result.seconds), seconds: result.seconds,
            scoreAt: at, secondsAt: at)
        for period in LeaderboardStore.periods(of: result.at) {
            ranks.apply(
                .init(
                    board: .init(language: result.language.code, kind: result.kind, period: period), learner: result.learner.uuid,
                    best: best, improvesOnly: true))
        }
    }

    /// Learners this server removed with their entries (committed): out of
    /// its ranks at once, as their notifications will say.
    package func removed(_ learners: [LearnerID]) {
        if !learners.isEmpty { ranks?.remove(learners.map(\.uuid)) }
    }

    /// A page from memory alone, the board and the learners' cards both
    /// kept there; nil when the board is not (the learner checked as the
    /// statement would: `learner_not_found` once deleted).
    package func pageInMemory(
        _ board: LeaderboardBoard, metric: LeaderboardStore.Metric, limit: Int, learner: LearnerID?, neighbours: Int = 2
    ) async throws -> LeaderboardStore.Page? {
        guard let ranks,
            let (placed, total) = ranks.withBoard(
                board, { ($0.page(metric, limit: limit, learner: learner?.uuid, neighbours: neighbours), $0.total) })
        else { return nil }
        var shown = Set((placed.top + placed.neighbours).map(\.learner))
        if let learner { shown.insert(learner.uuid) }
        let cards = try await directory.cards(shown)
        if let learner, cards[learner.uuid] == nil { throw ParlaError(.learnerNotFound) }
        // A learner shown but gone meanwhile: the statement decides.
        func row(_ placed: BoardRanks.Placed) -> LeaderboardStore.Row? {
            guard let card = cards[placed.learner] else { return nil }
            return LeaderboardStore.Row(
                rank: placed.rank, learner: LearnerID(placed.learner), displayName: card.displayName, avatarID: card.avatarID,
                score: Int(placed.best.score), seconds: placed.best.seconds, scoreAt: BoardRanks.date(placed.best.scoreAt),
                secondsAt: BoardRanks.date(placed.best.secondsAt))
        }
        let top = placed.top.compactMap(row), neighbours = placed.neighbours.compactMap(row), own = placed.own.flatMap(row)
        guard top.count == placed.top.count, neighbours.count == placed.neighbours.count, (own == nil) == (placed.own == nil) else {
            return nil
        }
        return LeaderboardStore.Page(top: top, own: own, neighbours: neighbours, total: total)
    }
}

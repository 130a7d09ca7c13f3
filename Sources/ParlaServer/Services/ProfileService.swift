import Foundation
import ParlaCore
import ParlaStore

/// What learners show each other (IF 5.1, 5.2, DF 4.5): name, avatar,
/// levels, best results with ranks and percentiles, to friends, or to
/// anyone when the profile is public.
struct ProfileService: Sendable {
    let friends: FriendStore
    let leaderboards: LeaderboardService

    struct Best: Sendable {
        var language: Language
        var kind: String
        var score: LeaderboardStore.Row
        var time: LeaderboardStore.Row
        var total: Int
    }

    struct Profile: Sendable {
        var card: FriendStore.PublicCard
        /// Per course with a level: the share of learners at or below it.
        var levelPercentiles: [Language: Double]
        var bests: [Best]
    }

    /// `target`'s profile as `viewer` (one of the caller's learners) may see
    /// it; `profile_not_found` when it is private and they are not friends.
    func profile(viewer: AuthorizedLearner, target: LearnerID) async throws -> Profile {
        guard let card = try await friends.card(of: target, viewer: viewer) else {
            throw ParlaError(.profileNotFound)
        }
        var percentiles: [Language: Double] = [:]
        for (language, level) in card.levels {
            if let level { percentiles[language] = try await friends.levelPercentile(level, language: language) }
        }
        var bests: [Best] = []
        for (language, kind) in try await friends.boards(of: target) {
            let score = try await leaderboards.standing(language: language, kind: kind, period: "all", metric: .score, learner: target)
            let time = try await leaderboards.standing(language: language, kind: kind, period: "all", metric: .time, learner: target)
            guard let bestScore = score.own, let bestTime = time.own else { continue }
            bests.append(Best(language: language, kind: kind, score: bestScore, time: bestTime, total: score.total))
        }
        return Profile(card: card, levelPercentiles: percentiles, bests: bests)
    }

    /// The share of a board's learners a rank is at least as good as, 0-100.
    static func percentile(rank: Int, total: Int) -> Double {
        total > 0 ? 100 * Double(total - rank + 1) / Double(total) : 100
    }
}

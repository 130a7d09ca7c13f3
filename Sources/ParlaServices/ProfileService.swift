import Foundation
import ParlaCore
import ParlaStore

/// What learners show each other (IF 5.1, 5.2, DF 4.5): name, avatar,
/// levels, best results with ranks and percentiles, to friends, or to
/// anyone when the profile is public.
package struct ProfileService: Sendable {
    package let friends: FriendStore
    package let leaderboards: LeaderboardService

    package struct Best: Sendable {
        package var language: Language
        package var kind: String
        package var score: LeaderboardStore.Row
        package var time: LeaderboardStore.Row
        package var total: Int
    }

    package struct Profile: Sendable {
        package var card: FriendStore.PublicCard
        /// Per course with a level: the share of learners at or below it.
        package var levelPercentiles: [Language: Double]
        package var bests: [Best]
    }

    /// `target`'s profile as `viewer` (one of the caller's learners) may see
    /// it; `profile_not_found` when it is private and they are not friends.
    package func profile(viewer: AuthorizedLearner, target: LearnerID) async throws -> Profile {
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
    package static func percentile(rank: Int, total: Int) -> Double {
        total > 0 ? 100 * Double(total - rank + 1) / Double(total) : 100
    }

    package init(friends: FriendStore, leaderboards: LeaderboardService) {
        self.friends = friends
        self.leaderboards = leaderboards
    }
}

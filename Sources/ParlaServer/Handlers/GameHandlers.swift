import Foundation
import OpenAPIRuntime
import ParlaAPI
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaServices
import ParlaStore

extension APIHandler {
    func startGame(_ input: Operations.StartGame.Input) async throws -> Operations.StartGame.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        guard case .json(let form) = input.body else { throw ParlaError(.malformedRequest) }
        let start = GameService.Start(
            language: form.language.rawValue, wordList: form.wordListId, pairs: form.pairs,
            faces: form.faces.flatMap { MatchingFaces(rawValue: $0.rawValue) }, offline: form.offline ?? false)
        let view = try await games.start(learner, start)
        return .created(.init(body: .json(try .init(view, content.snapshot()))))
    }

    func getGame(_ input: Operations.GetGame.Input) async throws -> Operations.GetGame.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let game: GameID = try parseID(input.path.gameId, orElse: .gameNotFound)
        return .ok(.init(body: .json(try .init(try await games.get(learner, game: game), content.snapshot()))))
    }

    func flipCard(_ input: Operations.FlipCard.Input) async throws -> Operations.FlipCard.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let game: GameID = try parseID(input.path.gameId, orElse: .gameNotFound)
        guard case .json(let form) = input.body else { throw ParlaError(.malformedRequest) }
        let (view, outcome) = try await games.flip(learner, game: game, position: form.position)
        let snapshot = try content.snapshot()
        let shown: [MatchingCard], name: String
        switch outcome {
        case .revealed(let card): (shown, name) = ([card], "revealed")
        case .match(let first, let second): (shown, name) = ([first, second], "match")
        case .mismatch(let first, let second): (shown, name) = ([first, second], "mismatch")
        }
        let feedback = view.game.isFinished ? "finished" : name
        return .ok(
            .init(
                body: .json(
                    .init(
                        outcome: .init(rawValue: name) ?? .revealed, feedback: .init(rawValue: feedback) ?? .revealed,
                        message: Wording.gameFeedback(feedback).text(in: language),
                        cards: shown.map {
                            Components.Schemas.GameCard(
                                $0, state: name == "match" ? .matched : .faceUp, view: view, variant: view.alphabet(in: snapshot),
                                snapshot: snapshot)
                        },
                        game: try .init(view, snapshot)))))
    }

    func submitGameLog(_ input: Operations.SubmitGameLog.Input) async throws -> Operations.SubmitGameLog.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let game: GameID = try parseID(input.path.gameId, orElse: .gameNotFound)
        guard case .json(let form) = input.body else { throw ParlaError(.malformedRequest) }
        let flips = form.flips.map { MatchingFlip(position: $0.position, at: $0.at) }
        let view = try await games.submit(learner, game: game, flips: flips)
        return .ok(.init(body: .json(try .init(view, content.snapshot()))))
    }
}

extension APIHandler {
    func listGameResults(_ input: Operations.ListGameResults.Input) async throws -> Operations.ListGameResults.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let (limit, before): (Int, GameID?) = try historyPage(limit: input.query.limit, before: input.query.before)
        let found = try await games.results(
            learner, language: input.query.language.flatMap { Language(rawValue: $0.rawValue) }, limit: limit, before: before)
        let records = found.map { game in
            Components.Schemas.GameRecord(
                id: game.id.description, language: .init(rawValue: game.language.code) ?? .en, kind: .matching,
                faces: .init(rawValue: game.faces ?? "") ?? .wordPicture, offline: game.offline, startedAt: game.startedAt,
                finishedAt: game.finishedAt,
                result: .init(game.result))
        }
        return .ok(.init(body: .json(.init(games: records, next: found.count == limit ? found.last?.id.description : nil))))
    }
}

extension Components.Schemas.GameCard {
    /// A card as the player may see it: its face only when shown.
    init(_ card: MatchingCard, state: StatePayload, view: GameService.View, variant: Alphabet?, snapshot: ContentCatalog.Snapshot) {
        let concept = snapshot.concepts[card.concept]
        let shown = state != .faceDown
        var text: String?, picture: String?, audio: String?
        if shown, let concept {
            // The word as the course's variant writes and says it, in the learner's letter case.
            switch card.face {
            case .word: text = concept.shown(variant?.wordsTag ?? view.language.code, letterCase: view.letterCase)
            case .translation: text = concept.localization(view.native)?.word
            case .picture: picture = snapshot.assetPath(.picture(concept.picture))
            case .audio: audio = snapshot.wordAudio(concept.key, view.language, words: variant?.wordsTag)
            }
        }
        self.init(
            position: card.position, state: state, face: shown ? .init(rawValue: card.face.rawValue) : nil, text: text,
            picture: picture, audio: audio)
    }
}

extension GameService.View {
    /// The alphabet of the variant the game was dealt in, looked up once per
    /// game shown rather than once per card.
    func alphabet(in snapshot: ContentCatalog.Snapshot) -> Alphabet? { variant.flatMap { snapshot.corpus.alphabet($0) } }
}

extension Components.Schemas.GameResult {
    init(_ result: GameStore.Finish) {
        self.init(pairs: result.items, seconds: result.seconds, flips: result.moves, mismatches: result.mistakes, score: result.score)
    }
}

extension Components.Schemas.Game {
    init(_ view: GameService.View, _ snapshot: ContentCatalog.Snapshot) throws {
        let game = view.game, variant = view.alphabet(in: snapshot)
        let cards = game.deal.cards.map { card -> Components.Schemas.GameCard in
            let state: Components.Schemas.GameCard.StatePayload =
                game.matched.contains(card.position) ? .matched : game.faceUp == card.position || game.offline ? .faceUp : .faceDown
            return .init(card, state: state, view: view, variant: variant, snapshot: snapshot)
        }
        let result = game.result.map { Components.Schemas.GameResult(GameService.finish($0)) }
        self.init(
            id: view.id.description, language: .init(rawValue: view.language.code) ?? .en, kind: .matching,
            faces: .init(rawValue: game.deal.faces.rawValue) ?? .wordPicture, pairs: game.deal.pairCount,
            status: game.isFinished ? .finished : .inProgress, offline: game.offline, cards: cards, flips: game.flips.count,
            mismatches: game.mismatches, matchedPairs: game.matched.count / 2, startedAt: view.startedAt, finishedAt: view.finishedAt,
            result: result)
    }
}

extension APIHandler {
    func getLeaderboard(_ input: Operations.GetLeaderboard.Input) async throws -> Operations.GetLeaderboard.Output {
        let query = LeaderboardQuery(
            kind: input.path.kind.rawValue, language: input.query.language.rawValue,
            scope: LeaderboardQuery.Scope(rawValue: (input.query.scope ?? .global).rawValue) ?? .global,
            metric: input.query.metric == .time ? .time : .score,
            learner: input.query.learnerId, limit: input.query.limit ?? 10)
        let board = try await leaderboard(query)
        func row(_ row: LeaderboardStore.Row) -> Components.Schemas.LeaderboardRow {
            .init(
                rank: row.rank, learnerId: row.learner.description, displayName: row.displayName, avatarId: row.avatarID, score: row.score,
                seconds: row.seconds)
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        kind: .init(rawValue: query.kind) ?? .matching, language: .init(rawValue: board.language.code)!,
                        scope: .init(rawValue: query.scope.rawValue)!,
                        period: board.period,
                        metric: query.metric == .time ? .time : .score, total: board.page.total, entries: board.page.top.map(row),
                        own: board.page.own.map(row), neighbours: board.page.neighbours.map(row)))))
    }

    /// A leaderboard page, however the request was read (the generated
    /// code, or `LeaderboardFastPath`).
    func leaderboard(_ query: LeaderboardQuery) async throws -> (language: Language, period: String, page: LeaderboardStore.Page) {
        let caller = try await caller()
        let language = try content.language(query.language)
        let learner = try await query.learner.asyncMap { try await authorized($0, for: .read, as: caller) }
        guard (1...100).contains(query.limit) else { throw ParlaError.validation([FieldError("limit", .validationFailed)]) }
        let period = query.scope == .week ? LeaderboardStore.week(of: Date()) : "all"
        if query.scope == .friends {
            guard let learner else { throw ParlaError.validation([FieldError("learnerId", .required)]) }
            return (
                language, period,
                try await leaderboards.friendsPage(
                    language: language, kind: query.kind, period: period, metric: query.metric, limit: query.limit,
                    learner: learner.id)
            )
        }
        return (
            language, period,
            try await leaderboards.page(
                language: language, kind: query.kind, period: period, metric: query.metric,
                limit: query.limit, learner: learner)
        )
    }
}

/// What a leaderboard page asks for.
struct LeaderboardQuery: Sendable, Equatable {
    enum Scope: String, Sendable { case global, week, friends }
    var kind: String
    var language: String
    var scope: Scope
    var metric: LeaderboardStore.Metric
    /// As asked: the learner's id is read after the caller is known.
    var learner: String?
    var limit: Int
}

extension APIHandler {
    func listFriends(_ input: Operations.ListFriends.Input) async throws -> Operations.ListFriends.Output {
        let learner = try await authorized(input.path.learnerId, for: .actAs)
        let circle = try await friends.circle(of: learner)
        func person(_ person: FriendStore.Person) -> Components.Schemas.Friend {
            .init(learnerId: person.learner.description, displayName: person.displayName, avatarId: person.avatarID, since: person.since)
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        friendCode: circle.friendCode, friends: circle.friends.map(person),
                        incoming: circle.incoming.map(person), outgoing: circle.outgoing.map(person)))))
    }

    func addFriend(_ input: Operations.AddFriend.Input) async throws -> Operations.AddFriend.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        guard case .json(let form) = input.body else { throw ParlaError(.malformedRequest) }
        switch try await friends.request(from: learner, code: form.friendCode) {
        case .requested(let other): return .created(.init(body: .json(.init(status: .requested, learnerId: other.description))))
        case .accepted(let other): return .created(.init(body: .json(.init(status: .accepted, learnerId: other.description))))
        }
    }

    func removeFriend(_ input: Operations.RemoveFriend.Input) async throws -> Operations.RemoveFriend.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let other: LearnerID = try parseID(input.path.otherLearnerId, orElse: .friendNotFound)
        try await friends.remove(learner, other: other)
        return .noContent(.init())
    }

    func acceptFriend(_ input: Operations.AcceptFriend.Input) async throws -> Operations.AcceptFriend.Output {
        try await respondToFriend(learner: input.path.learnerId, other: input.path.otherLearnerId, accept: true)
        return .noContent(.init())
    }

    func declineFriend(_ input: Operations.DeclineFriend.Input) async throws -> Operations.DeclineFriend.Output {
        try await respondToFriend(learner: input.path.learnerId, other: input.path.otherLearnerId, accept: false)
        return .noContent(.init())
    }

    private func respondToFriend(learner rawLearner: String, other rawOther: String, accept: Bool) async throws {
        let learner = try await authorized(rawLearner, for: .write)
        let other: LearnerID = try parseID(rawOther, orElse: .friendRequestNotFound)
        try await friends.respond(learner, to: other, accept: accept)
    }
}

extension APIHandler {
    func getPublicProfile(_ input: Operations.GetPublicProfile.Input) async throws -> Operations.GetPublicProfile.Output {
        let target: LearnerID = try parseID(input.path.learnerId, orElse: .profileNotFound)
        let viewer = try await authorized(input.query.viewerId ?? input.path.learnerId, for: .actAs)
        let profile = try await profiles.profile(viewer: viewer, target: target)
        return .ok(.init(body: .json(.init(profile))))
    }

    func compareLearners(_ input: Operations.CompareLearners.Input) async throws -> Operations.CompareLearners.Output {
        let learner = try await authorized(input.path.learnerId, for: .actAs)
        let other: LearnerID = try parseID(input.path.otherLearnerId, orElse: .profileNotFound)
        let mine = try await profiles.profile(viewer: learner, target: learner.id)
        let theirs = try await profiles.profile(viewer: learner, target: other)
        return .ok(.init(body: .json(.init(learner: .init(mine), other: .init(theirs)))))
    }
}

extension Components.Schemas.PublicProfile {
    init(_ profile: ProfileService.Profile) {
        let card = profile.card
        self.init(
            learnerId: card.learner.description, displayName: card.displayName, avatarId: card.avatarID, _public: card.isPublic,
            levels: card.levels.map { language, level in
                .init(
                    language: .init(rawValue: language.code) ?? .en, level: level.flatMap { .init(rawValue: $0.rawValue) },
                    percentile: profile.levelPercentiles[language])
            },
            bests: profile.bests.map { best in
                .init(
                    language: .init(rawValue: best.language.code) ?? .en, kind: .init(rawValue: best.kind) ?? .matching,
                    score: best.score.score,
                    scoreRank: best.score.rank,
                    scorePercentile: ProfileService.percentile(rank: best.score.rank, total: best.total), seconds: best.time.seconds,
                    timeRank: best.time.rank, timePercentile: ProfileService.percentile(rank: best.time.rank, total: best.total),
                    players: best.total)
            })
    }
}

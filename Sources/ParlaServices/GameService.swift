import Foundation
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaLearning
import ParlaLearningStore
import ParlaStore
import ParlaTeaching

/// The card-matching game (IF 4.1, T5.1-T5.6): the server deals from a seed
/// it keeps, reveals a card only when it is flipped, and derives the result
/// from the flip log, live or submitted whole after an offline game.
package struct GameService: Sendable {
    package static let kind = "matching"

    package let games: GameStore
    /// A finished game's result goes into this server's ranks at once.
    package let leaderboards: LeaderboardService
    package let learners: LearnerStore
    /// The variant each course is in: words are written and said as it does.
    package let courses: CourseService
    package let content: ContentService
    /// What it deals from, and what its words are to the learning model.
    package let words: GameWords
    package let scheduler = MemoryScheduler()

    package struct View: Sendable {
        package var id: GameID
        package var learner: LearnerID
        package var language: Language
        package var native: Language
        /// The course variant and letter case its words are shown in.
        package var variant: String?
        package var letterCase: LetterCase
        package var game: MatchingGame
        package var startedAt: Date
        package var finishedAt: Date?
    }

    /// What the learner chose; anything left out has a default.
    package struct Start: Sendable {
        package var language: String
        package var wordList: String?
        package var pairs: Int?
        package var faces: MatchingFaces?
        package var offline: Bool

        package init(language: String, wordList: String? = nil, pairs: Int? = nil, faces: MatchingFaces? = nil, offline: Bool) {
            self.language = language
            self.wordList = wordList
            self.pairs = pairs
            self.faces = faces
            self.offline = offline
        }
    }

    /// The state kept between flips: the variant and case the words were
    /// dealt in stay the game's, whatever the settings become (absent in
    /// games dealt before them: the language's own words, as written).
    package struct State: Codable, Sendable {
        package var native: Language
        package var variant: String?
        package var letterCase: LetterCase?
        package var game: MatchingGame
    }

    package func start(_ authorized: AuthorizedLearner, _ start: Start) async throws -> View {
        let language = try content.language(start.language)
        let pairs = start.pairs ?? MatchingDeal.defaultPairs
        guard MatchingDeal.pairs.contains(pairs) else { throw ParlaError.validation([FieldError("pairs", .validationFailed)]) }
        // Three independent reads, taken at once: a deal waits for the slowest, not the sum.
        async let learnerRead = learners.learner(authorized)
        async let variantRead = courses.variant(of: authorized, in: language)
        async let dealableRead = words.dealable(authorized, language: language, wordList: start.wordList)
        let (learner, variant, (concepts, preferred, open)) = try await (learnerRead, variantRead, dealableRead)
        let snapshot = try content.snapshot()
        let native = learner.nativeLanguage == language ? (language == .english ? .french : .english) : learner.nativeLanguage
        let faces = start.faces ?? .wordPicture
        let alike = LessonCatalog.soundsAlike(snapshot.corpus, language)
        let candidates = concepts.compactMap { concept -> MatchingCandidate? in
            guard open.contains(concept.key), let localization = concept.localization(language), !localization.isDisabled,
                let word = localization.word
            else {
                return nil
            }
            let translation = concept.localization(native).flatMap { $0.isDisabled ? nil : $0.word }
            return MatchingCandidate(
                concept: concept.key, word: word, translation: translation,
                picture: snapshot.assetPath(.picture(concept.picture)),
                hasAudio: snapshot.assetPath(.word(concept: concept.key, language)) != nil,
                soundsLike: alike[concept.key] ?? [],
                wordMeans: Set(snapshot.senses.concepts(named: word, in: language)),
                translationMeans: Set(translation.map { snapshot.senses.concepts(named: $0, in: native) } ?? []))
        }
        let gameID = GameID.generate()
        var random = SimulationRandom(seed: UInt64.random(in: .min ... .max))
        guard let chosen = MatchingDeal.choose(candidates, pairs: pairs, faces: faces, preferred: preferred, using: &random) else {
            throw ParlaError(.gameUnavailable)
        }
        var game = MatchingGame(deal: MatchingDeal.deal(chosen, faces: faces, seed: random.next()))
        game.offline = start.offline
        let stored = try await games.create(
            gameID, learner: authorized, language: language, kind: Self.kind,
            state: try JSONEncoder().encode(
                State(native: native, variant: variant?.variant, letterCase: learner.letterCase, game: game)), offline: start.offline)
        return View(
            id: stored.id, learner: authorized.id, language: language, native: native, variant: variant?.variant,
            letterCase: learner.letterCase, game: game, startedAt: stored.startedAt, finishedAt: nil)
    }

    package func get(_ learner: AuthorizedLearner, game id: GameID) async throws -> View {
        try view(try await games.game(id, learner: learner), learner: learner.id)
    }

    /// The learner's finished games of every kind (card matching, spelling),
    /// newest first: what its teacher or its account's adults see.
    package func recentGames(_ learner: AuthorizedLearner, language: Language?, limit: Int) async throws -> [GameStore.Record] {
        try await games.finished(learner: learner, kind: nil, language: language, limit: limit, before: nil)
    }

    /// The learner's finished games and their results, newest first.
    package func results(_ learner: AuthorizedLearner, language: Language?, limit: Int, before: GameID?) async throws -> [GameStore.Record]
    {
        try await games.finished(learner: learner, kind: Self.kind, language: language, limit: limit, before: before)
    }

    /// Turns a card over, timed by the server from the game's start; what
    /// the flip teaches is `MatchingLearning`'s to say.
    package func flip(_ learner: AuthorizedLearner, game id: GameID, position: Int) async throws -> (View, FlipOutcome) {
        let now = Date()
        let known = try await words.known()
        let (stored, outcome, result) = try await games.update(id, learner: learner) { stored, model in
            var state = try Self.state(stored)
            guard !state.game.offline else { throw ParlaError(.answerKindMismatch) }
            let outcome: FlipOutcome
            do throws(MatchingRejection) {
                outcome = try state.game.flip(position, at: now.timeIntervalSince(stored.startedAt), checkPace: false)
            } catch {
                throw ParlaError(Self.code(for: error))
            }
            var learned: [AnswerLearning] = []
            if MatchingLearning.mayTeach(outcome) {
                let deck = try words.words(state.game.deal.cards.map(\.concept), in: stored.language, known: known)
                learned = MatchingLearning.learning(
                    from: outcome, in: state.game, words: deck, model: try await model.model(), at: now, scheduler: scheduler)
            }
            return (try JSONEncoder().encode(state), state.game.result.map(Self.finish), learned, outcome)
        }
        if let result { leaderboards.recorded(result) }
        return (try view(stored, learner: learner.id), outcome)
    }

    /// A whole game played offline, as its flip log (seconds from its
    /// start): replayed, and refused if it could not have been played. A log
    /// sent again for a finished game changes nothing.
    package func submit(_ learner: AuthorizedLearner, game id: GameID, flips: [MatchingFlip]) async throws -> View {
        // A game is played within a day: later (or stranger) times are not a game's.
        guard GameLog.isPlausible(flips.map(\.at)) else {
            throw ParlaError.validation([FieldError("flips", .validationFailed)])
        }
        let now = Date()
        let known = try await words.known()
        let (stored, _, result) = try await games.update(id, learner: learner) { stored, model in
            var state = try Self.state(stored)
            // A game played live is not played again from a log: its mismatches stand.
            guard state.game.offline else { throw ParlaError(.answerKindMismatch) }
            // Already finished: the same submission again counts once.
            if state.game.isFinished { return (stored.state, nil, [], ()) }
            var game: MatchingGame
            do throws(MatchingRejection) {
                game = try MatchingGame.replay(state.game.deal, flips: flips)
            } catch {
                throw Self.rejection(error)
            }
            game.offline = state.game.offline
            let deck = try words.words(game.deal.cards.map(\.concept), in: stored.language, known: known)
            let learned = MatchingLearning.learning(
                fromReplayed: game, words: deck, model: try await model.model(), at: now, scheduler: scheduler)
            state.game = game
            return (try JSONEncoder().encode(state), game.result.map(Self.finish), learned, ())
        }
        if let result { leaderboards.recorded(result) }
        return try view(stored, learner: learner.id)
    }

    /// A stored game's state: `game_not_found` for a game of another kind.
    static func state(_ stored: GameStore.Stored) throws -> State {
        guard stored.kind == kind else { throw ParlaError(.gameNotFound) }
        return try JSONDecoder().decode(State.self, from: stored.state)
    }

    private func view(_ stored: GameStore.Stored, learner: LearnerID) throws -> View {
        let state = try Self.state(stored)
        return View(
            id: stored.id, learner: learner, language: stored.language, native: state.native, variant: state.variant,
            letterCase: state.letterCase ?? .lower, game: state.game, startedAt: stored.startedAt, finishedAt: stored.finishedAt)
    }

    package static func finish(_ result: MatchingResult) -> GameStore.Finish {
        .init(items: result.pairs, score: result.score, seconds: result.seconds, moves: result.flips, mistakes: result.mismatches)
    }

    package static func code(for rejection: MatchingRejection) -> ErrorCode {
        switch rejection {
        case .unknownCard: .cardNotFound
        case .alreadyMatched, .sameCard: .cardAlreadyUp
        case .gameOver: .gameFinished
        case .tooFast, .outOfOrder, .unfinished: .gameRejected
        }
    }

    /// Why a log was refused: `game_rejected` naming the flip at fault.
    package static func rejection(_ rejection: MatchingRejection) -> ParlaError {
        let (field, code): (String, ErrorCode) =
            switch rejection {
            case .unknownCard: ("flips", .cardNotFound)
            case .alreadyMatched, .sameCard: ("flips", .cardAlreadyUp)
            case .tooFast(let flip): ("flips[\(flip)]", .flipTooFast)
            case .outOfOrder(let flip): ("flips[\(flip)]", .flipOutOfOrder)
            case .gameOver: ("flips", .gameFinished)
            case .unfinished: ("flips", .gameUnfinished)
            }
        return ParlaError(.gameRejected, fieldErrors: [FieldError(field, code)])
    }

    package init(
        games: GameStore, leaderboards: LeaderboardService, lessons: LessonStore, learners: LearnerStore, courses: CourseService,
        content: ContentService, catalogs: LessonCatalogs, plans: EntitlementService
    ) {
        (self.games, self.leaderboards, self.learners, self.courses, self.content) = (games, leaderboards, learners, courses, content)
        words = GameWords(lessons: lessons, content: content, catalogs: catalogs, plans: plans)
    }
}

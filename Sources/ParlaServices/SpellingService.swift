import Foundation
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaLearning
import ParlaLearningStore
import ParlaStore
import ParlaTeaching

/// Spelling with letter tiles (seed 003, issue 35), a game as card matching
/// is: the server chooses the words (`SpellingDeal`), keeps them as dealt,
/// checks each placement, and derives the result from the log, live or
/// sent whole after an offline game. Words are spelled as the
/// learner's course variant spells them (`en-US` "gray"), shown in its
/// letter case, and said by the variant's voice, letter by letter.
package struct SpellingService: Sendable {
    package static let kind = "spelling"

    package let games: GameStore
    package let leaderboards: LeaderboardService
    package let learners: LearnerStore
    package let courses: CourseService
    package let content: ContentService
    /// What it deals from, and what its words are to the learning model.
    package let words: GameWords
    package let scheduler = MemoryScheduler()

    /// What the learner chose; anything left out has a default.
    package struct Start: Sendable {
        package var language: String
        package var wordList: String?
        package var words: Int?
        package var difficulty: SpellingDifficulty?
        package var offline: Bool

        package init(language: String, wordList: String? = nil, words: Int? = nil, difficulty: SpellingDifficulty? = nil, offline: Bool) {
            (self.language, self.wordList, self.words, self.difficulty, self.offline) = (language, wordList, words, difficulty, offline)
        }
    }

    /// The state kept between placements: the variant and case the words
    /// were dealt in stay the game's, whatever the settings become.
    package struct State: Codable, Sendable {
        package var variant: String
        package var letterCase: LetterCase
        package var game: SpellingGame
    }

    package struct View: Sendable {
        package var id: GameID
        package var language: Language
        package var state: State
        package var startedAt: Date
        package var finishedAt: Date?
    }

    package func start(_ authorized: AuthorizedLearner, _ start: Start) async throws -> View {
        let language = try content.language(start.language)
        let count = start.words ?? SpellingGame.defaultWords
        guard SpellingGame.wordCounts.contains(count) else { throw ParlaError.validation([FieldError("words", .validationFailed)]) }
        let learner = try await learners.learner(authorized)
        guard let variant = try await courses.variant(of: authorized, in: language) else { throw ParlaError(.gameUnavailable) }
        let (concepts, preferred, open) = try await words.dealable(authorized, language: language, wordList: start.wordList)
        let difficulty = start.difficulty ?? .medium
        // Each word as the variant spells it and the learner sees it.
        let candidates = concepts.compactMap { concept -> SpellingCandidate? in
            guard open.contains(concept.key), let shown = concept.shown(variant.wordsTag, letterCase: learner.letterCase) else {
                return nil
            }
            return SpellingCandidate(concept: concept.key, shown: shown)
        }
        var random = SimulationRandom(seed: UInt64.random(in: .min ... .max))
        let dealt = SpellingDeal.choose(
            candidates, count: count, preferred: preferred, letters: variant.letters.map(\.letter), difficulty: difficulty,
            using: &random)
        guard dealt.count == count else { throw ParlaError(.gameUnavailable) }
        var game = SpellingGame(words: dealt, difficulty: difficulty)
        game.offline = start.offline
        let state = State(variant: variant.variant, letterCase: learner.letterCase, game: game)
        let gameID = GameID.generate()
        let stored = try await games.create(
            gameID, learner: authorized, language: language, kind: Self.kind, state: try JSONEncoder().encode(state),
            offline: start.offline)
        return View(id: stored.id, language: language, state: state, startedAt: stored.startedAt, finishedAt: nil)
    }

    package func get(_ learner: AuthorizedLearner, game id: GameID) async throws -> View {
        try view(try await games.game(id, learner: learner))
    }

    /// The learner's finished spelling games and their results, newest first.
    package func results(_ learner: AuthorizedLearner, language: Language?, limit: Int, before: GameID?) async throws -> [GameStore.Record]
    {
        try await games.finished(learner: learner, kind: Self.kind, language: language, limit: limit, before: before)
    }

    /// Places a tile of the word being spelled, timed by the server from
    /// the game's start. Returns the game after it, what it did, and the
    /// open targets the tile's letter fits now.
    package func place(_ learner: AuthorizedLearner, game id: GameID, tile: String, target: Int) async throws
        -> (View, PlacementOutcome, accepting: [Int])
    {
        let now = Date()
        let known = try await words.known()
        let (stored, (outcome, accepting), result) = try await games.update(id, learner: learner) { stored, model in
            var state = try Self.state(stored)
            guard !state.game.offline else { throw ParlaError(.answerKindMismatch) }
            let index = state.game.current
            let outcome: PlacementOutcome
            do throws(SpellingRejection) {
                outcome = try state.game.place(tile, on: target, at: now.timeIntervalSince(stored.startedAt), checkPace: false)
            } catch {
                throw ParlaError(Self.code(for: error))
            }
            let word = index.map { state.game.words[$0] }
            let letter = word?.tiles.first { $0.id == tile }?.letter
            let accepting = letter.flatMap { letter in word.map { $0.targets(accepting: letter) } } ?? []
            var learned: [AnswerLearning] = []
            if SpellingLearning.mayTeach(outcome) {
                learned = SpellingLearning.learning(
                    from: outcome, in: state.game,
                    words: try words.words(state.game.words.map(\.concept), in: stored.language, known: known),
                    model: try await model.model(), at: now, scheduler: scheduler)
            }
            return (try JSONEncoder().encode(state), state.game.result.map(Self.finish), learned, (outcome, accepting))
        }
        if let result { leaderboards.recorded(result) }
        return (try view(stored), outcome, accepting)
    }

    /// A whole game played offline, as its placement log (seconds from its
    /// start): replayed, and refused if it could not have been played. A
    /// log sent again for a finished game changes nothing.
    package func submit(_ learner: AuthorizedLearner, game id: GameID, moves: [SpellingMove]) async throws -> View {
        guard GameLog.isPlausible(moves.map(\.at)) else {
            throw ParlaError.validation([FieldError("moves", .validationFailed)])
        }
        let now = Date()
        let known = try await words.known()
        let (stored, _, result) = try await games.update(id, learner: learner) { stored, model in
            var state = try Self.state(stored)
            // A game played live is not played again from a log: its mistakes stand.
            guard state.game.offline else { throw ParlaError(.answerKindMismatch) }
            if state.game.isFinished { return (stored.state, nil, [], ()) }
            var game: SpellingGame
            do throws(SpellingRejection) {
                game = try SpellingGame.replay(state.game.words, difficulty: state.game.difficulty, moves: moves)
            } catch {
                throw Self.rejection(error)
            }
            game.offline = state.game.offline
            state.game = game
            let learned = SpellingLearning.learning(
                fromReplayed: game, words: try words.words(game.words.map(\.concept), in: stored.language, known: known),
                model: try await model.model(),
                at: now,
                scheduler: scheduler)
            return (try JSONEncoder().encode(state), game.result.map(Self.finish), learned, ())
        }
        if let result { leaderboards.recorded(result) }
        return try view(stored)
    }

    /// A stored game's state: `game_not_found` for a game of another kind.
    static func state(_ stored: GameStore.Stored) throws -> State {
        guard stored.kind == kind else { throw ParlaError(.gameNotFound) }
        return try JSONDecoder().decode(State.self, from: stored.state)
    }

    private func view(_ stored: GameStore.Stored) throws -> View {
        View(
            id: stored.id, language: stored.language, state: try Self.state(stored), startedAt: stored.startedAt,
            finishedAt: stored.finishedAt)
    }

    static func finish(_ result: SpellingResult) -> GameStore.Finish {
        .init(items: result.words, score: result.score, seconds: result.seconds, moves: result.placements, mistakes: result.mistakes)
    }

    /// Why a placement was refused.
    static func code(for rejection: SpellingRejection) -> ErrorCode {
        switch rejection {
        case .placement(.unknownTile): .tileNotFound
        case .placement(.unknownTarget): .targetNotFound
        case .placement(.tileUsed): .tileAlreadyPlaced
        case .placement(.targetFilled): .targetAlreadyFilled
        case .tooFast: .moveTooFast
        case .outOfOrder: .moveOutOfOrder
        case .gameOver: .gameFinished
        case .unfinished: .gameUnfinished
        }
    }

    /// Why a log was refused: `game_rejected` naming the move at fault.
    static func rejection(_ rejection: SpellingRejection) -> ParlaError {
        let field =
            switch rejection {
            case .tooFast(let move), .outOfOrder(let move): "moves[\(move)]"
            default: "moves"
            }
        return ParlaError(.gameRejected, fieldErrors: [FieldError(field, code(for: rejection))])
    }

    package init(
        games: GameStore, leaderboards: LeaderboardService, lessons: LessonStore, learners: LearnerStore, courses: CourseService,
        content: ContentService, catalogs: LessonCatalogs, plans: EntitlementService
    ) {
        (self.games, self.leaderboards, self.learners, self.courses, self.content) = (games, leaderboards, learners, courses, content)
        words = GameWords(lessons: lessons, content: content, catalogs: catalogs, plans: plans)
    }
}

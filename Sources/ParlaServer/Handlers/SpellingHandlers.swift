import Foundation
import OpenAPIRuntime
import ParlaAPI
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaServices
import ParlaStore

extension APIHandler {
    func startSpelling(_ input: Operations.StartSpelling.Input) async throws -> Operations.StartSpelling.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        guard case .json(let form) = input.body else { throw ParlaError(.malformedRequest) }
        let start = SpellingService.Start(
            language: form.language.rawValue, wordList: form.wordListId, words: form.words,
            difficulty: form.difficulty.flatMap { SpellingDifficulty(rawValue: $0.rawValue) }, offline: form.offline ?? false)
        let view = try await spellings.start(learner, start)
        return .created(.init(body: .json(.init(view, try content.snapshot()))))
    }

    func getSpelling(_ input: Operations.GetSpelling.Input) async throws -> Operations.GetSpelling.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let game: GameID = try parseID(input.path.gameId, orElse: .gameNotFound)
        return .ok(.init(body: .json(.init(try await spellings.get(learner, game: game), try content.snapshot()))))
    }

    func placeTile(_ input: Operations.PlaceTile.Input) async throws -> Operations.PlaceTile.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let game: GameID = try parseID(input.path.gameId, orElse: .gameNotFound)
        guard case .json(let form) = input.body else { throw ParlaError(.malformedRequest) }
        let (view, outcome, accepting) = try await spellings.place(learner, game: game, tile: form.tileId, target: form.target)
        let snapshot = try content.snapshot()
        let (name, index, spelled): (String, Int, Bool) =
            switch outcome {
            case .placed(let word, let spelled): ("placed", word, spelled)
            case .wrong(let word): ("wrong", word, false)
            }
        let feedback = view.state.game.isFinished ? "finished" : spelled ? "spelled" : name
        let word = view.state.game.words[index]
        let letter = name == "placed" ? word.targets[form.target].letter : nil
        return .ok(
            .init(
                body: .json(
                    .init(
                        outcome: .init(rawValue: name) ?? .wrong, feedback: .init(rawValue: feedback) ?? .wrong,
                        message: Wording.spellingFeedback(feedback).text(in: language), accepting: accepting,
                        letterAudio: letter.flatMap {
                            snapshot.letterAudio($0.said, variant: view.state.variant, last: form.target == word.lastLetter)
                        },
                        wordAudio: spelled
                            ? snapshot.wordAudio(word.concept, view.language, words: snapshot.corpus.alphabet(view.state.variant)?.wordsTag)
                            : nil,
                        game: .init(view, snapshot)))))
    }

    func submitSpellingLog(_ input: Operations.SubmitSpellingLog.Input) async throws -> Operations.SubmitSpellingLog.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let game: GameID = try parseID(input.path.gameId, orElse: .gameNotFound)
        guard case .json(let form) = input.body else { throw ParlaError(.malformedRequest) }
        let moves = form.moves.map { SpellingMove(tile: $0.tileId, target: $0.target, at: $0.at) }
        let view = try await spellings.submit(learner, game: game, moves: moves)
        return .ok(.init(body: .json(.init(view, try content.snapshot()))))
    }

    func listSpellingResults(_ input: Operations.ListSpellingResults.Input) async throws -> Operations.ListSpellingResults.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let (limit, before): (Int, GameID?) = try historyPage(limit: input.query.limit, before: input.query.before)
        let found = try await spellings.results(
            learner, language: input.query.language.flatMap { Language(rawValue: $0.rawValue) }, limit: limit, before: before)
        let records = found.map { game in
            Components.Schemas.SpellingRecord(
                id: game.id.description, language: .init(rawValue: game.language.code) ?? .en, offline: game.offline,
                startedAt: game.startedAt, finishedAt: game.finishedAt,
                result: .init(
                    words: game.result.items, seconds: game.result.seconds, placements: game.result.moves, mistakes: game.result.mistakes,
                    score: game.result.score))
        }
        return .ok(.init(body: .json(.init(games: records, next: found.count == limit ? found.last?.id.description : nil))))
    }
}

extension Components.Schemas.SpellingGame {
    /// A game as the player may see it: a live game shows what a target
    /// takes only once it is filled; an offline one shows everything.
    init(_ view: SpellingService.View, _ snapshot: ContentCatalog.Snapshot) {
        let (state, game) = (view.state, view.state.game)
        let variant = snapshot.corpus.alphabet(state.variant)
        let words = game.words.map { word in
            let concept = snapshot.concepts[word.concept]
            let shown = word.isSpelled || game.offline
            let targets = word.targets.indices.map { index in
                let target = word.targets[index]
                let filled = word.filled[index] != nil
                let reveal = filled || target.letter == nil || game.offline
                return Components.Schemas.SpellingTarget(
                    index: index, fixed: target.letter == nil, filled: filled, letter: reveal ? target.shown : nil,
                    audio: reveal
                        ? target.letter.flatMap { snapshot.letterAudio($0.said, variant: state.variant, last: index == word.lastLetter) }
                        : nil)
            }
            let tiles = word.tiles.map { tile in
                Components.Schemas.SpellingTile(
                    id: tile.id, letter: tile.letter.shown, audio: snapshot.letterAudio(tile.letter.said, variant: state.variant),
                    placed: word.filled.values.contains(tile.id))
            }
            return Components.Schemas.SpellingWord(
                word: shown ? word.shown : nil, wordId: shown ? word.concept : nil,
                picture: concept.flatMap { snapshot.assetPath(.picture($0.picture)) },
                audio: snapshot.wordAudio(word.concept, view.language, words: variant?.wordsTag), targets: targets, tiles: tiles,
                spelled: word.isSpelled, mistakes: word.mistakes)
        }
        self.init(
            id: view.id.description, language: .init(rawValue: view.language.code) ?? .en, variant: state.variant,
            letterCase: .init(rawValue: state.letterCase.rawValue) ?? .lower,
            difficulty: .init(rawValue: game.difficulty.rawValue) ?? .medium,
            status: game.isFinished ? .finished : .inProgress, offline: game.offline, current: game.current, words: words,
            placements: game.moves.count, mistakes: game.mistakes, startedAt: view.startedAt, finishedAt: view.finishedAt,
            result: game.result.map {
                .init(words: $0.words, seconds: $0.seconds, placements: $0.placements, mistakes: $0.mistakes, score: $0.score)
            })
    }
}

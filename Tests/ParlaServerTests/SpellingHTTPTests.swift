import Foundation
import ParlaAPI
import ParlaContent
import ParlaCore
import ParlaTestSupport
import Testing

/// Issue 35, items 1-3: spelling with letter tiles over HTTP, live and
/// offline, in every language; words follow the course's variant and the
/// learner's letter case.
@Suite("spelling with letter tiles over HTTP")
struct SpellingHTTPTests {
    typealias Game = Components.Schemas.SpellingGame
    typealias Placement = Components.Schemas.TilePlacement
    typealias Problem = Components.Schemas.Problem

    func start(_ client: Client, _ learner: Client.SignedUp, _ fields: [String: any Sendable]) async throws -> Client.Reply {
        try await client.post("/v1/learners/\(learner.learnerID)/spellings", token: learner.token, json: fields)
    }

    /// A game dealt as asked (refused: the test stops, saying why).
    func deal(_ client: Client, _ learner: Client.SignedUp, _ fields: [String: any Sendable]) async throws -> Game {
        let reply = try await start(client, learner, fields)
        try #require(reply.status == 201, "\(fields): \(reply.text)")
        return try reply.decoded(Game.self)
    }

    func place(_ client: Client, _ learner: Client.SignedUp, _ game: String, _ tile: String, _ target: Int) async throws
        -> Client.Reply
    {
        try await client.post(
            "/v1/learners/\(learner.learnerID)/spellings/\(game)/placements", token: learner.token,
            json: ["tileId": tile, "target": target])
    }

    /// Spells every word of a live game as a child might: each tile tried on
    /// the first open target; a wrong one goes where the server says its
    /// letter fits (a letter that fits nowhere is left). The finished game,
    /// and how many tiles went wrong.
    func spellLive(_ client: Client, _ learner: Client.SignedUp, _ dealt: Game) async throws -> (Game, wrong: Int) {
        var game = dealt, wrong = 0
        while let index = game.current {
            let word = game.words[index]
            #expect(word.word == nil && word.wordId == nil, "a live word is not shown before it is spelled")
            #expect(word.targets.allSatisfy { $0.fixed || $0.letter == nil })
            var spelledHere = false
            for tile in word.tiles where !spelledHere {
                guard let open = game.words[index].targets.first(where: { !$0.fixed && !$0.filled }) else { break }
                let reply = try await place(client, learner, game.id, tile.id, open.index)
                #expect(reply.status == 200, "\(reply.text)")
                var placement = try reply.decoded(Placement.self)
                if placement.outcome == .wrong {
                    wrong += 1
                    #expect(placement.letterAudio == nil && placement.game.words[index].mistakes == wrong - dealtMistakes(game, index))
                    guard let fits = placement.accepting.first else { continue }  // a letter of no target: a distractor
                    placement = try await place(client, learner, game.id, tile.id, fits).decoded(Placement.self)
                    #expect(placement.outcome == .placed)
                }
                #expect(placement.letterAudio?.hasPrefix("/v1/assets/") == true)
                game = placement.game
                if placement.feedback == .spelled || placement.feedback == .finished {
                    spelledHere = true
                    #expect(placement.wordAudio != nil && game.words[index].word != nil && game.words[index].spelled)
                }
            }
            #expect(spelledHere, "every word can be spelled with its tiles")
        }
        return (game, wrong)
    }

    /// Mistakes made on words before `index` (the word's own count starts at 0).
    func dealtMistakes(_ game: Game, _ index: Int) -> Int { game.words.prefix(index).reduce(0) { $0 + $1.mistakes } }

    /// A perfect log for an offline game: each tile onto the first open target
    /// showing its letter, `gap` seconds apart.
    static func log(_ game: Game, gap: Double = 0.5) -> [[String: any Sendable]] {
        var moves: [[String: any Sendable]] = [], at = 0.0
        for word in game.words {
            var open = word.targets.filter { !$0.fixed }
            for tile in word.tiles {
                guard let target = open.firstIndex(where: { $0.letter?.lowercased() == tile.letter.lowercased() }) else { continue }
                moves.append(["tileId": tile.id, "target": open.remove(at: target).index, "at": at])
                at += gap
            }
        }
        return moves
    }

    @Test("a word spelled with tiles in each language, live and offline: mistakes counted, results listed, ranked, remembered")
    func everyLanguage() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            for language in ["en", "fr", "it", "de", "es"] {
                // Live: targets hidden until filled; distractors at medium difficulty.
                let started = try await start(client, learner, ["language": language, "words": 2, "difficulty": "medium"])
                #expect(started.status == 201, "\(language): \(started.text)")
                let dealt = try started.decoded(Game.self)
                #expect(dealt.words.count == 2 && dealt.current == 0 && dealt.status == .inProgress && dealt.variant.hasPrefix(language))
                for word in dealt.words {
                    let letters = word.targets.filter { !$0.fixed }.count
                    #expect((2...7).contains(letters) && word.tiles.count == letters + 2, "\(language): \(word.tiles.count) tiles")
                    #expect(word.audio != nil && word.tiles.allSatisfy { $0.audio?.hasPrefix("/v1/assets/") == true })
                }
                let (finished, wrong) = try await spellLive(client, learner, dealt)
                let result = try #require(finished.result, "\(language)")
                #expect(finished.status == .finished && result.words == 2 && result.mistakes == wrong && finished.mistakes == wrong)
                #expect(result.score == max(0, 200 - 20 * wrong - Int(result.seconds)))
                let after = try await place(client, learner, dealt.id, "t1", 0)
                #expect(after.status == 409 && after.code == "game_finished")

                // Offline: every letter shown up front; the log replayed.
                let offline = try await deal(client, learner, ["language": language, "words": 3, "offline": true, "difficulty": "hard"])
                #expect(offline.words.allSatisfy { $0.word != nil && $0.targets.allSatisfy { $0.letter != nil } })
                let submitted = try await client.post(
                    "/v1/learners/\(learner.learnerID)/spellings/\(offline.id)/log", token: learner.token,
                    json: ["moves": Self.log(offline)])
                #expect(submitted.status == 200, "\(language): \(submitted.text)")
                let replayed = try submitted.decoded(Game.self)
                #expect(replayed.result?.words == 3 && replayed.result?.mistakes == 0 && replayed.status == .finished)
                // Every word is the language's own, as its localization spells it.
                for word in replayed.words {
                    let concept = try #require(TeacherModeTests.corpus.concepts.first { $0.key == word.wordId })
                    #expect(word.word == concept.localization(language == "en" ? "en-GB" : language)?.word, "\(language)")
                }
            }
            // Results, newest first; the board of spelling; the public profile's bests.
            let page = try await client.get("/v1/learners/\(learner.learnerID)/spellings?language=de", token: learner.token)
                .decoded(Operations.ListSpellingResults.Output.Ok.Body.JsonPayload.self)
            #expect(page.games.count == 2 && page.games.map(\.result.words) == [3, 2])
            let board = try await client.get(
                "/v1/leaderboards/spelling?language=es&learnerId=\(learner.learnerID)", token: learner.token)
            #expect(board.status == 200, "\(board.text)")
            let ranked = try board.decoded(Components.Schemas.Leaderboard.self)
            let spanish = try await client.get("/v1/learners/\(learner.learnerID)/spellings?language=es", token: learner.token)
                .decoded(Operations.ListSpellingResults.Output.Ok.Body.JsonPayload.self)
            #expect(ranked.kind == .spelling && ranked.total == 1 && ranked.own?.score == spanish.games.map(\.result.score).max())
            let profile = try await client.get("/v1/learners/\(learner.learnerID)/public", token: learner.token)
                .decoded(Components.Schemas.PublicProfile.self)
            #expect(profile.bests.filter { $0.kind == .spelling }.count == 5)
            // Each word spelled was an answer about it: memory and ability moved.
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                "SELECT count(*)::int FROM memory_cards WHERE learner_id = \(UUID(uuidString: learner.learnerID)!) AND item_id LIKE 'word:%'"
            )
            #expect(try rows.first?.decode(Int.self) ?? 0 >= 20)
        }
    }

    @Test("words follow the course's variant (American spellings and voice) and the learner's letter case; bad moves are refused")
    func variantsAndCase() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            let id = learner.learnerID
            // A course in American English: its words are spelled as en-US spells them.
            let course = try await client.post(
                "/v1/learners/\(id)/courses", token: learner.token, json: ["language": "en", "start": "beginning", "variant": "en"])
            #expect(course.status == 201, "\(course.text)")
            #expect(try course.decoded(Components.Schemas.Course.self).variant == "en")
            let transport = try await deal(
                client, learner, ["language": "en", "wordListId": "transport", "words": 10, "difficulty": "hard", "offline": true])
            #expect(transport.variant == "en")
            for word in transport.words {
                let concept = try #require(TeacherModeTests.corpus.concepts.first { $0.key == word.wordId })
                #expect(word.word == concept.localization("en-US")?.word, "\(word.wordId ?? "")")
                // Said by the American voice: not the British word's audio.
                let british =
                    (try await client.get("/v1/languages/en/words/\(word.wordId!)").json["audio"] as? [String: any Sendable])?["word"]
                    as? String
                #expect(word.audio != nil && word.audio != british)
            }
            // Card matching writes the course's words as the variant does: every word of the list, 18 pairs face up.
            let cards = try await client.post(
                "/v1/learners/\(id)/games", token: learner.token,
                json: [
                    "language": "en", "kind": "matching", "wordListId": "transport", "pairs": 18, "faces": "wordPicture", "offline": true,
                ])
            #expect(cards.status == 201, "\(cards.text)")
            let shown = Set(try cards.decoded(Components.Schemas.Game.self).cards.compactMap(\.text))
            let list = try #require(TeacherModeTests.corpus.wordLists.first { $0.id == "transport" }).words
            let american = Set(list.compactMap { $0.localization("en-US")?.word })
            let britishOnly = Set(list.compactMap { $0.localization(.english)?.word }).subtracting(american)
            #expect(shown.count == 18 && shown.isSubset(of: american) && !britishOnly.isEmpty, "\(shown)")

            // Back to British, and capitals: the next game follows both.
            let changed = try await client.patch("/v1/learners/\(id)/courses/en", token: learner.token, json: ["variant": "en-GB"])
            #expect(try changed.decoded(Components.Schemas.Course.self).variant == "en-GB", "\(changed.text)")
            let learnerReply = try await client.patch("/v1/learners/\(id)", token: learner.token, json: ["letterCase": "upper"])
            #expect(try learnerReply.decoded(Components.Schemas.Learner.self).letterCase == .upper)
            let upper = try await deal(
                client, learner, ["language": "en", "wordListId": "clothing", "words": 4, "difficulty": "hard", "offline": true])
            #expect(upper.letterCase == .upper && upper.variant == "en-GB")
            for word in upper.words {
                #expect(word.word == word.word?.uppercased() && word.tiles.allSatisfy { $0.letter == $0.letter.uppercased() })
            }
            let capitals = try await client.post(
                "/v1/learners/\(id)/games", token: learner.token,
                json: [
                    "language": "en", "kind": "matching", "wordListId": "transport", "pairs": 18, "faces": "wordPicture", "offline": true,
                ]
            ).decoded(Components.Schemas.Game.self).cards.compactMap(\.text)
            #expect(
                capitals.count == 18 && capitals.allSatisfy { $0 == $0.uppercased() }
                    && !Set(capitals).isDisjoint(with: britishOnly.map { $0.uppercased() }))
            // Title case: each word's first letter a capital; its tiles small letters (no capital gives a place away).
            _ = try await client.patch("/v1/learners/\(id)", token: learner.token, json: ["letterCase": "title"])
            let titled = try await deal(client, learner, ["language": "de", "words": 3, "offline": true])
            for word in titled.words {
                let first = try #require(word.targets.first?.letter)
                #expect(first == first.uppercased() && word.tiles.contains { $0.letter == first.lowercased() })
                #expect(word.tiles.allSatisfy { $0.letter == $0.letter.lowercased() })
            }
            let alphabet = try await client.get("/v1/languages/fr/alphabet?letterCase=title").decoded(Components.Schemas.Alphabet.self)
            #expect(alphabet.letterCase == .title && alphabet.letters.first?.shown == "A" && alphabet.letters.first?.letter == "a")

            // Refused, each with its code.
            let live = try await deal(client, learner, ["language": "fr", "words": 1])
            #expect(try await place(client, learner, live.id, "t99", 0).code == "tile_not_found")
            #expect(try await place(client, learner, live.id, "t1", 40).code == "target_not_found")
            // A live game is not sent again as a clean log: its mistakes stand.
            let relog = try await client.post(
                "/v1/learners/\(id)/spellings/\(live.id)/log", token: learner.token,
                json: ["moves": [["tileId": "t1", "target": 0, "at": 0.0] as [String: any Sendable]]])
            #expect(relog.status == 422 && relog.code == "answer_kind_mismatch", "\(relog.text)")
            #expect(try await start(client, learner, ["language": "fr", "words": 11]).code == "validation_failed")
            #expect(try await start(client, learner, ["language": "fr", "wordListId": "nope"]).code == "word_list_not_found")
            let variant = try await client.patch(
                "/v1/learners/\(id)/courses/en", token: learner.token, json: ["variant": "fr"])
            #expect(variant.status == 422 && variant.code == "variant_not_found" && variant.text.contains("no such variant"))
            #expect(
                try await client.patch("/v1/learners/\(id)/courses/de", token: learner.token, json: ["variant": "de"]).code
                    == "course_not_found")
            let small = try await client.patch("/v1/learners/\(id)", token: learner.token, json: ["letterCase": "small"])
            #expect(small.status == 400 && small.code == "malformed_request", "\(small.text)")
            // A card game is no spelling game, and the other way round.
            let matching = try await client.post(
                "/v1/learners/\(id)/games", token: learner.token, json: ["language": "fr", "kind": "matching", "pairs": 2])
            let matchingID = try #require(matching.json["id"] as? String)
            #expect(try await client.get("/v1/learners/\(id)/spellings/\(matchingID)", token: learner.token).code == "game_not_found")
            #expect(try await client.get("/v1/learners/\(id)/games/\(live.id)", token: learner.token).code == "game_not_found")
            // A forged offline log names its move.
            let offline = try await deal(client, learner, ["language": "it", "words": 2, "offline": true])
            var quick = Self.log(offline)
            quick[1]["at"] = 0.05
            let refused = try await client.post(
                "/v1/learners/\(id)/spellings/\(offline.id)/log", token: learner.token, json: ["moves": quick])
            #expect(refused.status == 422 && refused.code == "game_rejected")
            #expect(try refused.decoded(Problem.self).errors?.first?.field == "moves[1]")
            #expect(try refused.decoded(Problem.self).errors?.first?.code == "move_too_fast")
            let unfinished = try await client.post(
                "/v1/learners/\(id)/spellings/\(offline.id)/log", token: learner.token, json: ["moves": Array(Self.log(offline).dropLast())]
            )
            #expect(try unfinished.decoded(Problem.self).errors?.first?.code == "game_unfinished")
        }
    }
}

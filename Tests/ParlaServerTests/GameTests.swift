import Foundation
import Logging
import ParlaAPI
import ParlaContent
import ParlaCore
import ParlaLearning
import ParlaLearningStore
import ParlaTestSupport
import PostgresNIO
import Synchronization
import Testing

@testable import ParlaServer
@testable import ParlaStore

/// The card-matching game through HTTP against real PostgreSQL (main seed
/// T5.1-T5.6) and the replay of offline games.
@Suite("games: card matching")
struct GameTests {
    typealias Game = Components.Schemas.Game
    typealias Card = Components.Schemas.GameCard
    typealias Flip = Components.Schemas.FlipResult
    /// The body of `GET /v1/learners/{id}/games` (an inline schema: no `Components.Schemas` type).
    typealias GamePage = Operations.ListGameResults.Output.Ok.Body.JsonPayload

    /// The concepts a card's text can name (its French word or English
    /// translation): two cards pair when theirs meet.
    static func concepts(of card: Card) throws -> Set<String> {
        let text = try #require(card.text)
        let language: Language = card.face == .word ? .french : .english
        let matches = Set(TeacherModeTests.corpus.concepts.filter { $0.localization(language)?.word == text }.map(\.key))
        #expect(!matches.isEmpty, "no word \(text)")
        return matches
    }

    /// The positions of each pair, from the cards' faces.
    static func pairs(_ faces: [Int: Set<String>]) -> [[Int]] {
        var left = faces.keys.sorted(), pairs: [[Int]] = []
        while let first = left.first {
            left.removeFirst()
            guard let partner = left.firstIndex(where: { !faces[$0]!.isDisjoint(with: faces[first]!) }) else { continue }
            pairs.append([first, left.remove(at: partner)])
        }
        return pairs
    }

    /// An offline game of three pairs played perfectly, a flip a second
    /// (score 295), for `learner`, sent by `token`; the finished game.
    static func playPerfectly(_ client: Client, learner: String, token: String) async throws -> Client.Reply {
        let dealt = try await client.post(
            "/v1/learners/\(learner)/games", token: token,
            json: ["language": "fr", "kind": "matching", "pairs": 3, "faces": "wordTranslation", "offline": true])
        let game = try #require(try? dealt.decoded(Game.self), "\(dealt.text)")
        var faces: [Int: Set<String>] = [:]
        for card in game.cards {
            faces[card.position] = try concepts(of: card)
        }
        let log: [[String: any Sendable]] = pairs(faces).flatMap { $0 }.enumerated().map { ["position": $1, "at": Double($0)] }
        return try await client.post("/v1/learners/\(learner)/games/\(game.id)/log", token: token, json: ["flips": log])
    }

    func start(_ client: Client, _ learner: Client.SignedUp, pairs: Int, offline: Bool = false, faces: String = "wordTranslation")
        async throws -> Client.Reply
    {
        try await client.post(
            "/v1/learners/\(learner.learnerID)/games", token: learner.token,
            json: ["language": "fr", "kind": "matching", "pairs": pairs, "faces": faces, "offline": offline])
    }

    func flip(_ client: Client, _ learner: Client.SignedUp, _ game: String, _ position: Int) async throws -> Client.Reply {
        try await client.post("/v1/learners/\(learner.learnerID)/games/\(game)/flips", token: learner.token, json: ["position": position])
    }

    @Test("T5.1-T5.6: cards dealt face down; flips reveal, match (both stay up) or mismatch (both turn back); the last pair ends the game")
    func play() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            // T5.1: the game starts with every card face down, nothing revealed.
            let started = try await start(client, learner, pairs: 6)
            #expect(started.status == 201, "\(started.text)")
            let dealt = try started.decoded(Game.self)
            let id = dealt.id
            let cards = dealt.cards
            #expect(cards.count == 12 && dealt.pairs == 6 && dealt.status == .inProgress)
            #expect(cards.allSatisfy { $0.state == .faceDown })
            // Raw JSON on purpose: a face-down card must not carry its text or face at all (absent, which a typed
            // decode cannot tell from null).
            let hidden = try #require(started.json["cards"] as? [[String: any Sendable]])
            #expect(hidden.count == 12 && hidden.allSatisfy { $0["text"] == nil && $0["face"] == nil })

            // T5.2: a flip reveals that card, and only that one.
            let first = try await flip(client, learner, id, 0)
            #expect(first.status == 200, "\(first.text)")
            let revealed = try first.decoded(Flip.self)
            #expect(revealed.outcome == .revealed && revealed.message == "Now find its partner.")
            let shown = try #require(revealed.cards.first)
            #expect(shown.position == 0 && shown.text != nil)
            let board = revealed.game.cards
            #expect(board.filter { $0.state != .faceDown }.map(\.position) == [0])
            #expect(try await flip(client, learner, id, 0).code == "card_already_up")
            #expect(try await flip(client, learner, id, 12).code == "card_not_found")

            // Learn every face, a turn at a time (T5.3: the second flip reveals the second card).
            var faces: [Int: Set<String>] = [0: try Self.concepts(of: shown)]
            var matched: Set<Int> = [], mismatches = 0, flips = 1
            var pending: Int? = 0
            for position in 1..<12 {
                let reply = try await flip(client, learner, id, position)
                flips += 1
                let turn = try reply.decoded(Flip.self)
                let card = try #require(turn.cards.last)
                faces[position] = try Self.concepts(of: card)
                if let open = pending {
                    pending = nil
                    switch turn.outcome {
                    case .match:  // T5.4
                        #expect(!faces[open]!.isDisjoint(with: faces[position]!))
                        matched.formUnion([open, position])
                        #expect(turn.game.cards.filter { $0.state == .matched }.count == matched.count)
                    case .mismatch:  // T5.5
                        mismatches += 1
                        #expect(faces[open]!.isDisjoint(with: faces[position]!))
                        #expect(turn.message == "Not a pair. Remember where they are!")
                        #expect(turn.cards.count == 2)
                        #expect(turn.game.cards.first { $0.position == open }?.state == .faceDown)
                    default: Issue.record("unexpected outcome: \(reply.text)")
                    }
                } else {
                    pending = position
                }
            }
            // Then every pair left, a turn each; the last ends the game (T5.6).
            var last: Flip?
            for positions in Self.pairs(faces) {
                guard !matched.contains(positions[0]) else { continue }
                _ = try await flip(client, learner, id, positions[0])
                let turn = try await flip(client, learner, id, positions[1]).decoded(Flip.self)
                last = turn
                #expect(turn.outcome == .match)
                flips += 2
                matched.formUnion(positions)
            }
            #expect(mismatches > 0)
            #expect(last?.feedback == .finished && last?.message == "All pairs found! Great memory.")
            let game = try #require(last?.game)
            #expect(game.status == .finished && game.finishedAt != nil && game.matchedPairs == 6)
            let result = try #require(game.result)
            #expect(result.flips == flips && result.mismatches == mismatches)
            let seconds = result.seconds
            #expect(result.score == max(0, 600 - 20 * mismatches - Int(seconds)))
            #expect(try await flip(client, learner, id, 0).code == "game_finished")
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                "SELECT score, moves FROM games WHERE id = \(UUID(uuidString: id)!) AND finished_at IS NOT NULL")
            #expect(try rows.map { try $0.decode((Int, Int).self).1 } == [flips])
            // Every pair found was a right answer about its word (the learner knew none before: mismatches teach nothing).
            let learnt = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                """
                SELECT (SELECT responses FROM abilities WHERE skill = 'vocabulary' AND learner_id = \(UUID(uuidString: learner.learnerID)!)),
                       (SELECT count(*)::int FROM memory_cards WHERE learner_id = \(UUID(uuidString: learner.learnerID)!) AND item_id LIKE 'word:%')
                """)
            let (responses, remembered) = try #require(learnt.first).decode((Int, Int).self)
            #expect(responses == 6 && remembered == 6)
        }
    }

    @Test("an offline game's log is replayed; forged logs are refused; the same log twice counts once")
    func offline() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            /// A new offline game and a perfect log of it, `gap` seconds between flips.
            func game(gap: Double = 1) async throws -> (id: String, log: [[String: any Sendable]]) {
                let dealt = try await start(client, learner, pairs: 3, offline: true).decoded(Game.self)
                let cards = dealt.cards
                #expect(cards.allSatisfy { $0.text != nil }, "an offline game shows its faces")
                var faces: [Int: Set<String>] = [:]
                for card in cards { faces[card.position] = try Self.concepts(of: card) }
                let order = Self.pairs(faces).flatMap { $0 }
                #expect(order.count == cards.count)
                return (dealt.id, order.enumerated().map { ["position": $1, "at": Double($0) * gap] })
            }
            func submit(_ id: String, _ log: [[String: any Sendable]]) async throws -> Client.Reply {
                try await client.post("/v1/learners/\(learner.learnerID)/games/\(id)/log", token: learner.token, json: ["flips": log])
            }
            let (id, log) = try await game()
            let reply = try await submit(id, log)
            #expect(reply.status == 200, "\(reply.text)")
            let result = try #require(try reply.decoded(Game.self).result)
            #expect(result.seconds == 5 && result.flips == 6 && result.mismatches == 0)
            #expect(result.score == 295)
            // Sent again (a retry), or sent with other flips: the game stays as it was.
            let again = try await submit(id, Array(log.reversed()))
            let replayed = try again.decoded(Game.self)
            #expect(again.status == 200 && replayed.result?.score == 295)
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL, "SELECT count(*)::int FROM games WHERE finished_at IS NOT NULL")
            #expect(try rows.first?.decode(Int.self) == 1)
            // Its three pairs moved the ability three times, and today's history shows where it ended.
            let model = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                """
                SELECT a.responses, a.theta, h.theta FROM abilities a
                JOIN ability_history h ON h.learner_id = a.learner_id AND h.language = a.language AND h.skill = a.skill
                WHERE a.learner_id = \(UUID(uuidString: learner.learnerID)!) AND a.skill = 'vocabulary'
                """)
            let (responses, theta, history) = try #require(model.first).decode((Int, Double, Double).self)
            #expect(responses == 3 && abs(theta - history) < 1e-9, "ability \(theta), history \(history)")
            #expect(try await flip(client, learner, id, 0).status >= 400)
            // A live game is not sent again as a clean log: its mismatches stand.
            let live = try await start(client, learner, pairs: 2).decoded(Game.self)
            #expect(try await submit(live.id, [["position": 0, "at": 0.0] as [String: any Sendable]]).code == "answer_kind_mismatch")

            // Forged: faster than a person, an unknown card, the same card twice, unfinished.
            let (fast, fastLog) = try await game(gap: 0.05)
            let tooFast = try await submit(fast, fastLog)
            #expect(tooFast.status == 422 && tooFast.code == "game_rejected")
            #expect(try tooFast.decoded(Components.Schemas.Problem.self).errors?.first?.code == "flip_too_fast")
            let (unknown, unknownLog) = try await game()
            var forged = unknownLog
            forged[2]["position"] = 99
            #expect(try await submit(unknown, forged).decoded(Components.Schemas.Problem.self).errors?.first?.code == "card_not_found")
            forged = unknownLog
            forged[1]["position"] = forged[0]["position"]
            #expect(try await submit(unknown, forged).decoded(Components.Schemas.Problem.self).errors?.first?.code == "card_already_up")
            #expect(
                try await submit(unknown, Array(unknownLog.prefix(4))).decoded(Components.Schemas.Problem.self).errors?.first?.code
                    == "game_unfinished")
            // Times a game could not take are refused, not stored.
            forged = unknownLog
            forged[5]["at"] = 1e19
            #expect(try await submit(unknown, forged).code == "validation_failed")
            #expect(
                try await client.get("/v1/learners/\(learner.learnerID)/games/\(unknown)", token: learner.token)
                    .decoded(Game.self).status == .inProgress)
        }
    }

    @Test("finished games are listed with their results, newest first, a page at a time")
    func results() async throws {
        try await TestApp.make().run { client in
            let learner = try await client.signUp()
            let first = try await Self.playPerfectly(client, learner: learner.learnerID, token: learner.token).decoded(Game.self)
            let second = try await Self.playPerfectly(client, learner: learner.learnerID, token: learner.token).decoded(Game.self)
            _ = try await start(client, learner, pairs: 3)  // under way: not listed
            let page = try await client.get("/v1/learners/\(learner.learnerID)/games?limit=1", token: learner.token)
            let listed = try #require(try? page.decoded(GamePage.self), "\(page.text)")
            let games = listed.games
            #expect(games.count == 1 && games[0].id == second.id)
            #expect(games[0].faces == .wordTranslation && games[0].offline == true)
            #expect(games[0].result.score == 295)
            let next = try #require(listed.next)
            let rest = try await client.get("/v1/learners/\(learner.learnerID)/games?limit=1&before=\(next)", token: learner.token)
            #expect(try rest.decoded(GamePage.self).games.map(\.id) == [first.id])
            #expect(
                try await client.get("/v1/learners/\(learner.learnerID)/games?language=de", token: learner.token).decoded(GamePage.self)
                    .games.isEmpty)
            #expect(
                try await client.get("/v1/learners/\(learner.learnerID)/games?limit=0", token: learner.token).code == "validation_failed")
            #expect(
                try await client.get("/v1/learners/\(learner.learnerID)/games?before=nope", token: learner.token).code
                    == "validation_failed")
            let other = try await client.signUp(email: "other@example.com")
            #expect(try await client.get("/v1/learners/\(learner.learnerID)/games", token: other.token).code == "learner_not_found")
        }
    }

    @Test("bad requests get clear codes")
    func refused() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            #expect(try await start(client, learner, pairs: 1).code == "validation_failed")
            #expect(try await start(client, learner, pairs: 19).code == "validation_failed")
            let list = try await client.post(
                "/v1/learners/\(learner.learnerID)/games", token: learner.token,
                json: ["language": "fr", "kind": "matching", "wordListId": "nope", "faces": "wordTranslation"])
            #expect(list.code == "word_list_not_found")
            let fromList = try await client.post(
                "/v1/learners/\(learner.learnerID)/games", token: learner.token,
                json: [
                    "language": "fr", "kind": "matching", "wordListId": "home", "pairs": 4,
                    "faces": "wordTranslation",
                ])
            #expect(fromList.status == 201, "\(fromList.text)")
            let id = try fromList.decoded(Game.self).id
            let other = try await client.signUp(email: "other@example.com")
            // Another account's learner is not found, whatever it names under it.
            #expect(try await client.get("/v1/learners/\(learner.learnerID)/games/\(id)", token: other.token).code == "learner_not_found")
            #expect(
                try await client.get("/v1/learners/\(learner.learnerID)/games/\(UUID())", token: learner.token).code == "game_not_found")
            #expect(
                try await client.post(
                    "/v1/learners/\(other.learnerID)/games", token: learner.token,
                    json: ["language": "fr", "kind": "matching"]
                ).code == "learner_not_found")
        }
    }
}

@Suite("games: what a pair teaches")
struct GameLearningTests {
    /// Counts the calls of a step that may run again.
    final class Calls: Sendable {
        let count = Mutex(0)
        func next() -> Int {
            count.withLock {
                $0 += 1
                return $0
            }
        }
    }

    /// The learner's card for the word "w.test": 3 reviews, stability 10.
    static func seedCard(_ url: String, _ learner: LearnerID) async throws {
        try await TestDatabase.shared.execute(
            in: url,
            """
            INSERT INTO memory_cards (learner_id, language, item_id, phase, stability, difficulty, due, last_review, reviews)
            VALUES (\(learner.uuid), 'fr', 'w.test', 2, 10, 5, now(), now(), 3)
            """)
    }

    /// Another review of the card commits (stability 20), as a lesson's or
    /// a game's at the same moment would.
    static func reviewElsewhere(_ url: String, _ learner: LearnerID) async throws {
        try await TestDatabase.shared.execute(
            in: url,
            """
            UPDATE memory_cards SET reviews = reviews + 1, stability = 20 WHERE learner_id = \(learner.uuid) AND item_id = 'w.test'
            """)
    }

    /// The answer's new card, decided from the card as read: one more stability.
    static func answer(from read: MemoryCard?) -> AnswerLearning {
        let card = MemoryCard(
            phase: .review, step: nil, stability: (read?.stability ?? 0) + 1, difficulty: 5, due: Date(), lastReview: Date())
        return AnswerLearning(
            itemID: "w.test", skill: .vocabulary, card: card, lapse: false, ability: SkillAbility(skill: .vocabulary, responses: 1),
            abilityChange: 0, snapshots: [], initialDifficulty: 0, difficultyChange: 0)
    }

    /// Whether both reviews count (5) and the answer was decided from the
    /// other review's result (21).
    static func bothReviewsKept(_ url: String, _ learner: LearnerID) async throws -> Bool {
        let rows = try await TestDatabase.shared.rows(
            in: url,
            """
            SELECT reviews, stability FROM memory_cards WHERE learner_id = \(learner.uuid) AND item_id = 'w.test'
            """)
        let (reviews, stability) = try #require(rows.first).decode((Int, Double).self)
        return reviews == 5 && stability == 21
    }

    @Test("a pair's review is not written over a review of the same card that came first (a lesson's, at the same moment)")
    func reviewsAreNotLost() async throws {
        let app = try await TestApp.make()
        let url = app.databaseURL
        try await app.run { client in
            let ann = try await client.signUp(email: "ann@example.com")
            let reply = try await client.post(
                "/v1/learners/\(ann.learnerID)/games", token: ann.token,
                json: ["language": "fr", "kind": "matching", "pairs": 2, "faces": "wordTranslation"])
            let game = try #require(GameID(try reply.decoded(Components.Schemas.Game.self).id))
            let learner = try #require(LearnerID(ann.learnerID)), account = try #require(AccountID(ann.accountID))
            try await Self.seedCard(url, learner)
            let logger = Logger(label: "parla.tests.games")
            try await TestDatabase.withPool(url, connections: 2, logger: logger) { database in
                let store = GameStore(database: database)
                let calls = Calls()
                // Between the first read and its write, another review of the
                // card commits: the pair is decided again from the card as it is then.
                let owned = try #require(AuthorizedLearner.resolve(learner, ownedBy: account, caller: account, for: .write))
                let (_, decidedFrom, _) = try await store.update(game, learner: owned) { stored, model in
                    // The model is read when the move asks for it: the other review comes after.
                    let read = try await model.model().cards["w.test"]
                    if calls.next() == 1 { try await Self.reviewElsewhere(url, learner) }
                    return (stored.state, nil, [Self.answer(from: read)], read?.stability)
                }
                #expect(calls.count.withLock { $0 } == 2)
                #expect(decidedFrom == 20)
                #expect(try await Self.bothReviewsKept(url, learner))
            }
        }
    }

    @Test("a lesson answer's review is not written over a review of the same card that came first (a game's, at the same moment)")
    func lessonReviewsAreNotLost() async throws {
        let app = try await TestApp.make()
        let url = app.databaseURL
        try await app.run { client in
            let ann = try await client.signUp(email: "ann@example.com")
            let reply = try await client.post("/v1/learners/\(ann.learnerID)/lessons", token: ann.token, json: ["language": "fr"])
            let lesson = try #require(LessonID(try reply.decoded(Components.Schemas.Lesson.self).id))
            let learner = try #require(LearnerID(ann.learnerID)), account = try #require(AccountID(ann.accountID))
            try await Self.seedCard(url, learner)
            try await TestDatabase.withPool(url, connections: 2, logger: Logger(label: "parla.tests.lessons")) { database in
                let calls = Calls()
                let owned = try #require(AuthorizedLearner.resolve(learner, ownedBy: account, caller: account, for: .write))
                let (_, _, decidedFrom) = try await LessonStore(database: database).update(lesson, learner: owned) { stored, model in
                    if calls.next() == 1 { try await Self.reviewElsewhere(url, learner) }
                    let read = model.cards["w.test"]
                    let record = LessonStore.Record(
                        questionID: "q1", questionType: "wordToTranslation", areaKind: "topic", areaID: "test", level: .a1, correct: true,
                        tries: 1, responseMilliseconds: 900, learning: Self.answer(from: read))
                    return (LessonStore.Change(state: stored.state, finished: false, record: record), read?.stability)
                }
                #expect(calls.count.withLock { $0 } == 2)
                #expect(decidedFrom == 20)
                #expect(try await Self.bothReviewsKept(url, learner))
            }
        }
    }

    @Test("the learner's model reads back as written: abilities, the course level, and every field of a card, absent ones included")
    func modelReadsBack() async throws {
        let app = try await TestApp.make()
        let url = app.databaseURL
        try await app.run { client in
            let ann = try await client.signUp(email: "ann@example.com")
            let learner = try #require(LearnerID(ann.learnerID)), account = try #require(AccountID(ann.accountID))
            let owned = try #require(AuthorizedLearner.resolve(learner, ownedBy: account, caller: account, for: .read))
            try await TestDatabase.withPool(url, connections: 1, logger: Logger(label: "parla.tests.model")) { database in
                let store = LessonStore(database: database)
                let empty = try await store.learning(learner: owned, language: .french)
                #expect(empty.cards.isEmpty && empty.abilities.isEmpty && empty.courseLevel == nil)
                try await TestDatabase.shared.execute(
                    in: url,
                    """
                    INSERT INTO memory_cards (learner_id, language, item_id, phase, step, stability, difficulty, due, last_review, reviews)
                    VALUES (\(learner.uuid), 'fr', 'word:new', 1, 0, NULL, NULL, to_timestamp(1800000000), NULL, 0),
                           (\(learner.uuid), 'fr', 'phrase:known', 2, NULL, 12.5, 4.25, to_timestamp(1800086400.5), to_timestamp(1799000000), 7),
                           (\(learner.uuid), 'de', 'word:other', 1, 1, NULL, NULL, now(), NULL, 1)
                    """)
                try await TestDatabase.shared.execute(
                    in: url,
                    """
                    INSERT INTO abilities (learner_id, language, skill, theta, responses)
                    VALUES (\(learner.uuid), 'fr', 'vocabulary', -0.75, 12), (\(learner.uuid), 'fr', 'listening', 0.5, 4),
                           (\(learner.uuid), 'de', 'grammar', 1, 3)
                    """)
                try await TestDatabase.shared.execute(
                    in: url,
                    """
                    INSERT INTO courses (learner_id, language, start, level) VALUES (\(learner.uuid), 'fr', 'beginning', 'A2')
                    ON CONFLICT (learner_id, language) DO UPDATE SET level = 'A2'
                    """)
                let read = try await database.withConnection { connection in
                    try await ModelRead.read(learner: learner, language: .french, on: connection, logger: database.logger)
                }
                #expect(read.reviews == ["word:new": 0, "phrase:known": 7])
                let model = read.model
                #expect(model.courseLevel == .a2)
                #expect(
                    Set(model.abilities)
                        == [
                            SkillAbility(skill: .vocabulary, theta: -0.75, responses: 12),
                            SkillAbility(skill: .listening, theta: 0.5, responses: 4),
                        ])
                #expect(
                    model.cards == [
                        "word:new": MemoryCard(
                            phase: .learning, step: 0, stability: nil, difficulty: nil, due: Date(timeIntervalSince1970: 1_800_000_000),
                            lastReview: nil),
                        "phrase:known": MemoryCard(
                            phase: .review, step: nil, stability: 12.5, difficulty: 4.25, due: Date(timeIntervalSince1970: 1_800_086_400.5),
                            lastReview: Date(timeIntervalSince1970: 1_799_000_000)),
                    ])
            }
        }
    }

    @Test("a game's pairs written in one statement leave what one statement per pair leaves: memory, difficulty, ability, history")
    func learningInOneStatement() async throws {
        let app = try await TestApp.make()
        let url = app.databaseURL
        try await app.run { client in
            let ann = try #require(LearnerID(try await client.signUp(email: "ann@example.com").learnerID))
            let bob = try #require(LearnerID(try await client.signUp(email: "bob@example.com").learnerID))
            // Both start alike, ann in French and bob in German: a stored
            // ability and card (updated), and ones they lack (inserted).
            for (learner, language) in [(ann, "fr"), (bob, "de")] {
                try await TestDatabase.shared.execute(
                    in: url,
                    """
                    INSERT INTO abilities (learner_id, language, skill, theta, responses) VALUES (\(learner.uuid), \(language), 'vocabulary', 0.25, 6);
                    """)
                try await TestDatabase.shared.execute(
                    in: url,
                    """
                    INSERT INTO memory_cards (learner_id, language, item_id, phase, stability, difficulty, due, last_review, reviews, lapses)
                    VALUES (\(learner.uuid), \(language), 'word:b', 2, 10, 5, now(), now(), 3, 1)
                    """)
                try await TestDatabase.shared.execute(
                    in: url,
                    "INSERT INTO practice_items (language, item_id, difficulty, responses) VALUES (\(language), 'word:a', 0.75, 40)")
            }
            let day = Date(timeIntervalSince1970: 1_800_000_000)
            func card(_ stability: Double) -> MemoryCard {
                MemoryCard(phase: .review, step: nil, stability: stability, difficulty: 4.5, due: day + 86_400 * stability, lastReview: day)
            }
            func snapshots(_ skill: Skill, _ theta: Double) -> [ProficiencySnapshot] {
                [.init(day: day, skill: skill, theta: theta, level: .a2), .init(day: day, skill: nil, theta: theta / 2, level: .a1)]
            }
            // Two answers about word:b, two skills, one answer with no
            // review (a mismatch) and one that forgot a card.
            let learning = [
                AnswerLearning(
                    itemID: "word:a", skill: .vocabulary, card: card(2), lapse: false,
                    ability: SkillAbility(skill: .vocabulary, theta: 0.35, responses: 7),
                    abilityChange: 0.1, snapshots: snapshots(.vocabulary, 0.35), initialDifficulty: 0.5, difficultyChange: -0.125),
                AnswerLearning(
                    itemID: "word:b", skill: .vocabulary, card: nil, lapse: false,
                    ability: SkillAbility(skill: .vocabulary, theta: 0.3, responses: 8),
                    abilityChange: -0.05, snapshots: snapshots(.vocabulary, 0.3), initialDifficulty: -0.25, difficultyChange: 0.0625),
                AnswerLearning(
                    itemID: "word:b", skill: .listening, card: card(0.5), lapse: true,
                    ability: SkillAbility(skill: .listening, theta: -0.2, responses: 1),
                    abilityChange: -0.2, snapshots: snapshots(.listening, -0.2), initialDifficulty: -0.25, difficultyChange: 0.03125),
                AnswerLearning(
                    itemID: "word:c", skill: .listening, card: card(3), lapse: false,
                    ability: SkillAbility(skill: .listening, theta: -0.1, responses: 2),
                    abilityChange: 0.1, snapshots: snapshots(.listening, -0.1), initialDifficulty: 1, difficultyChange: -0.5),
            ]
            let logger = Logger(label: "parla.tests.learning")
            try await TestDatabase.withPool(url, connections: 1, logger: logger) { database in
                try await database.withTransaction { connection in
                    try await LearningRows.write(learning, learner: ann, language: .french, on: connection, logger: logger)
                }
                for answer in learning {
                    try await database.withTransaction { connection in
                        try await LearningRows.write([answer], learner: bob, language: .german, on: connection, logger: logger)
                    }
                }
            }
            func rows(_ learner: LearnerID, _ language: String) async throws -> [String] {
                try await TestDatabase.shared.rows(
                    in: url,
                    """
                    SELECT concat_ws(' ', 'card', item_id, phase, step, stability, difficulty, extract(epoch FROM due), extract(epoch FROM last_review),
                                     reviews, lapses)
                    FROM memory_cards WHERE learner_id = \(learner.uuid) AND language = \(language)
                    UNION ALL SELECT concat_ws(' ', 'item', item_id, round(difficulty::numeric, 9), responses)
                    FROM practice_items WHERE language = \(language) AND item_id IN ('word:a', 'word:b', 'word:c')
                    UNION ALL SELECT concat_ws(' ', 'ability', skill, round(theta::numeric, 9), responses)
                    FROM abilities WHERE learner_id = \(learner.uuid) AND language = \(language)
                    UNION ALL SELECT concat_ws(' ', 'history', skill, day, round(theta::numeric, 9), level)
                    FROM ability_history WHERE learner_id = \(learner.uuid) AND language = \(language)
                    ORDER BY 1
                    """
                ).map { try $0.decode(String.self) }
            }
            let together = try await rows(ann, "fr"), apart = try await rows(bob, "de")
            #expect(together == apart)
            // And what both left is what the answers say.
            #expect(together.contains("ability vocabulary 0.300000000 8"))  // stored 0.25 + 0.1 - 0.05, 6 + 2
            #expect(together.contains("ability listening -0.100000000 2"))  // inserted at -0.2, then + 0.1
            #expect(together.contains("item word:a 0.625000000 41"))
            #expect(together.contains("item word:b -0.156250000 2"))  // inserted at -0.25 + 0.0625, then + 0.03125
            #expect(together.contains { $0.hasPrefix("card word:b 2 0.5 4.5 ") && $0.hasSuffix(" 4 2") })
            #expect(together.contains { $0.hasPrefix("history overall ") && $0.hasSuffix(" -0.050000000 A1") })
            #expect(together.filter { $0.hasPrefix("history") }.count == 3)
        }
    }
}

@Suite("games: leaderboards")
struct LeaderboardTests {
    typealias Board = Components.Schemas.Leaderboard

    /// Plays a 3-pair offline game perfectly, `gap` seconds between flips:
    /// 5 × gap seconds, score 300 - that.
    func play(_ client: Client, _ learner: Client.SignedUp, gap: Double) async throws -> String {
        let reply = try await client.post(
            "/v1/learners/\(learner.learnerID)/games", token: learner.token,
            json: ["language": "fr", "kind": "matching", "pairs": 3, "faces": "wordTranslation", "offline": true])
        let game = try reply.decoded(Components.Schemas.Game.self)
        var faces: [Int: Set<String>] = [:]
        for card in game.cards { faces[card.position] = try GameTests.concepts(of: card) }
        let log: [[String: any Sendable]] = GameTests.pairs(faces).flatMap { $0 }.enumerated().map {
            ["position": $1, "at": Double($0) * gap]
        }
        let id = game.id
        let submitted = try await client.post(
            "/v1/learners/\(learner.learnerID)/games/\(id)/log", token: learner.token, json: ["flips": log])
        #expect(submitted.status == 200, "\(submitted.text)")
        return id
    }

    func board(_ client: Client, _ asker: Client.SignedUp, _ query: String) async throws -> Board {
        let reply = try await client.get("/v1/leaderboards/matching?language=fr&learnerId=\(asker.learnerID)&" + query, token: asker.token)
        #expect(reply.status == 200, "\(reply.text)")
        return try reply.decoded(Board.self)
    }

    @Test("best score and best time per learner; ties share a rank; the asker's own rank and neighbours; the same result counts once")
    func ranks() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let ann = try await client.signUp(email: "ann@example.com")
            let bob = try await client.signUp(email: "bob@example.com")
            let cat = try await client.signUp(email: "cat@example.com")
            let annGame = try await play(client, ann, gap: 1)  // 5 s, 295
            _ = try await play(client, bob, gap: 1)  // a tie
            _ = try await play(client, cat, gap: 2)  // 10 s, 290
            _ = try await play(client, ann, gap: 3)  // worse: Ann's best stays
            // The same log again changes nothing.
            _ = try await client.post(
                "/v1/learners/\(ann.learnerID)/games/\(annGame)/log", token: ann.token, json: ["flips": [[String: any Sendable]]()])

            for metric in ["score", "time"] {
                for scope in ["global", "week"] {
                    let page = try await board(client, cat, "metric=\(metric)&scope=\(scope)")
                    #expect(page.total == 3)
                    let entries = page.entries
                    #expect(entries.map(\.rank) == [1, 1, 3], "\(metric) \(scope)")
                    #expect(entries.map(\.score) == [295, 295, 290])
                    #expect(entries.map(\.seconds) == [5, 5, 10])
                    #expect(page.own?.rank == 3)
                    #expect(page.own?.displayName != nil)
                }
            }
            // Outside the top: the asker's own row and the two just above.
            let short = try await board(client, cat, "limit=1")
            #expect(short.entries.count == 1)
            #expect(short.own?.rank == 3)
            let neighbours = short.neighbours
            #expect(neighbours.map(\.rank) == [1, 1])
            #expect(Set(neighbours.map(\.learnerId)) == [ann.learnerID, bob.learnerID])
            // Ann in the middle of a tie: Bob beside her, Cat below.
            let middle = try await board(client, ann, "metric=time")
            #expect(middle.own?.rank == 1)
            #expect(Set(middle.neighbours.map(\.learnerId)) == [bob.learnerID, cat.learnerID])

            // The counts behind the ranks agree with the entries.
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                """
                SELECT (SELECT sum(entries)::int FROM leaderboard_counts WHERE metric = 'score' AND span = 1),
                       (SELECT sum(entries)::int FROM leaderboard_counts WHERE metric = 'time' AND span = 64),
                       (SELECT count(*)::int FROM leaderboard_entries)
                """)
            let (scores, times, entries) = try #require(rows.first).decode((Int, Int, Int).self)
            #expect(scores == entries && times == entries && entries == 6)

            // A learner who leaves takes their entries, and their counts, with them.
            #expect(try await client.delete("/v1/me", token: bob.token, json: ["password": bob.password]).status == 204)
            for scope in ["global", "week"] {
                let page = try await board(client, cat, "metric=score&scope=\(scope)")
                #expect(page.total == 2)
                #expect(page.entries.map(\.rank) == [1, 2])
                #expect(page.own?.rank == 2)
            }
            let left = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                """
                SELECT (SELECT sum(entries)::int FROM leaderboard_counts WHERE metric = 'time' AND span = 1),
                       (SELECT count(*)::int FROM leaderboard_entries)
                """)
            let (counted, kept) = try #require(left.first).decode((Int, Int).self)
            #expect(counted == 4 && kept == 4)

            // Another account's learner cannot ask for its rank; bad limits are refused.
            #expect(
                try await client.get("/v1/leaderboards/matching?language=fr&learnerId=\(ann.learnerID)", token: cat.token).code
                    == "learner_not_found")
            #expect(try await client.get("/v1/leaderboards/matching?language=fr&limit=500", token: cat.token).code == "validation_failed")
            #expect(try await client.get("/v1/leaderboards/matching?language=fr").status == 401)
        }
    }

    /// Adds `count` learners to `owner`'s account, each on the French
    /// all-time board with a score and a time made from their `id` by the
    /// SQL expressions given; row by row, so that the triggers see them.
    @Test("the usual page, read and written by hand, is byte for byte what the generated code answers")
    func fastPath() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let owner = try await client.signUp()
            _ = try await play(client, owner, gap: 0.5)
            // Whole and fractional times, ties in score.
            try await Self.addPlayers(
                app.databaseURL, owner: owner, count: 40, score: "abs(hashtext(id::text)) % 7 * 100",
                seconds: "(abs(hashtext(id::text || 't')) % 400) / CASE WHEN abs(hashtext(id::text)) % 2 = 0 THEN 1 ELSE 7 END")
            let player = try #require(
                try await TestDatabase.shared.rows(
                    in: app.databaseURL,
                    """
                    SELECT learner_id FROM leaderboard_entries WHERE learner_id <> \(UUID(uuidString: owner.learnerID)!) LIMIT 1
                    """
                ).first?.decode(UUID.self))
            let queries = [
                "language=fr", "language=fr&learnerId=\(owner.learnerID)", "limit=3&metric=time&language=fr&learnerId=\(player)",
                "language=fr&scope=week&learnerId=\(owner.learnerID)", "language=fr&scope=global&metric=score&limit=100",
                "language=de&learnerId=\(owner.learnerID)",
            ]
            for query in queries {
                let path = "/v1/leaderboards/matching?" + query
                #expect(LeaderboardFastPath.query(path) != nil, "\(query) takes the fast path")
                let fast = try await client.get(path, token: owner.token)
                // An unknown parameter sends the request on to the generated code.
                let generated = try await client.get(path + "&unknown=1", token: owner.token)
                #expect(fast.status == 200 && generated.status == 200, "\(query): \(fast.text)")
                #expect(fast.text == generated.text, "\(query)")
                #expect(fast.header("Content-Type") == generated.header("Content-Type"))
            }
            // Without a token, or for another account's learner, the same refusals.
            #expect(try await client.get("/v1/leaderboards/matching?language=fr").status == 401)
            let other = try await client.signUp(email: "other@example.com")
            #expect(
                try await client.get("/v1/leaderboards/matching?language=fr&learnerId=\(owner.learnerID)", token: other.token).code
                    == "learner_not_found")
        }
    }

    static func addPlayers(_ url: String, owner: Client.SignedUp, count: Int, score: String, seconds: String) async throws {
        try await TestDatabase.shared.execute(
            in: url,
            """
            WITH made AS (
                INSERT INTO learners (id, account_id, display_name, avatar_id, native_language)
                SELECT gen_random_uuid(), account_id, display_name, avatar_id, native_language
                FROM learners, generate_series(1, \(count)) WHERE id = \(UUID(uuidString: owner.learnerID)!)
                RETURNING id)
            INSERT INTO leaderboard_entries (language, kind, period, learner_id, best_score, score_at, best_seconds, seconds_at)
            SELECT 'fr', 'matching', 'all', id, \(unescaped: score), now(), \(unescaped: seconds), now() FROM made
            """)
    }

    /// The rank the board statement gives a learner, and a full ranking's.
    func ranks(_ url: String, metric: LeaderboardStore.Metric, learner: UUID) async throws -> (statement: Int?, counted: Int?) {
        var binds = PostgresBindings()
        binds.append("fr")
        binds.append("matching")
        binds.append("all")
        binds.append(learner)
        let statement = try await TestDatabase.shared.rows(
            in: url,
            PostgresQuery(
                unsafeSQL: LeaderboardStore.BoardSQL.statement(metric, page: false),
                binds: binds))
        let better = metric == .score ? "o.best_score > e.best_score" : "floor(o.best_seconds * 10) < floor(e.best_seconds * 10)"
        let counted = try await TestDatabase.shared.rows(
            in: url,
            PostgresQuery(
                unsafeSQL: """
                    SELECT 1 + (SELECT count(*)::int FROM leaderboard_entries o WHERE o.language = 'fr' AND o.kind = 'matching' AND o.period = 'all'
                                AND \(better))
                    FROM leaderboard_entries e WHERE e.language = 'fr' AND e.kind = 'matching' AND e.period = 'all' AND e.learner_id = $1
                    """,
                binds: {
                    var b = PostgresBindings()
                    b.append(learner)
                    return b
                }()))
        return (
            try statement.first?.decode((Int?, UUID?, ByteBuffer?, String?, Int?, Double?, Date?, Date?, Int?, Int, Bool?).self).8,
            try counted.first?.decode(Int.self)
        )
    }

    @Test("ranks from the counts agree with a full ranking, across blocks, after improvements and deletions")
    func countsFollowTheEntries() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let owner = try await client.signUp(email: "owner@example.com")
            let url = app.databaseURL
            // 600 learners with scores over many blocks of 64 and times that
            // share tenths, written row by row so that the trigger counts them.
            try await Self.addPlayers(
                url, owner: owner, count: 600, score: "abs(hashtext(id::text)) % 1500",
                seconds: "(abs(hashtext(id::text || 't')) % 30000) / 100.0")
            // Improvements, some across a block, and departures.
            try await TestDatabase.shared.execute(
                in: url,
                """
                UPDATE leaderboard_entries SET best_score = best_score + 70, best_seconds = best_seconds / 2
                WHERE abs(hashtext(learner_id::text || 'u')) % 4 = 0
                """)
            try await TestDatabase.shared.execute(
                in: url,
                """
                DELETE FROM learners WHERE id IN (SELECT learner_id FROM leaderboard_entries WHERE abs(hashtext(learner_id::text || 'd')) % 10 = 0)
                """)
            // The counts at both spans are exactly a recount of the entries.
            let drift = try await TestDatabase.shared.rows(
                in: url,
                """
                WITH recount AS (
                    SELECT e.language, e.kind, e.period, m.metric, s.span, leaderboard_bucket(m.metric, e.best_score, e.best_seconds) / s.span AS bucket,
                           count(*)::int AS entries
                    FROM leaderboard_entries e CROSS JOIN (VALUES ('score'), ('time')) AS m (metric) CROSS JOIN (VALUES (1), (64)) AS s (span)
                    GROUP BY 1, 2, 3, 4, 5, 6),
                kept AS (SELECT language, kind, period, metric, span, bucket, entries FROM leaderboard_counts WHERE entries > 0)
                SELECT (SELECT count(*)::int FROM (SELECT * FROM recount EXCEPT SELECT * FROM kept) a),
                       (SELECT count(*)::int FROM (SELECT * FROM kept EXCEPT SELECT * FROM recount) b),
                       (SELECT count(*)::int FROM leaderboard_entries)
                """)
            let (missing, extra, entries) = try #require(drift.first).decode((Int, Int, Int).self)
            #expect(missing == 0 && extra == 0)
            #expect(entries > 450 && entries < 600)
            let learners = try await TestDatabase.shared.rows(
                in: url,
                """
                SELECT learner_id FROM leaderboard_entries ORDER BY abs(hashtext(learner_id::text || 's')) LIMIT 40
                """
            ).map { try $0.decode(UUID.self) }
            for learner in learners {
                for metric in LeaderboardStore.Metric.allCases {
                    let (statement, counted) = try await ranks(url, metric: metric, learner: learner)
                    #expect(statement != nil && statement == counted, "\(metric) \(learner)")
                }
            }
        }
    }

    @Test("weeks are ISO weeks in UTC: the board rolls over at Monday 00:00")
    func weeks() {
        func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
        #expect(LeaderboardStore.week(of: date("2026-11-22T23:59:59Z")) == "2026-W47")
        #expect(LeaderboardStore.week(of: date("2026-11-23T00:00:00Z")) == "2026-W48")
        #expect(LeaderboardStore.week(of: date("2026-12-31T12:00:00Z")) == "2026-W53")
        #expect(LeaderboardStore.week(of: date("2027-01-03T23:00:00Z")) == "2026-W53")
        #expect(LeaderboardStore.week(of: date("2027-01-04T00:00:00Z")) == "2027-W01")
        #expect(LeaderboardStore.periods(of: date("2026-11-23T00:00:00Z")) == ["all", "2026-W48"])
    }
}

@Suite("games: friends")
struct FriendTests {
    typealias Circle = Components.Schemas.FriendCircle
    /// The body of `POST /v1/learners/{id}/friends` (an inline schema: no `Components.Schemas` type).
    typealias Asked = Operations.AddFriend.Output.Created.Body.JsonPayload

    func circle(_ client: Client, _ learner: Client.SignedUp) async throws -> Circle {
        try await client.get("/v1/learners/\(learner.learnerID)/friends", token: learner.token).decoded(Circle.self)
    }

    func ask(_ client: Client, _ from: Client.SignedUp, _ code: String) async throws -> Client.Reply {
        try await client.post("/v1/learners/\(from.learnerID)/friends", token: from.token, json: ["friendCode": code])
    }

    @Test("friend codes, requests accepted, declined or mutual, removal from either side; friends-only boards show only friends")
    func friends() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let ann = try await client.signUp(email: "ann@example.com")
            let bob = try await client.signUp(email: "bob@example.com")
            let cat = try await client.signUp(email: "cat@example.com")
            let annCode = try await circle(client, ann).friendCode
            let bobCode = try await circle(client, bob).friendCode
            let catCode = try await circle(client, cat).friendCode
            #expect(annCode.count == 10 && Set([annCode, bobCode, catCode]).count == 3)

            // Ann asks Bob; Bob sees it waiting and accepts.
            let asked = try await ask(client, ann, bobCode.lowercased())
            let request = try asked.decoded(Asked.self)
            #expect(asked.status == 201 && request.status == .requested, "\(asked.text)")
            #expect(try await ask(client, ann, bobCode).decoded(Asked.self).status == .requested)  // again: nothing new
            #expect(try await circle(client, ann).outgoing.count == 1)
            let waiting = try await circle(client, bob).incoming
            #expect(waiting.first?.learnerId == ann.learnerID && waiting.first?.displayName != nil)
            #expect(
                try await client.post("/v1/learners/\(bob.learnerID)/friends/\(ann.learnerID)/accept", token: bob.token, json: [:]).status
                    == 204)
            #expect(try await circle(client, ann).friends.first?.learnerId == bob.learnerID)
            #expect(try await ask(client, bob, annCode).code == "already_friends")

            // Cat asks Ann, who declines; then both ask each other: friends at once.
            _ = try await ask(client, cat, annCode)
            #expect(
                try await client.post("/v1/learners/\(ann.learnerID)/friends/\(cat.learnerID)/decline", token: ann.token, json: [:]).status
                    == 204)
            #expect(try await circle(client, ann).incoming.isEmpty)
            _ = try await ask(client, cat, annCode)
            #expect(try await ask(client, ann, catCode).decoded(Asked.self).status == .accepted)
            #expect(try await circle(client, ann).friends.count == 2)

            // Errors.
            #expect(try await ask(client, ann, annCode).code == "cannot_befriend_self")
            #expect(try await ask(client, ann, "NOPE123456").code == "friend_code_not_found")
            #expect(
                try await client.post("/v1/learners/\(ann.learnerID)/friends/\(bob.learnerID)/accept", token: ann.token, json: [:]).code
                    == "friend_request_not_found")
            #expect(try await client.get("/v1/learners/\(ann.learnerID)/friends", token: bob.token).code == "learner_not_found")

            // Friends-only boards: Ann's shows her friends Bob and Cat, never Dan; Bob's shows Bob and his one friend, Ann, who has not played.
            let leaderboards = LeaderboardTests()
            _ = try await leaderboards.play(client, bob, gap: 1)
            _ = try await leaderboards.play(client, cat, gap: 2)
            let dan = try await client.signUp(email: "dan@example.com")
            _ = try await leaderboards.play(client, dan, gap: 0.5)  // the best, but nobody's friend
            let annBoard = try await leaderboards.board(client, ann, "scope=friends")
            #expect(Set(annBoard.entries.map(\.learnerId)) == [bob.learnerID, cat.learnerID])
            #expect(annBoard.total == 2 && annBoard.own == nil)
            let bobBoard = try await leaderboards.board(client, bob, "scope=friends")
            #expect(bobBoard.entries.map(\.learnerId) == [bob.learnerID])
            #expect(bobBoard.own?.rank == 1)
            let global = try await leaderboards.board(client, bob, "scope=global")
            #expect(global.own?.rank == 2)
            #expect(
                try await client.get("/v1/leaderboards/matching?language=fr&scope=friends", token: ann.token).code == "validation_failed")

            // Removal from either side.
            #expect(try await client.delete("/v1/learners/\(bob.learnerID)/friends/\(ann.learnerID)", token: bob.token).status == 204)
            #expect(try await circle(client, ann).friends.count == 1)
            #expect(
                try await client.delete("/v1/learners/\(bob.learnerID)/friends/\(ann.learnerID)", token: bob.token).code
                    == "friend_not_found")
            let after = try await leaderboards.board(client, ann, "scope=friends")
            #expect(after.entries.map(\.learnerId) == [cat.learnerID])
        }
    }
}

@Suite("games: public profiles")
struct PublicProfileTests {
    typealias Profile = Components.Schemas.PublicProfile
    /// The body of `GET /v1/learners/{id}/compare/{other}` (an inline schema: no `Components.Schemas` type).
    typealias Comparison = Operations.CompareLearners.Output.Ok.Body.JsonPayload

    @Test("friends see each other's profile and compare; a private profile of a non-friend is never shown; a public one is")
    func visibility() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let ann = try await client.signUp(email: "ann@example.com")
            let bob = try await client.signUp(email: "bob@example.com")
            let cat = try await client.signUp(email: "cat@example.com")
            let bobCode = try await client.get("/v1/learners/\(bob.learnerID)/friends", token: bob.token)
                .decoded(Components.Schemas.FriendCircle.self).friendCode
            _ = try await client.post("/v1/learners/\(ann.learnerID)/friends", token: ann.token, json: ["friendCode": bobCode])
            _ = try await client.post("/v1/learners/\(bob.learnerID)/friends/\(ann.learnerID)/accept", token: bob.token, json: [:])
            try await client.startCourse("fr", for: bob)
            _ = try await LeaderboardTests().play(client, bob, gap: 1)
            _ = try await LeaderboardTests().play(client, cat, gap: 2)

            // A friend's profile: name, level with its percentile, best results with ranks.
            let seen = try await client.get("/v1/learners/\(bob.learnerID)/public?viewerId=\(ann.learnerID)", token: ann.token)
            #expect(seen.status == 200, "\(seen.text)")
            let profile = try seen.decoded(Profile.self)
            // `displayName` is a required String of the schema: the decode above fails without it.
            #expect(profile._public == false)
            let level = try #require(profile.levels.first)
            #expect(level.language == .fr && level.level == .a1 && level.percentile == 100)
            let best = try #require(profile.bests.first)
            #expect(best.score == 295 && best.scoreRank == 1 && best.players == 2)
            #expect(best.scorePercentile == 100 && best.seconds == 5)

            // Levels are counted as courses start, move and go (migration 0017):
            // with Cat at B1, Bob's A1 is at or above half the French courses.
            try await client.startCourse("fr", for: cat)
            try await TestDatabase.shared.execute(
                in: app.databaseURL,
                "UPDATE courses SET level = 'B1' WHERE learner_id = \(UUID(uuidString: cat.learnerID)!)")
            let moved = try await client.get("/v1/learners/\(bob.learnerID)/public?viewerId=\(ann.learnerID)", token: ann.token)
            #expect(try moved.decoded(Profile.self).levels.first?.percentile == 50)
            let drift = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                """
                SELECT count(*)::int FROM (
                    (SELECT language, level, count(*)::int FROM courses WHERE level IS NOT NULL GROUP BY 1, 2)
                    EXCEPT (SELECT language, level, learners FROM course_level_counts WHERE learners > 0)) d
                """)
            #expect(try drift.first?.decode(Int.self) == 0)

            // Not a friend, not public: not shown, as if it did not exist.
            let hidden = try await client.get("/v1/learners/\(cat.learnerID)/public?viewerId=\(ann.learnerID)", token: ann.token)
            #expect(hidden.status == 404 && hidden.code == "profile_not_found")
            #expect(
                try await client.get("/v1/learners/\(ann.learnerID)/compare/\(cat.learnerID)", token: ann.token).code == "profile_not_found"
            )
            // Once Cat makes it public, anyone may see it; her own rank is second of two.
            let patched = try await client.patch("/v1/learners/\(cat.learnerID)", token: cat.token, json: ["publicProfile": true])
            #expect(try patched.decoded(Components.Schemas.Learner.self).publicProfile == true, "\(patched.text)")
            let shown = try await client.get("/v1/learners/\(cat.learnerID)/public?viewerId=\(ann.learnerID)", token: ann.token)
            let catProfile = try shown.decoded(Profile.self)
            #expect(shown.status == 200 && catProfile._public == true)
            let catBest = try #require(catProfile.bests.first)
            #expect(catBest.scoreRank == 2 && catBest.scorePercentile == 50)

            // Side by side with a friend.
            let compared = try await client.get("/v1/learners/\(ann.learnerID)/compare/\(bob.learnerID)", token: ann.token)
            #expect(compared.status == 200, "\(compared.text)")
            let pair = try compared.decoded(Comparison.self)
            #expect(pair.learner.learnerId == ann.learnerID)
            #expect(pair.other.bests.count == 1)
            // A viewer must be the caller's own learner.
            #expect(
                try await client.get("/v1/learners/\(bob.learnerID)/public?viewerId=\(ann.learnerID)", token: cat.token).code
                    == "learner_not_found")
        }
    }
}

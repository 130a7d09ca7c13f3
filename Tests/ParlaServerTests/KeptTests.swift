import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import ParlaKept
import ParlaLearning
import ParlaLearningStore
import ParlaServices
import ParlaSpeech
import ParlaStore
import ParlaTeaching
import ParlaTestSupport
import PostgresNIO
import Synchronization
import Testing

@testable import ParlaServer

/// The registry of what a server keeps in memory (`Kept`) against the
/// migrated database: each kept thing's tables announce its topic, and
/// nothing else does; a server hears its own transactions' announcements
/// at their commit.
@Suite("what a server keeps in memory")
struct KeptTests {
    let logger = Logger(label: "parla.tests.kept")

    /// The tables each topic is announced from, as the triggers say.
    func announcingTables(_ url: String) async throws -> [String: Set<String>] {
        let rows = try await TestDatabase.shared.rows(
            in: url,
            """
            SELECT c.relname::text, p.proname::text, t.tgargs FROM pg_trigger t
            JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
            WHERE NOT t.tgisinternal AND p.proname LIKE 'announce%'
            """)
        var tables: [String: Set<String>] = [:]
        for row in rows {
            let (table, function, arguments) = try row.decode((String, String, ByteBuffer).self)
            // The arguments, each ended by a zero byte; the first is the topic.
            let topic = Array(buffer: arguments).split(separator: 0, omittingEmptySubsequences: false).first.map {
                String(decoding: $0, as: UTF8.self)
            }
            let topicOf = "\(table) (\(function))"
            try #require(topic?.isEmpty == false, "a trigger on \(topicOf) announces no topic")
            tables[topic!, default: []].insert(table)
        }
        return tables
    }

    @Test("the tables announcing each topic are those the registry lists for it, and only announce() notifies of changes")
    func triggersMatchTheRegistry() async throws {
        let url = try await TestDatabase.shared.newDatabase()
        let announced = try await announcingTables(url)
        let registry = Kept.tablesByTopic
        for topic in Set(announced.keys).union(registry.keys).sorted() {
            let missing = (registry[topic] ?? []).subtracting(announced[topic] ?? [])
            let unlisted = (announced[topic] ?? []).subtracting(registry[topic] ?? [])
            #expect(missing.isEmpty, "\(topic): read from \(missing.sorted()) with no trigger announcing its changes")
            #expect(unlisted.isEmpty, "\(topic): announced from \(unlisted.sorted()), which the registry does not list")
        }
        // A lesson's own row announces only a lesson of the course finished,
        // to its learner's classes (a wrong try, which writes only the row,
        // is written outside a transaction: LessonStore.update hears that
        // one itself, and the test of course assignments reads it at once).
        #expect(announced.filter { $0.value.contains("lessons") }.map(\.key) == ["class"])
        // Every subscriber's topic is in the registry.
        #expect(Set(registry.keys) == ["session", "account", "learner", "entitlements", "entry", "class"])
        // Changes reach the feed only through announce(): no other function
        // notifies the channel of a table's change (the speech queue's bells
        // are not kept rows, and are rung by its store).
        let notifying = try await TestDatabase.shared.rows(
            in: url,
            "SELECT proname::text FROM pg_proc WHERE pronamespace = 'public'::regnamespace AND prosrc LIKE '%pg_notify%' ORDER BY 1")
        #expect(try notifying.map { try $0.decode(String.self) } == ["announce"])
    }

    /// Every user table's scans so far (sequential and by index), as the
    /// statistics collector counts them, after this connection's own
    /// pending counts are flushed.
    func scans(_ database: Database) async throws -> [String: Int64] {
        try await database.withConnection { connection in
            _ = try await connection.query("SELECT pg_stat_force_next_flush()", logger: logger).collect()
            var scans: [String: Int64] = [:]
            let rows = try await connection.query(
                "SELECT relname::text, (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::bigint FROM pg_stat_user_tables", logger: logger)
            for try await (table, count) in rows.decode((String, Int64).self) { scans[table] = count }
            return scans
        }
    }

    @Test("each read model's loader reads no table but those the registry lists for it, as PostgreSQL counts its scans")
    func loadersReadListedTables() async throws {
        let app = try await TestApp.make()
        // An account with a learner on a course, in a class, on a board, with a grant.
        let (parent, classID, teacher) = try await app.run { client in
            let parent = try await client.signUp(email: "parent@example.com")
            try await client.startCourse("fr", for: parent)
            let teacher = try await client.signUp(email: "teacher@example.com")
            _ = try await client.send(.put, "/v1/me/teacher", token: teacher.token, json: ["displayName": "Mme Dupont"])
            let created = try await client.post(
                "/v1/classes", token: teacher.token, json: ["name": "4e B", "language": "fr", "level": "A1"])
            let code = try #require(created.json["joinCode"] as? String)
            let joined = try await client.post(
                "/v1/learners/\(parent.learnerID)/classes", token: parent.token, json: ["joinCode": code, "password": parent.password])
            #expect(joined.status == 201, "\(joined.text)")
            return (parent, try #require(created.json["id"] as? String), teacher)
        }
        let account = AccountID(UUID(uuidString: parent.accountID)!), learner = UUID(uuidString: parent.learnerID)!
        try await TestDatabase.shared.execute(
            in: app.databaseURL,
            "INSERT INTO account_entitlements (account_id, product, source) VALUES (\(account.uuid), 'water', 'grant')")
        let cipher = try TestApp.cipher()
        // One connection: the loader's scans are counted on the connection that flushes them.
        try await TestDatabase.withPool(app.databaseURL, connections: 1, logger: logger) { database in
            try await LeaderboardStore(database: database, cipher: cipher).record(
                .init(learner: LearnerID(learner), language: .french, kind: "memory", score: 40, seconds: 30, at: Date()))
            let accounts = AccountStore(database: database, cipher: cipher)
            let loaders: [String: @Sendable () async throws -> Bool] = [
                "SessionCache": { try await accounts.session(tokenHash: SessionToken.hash(parent.token)) != nil },
                "AccountProfiles": {
                    let byID = try await accounts.profile(account)
                    let byToken = try await accounts.profile(tokenHash: SessionToken.hash(parent.token))
                    return byID != nil && byToken != nil
                },
                "LearnerDirectory": { try await LearnerStore(database: database, cipher: cipher).cards([learner]).count == 1 },
                "AccountEntitlements": { try await EntitlementStore(database: database).entitlements(of: account).count == 1 },
                "LeaderboardRanks": {
                    let board = LeaderboardBoard(language: "fr", kind: "memory", period: "all")
                    return try await LeaderboardStore(database: database, cipher: cipher).entries(of: board).total == 1
                },
                "ClassOverviews": {
                    let schoolClass = AuthorizedClass(
                        id: ClassID(UUID(uuidString: classID)!), teacher: AccountID(UUID(uuidString: teacher.accountID)!))
                    return try await ClassStore(database: database, cipher: cipher).overview(schoolClass).1.count == 1
                },
                "ContentCatalog": { try await ContentStore(database: database).loadCorpus() != nil },
                "OpenLessons": {
                    // What the lesson service last wrote, kept as it was: nothing is read.
                    let open = OpenLessons(), id = LessonID(UUID())
                    let lesson = Lesson(
                        language: .french, native: .english, length: 1, types: [.picture], focus: [], gapWeights: [:], startAbilities: [])
                    open.keep(id, version: 3, lesson)
                    return open.lesson(id)?.version == 3
                },
                "AssetFiles": {
                    // Files only: an asset's size and hash come from the store's directory.
                    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kept-assets-\(UUID())").path
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                    defer { try? FileManager.default.removeItem(atPath: directory) }
                    let name = String(repeating: "ab", count: 16) + ".svg"
                    try Data("<svg/>".utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
                    return try await AssetStore(directory: directory).files([name])[name]?.bytes == 6
                },
                "SpeechRuntimes": {
                    // Files only: a language's model, lexicon and sequence scorer come from Models/.
                    var settings = SpeechScorer.Settings()
                    settings.modelsDirectory = TestApp.projectDirectory + "/Models"
                    let scorer = SpeechScorer(settings: settings)
                    let loaded = try scorer.sequenceScorer(.english) != nil
                    try await scorer.shutdown()
                    return loaded
                },
            ]
            // A profile found by its token keeps the session too (`SessionCache`).
            let keptWith = ["AccountProfiles": "SessionCache"]
            let readModels = Kept.all.filter { $0.kind == .readModel }
            #expect(Set(loaders.keys) == Set(readModels.map(\.name)), "a read model whose loader this test does not run")
            for thing in readModels {
                guard let load = loaders[thing.name] else { continue }
                let before = try await scans(database)
                #expect(try await load(), "\(thing.name): its loader found nothing")
                let after = try await scans(database)
                let read = Set(after.filter { $0.value > before[$0.key, default: 0] }.keys)
                // A read model of files (AssetFiles) reads no table at all.
                #expect(read.isEmpty == thing.tables.isEmpty, "\(thing.name): its loader read \(read.sorted())")
                let listed = thing.tables.union(Kept.all.first { $0.name == keptWith[thing.name] }?.tables ?? [])
                #expect(read.isSubset(of: listed), "\(thing.name) reads \(read.subtracting(listed).sorted()), which it does not list")
            }
        }
    }

    @Test("a transaction's announcements are heard by its server at its commit, per topic, and a rolled back one's never")
    func ownWritesHeardAtCommit() async throws {
        let url = try await TestDatabase.shared.newDatabase()
        let heard = Mutex<[String: [String]]>([:])
        try await TestDatabase.withPool(url, connections: 2, logger: logger) { database in
            database.hearOwnAnnouncements(topics: ["account", "learner"]) { topic, keys in
                heard.withLock { $0[topic, default: []] += keys.map(String.init) }
            }
            let (account, learner) = (UUID(), UUID())
            try await database.withTransaction { connection in
                try await connection.query(
                    "INSERT INTO accounts (id, ui_language, guest) VALUES (\(account), 'en', true)", logger: logger)
                try await connection.query(
                    """
                    INSERT INTO learners (id, account_id, display_name, avatar_id, native_language)
                    VALUES (\(learner), \(account), '\\x00', 'fox', 'en')
                    """, logger: logger)
            }
            // A learner added changes its account's profile, not its card.
            #expect(heard.withLock { $0 } == ["account": [account.uuidString.lowercased()]])
            heard.withLock { $0 = [:] }
            try await database.withTransaction { connection in
                try await connection.query("UPDATE learners SET avatar_id = 'owl' WHERE id = \(learner)", logger: logger)
            }
            #expect(heard.withLock { $0 } == ["account": [account.uuidString.lowercased()], "learner": [learner.uuidString.lowercased()]])
            heard.withLock { $0 = [:] }
            struct Undone: Error {}
            await #expect(throws: Undone.self) {
                try await database.withTransaction { connection in
                    try await connection.query("UPDATE learners SET avatar_id = 'cat' WHERE id = \(learner)", logger: logger)
                    throw Undone()
                }
            }
            #expect(heard.withLock { $0 }.isEmpty)
            // More than 100 keys of a topic in one transaction: "*" once.
            try await database.withTransaction { connection in
                try await connection.query(
                    "INSERT INTO accounts (id, ui_language, guest) SELECT gen_random_uuid(), 'en', true FROM generate_series(1, 150)",
                    logger: logger)
                try await connection.query("UPDATE accounts SET ui_language = 'fr'", logger: logger)
            }
            #expect(heard.withLock { $0 } == ["account": ["*"]])
        }
    }

    @Test("a class hears its learners' rows change, by learner and by account, and no other class does")
    func classHearsItsLearners() async throws {
        let url = try await TestDatabase.shared.newDatabase()
        let heard = Mutex<[String]>([])
        try await TestDatabase.withPool(url, connections: 2, logger: logger) { database in
            let (teacher, family, learner, other) = (UUID(), UUID(), UUID(), UUID())
            let (taught, untaught) = (UUID(), UUID())
            try await database.withTransaction { connection in
                try await connection.query(
                    "INSERT INTO accounts (id, ui_language, guest) VALUES (\(teacher), 'en', true), (\(family), 'en', true)",
                    logger: logger)
                try await connection.query(
                    "INSERT INTO teachers (account_id, display_name) VALUES (\(teacher), '\\x00')", logger: logger)
                try await connection.query(
                    """
                    INSERT INTO learners (id, account_id, display_name, avatar_id, native_language)
                    VALUES (\(learner), \(family), '\\x00', 'fox', 'en'), (\(other), \(family), '\\x00', 'owl', 'en')
                    """, logger: logger)
                try await connection.query(
                    """
                    INSERT INTO classes (id, teacher_id, name, language, level)
                    VALUES (\(taught), \(teacher), '\\x00', 'fr', 'A1'), (\(untaught), \(teacher), '\\x00', 'de', 'A1')
                    """, logger: logger)
                try await connection.query(
                    "INSERT INTO class_members (class_id, learner_id) VALUES (\(taught), \(learner))", logger: logger)
            }
            database.hearOwnAnnouncements(topics: ["class"]) { _, keys in
                heard.withLock { $0 += keys.map(String.init) }
            }
            // By learner: a course of the class's learner, then of a learner in no class.
            try await database.withTransaction { connection in
                try await connection.query(
                    "INSERT INTO courses (learner_id, language, start) VALUES (\(learner), 'fr', 'beginning')", logger: logger)
            }
            #expect(heard.withLock { $0 } == [taught.uuidString.lowercased()])
            heard.withLock { $0 = [] }
            try await database.withTransaction { connection in
                try await connection.query(
                    "INSERT INTO courses (learner_id, language, start) VALUES (\(other), 'fr', 'beginning')", logger: logger)
            }
            #expect(heard.withLock { $0 }.isEmpty)
            // By account: the family's entitlements reach the class of its learner.
            try await database.withTransaction { connection in
                try await connection.query(
                    "INSERT INTO account_entitlements (account_id, product, source) VALUES (\(family), 'plus', 'grant')",
                    logger: logger)
            }
            #expect(heard.withLock { $0 } == [taught.uuidString.lowercased()])
        }
    }

    @Test("a lesson answer hears what its triggers announce from the statement's own result, answer by answer")
    func lessonAnswerHearsItsAnnouncements() async throws {
        let url = try await TestDatabase.shared.newDatabase()
        let heard = Mutex<[String: Set<String>]>([:])
        let (teacher, family, learner) = (UUID(), UUID(), UUID())
        let (first, second) = (UUID(), UUID())
        for statement: PostgresQuery in [
            "INSERT INTO accounts (id, ui_language, guest) VALUES (\(teacher), 'en', true), (\(family), 'en', true)",
            "INSERT INTO teachers (account_id, display_name) VALUES (\(teacher), '\\x00')",
            """
            INSERT INTO learners (id, account_id, display_name, avatar_id, native_language)
            VALUES (\(learner), \(family), '\\x00', 'fox', 'en')
            """,
            """
            INSERT INTO classes (id, teacher_id, name, language, level)
            VALUES (\(first), \(teacher), '\\x00', 'fr', 'A1'), (\(second), \(teacher), '\\x00', 'fr', 'A2')
            """,
            "INSERT INTO class_members (class_id, learner_id) VALUES (\(first), \(learner)), (\(second), \(learner))",
        ] {
            try await TestDatabase.shared.execute(in: url, statement)
        }
        try await TestDatabase.withPool(url, connections: 3, logger: logger) { database in
            database.hearOwnAnnouncements(topics: ["account", "class"]) { topic, keys in
                heard.withLock { $0[topic, default: []].formUnion(keys.map(String.init)) }
            }
            let store = LessonStore(database: database)
            let owner = AuthorizedLearner(id: LearnerID(learner), account: AccountID(family), role: .owner)
            let lesson = try await store.create(LessonID(UUID()), learner: owner, language: .french, state: Data("{}".utf8))
            let today = Date()
            /// One answer of `skill`, the learner's `responses`-th, with
            /// today's overall level `level`; nil: a wrong try, which teaches nothing.
            func answer(_ number: Int, _ skill: Skill, responses: Int, level: CEFRLevel) -> LessonStore.Record {
                let learning = AnswerLearning(
                    itemID: "word:\(number)", skill: skill, card: nil, lapse: false,
                    ability: SkillAbility(skill: skill, theta: 0.1, responses: responses), abilityChange: 0.1,
                    snapshots: [
                        .init(day: today, skill: skill, theta: 0.1, level: level), .init(day: today, skill: nil, theta: 0.1, level: level),
                    ],
                    initialDifficulty: 0, difficultyChange: 0)
                return LessonStore.Record(
                    questionID: "q\(number)", questionType: "picture", areaKind: "topic", areaID: "food", level: .a1, correct: true,
                    tries: 1,
                    responseMilliseconds: 900, learning: learning)
            }
            let (account, classes) = (family.uuidString.lowercased(), Set([first, second].map { $0.uuidString.lowercased() }))
            // What each answer announces, as the triggers have it: a skill
            // started or today's overall level new or moved reach the
            // account; every answer reaches the learner's classes.
            let answers: [(LessonStore.Record?, [String: Set<String>])] = [
                (answer(1, .vocabulary, responses: 1, level: .a1), ["account": [account], "class": classes]),
                (answer(2, .vocabulary, responses: 2, level: .a1), ["class": classes]),
                (answer(3, .vocabulary, responses: 3, level: .a2), ["account": [account], "class": classes]),
                (answer(4, .listening, responses: 1, level: .a2), ["account": [account], "class": classes]),
                (nil, [:]),
            ]
            try await database.withConnection { listener in
                try await listener.listen(on: "parla_changes") { notifications in
                    var notified = notifications.makeAsyncIterator()
                    for (number, (record, expected)) in answers.enumerated() {
                        heard.withLock { $0 = [:] }
                        _ = try await store.update(lesson.id, learner: owner) { stored, _ in
                            (LessonStore.Change(state: stored.state, finished: false, record: record), ())
                        }
                        // Notifications come in commit order: all of the
                        // answer's have come once the mark that follows it has.
                        try await database.withConnection { connection in
                            try await connection.query("SELECT pg_notify('parla_changes', \("mark\t\(number)"))", logger: logger)
                        }
                        var triggered: [String: Set<String>] = [:]
                        while let notification = try await notified.next(), notification.payload != "mark\t\(number)" {
                            let fields = notification.payload.split(separator: "\t")
                            triggered[String(fields[0]), default: []].insert(String(fields[1]))
                        }
                        #expect(triggered == expected, "answer \(number + 1): the triggers")
                        #expect(heard.withLock { $0 } == expected, "answer \(number + 1): what the statement returned")
                    }
                }
            }
        }
    }
}

import ParlaDatabase

/// Everything a server keeps in memory, one row each: what it is kept by,
/// what reads it from the database, the tables whose changes drop it, the
/// setting that turns it off, and what keeping it was measured to gain.
///
/// Design note: each table listed under a topic has a trigger that calls
/// `announce(topic, key)` (migration 0049); every server hears it at the
/// commit (`ChangeFeed`), and the server that wrote it at once
/// (`Database.withTransaction`), and drops what it keeps under that key. A
/// loader that reads a table not listed here would serve stale data:
/// `KeptTests` compares this registry with the triggers of a migrated
/// database (`pg_trigger`). Answers kept byte for byte (the answer caches,
/// in ParlaServer/Kept) live beside a read model and go with it, or are
/// dropped by the content's version.
public struct KeptThing: Sendable {
    public enum Kind: Sendable {
        /// Rows read from the database, dropped by their topic's announcements.
        case readModel
        /// A whole HTTP answer, kept byte for byte.
        case answer
    }

    public var name: String
    public var kind: Kind
    /// The first field of its announcements (`announce`'s topic); nil when
    /// no table announces its changes (then `droppedBy` says what drops it).
    public var topic: String?
    /// What it is kept by.
    public var key: String
    /// What reads it on a miss.
    public var loader: String
    /// The tables whose changes drop it (each with an `announce` trigger).
    public var tables: Set<String>
    /// What drops it besides its topic.
    public var droppedBy: String
    /// The setting that turns it off, if any.
    public var setting: String?
    /// What keeping it gains, with the benchmark result that shows it.
    public var gain: String
}

public enum Kept {
    /// The tables one class overview reads (and `ClassOverviewAnswers` with it).
    static let classTables: Set<String> = [
        "classes", "class_members", "assignments", "learners", "lesson_answers", "abilities", "ability_history", "speech_attempts",
        "games", "courses", "account_entitlements", "lessons",
    ]

    public static let all: [KeptThing] = [
        KeptThing(
            name: "SessionCache", kind: .readModel, topic: "session", key: "a session's token hash",
            loader: "AccountStore.session(tokenHash:)", tables: ["sessions"],
            droppedBy: "a deaf feed (nothing kept until it hears again)", setting: nil,
            gain:
                "GET /v1/me at 59% of /health, from 25% (Benchmarks/results/platform-2026-11-24T214337Z.md, platform-2026-11-22T191849Z.md)"
        ),
        KeptThing(
            name: "AccountProfiles", kind: .readModel, topic: "account", key: "an account id",
            loader: "AccountStore.profile(_:), AccountStore.profile(tokenHash:)",
            tables: ["accounts", "learners", "learner_pictures", "courses", "ability_history", "abilities"],
            droppedBy: "a deaf feed", setting: nil,
            gain: "GET /v1/me with no query (with SessionCache; Benchmarks/results/platform-2026-11-24T214337Z.md)"),
        KeptThing(
            name: "LearnerDirectory", kind: .readModel, topic: "learner", key: "a learner id",
            loader: "LearnerStore.cards(_:)", tables: ["learners", "courses"], droppedBy: "a deaf feed", setting: nil,
            gain: "a leaderboard page from memory with the names kept: 276,476 pages/s against 2,239 from SQL "
                + "(Benchmarks/results/leaderboards-2026-11-24T171631Z.md)"),
        KeptThing(
            name: "AccountEntitlements", kind: .readModel, topic: "entitlements", key: "an account id",
            loader: "EntitlementStore.entitlements(of:)", tables: ["account_entitlements"], droppedBy: "a deaf feed",
            setting: "entitlements.keepInMemory",
            gain: "a learner's own content page at 185% of the same page reading them per request "
                + "(Benchmarks/results/platform-2026-11-24T214337Z.md)"),
        KeptThing(
            name: "LeaderboardRanks", kind: .readModel, topic: "entry", key: "a board (language, kind, period), kept in step",
            loader: "LeaderboardStore.entries(of:)", tables: ["leaderboard_entries"],
            droppedBy: "a board nobody asked for in 30 minutes; a deaf feed", setting: nil,
            gain: "a rank in 0.001 ms against 4.6 ms from the SQL counts (Benchmarks/results/leaderboards-2026-11-24T171631Z.md)"),
        KeptThing(
            name: "ClassOverviews", kind: .readModel, topic: "class", key: "a class id, for the day (UTC) it was made",
            loader: "ClassService.overview (ClassStore's report reads)", tables: classTables,
            droppedBy: "the next day; a deaf feed", setting: "teaching.keepOverviews (and none with a read replica)",
            gain: "the overview at 77% of /health against 0% read afresh (Benchmarks/results/school-2026-11-25T015520Z.md)"),
        KeptThing(
            name: "ClassOverviewAnswers", kind: .answer, topic: "class", key: "a class id and the answer's name (JSON, a page's language)",
            loader: "the generated handler or the dashboard's page, once", tables: classTables,
            droppedBy: "its overview (kept inside it); another content version", setting: "teaching.keepOverviews",
            gain: "no encoding nor rendering on a reload: the API's overview at 77% of /health "
                + "(Benchmarks/results/school-2026-11-25T015520Z.md)"),
        KeptThing(
            name: "ContentCatalog", kind: .readModel, topic: nil, key: "the content's version (a hash of every file and asset)",
            loader: "ContentStore.loadCorpus",
            tables: [
                "content_versions", "concepts", "concept_localizations", "word_lists", "word_list_words", "phrases", "phrase_texts",
                "grammar_notes", "grammar_examples", "grammar_exercises", "grammar_exercise_translations", "grammar_note_explanations",
                "content_assets", "placement_items", "content_homophones", "course_packs", "course_stories", "course_sight_words",
                "course_instructions", "content_alphabets",
            ],
            droppedBy: "an import of another version (a version is imported once and never changes); the last version decoded "
                + "is kept for the process, so a server built again in it reads only the version",
            setting: nil,
            gain: "no request reads content from the database; a server built again in the same process starts in 0.1 s "
                + "instead of 1.6 s (debug build), the test suite's greatest cost"),
        KeptThing(
            name: "ContentAnswerCache", kind: .answer, topic: nil, key: "an anonymous content request's path (and language)",
            loader: "the generated handler, once", tables: [],
            droppedBy: "another content version; 5,000 answers kept at most", setting: nil,
            gain: "a word-list page at 96% of /health, from 35% (Benchmarks/results/platform-2026-11-24T214337Z.md, "
                + "platform-2026-11-22T191849Z.md); an alphabet at 112%, from 48% (platform-2026-11-30T110553Z.md, "
                + "platform-2026-11-30T105813Z.md)"),
        KeptThing(
            name: "OwnContentAnswers", kind: .answer, topic: nil,
            key: "a learner's (or a token's) content request's path without the learner, by the handler's entity tag",
            loader: "the generated handler, once per tag; every request still runs it to authorize and compute the tag",
            tables: [],
            droppedBy: "nothing needs to: a change the learner may see changes the tag; another content version clears it; "
                + "8 answers per path and 5,000 paths at most",
            setting: "content.keepOwnAnswers",
            gain: "a learner's own word-list page at 74% of /health, 230% of the same page built by its handler for every request "
                + "(Benchmarks/results/platform-2026-11-29T080901Z.md; 22% at cee7707, platform-2026-11-29T080604Z.md)"),
        KeptThing(
            name: "AssetFiles", kind: .readModel, topic: nil, key: "an asset's name in the store",
            loader: "AssetStore.files(_:) (the file read and hashed on a thread pool)", tables: [],
            droppedBy: "nothing needs to: a name never changes its bytes (it is a hash of what made them); "
                + "an asset not made yet is not kept", setting: nil,
            gain: "a pack's bundle in 11.5 ms (median over the 40 packs) against 12.8 ms with its files read and hashed, "
                + "the slowest pack 16.8 ms against 123.5 ms (Benchmarks/results/course-2026-11-30T080742Z.md)"),
        KeptThing(
            name: "SpeechRuntimes", kind: .readModel, topic: nil, key: "a language",
            loader: "SpeechScorer.runtime(_:) (the files of Models/<lang>: profile (with its model's phrase check), lexicon, "
                + "sequence scorer (its own or, "
                + "through the phone transfer table, English's), spelling table, substitutions table; "
                + "idle decoders, one a scoring thread at most)",
            tables: [],
            droppedBy: "a restart: they are files the deployment ships, never written by the server", setting: nil,
            gain: "a 3 s English attempt scored in 256 ms p50 (Benchmarks/results/speech-http-2026-11-28T083209Z.md) against "
                + "0.85-1.26 s for the same clip scored cold (parla speech score: the 134,723-word lexicon, the model and a decoder "
                + "loaded, 2026-11-30)"),
        KeptThing(
            name: "PackDownloadSizes", kind: .answer, topic: nil,
            key: "a pack and the learner's own language, under the content's version, once every asset of the pack is made",
            loader: "PackService.view (Corpus.assetSlots, then AssetFiles)", tables: [],
            droppedBy: "a new content version (part of its key: the rest is dropped); a name never changes its bytes", setting: nil,
            gain: "a learner's pack list at 510 requests/s alone (p99 3.2 ms), from 205 (8.9 ms) summing it per request; 940/s "
                + "at 64 connections from 425 (Benchmarks/results/course-2026-11-30T050207Z.md, course-2026-11-30T044854Z.md)"),
        KeptThing(
            name: "OpenLessons", kind: .readModel, topic: nil, key: "a lesson id, with the version it was written at",
            loader: "LessonService (what it last wrote); LessonStore.update reads the state only when the version moved",
            tables: [],
            droppedBy: "nothing needs to: the version read with every answer says whether it holds (an answer through another "
                + "server moves it); a finished lesson is dropped; 2,000 lessons at most", setting: "lessons.keepOpen",
            gain: "a screen answered at saturation +7, +1 and +5 % answers/s in three pairs of runs, p99 5 to 8 % lower "
                + "(Benchmarks/results/course-2026-11-30T080742Z.md); the state's decoding (9 % of server CPU) leaves the profile"),
        KeptThing(
            name: "LeaderboardFastPath", kind: .answer, topic: "entry", key: "none: a page made from LeaderboardRanks and LearnerDirectory",
            loader: "LeaderboardService, before the generated handler", tables: ["leaderboard_entries"],
            droppedBy: "what changes LeaderboardRanks; its names drop with LearnerDirectory", setting: "leaderboards.fastPath",
            gain: "a page from memory: 4,093 pages/s with every name read against 2,239 from SQL "
                + "(Benchmarks/results/leaderboards-2026-11-24T171631Z.md)"),
    ]

    /// The tables each topic's announcements come from, as the registry says.
    public static var tablesByTopic: [String: Set<String>] {
        var tables: [String: Set<String>] = [:]
        for thing in all {
            guard let topic = thing.topic else { continue }
            tables[topic, default: []].formUnion(thing.tables)
        }
        return tables
    }
}

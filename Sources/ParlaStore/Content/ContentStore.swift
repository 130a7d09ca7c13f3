import Foundation
import Logging
import ParlaContent
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// The imported corpus in PostgreSQL, and what learners own of it.
public struct ContentStore: Sendable {
    let database: Database
    public var logger: Logger { database.logger }

    public init(database: Database) { self.database = database }

    /// How far an import has gone: a stage, and items done of a total.
    public typealias Progress = @Sendable (_ stage: String, _ done: Int, _ total: Int) -> Void

    /// Replaces the content with `corpus` and the names of the assets that
    /// fill its slots, in one transaction: rows are upserted, rows no longer
    /// in the corpus are deleted, and the version is recorded. Importing the
    /// same version again changes nothing. Returns false when that version
    /// was already imported.
    @discardableResult
    public func importCorpus(
        _ corpus: Corpus, assets: [String: String] = [:], catalogue: String = "", version: String,
        progress: Progress? = nil
    ) async throws -> Bool {
        let summary =
            "{\"wordLists\": \(corpus.wordLists.count), \"concepts\": \(corpus.concepts.count), \"phrases\": \(corpus.phrases.count), \"grammarNotes\": \(corpus.grammarNotes.count), \"placementQuestions\": \(corpus.placementQuestions.count), \"packs\": \(corpus.packs.count), \"lessons\": \(corpus.lessonCount), \"stories\": \(corpus.stories.count)}"
        return try await database.withTransaction { connection in
            let logger = database.logger
            _ = try await connection.query("SELECT pg_advisory_xact_lock(7261002)", logger: logger).collect()
            let known = try await connection.query("SELECT 1 FROM content_versions WHERE version = \(version)", logger: logger).collect()
            guard known.isEmpty else { return false }

            let concepts = corpus.concepts
            try await connection.query("DELETE FROM concepts WHERE NOT (key = ANY(\(concepts.map(\.key))))", logger: logger)
            for (done, concept) in concepts.enumerated() {
                progress?("concepts", done, concepts.count)
                try await connection.query(
                    """
                    INSERT INTO concepts (key, level, picture, sound, background)
                    VALUES (\(concept.key), \(concept.level.rawValue), \(concept.picture.description), \(concept.sound), \(concept.background))
                    ON CONFLICT (key) DO UPDATE SET level = EXCLUDED.level, picture = EXCLUDED.picture,
                        sound = EXCLUDED.sound, background = EXCLUDED.background
                    """, logger: logger)
                let tags = concept.localizations.keys.sorted()
                try await connection.query(
                    "DELETE FROM concept_localizations WHERE concept_key = \(concept.key) AND NOT (language = ANY(\(tags)))", logger: logger
                )
                for tag in tags {
                    guard let l = concept.localization(tag), let word = l.word, let definition = l.definition else { continue }
                    try await connection.query(
                        """
                        INSERT INTO concept_localizations (concept_key, language, word, article, gender, plural, frequency, definition,
                                                           sort_key, case_override, disabled)
                        VALUES (\(concept.key), \(tag), \(word), \(l.article), \(l.gender?.rawValue), \(l.plural), \(l.frequency),
                                \(definition), \(l.sortKey), \(l.caseOverride?.rawValue), \(l.isDisabled))
                        ON CONFLICT (concept_key, language) DO UPDATE SET word = EXCLUDED.word, article = EXCLUDED.article,
                            gender = EXCLUDED.gender, plural = EXCLUDED.plural, frequency = EXCLUDED.frequency,
                            definition = EXCLUDED.definition, sort_key = EXCLUDED.sort_key,
                            case_override = EXCLUDED.case_override, disabled = EXCLUDED.disabled
                        """, logger: logger)
                }
            }

            try await connection.query("DELETE FROM word_lists WHERE NOT (id = ANY(\(corpus.wordLists.map(\.id))))", logger: logger)
            for (position, list) in corpus.wordLists.enumerated() {
                let names = String(
                    decoding: try JSONEncoder().encode(Dictionary(uniqueKeysWithValues: list.names.map { ($0.key.code, $0.value) })),
                    as: UTF8.self)
                try await connection.query(
                    """
                    INSERT INTO word_lists (id, icon, names, position) VALUES (\(list.id), \(list.icon.description), \(names)::jsonb, \(position))
                    ON CONFLICT (id) DO UPDATE SET icon = EXCLUDED.icon, names = EXCLUDED.names, position = EXCLUDED.position
                    """, logger: logger)
                try await connection.query("DELETE FROM word_list_words WHERE list_id = \(list.id)", logger: logger)
                for (index, word) in list.words.enumerated() {
                    try await connection.query(
                        """
                        INSERT INTO word_list_words (list_id, concept_key, position, free)
                        VALUES (\(list.id), \(word.key), \(index), \(list.freeKeys.contains(word.key)))
                        """, logger: logger)
                }
            }

            try await connection.query("DELETE FROM phrases WHERE NOT (id = ANY(\(corpus.phrases.map(\.id))))", logger: logger)
            for (done, phrase) in corpus.phrases.enumerated() {
                progress?("phrases", done, corpus.phrases.count)
                try await connection.query(
                    """
                    INSERT INTO phrases (id, topic, level, skill) VALUES (\(phrase.id), \(phrase.topic), \(phrase.level.rawValue), \(phrase.skill.rawValue))
                    ON CONFLICT (id) DO UPDATE SET topic = EXCLUDED.topic, level = EXCLUDED.level, skill = EXCLUDED.skill
                    """, logger: logger)
                for (language, text) in phrase.texts {
                    try await connection.query(
                        """
                        INSERT INTO phrase_texts (phrase_id, language, text) VALUES (\(phrase.id), \(language.code), \(text))
                        ON CONFLICT (phrase_id, language) DO UPDATE SET text = EXCLUDED.text
                        """, logger: logger)
                }
            }

            try await connection.query("DELETE FROM grammar_notes WHERE NOT (id = ANY(\(corpus.grammarNotes.map(\.id))))", logger: logger)
            for (position, note) in corpus.grammarNotes.enumerated() {
                try await connection.query(
                    """
                    INSERT INTO grammar_notes (id, language, level, title, summary, body, position)
                    VALUES (\(note.id), \(note.language.code), \(note.level.rawValue), \(note.title), \(note.summary), \(note.body), \(position))
                    ON CONFLICT (id) DO UPDATE SET language = EXCLUDED.language, level = EXCLUDED.level, title = EXCLUDED.title,
                        summary = EXCLUDED.summary, body = EXCLUDED.body, position = EXCLUDED.position
                    """, logger: logger)
                try await connection.query("DELETE FROM grammar_note_explanations WHERE note_id = \(note.id)", logger: logger)
                for (ui, explanation) in note.explanations {
                    try await connection.query(
                        """
                        INSERT INTO grammar_note_explanations (note_id, ui_language, title, summary, body)
                        VALUES (\(note.id), \(ui.code), \(explanation.title), \(explanation.summary), \(explanation.body))
                        """, logger: logger)
                }
                try await connection.query("DELETE FROM grammar_examples WHERE note_id = \(note.id)", logger: logger)
                for (index, example) in note.examples.enumerated() {
                    try await connection.query(
                        "INSERT INTO grammar_examples (note_id, phrase_id, position) VALUES (\(note.id), \(example), \(index))",
                        logger: logger)
                }
                try await connection.query("DELETE FROM grammar_exercises WHERE note_id = \(note.id)", logger: logger)
                for (index, exercise) in note.exercises.enumerated() {
                    try await connection.query(
                        """
                        INSERT INTO grammar_exercises (id, note_id, stem, correct, distractors, translation, position)
                        VALUES (\(exercise.id), \(note.id), \(exercise.stem), \(exercise.correct), \(exercise.distractors),
                                \(exercise.translation), \(index))
                        """, logger: logger)
                    for (ui, text) in exercise.translations {
                        try await connection.query(
                            """
                            INSERT INTO grammar_exercise_translations (exercise_id, ui_language, text)
                            VALUES (\(exercise.id), \(ui.code), \(text))
                            """, logger: logger)
                    }
                }
            }
            try await connection.query("DELETE FROM content_homophones", logger: logger)
            for (language, groups) in corpus.homophones {
                for (position, group) in groups.enumerated() {
                    try await connection.query(
                        """
                        INSERT INTO content_homophones (language, position, concepts) VALUES (\(language.code), \(position), \(group))
                        """, logger: logger)
                }
            }
            try await connection.query("DELETE FROM placement_items", logger: logger)
            for (done, item) in corpus.placementQuestions.enumerated() {
                progress?("placement items", done, corpus.placementQuestions.count)
                try await connection.query(
                    """
                    INSERT INTO placement_items (language, id, skill, level, topic, stem, passage, audio, correct, distractors)
                    VALUES (\(item.language.code), \(item.id), \(item.skill.rawValue), \(item.level.rawValue), \(item.topic), \(item.stem),
                            \(item.passage), \(item.audio), \(item.correct), \(item.distractors))
                    """, logger: logger)
            }
            try await Self.importCourse(corpus, on: connection, logger: logger)
            try await Self.importAlphabets(corpus, on: connection, logger: logger)
            try await connection.query("DELETE FROM content_assets", logger: logger)
            let slots = assets.keys.sorted()
            try await connection.query(
                """
                INSERT INTO content_assets (slot, asset)
                SELECT * FROM unnest(\(slots)::text[], \(slots.map { assets[$0]! })::text[])
                """, logger: logger)
            progress?("done", 1, 1)
            try await connection.query(
                "INSERT INTO content_versions (version, summary, catalogue) VALUES (\(version), \(summary)::jsonb, \(catalogue))",
                logger: logger)
            return true
        }
    }
}

extension ContentStore {
    /// The newest imported version, if any: what `loadCorpus` would read.
    public func newestVersion() async throws -> String? {
        try await database.withConnection { connection in
            try await connection.query(
                "SELECT version FROM content_versions ORDER BY imported_at DESC, version LIMIT 1", logger: database.logger
            ).collect().first?.decode(String.self)
        }
    }

    /// The imported corpus, read back whole: the server keeps it in memory,
    /// since content only changes with its version.
    public func loadCorpus() async throws -> (version: String, corpus: Corpus, assets: [String: String], catalogue: String)? {
        try await database.withConnection { connection in
            let logger = database.logger
            guard
                let (version, catalogue) = try await connection.query(
                    "SELECT version, catalogue FROM content_versions ORDER BY imported_at DESC, version LIMIT 1", logger: logger
                )
                .collect().first?.decode((String, String).self)
            else { return nil }

            var localizations: [String: [String: Localization]] = [:]
            for row in try await connection.query(
                """
                SELECT concept_key, language, word, article, gender, plural, frequency, definition, sort_key, case_override, disabled
                FROM concept_localizations
                """, logger: logger
            ).collect() {
                let (key, tag, word, article, gender, plural, frequency, definition, sortKey, caseOverride, disabled) =
                    try row.decode((String, String, String, String?, String?, String?, Int?, String, String?, String?, Bool).self)
                localizations[key, default: [:]][tag] = Localization(
                    word: word, article: article, gender: gender.flatMap(Gender.init(rawValue:)), plural: plural, frequency: frequency,
                    definition: definition, sortKey: sortKey, caseOverride: caseOverride.flatMap(CaseOverride.init(rawValue:)),
                    disabled: disabled)
            }
            var concepts: [String: Concept] = [:]
            for row in try await connection.query("SELECT key, level, picture, sound, background FROM concepts", logger: logger).collect() {
                let (key, level, picture, sound, background) = try row.decode((String, String, String, String?, String?).self)
                guard let level = CEFRLevel(rawValue: level), let picture = AssetReference(picture) else { continue }
                concepts[key] = Concept(
                    key: key, level: level, picture: picture, sound: sound, background: background,
                    localizations: localizations[key] ?? [:])
            }
            var members: [String: [(key: String, free: Bool)]] = [:]
            for row in try await connection.query(
                "SELECT list_id, concept_key, free FROM word_list_words ORDER BY list_id, position", logger: logger
            ).collect() {
                let (list, key, free) = try row.decode((String, String, Bool).self)
                members[list, default: []].append((key, free))
            }
            var lists: [WordList] = []
            for row in try await connection.query("SELECT id, icon, names::text FROM word_lists ORDER BY position", logger: logger)
                .collect()
            {
                let (id, icon, namesJSON) = try row.decode((String, String, String).self)
                let raw = (try? JSONDecoder().decode([String: String].self, from: Data(namesJSON.utf8))) ?? [:]
                let names = Dictionary(uniqueKeysWithValues: raw.compactMap { key, value in Language(rawValue: key).map { ($0, value) } })
                guard let icon = AssetReference(icon) else { continue }
                let entries = members[id] ?? []
                lists.append(
                    WordList(
                        id: id, icon: icon, names: names, freeKeys: entries.filter(\.free).map(\.key),
                        words: entries.compactMap { concepts[$0.key] }))
            }
            var texts: [String: [Language: String]] = [:]
            for row in try await connection.query("SELECT phrase_id, language, text FROM phrase_texts", logger: logger).collect() {
                let (id, language, text) = try row.decode((String, String, String).self)
                if let language = Language(rawValue: language) { texts[id, default: [:]][language] = text }
            }
            let phrases = try await connection.query("SELECT id, topic, level, skill FROM phrases ORDER BY id", logger: logger).collect()
                .compactMap { row -> Phrase? in
                    let (id, topic, level, skill) = try row.decode((String, String, String, String).self)
                    guard let level = CEFRLevel(rawValue: level), let skill = Skill(rawValue: skill) else { return nil }
                    return Phrase(id: id, topic: topic, level: level, skill: skill, texts: texts[id] ?? [:])
                }
            var examples: [String: [String]] = [:]
            for row in try await connection.query(
                "SELECT note_id, phrase_id FROM grammar_examples ORDER BY note_id, position", logger: logger
            ).collect() {
                let (note, phrase) = try row.decode((String, String).self)
                examples[note, default: []].append(phrase)
            }
            var exerciseTranslations: [String: [Language: String]] = [:]
            for row in try await connection.query(
                "SELECT exercise_id, ui_language, text FROM grammar_exercise_translations", logger: logger
            ).collect() {
                let (exercise, ui, text) = try row.decode((String, String, String).self)
                if let ui = Language(rawValue: ui) { exerciseTranslations[exercise, default: [:]][ui] = text }
            }
            var explanations: [String: [Language: GrammarNote.Explanation]] = [:]
            for row in try await connection.query(
                "SELECT note_id, ui_language, title, summary, body FROM grammar_note_explanations", logger: logger
            ).collect() {
                let (note, ui, title, summary, body) = try row.decode((String, String, String, String, String).self)
                if let ui = Language(rawValue: ui) {
                    explanations[note, default: [:]][ui] = .init(title: title, summary: summary, body: body)
                }
            }
            var exercises: [String: [GrammarExercise]] = [:]
            for row in try await connection.query(
                "SELECT note_id, id, stem, correct, distractors, translation FROM grammar_exercises ORDER BY note_id, position",
                logger: logger
            ).collect() {
                let (note, id, stem, correct, distractors, translation) = try row.decode(
                    (String, String, String, String, [String], String?).self)
                exercises[note, default: []].append(
                    GrammarExercise(
                        id: id, stem: stem, correct: correct, distractors: distractors,
                        translation: translation, translations: exerciseTranslations[id] ?? [:]))
            }
            let notes = try await connection.query(
                "SELECT id, language, level, title, summary, body FROM grammar_notes ORDER BY position", logger: logger
            ).collect()
                .compactMap { row -> GrammarNote? in
                    let (id, language, level, title, summary, body) = try row.decode((String, String, String, String, String, String).self)
                    guard let language = Language(rawValue: language), let level = CEFRLevel(rawValue: level) else { return nil }
                    return GrammarNote(
                        id: id, language: language, level: level, title: title, summary: summary, body: body,
                        examples: examples[id] ?? [], exercises: exercises[id] ?? [], explanations: explanations[id] ?? [:])
                }
            var assets: [String: String] = [:]
            for row in try await connection.query("SELECT slot, asset FROM content_assets", logger: logger).collect() {
                let (slot, asset) = try row.decode((String, String).self)
                assets[slot] = asset
            }
            let placementQuestions = try await connection.query(
                """
                SELECT language, id, skill, level, topic, stem, passage, audio, correct, distractors FROM placement_items ORDER BY language, id
                """, logger: logger
            ).collect().compactMap { row -> PlacementQuestion? in
                let (language, id, skill, level, topic, stem, passage, audio, correct, distractors) =
                    try row.decode((String, String, String, String, String, String, String?, String?, String, [String]).self)
                guard let language = Language(rawValue: language), let skill = Skill(rawValue: skill),
                    let level = CEFRLevel(rawValue: level)
                else { return nil }
                return PlacementQuestion(
                    id: id, language: language, skill: skill, level: level, topic: topic, stem: stem, passage: passage,
                    audio: audio, correct: correct, distractors: distractors)
            }
            var homophones: [Language: [[String]]] = [:]
            for row in try await connection.query(
                "SELECT language, concepts FROM content_homophones ORDER BY language, position", logger: logger
            ).collect() {
                let (code, concepts) = try row.decode((String, [String]).self)
                if let language = Language(rawValue: code) { homophones[language, default: []].append(concepts) }
            }
            var corpus = Corpus(
                wordLists: lists, phrases: phrases, grammarNotes: notes, placementQuestions: placementQuestions, homophones: homophones)
            try await Self.loadCourse(into: &corpus, on: connection, logger: logger)
            corpus.alphabets = try await Self.alphabets(on: connection, logger: logger)
            return (version, corpus, assets, catalogue)
        }
    }
}

// The course: each pack (with its lessons), story, language's sight words
// and the narrator's lines one JSON document, as ParlaContent codes them.
extension ContentStore {
    static func importCourse(_ corpus: Corpus, on connection: PostgresConnection, logger: Logger) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func json(_ value: some Encodable) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        for table in ["course_packs", "course_stories", "course_sight_words", "course_instructions"] {
            try await connection.query(PostgresQuery(unsafeSQL: "DELETE FROM \(table)"), logger: logger)
        }
        for pack in corpus.packs {
            try await connection.query(
                """
                INSERT INTO course_packs (id, language, section, position, body)
                VALUES (\(pack.id), \(pack.language.code), \(pack.section.rawValue), \(pack.order), \(try json(pack))::jsonb)
                """, logger: logger)
        }
        for story in corpus.stories {
            try await connection.query(
                """
                INSERT INTO course_stories (id, language, pack_id, body)
                VALUES (\(story.id), \(story.language.code), \(story.pack), \(try json(story))::jsonb)
                """, logger: logger)
        }
        for (language, words) in corpus.sightWords {
            try await connection.query(
                "INSERT INTO course_sight_words (language, words) VALUES (\(language.code), \(try json(words))::jsonb)", logger: logger)
        }
        if !corpus.instructions.templates.isEmpty {
            try await connection.query(
                "INSERT INTO course_instructions (body) VALUES (\(try json(corpus.instructions))::jsonb)", logger: logger)
        }
    }

    static func loadCourse(into corpus: inout Corpus, on connection: PostgresConnection, logger: Logger) async throws {
        let decoder = JSONDecoder()
        func decoded<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
            try decoder.decode(type, from: Data(text.utf8))
        }
        corpus.packs = try await connection.query(
            "SELECT body::text FROM course_packs ORDER BY language, section, position", logger: logger
        ).collect().map { try decoded(CoursePack.self, try $0.decode(String.self)) }
        corpus.stories = try await connection.query("SELECT body::text FROM course_stories ORDER BY id", logger: logger).collect()
            .map { try decoded(Story.self, try $0.decode(String.self)) }
        for row in try await connection.query("SELECT language, words::text FROM course_sight_words", logger: logger).collect() {
            let (code, words) = try row.decode((String, String).self)
            if let language = Language(rawValue: code) { corpus.sightWords[language] = try decoded([SightWord].self, words) }
        }
        if let body = try await connection.query("SELECT body::text FROM course_instructions", logger: logger).collect().first {
            corpus.instructions = try decoded(CourseInstructions.self, try body.decode(String.self))
        }
    }
}

// Each variant's alphabet, one JSON document.
extension ContentStore {
    static func alphabets(on connection: PostgresConnection, logger: Logger) async throws -> [Alphabet] {
        try await connection.query("SELECT body::text FROM content_alphabets ORDER BY variant", logger: logger).collect()
            .map { try JSONDecoder().decode(Alphabet.self, from: Data(try $0.decode(String.self).utf8)) }
    }

    static func importAlphabets(_ corpus: Corpus, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("DELETE FROM content_alphabets", logger: logger)
        for alphabet in corpus.alphabets {
            let body = String(decoding: try JSONEncoder().encode(alphabet), as: UTF8.self)
            try await connection.query(
                "INSERT INTO content_alphabets (variant, body) VALUES (\(alphabet.variant), \(body)::jsonb)", logger: logger)
        }
    }
}

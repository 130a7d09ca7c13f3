import Foundation
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// Each learner's saved words and phrases, per language.
public struct SavedItemStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    public struct Saved: Sendable, Equatable {
        public var kind: SavedList.Kind
        public var itemID: String
        public var studying: Bool
        public var savedAt: Date
    }

    public func items(_ learner: AuthorizedLearner, language: Language) async throws -> [Saved] {
        try await database.withConnection { try await items(learner, language: language, on: $0) }
    }

    private func items(_ learner: AuthorizedLearner, language: Language, on connection: PostgresConnection) async throws -> [Saved] {
        try await connection.query(
            """
            SELECT kind, item_id, studying, saved_at FROM saved_items
            WHERE learner_id = \(learner.uuid) AND language = \(language.code) ORDER BY saved_at, kind, item_id
            """, logger: database.logger
        ).collect().map { row in
            let (kind, id, studying, savedAt) = try row.decode((String, String, Bool, Date).self)
            return Saved(kind: SavedList.Kind(rawValue: kind) ?? .word, itemID: id, studying: studying, savedAt: savedAt)
        }
    }

    public enum Outcome: Sendable {
        case saved(Saved, new: Bool)
        /// The list holds `SavedList.limit` items already: these.
        case full([Saved])
    }

    /// Saves the item unless it is saved already or the list is full; one
    /// learner's saves are taken one at a time, so the limit holds.
    public func save(_ learner: AuthorizedLearner, language: Language, kind: SavedList.Kind, itemID: String) async throws -> Outcome {
        try await database.withTransaction { connection in
            let owner = try await connection.query("SELECT id FROM learners WHERE id = \(learner.uuid) FOR UPDATE", logger: database.logger)
                .collect()
            guard !owner.isEmpty else { throw ParlaError(.learnerNotFound) }
            let saved = try await items(learner, language: language, on: connection)
            if let existing = saved.first(where: { $0.kind == kind && $0.itemID == itemID }) { return .saved(existing, new: false) }
            guard SavedList.hasRoom(count: saved.count) else { return .full(saved) }
            let rows = try await connection.query(
                """
                INSERT INTO saved_items (learner_id, language, kind, item_id)
                VALUES (\(learner.uuid), \(language.code), \(kind.rawValue), \(itemID)) RETURNING saved_at
                """, logger: database.logger
            ).collect()
            return .saved(Saved(kind: kind, itemID: itemID, studying: false, savedAt: try rows[0].decode(Date.self)), new: true)
        }
    }

    /// False when the item was not saved.
    public func remove(_ learner: AuthorizedLearner, language: Language, kind: SavedList.Kind, itemID: String) async throws -> Bool {
        try await database.withConnection { connection in
            try await connection.query(
                """
                DELETE FROM saved_items
                WHERE learner_id = \(learner.uuid) AND language = \(language.code) AND kind = \(kind.rawValue) AND item_id = \(itemID)
                RETURNING item_id
                """, logger: database.logger
            ).collect().count == 1
        }
    }

    /// Marks the item as the one being studied (any other one is unmarked),
    /// or unmarks it; nil when it is not saved.
    public func setStudying(_ learner: AuthorizedLearner, language: Language, kind: SavedList.Kind, itemID: String, _ studying: Bool)
        async throws -> Saved?
    {
        try await database.withTransaction { connection in
            if studying {
                try await connection.query(
                    """
                    UPDATE saved_items SET studying = false
                    WHERE learner_id = \(learner.uuid) AND language = \(language.code) AND studying
                      AND NOT (kind = \(kind.rawValue) AND item_id = \(itemID))
                    """, logger: database.logger)
            }
            let rows = try await connection.query(
                """
                UPDATE saved_items SET studying = \(studying)
                WHERE learner_id = \(learner.uuid) AND language = \(language.code) AND kind = \(kind.rawValue) AND item_id = \(itemID)
                RETURNING saved_at
                """, logger: database.logger
            ).collect()
            guard let row = rows.first else { return nil }
            return Saved(kind: kind, itemID: itemID, studying: studying, savedAt: try row.decode(Date.self))
        }
    }
}

/// The discovery feed's memory: what each learner was shown and did.
public struct FeedStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    public enum Reaction: String, Sendable {
        case liked, dismissed
    }

    /// Every card the learner was shown in the language (settled once it
    /// reacted), and the saved items, which the feed does not offer either.
    public func history(_ learner: AuthorizedLearner, language: Language) async throws
        -> (seen: [DiscoveryFeed.Seen<SavedList.Key>], saved: Set<SavedList.Key>)
    {
        try await database.withConnection { connection in
            let seen = try await connection.query(
                """
                SELECT kind, item_id, reaction IS NOT NULL, seen_at FROM feed_cards
                WHERE learner_id = \(learner.uuid) AND language = \(language.code)
                """, logger: database.logger
            ).collect().compactMap { row -> DiscoveryFeed.Seen<SavedList.Key>? in
                let (kind, id, reacted, seenAt) = try row.decode((String, String, Bool, Date).self)
                return SavedList.Kind(rawValue: kind).map {
                    DiscoveryFeed.Seen(key: SavedList.Key(kind: $0, id: id), settled: reacted, order: seenAt.timeIntervalSince1970)
                }
            }
            let saved = try await connection.query(
                "SELECT kind, item_id FROM saved_items WHERE learner_id = \(learner.uuid) AND language = \(language.code)",
                logger: database.logger
            ).collect().compactMap { row -> SavedList.Key? in
                let (kind, id) = try row.decode((String, String).self)
                return SavedList.Kind(rawValue: kind).map { SavedList.Key(kind: $0, id: id) }
            }
            return (seen, Set(saved))
        }
    }

    /// Records the cards as shown now.
    public func shown(_ learner: AuthorizedLearner, language: Language, cards: [SavedList.Key]) async throws {
        guard !cards.isEmpty else { return }
        try await database.withConnection { connection in
            try await connection.query(
                """
                INSERT INTO feed_cards (learner_id, language, kind, item_id)
                SELECT \(learner.uuid), \(language.code), k, i
                FROM unnest(\(cards.map(\.kind.rawValue))::text[], \(cards.map(\.id))::text[]) AS c (k, i)
                ON CONFLICT (learner_id, language, kind, item_id) DO UPDATE SET seen_at = now()
                """, logger: database.logger)
        }
    }

    /// Records the learner's reaction to a card (shown or not).
    public func react(_ learner: AuthorizedLearner, language: Language, kind: SavedList.Kind, itemID: String, _ reaction: Reaction)
        async throws
    {
        try await database.withConnection { connection in
            try await connection.query(
                """
                INSERT INTO feed_cards (learner_id, language, kind, item_id, reaction, reacted_at)
                VALUES (\(learner.uuid), \(language.code), \(kind.rawValue), \(itemID), \(reaction.rawValue), now())
                ON CONFLICT (learner_id, language, kind, item_id) DO UPDATE SET reaction = EXCLUDED.reaction, reacted_at = now()
                """, logger: database.logger)
        }
    }
}

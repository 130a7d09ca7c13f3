import Foundation
import ParlaCore
import ParlaStore

/// A learner's saved words and phrases, and the discovery feed whose
/// likes fill it: the stores' rows with the content they name, in the
/// language of the list.
package struct SavedListService: Sendable {
    package let saved: SavedItemStore
    package let feed: FeedStore
    package let content: ContentService
    package let plans: EntitlementService

    package struct Item: Sendable {
        package var saved: SavedItemStore.Saved
        package var text: String
    }

    package static func kind(_ raw: String?) throws(ParlaError) -> SavedList.Kind {
        guard let raw else { throw ParlaError.validation([FieldError("kind", .required)]) }
        guard let kind = SavedList.Kind(rawValue: raw) else { throw ParlaError.validation([FieldError("kind", .invalidItemKind)]) }
        return kind
    }

    /// The item's text in the language; throws `word_not_found` or
    /// `phrase_not_found` for content there is no such item in.
    private func item(_ saved: SavedItemStore.Saved, in language: Language) -> Item {
        // Content that left since it was saved still shows, by its id.
        Item(saved: saved, text: (try? content.itemText(saved.kind, saved.itemID, in: language)) ?? saved.itemID)
    }

    package func list(_ learner: AuthorizedLearner, language: Language) async throws -> [Item] {
        try await saved.items(learner, language: language).map { item($0, in: language) }
    }

    package func save(_ learner: AuthorizedLearner, language: Language, kind: SavedList.Kind, id: String) async throws -> (Item, new: Bool)
    {
        let text = try content.itemText(kind, id, in: language)
        switch try await saved.save(learner, language: language, kind: kind, itemID: id) {
        case .saved(let row, let new): return (Item(saved: row, text: text), new)
        case .full(let rows):
            throw ParlaError.savedListFull(
                rows.map { item($0, in: language) }.map {
                    SavedList.Reference(kind: $0.saved.kind.rawValue, id: $0.saved.itemID, text: $0.text)
                })
        }
    }

    package func remove(_ learner: AuthorizedLearner, language: Language, kind: SavedList.Kind, id: String) async throws {
        guard try await saved.remove(learner, language: language, kind: kind, itemID: id) else { throw ParlaError(.savedItemNotFound) }
    }

    package func setStudying(_ learner: AuthorizedLearner, language: Language, kind: SavedList.Kind, id: String, _ studying: Bool)
        async throws -> Item
    {
        guard let row = try await saved.setStudying(learner, language: language, kind: kind, itemID: id, studying) else {
            throw ParlaError(.savedItemNotFound)
        }
        return item(row, in: language)
    }

    // MARK: The discovery feed

    /// Random cards the learner has not seen (then the ones seen longest
    /// ago), among the words it may open and the phrases of the language;
    /// never one it dismissed, liked or saved. Each is recorded as seen.
    package struct Card: Sendable {
        package var kind: SavedList.Kind
        package var id: String
        package var text: String
    }

    package func cards(_ learner: AuthorizedLearner, language: Language, size: Int) async throws -> [Card] {
        let open = try content.openWords(try await plans.ownership(for: learner).lists)
        let snapshot = try content.snapshot()
        let words = open.filter { (try? content.word($0, in: language)) != nil }.map { SavedList.Key(kind: .word, id: $0) }
        let phrases = snapshot.phrases.values.filter { $0.texts[language] != nil }.map { SavedList.Key(kind: .phrase, id: $0.id) }
        let (seen, saved) = try await feed.history(learner, language: language)
        var random = SystemRandomNumberGenerator()
        let cards = DiscoveryFeed.pick(size, from: words + phrases, seen: seen, saved: saved, using: &random)
        try await feed.shown(learner, language: language, cards: cards)
        return try cards.map { Card(kind: $0.kind, id: $0.id, text: try content.itemText($0.kind, $0.id, in: language)) }
    }

    /// Like: the card is saved (409 `saved_list_full` when there is no
    /// room) and never offered again.
    package func like(_ learner: AuthorizedLearner, language: Language, kind: SavedList.Kind, id: String) async throws -> Item {
        let (item, _) = try await save(learner, language: language, kind: kind, id: id)
        try await feed.react(learner, language: language, kind: kind, itemID: id, .liked)
        return item
    }

    /// Dismiss: never offered again.
    package func dismiss(_ learner: AuthorizedLearner, language: Language, kind: SavedList.Kind, id: String) async throws {
        _ = try content.itemText(kind, id, in: language)
        try await feed.react(learner, language: language, kind: kind, itemID: id, .dismissed)
    }

    package init(saved: SavedItemStore, feed: FeedStore, content: ContentService, plans: EntitlementService) {
        self.saved = saved
        self.feed = feed
        self.content = content
        self.plans = plans
    }
}

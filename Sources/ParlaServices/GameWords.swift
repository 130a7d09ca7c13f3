import Foundation
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaLearning
import ParlaLearningStore
import ParlaStore
import ParlaTeaching

/// What every kind of game deals from, and what its words are to the
/// learning model: one home for card matching and spelling.
package struct GameWords: Sendable {
    package let lessons: LessonStore
    package let content: ContentService
    package let catalogs: LessonCatalogs
    package let plans: EntitlementService

    /// The words a game may deal, in order of preference: those of the
    /// list asked (`word_list_not_found`, `word_list_locked`), or the
    /// learner's due words first (`preferred` of them), then any; `open`:
    /// what the account may open (only that is dealt). A game counts
    /// towards the plan's daily limit.
    package func dealable(_ learner: AuthorizedLearner, language: Language, wordList: String?) async throws
        -> (concepts: [Concept], preferred: Int, open: Set<String>)
    {
        let snapshot = try content.snapshot()
        let ownership = try await plans.ownership(for: learner)
        if let wordList {
            guard snapshot.lists[wordList] != nil else { throw ParlaError(.wordListNotFound) }
            guard ownership.mayOpen(list: wordList) else { throw ParlaError(.wordListLocked) }
        }
        try await plans.checkDailyLimit(.gamesPerDay, for: learner, under: ownership)
        let open = try content.openWords(ownership.lists)
        if let wordList, let list = snapshot.lists[wordList] { return (list.words, 0, open) }
        let learning = try await lessons.learning(learner: learner, language: language)
        // Only due words the account may open count as preferred.
        let due = learning.cards.filter { $0.value.due <= Date() }.keys.compactMap(LessonItemID.init)
            .filter { $0.kind == .word && open.contains($0.key) }.compactMap { snapshot.concepts[$0.key] }
        return (due + snapshot.corpus.concepts, due.count, open)
    }

    /// The learned difficulties of every item, to read once per move.
    package func known() async throws -> [Language: [LessonItemID: ItemDifficulty]] { try await catalogs.difficulties(lessons) }

    /// A game's words as the practice model knows them: those of the
    /// lessons' catalogue, with their learned difficulties.
    package func words(_ concepts: some Sequence<String>, in language: Language, known: [Language: [LessonItemID: ItemDifficulty]]) throws
        -> [String: GameWord]
    {
        let (catalog, learned) = (try catalogs.catalog(language, content: content), known[language] ?? [:])
        var words: [String: GameWord] = [:]
        for concept in concepts where words[concept] == nil {
            guard let item = catalog.item(LessonItemID(.word, concept)) else { continue }
            words[concept] = GameWord(initialDifficulty: item.initialDifficulty, learned: learned[item.id])
        }
        return words
    }
}

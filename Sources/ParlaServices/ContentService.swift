import Crypto
import Foundation
import Logging
import ParlaCommerce
import ParlaContent
import ParlaCore
import ParlaSpeech
import ParlaStore
import Synchronization

/// The imported content, held in memory: it only changes with its version,
/// so requests never wait on the database for it.
package final class ContentCatalog: Sendable {
    package struct Snapshot: Sendable {
        package let version: String
        package let corpus: Corpus
        package let concepts: [String: Concept]
        /// The lists each concept belongs to, in list order.
        package let listsOfConcept: [String: [String]]
        package let lists: [String: WordList]
        package let phrases: [String: Phrase]
        package let notes: [String: GrammarNote]
        /// The concepts each word names: a game never pairs a word with a
        /// picture or translation it could also mean.
        package let senses: WordSenses
        /// The asset filling each slot, by the slot's name.
        package let assets: [String: String]
        /// What is sold and what each plan allows, imported with this version.
        package let catalogue: Catalogue
        /// Each language's course lessons and checkpoints, by id.
        package let courseLessons: [Language: CourseLessons]
        /// Every list's free words, open to all.
        package let freeWords: Set<String>

        package init(version: String, corpus: Corpus, assets: [String: String], catalogue: Catalogue) {
            self.version = version
            self.corpus = corpus
            self.assets = assets
            self.catalogue = catalogue
            freeWords = Set(corpus.wordLists.flatMap(\.freeKeys))
            concepts = Dictionary(corpus.concepts.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            var memberships: [String: [String]] = [:]
            for list in corpus.wordLists { for word in list.words { memberships[word.key, default: []].append(list.id) } }
            listsOfConcept = memberships
            lists = Dictionary(corpus.wordLists.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            phrases = Dictionary(corpus.phrases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            notes = Dictionary(corpus.grammarNotes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            senses = WordSenses(corpus.concepts)
            courseLessons = Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0, CourseLessons(corpus, language: $0)) })
        }

        /// A lesson of `language`'s course, or a level's checkpoint, by id, with its pack.
        package func courseLesson(_ id: String, in language: Language) -> CourseLessons.Entry? { courseLessons[language]?[id] }

        /// Where a client fetches the asset of a slot, if the content has one.
        package func assetPath(_ slot: AssetSlot) -> String? { assetName(slot).map { "/v1/assets/" + $0 } }

        /// The asset a slot names; for a word as a variant says it, its
        /// language's where the variant's is not made (yet).
        package func assetName(_ slot: AssetSlot) -> String? {
            if let name = assets[slot.description] { return name }
            guard case .variantWord(let concept, let tag) = slot, let language = Language(rawValue: String(tag.prefix { $0 != "-" }))
            else { return nil }
            return assets[AssetSlot.word(concept: concept, language).description]
        }

        /// A word said as a course variant says it (`en-US` "gray", by the
        /// American voice), or as its language does.
        package func wordAudio(_ concept: String, _ language: Language, words: String?) -> String? {
            let tag = words ?? language.code
            return assetPath(tag == language.code ? .word(concept: concept, language) : .variantWord(concept: concept, tag: tag))
        }

        /// A letter of a variant said where it stands: at the end of a word,
        /// its final sound where it has one.
        package func letterAudio(_ letter: String, variant: String, last: Bool = false) -> String? {
            (last ? assetPath(.letter(variant: variant, letter: letter, final: true)) : nil)
                ?? assetPath(.letter(variant: variant, letter: letter, final: false))
        }
    }

    private let current = Mutex<Snapshot?>(nil)
    /// Pages already laid out, by version, language, list, owned lists and
    /// number: content only changes with its version.
    private let pages = Mutex<[String: (WordPage<Concept>, Bool)]>([:])
    private static let cachedPageLimit = 20_000

    private let building = Atomic<Bool>(false)

    package var snapshot: Snapshot? { current.withLock { $0 } }

    /// True while `parla serve` makes missing assets in the background:
    /// answers may still change (timings appear), so they are not kept.
    package var isBuildingAssets: Bool {
        get { building.load(ordering: .relaxed) }
        set { building.store(newValue, ordering: .relaxed) }
    }

    package func replace(with snapshot: Snapshot) {
        current.withLock { $0 = snapshot }
        pages.withLock { $0.removeAll() }
    }

    package func page(_ key: String, orMake make: () throws -> (WordPage<Concept>, Bool)) rethrows -> (WordPage<Concept>, Bool) {
        if let page = pages.withLock({ $0[key] }) { return page }
        let page = try make()
        pages.withLock { cache in
            if cache.count >= Self.cachedPageLimit { cache.removeAll() }
            cache[key] = page
        }
        return page
    }

    /// The last version this process decoded. A version names its content
    /// exactly (a hash of every file and asset, imported once), so a
    /// server built again in the same process (a command beside the
    /// server, each test's server) takes it as it is: decoding the corpus
    /// takes 1.4 s in a debug build, most of a test server's start.
    private static let decoded = Mutex<Snapshot?>(nil)

    /// Reads the newest imported version from the database into memory.
    package func reload(from store: ContentStore) async throws {
        if let known = Self.decoded.withLock({ $0 }), try await store.newestVersion() == known.version {
            replace(with: known)
            return
        }
        if let (version, corpus, assets, text) = try await store.loadCorpus() {
            // Checked on import: a problem here is a hand-edited database.
            let (catalogue, problems) = CatalogueReader(for: corpus).read(text)
            if !problems.isEmpty { store.logger.error("catalogue", metadata: ["problems": "\(problems)"]) }
            let snapshot = Snapshot(version: version, corpus: corpus, assets: assets, catalogue: catalogue)
            Self.decoded.withLock { $0 = snapshot }
            replace(with: snapshot)
        }
    }

    package init() {}
}

/// Word lists, pages, words, phrases and grammar notes, per language.
package struct ContentService: Sendable {
    package let catalog: ContentCatalog
    package let content: ContentStore
    package let assets: AssetStore
    /// Planned assets not built yet are made when asked for (a first start).
    package var onDemand: AssetsOnDemand? = nil

    package static let allWords = "all"

    package func snapshot() throws -> ContentCatalog.Snapshot {
        guard let snapshot = catalog.snapshot else { throw ParlaError(.contentUnavailable) }
        return snapshot
    }

    package func language(_ code: String) throws -> Language {
        guard let language = Language(rawValue: code) else { throw ParlaError(.languageNotFound) }
        return language
    }

    package struct ListView: Sendable {
        package var list: WordList
        package var locked: Bool
        /// The words the learner may see: all of them, or the free ones.
        package var words: [Concept]
    }

    /// `open`: the lists the learner's account may open whole (`Ownership.lists`).
    package func lists(in language: Language, open: Set<String>) throws -> [ListView] {
        try snapshot().corpus.wordLists.map { view(of: $0, in: language, open: open) }
    }

    package func view(of list: WordList, in language: Language, open: Set<String>) -> ListView {
        let locked = !open.contains(list.id)
        let visible = list.words.filter { word in
            (!locked || list.freeKeys.contains(word.key)) && !(word.localization(language)?.isDisabled ?? true)
        }
        return ListView(list: list, locked: locked, words: visible)
    }

    /// Page `number` of a list, or of every word the learner can use
    /// (`all`: owned lists whole, locked ones by their free words, each word
    /// once), its words in the alphabetical order of their spelling as `writing` spells them (a
    /// variant's "gray" sorts as written), or as the content does.
    package func page(_ number: Int, of listID: String, in language: Language, open: Set<String>, as writing: WordWriting? = nil)
        throws -> (page: WordPage<Concept>, locked: Bool)
    {
        let snapshot = try snapshot()
        let cacheKey = [
            snapshot.version, language.code, writing?.words ?? "-", listID, open.sorted().joined(separator: ","), String(number),
        ]
        .joined(separator: "|")
        return try catalog.page(cacheKey) {
            try layOut(number, of: listID, in: language, open: open, as: writing, snapshot: snapshot)
        }
    }

    /// The words a learner may meet: its open lists' words and every free word.
    package func openWords(_ open: Set<String>) throws -> Set<String> {
        let snapshot = try snapshot()
        return open.reduce(into: snapshot.freeWords) { words, list in words.formUnion(snapshot.lists[list]?.words.map(\.key) ?? []) }
    }

    private func layOut(
        _ number: Int, of listID: String, in language: Language, open: Set<String>, as writing: WordWriting?,
        snapshot: ContentCatalog.Snapshot
    ) throws -> (page: WordPage<Concept>, locked: Bool) {
        let words: [Concept]
        let locked: Bool
        if listID == Self.allWords {
            var seen = Set<String>()
            words = snapshot.corpus.wordLists.flatMap { view(of: $0, in: language, open: open).words }.filter {
                seen.insert($0.key).inserted
            }
            locked = false
        } else {
            guard let list = snapshot.lists[listID] else { throw ParlaError(.wordListNotFound) }
            let view = view(of: list, in: language, open: open)
            (words, locked) = (view.words, view.locked)
        }
        let collation = Collation(language)
        guard let page = WordPaging.page(number, of: words, collation: collation, text: { Self.sortText($0, language, as: writing) }) else {
            throw ParlaError(.pageNotFound)
        }
        return (page, locked)
    }

    package static func sortText(_ concept: Concept, _ language: Language, as writing: WordWriting? = nil) -> String {
        let localization = writing.flatMap { concept.localization($0.words) } ?? concept.localization(language)
        return localization?.sortKey ?? localization?.word ?? concept.key
    }

    package func word(_ key: String, in language: Language) throws -> (Concept, Localization, lists: [String]) {
        let snapshot = try snapshot()
        guard let concept = snapshot.concepts[key], let localization = concept.localization(language), !localization.isDisabled else {
            throw ParlaError(.wordNotFound)
        }
        return (concept, localization, snapshot.listsOfConcept[key] ?? [])
    }

    /// Words whose spelling starts with `prefix`, ignoring case and accents.
    package func search(_ prefix: String, in language: Language, limit: Int) throws -> [Concept] {
        let folded = Self.fold(prefix)
        guard (1...50).contains(folded.count) else { throw ParlaError.validation([FieldError("prefix", .required)]) }
        guard (1...100).contains(limit) else { throw ParlaError.validation([FieldError("limit", .malformedRequest)]) }
        let collation = Collation(language)
        return try snapshot().corpus.concepts
            .filter { concept in
                guard let word = concept.localization(language), !word.isDisabled, let text = word.word else { return false }
                return Self.fold(text).hasPrefix(folded)
            }
            .map { (concept: $0, key: collation.key(Self.sortText($0, language))) }
            .sorted { $0.key < $1.key }
            .prefix(limit).map(\.concept)
    }

    package static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .replacingOccurrences(of: "ß", with: "ss").trimmingCharacters(in: .whitespaces)
    }

    package func phrases(in language: Language, level: CEFRLevel?, topic: String?, skill: Skill?, page: Int, perPage: Int)
        throws -> (phrases: [Phrase], page: Int, pageCount: Int, total: Int)
    {
        let matching = try snapshot().corpus.phrases.filter { phrase in
            (level == nil || phrase.level == level) && (topic == nil || phrase.topic == topic)
                && (skill == nil || phrase.skill == skill) && phrase.texts[language] != nil
        }
        let pageCount = max(1, (matching.count + perPage - 1) / perPage)
        guard (1...pageCount).contains(page) else { throw ParlaError(.pageNotFound) }
        return (Array(matching.dropFirst((page - 1) * perPage).prefix(perPage)), page, pageCount, matching.count)
    }

    /// A word (with its article) or a phrase as a list shows it, in `language`;
    /// `word_not_found` or `phrase_not_found` when the content has no such item.
    package func itemText(_ kind: SavedList.Kind, _ id: String, in language: Language) throws -> String {
        switch kind {
        case .word:
            let (_, localization, _) = try word(id, in: language)
            return [localization.article, localization.word].compactMap { $0 }.joined(separator: " ")
        case .phrase: return try phrase(id, in: language).texts[language] ?? id
        }
    }

    package func phrase(_ id: String, in language: Language) throws -> Phrase {
        guard let phrase = try snapshot().phrases[id], phrase.texts[language] != nil else { throw ParlaError(.phraseNotFound) }
        return phrase
    }

    /// A story of `language`'s course.
    package func story(_ id: String, in language: Language) throws -> Story {
        guard let story = try snapshot().corpus.stories.first(where: { $0.id == id && $0.language == language }) else {
            throw ParlaError(.storyNotFound)
        }
        return story
    }

    package func notes(in language: Language) throws -> [GrammarNote] {
        try snapshot().corpus.grammarNotes.filter { $0.language == language }.sorted { $0.level < $1.level }
    }

    package func note(_ id: String, in language: Language) throws -> (GrammarNote, [Phrase]) {
        let snapshot = try snapshot()
        guard let note = snapshot.notes[id], note.language == language else { throw ParlaError(.grammarNoteNotFound) }
        return (note, note.examples.compactMap { snapshot.phrases[$0] })
    }

    /// The bytes of a picture, a sound or a narration's timings, or
    /// `asset_not_found`.
    package func asset(_ name: String) async throws -> (bytes: [UInt8], kind: AssetStore.Kind) {
        guard let kind = AssetStore.kind(of: name) else { throw ParlaError(.assetNotFound) }
        if let bytes = try await assets.bytes(of: name) { return (bytes, kind) }
        guard let onDemand, try await onDemand.make(name), let bytes = try await assets.bytes(of: name) else {
            throw ParlaError(.assetNotFound)
        }
        return (bytes, kind)
    }

    /// When each word of a definition is spoken in its audio, once the
    /// build has aligned it.
    package func definitionTimings(of concept: String, in language: Language, _ snapshot: ContentCatalog.Snapshot) async throws
        -> NarrationAlignment?
    {
        guard let name = snapshot.assets[AssetSlot.definitionTimings(concept: concept, language).description],
            let bytes = try await assets.bytes(of: name)
        else { return nil }
        return try? JSONDecoder().decode(NarrationAlignment.self, from: Data(bytes))
    }

    /// A validator that changes with the content, with the lists the
    /// learner may open (so a purchase shows at once), and when a background
    /// build of the assets finishes (word cards gain their timings).
    package func entityTag(_ parts: String..., open: Set<String>? = nil) throws -> String {
        let version = try snapshot().version + (catalog.isBuildingAssets ? "+building" : "")
        let seed = ([version] + parts + [(open.map { $0.sorted().joined(separator: ",") }) ?? "-"]).joined(separator: "|")
        let digest = SHA256.hash(data: Data(seed.utf8)).prefix(12).hexadecimal
        return "\"\(digest)\""
    }

    package init(catalog: ContentCatalog, content: ContentStore, assets: AssetStore, onDemand: AssetsOnDemand? = nil) {
        self.catalog = catalog
        self.content = content
        self.assets = assets
        self.onDemand = onDemand
    }
}

extension CatalogueReader {
    /// The reader that checks the catalogue against `corpus`: its word lists
    /// and the packs of its course.
    package init(for corpus: Corpus) {
        self.init(lists: Set(corpus.wordLists.map(\.id)), coursePacks: Set(corpus.packs.map(\.sharedID)))
    }
}

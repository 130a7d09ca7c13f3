import Crypto
import Foundation
import Logging
import ParlaCommerce
import ParlaContent
import ParlaCore
import ParlaSpeech
import ParlaStore
import Yams

/// Reads a `Corpora/` directory, validates all of it, and imports it.
public struct ContentImporter: Sendable {
    public struct Report: Sendable {
        public var version: String
        public var imported: Bool
        public var wordLists: Int, concepts: Int, phrases: Int, grammarNotes: Int
        public var packs: Int, lessons: Int, stories: Int
        /// Distinct assets the content uses.
        public var assets: Int
        /// Assets made by this run (`parla content build`).
        public var built = 0
    }

    public struct Invalid: Error, CustomStringConvertible {
        public var problems: [ContentProblem]
        public var description: String { problems.map(\.description).joined(separator: "\n") }
    }

    /// What a Corpora directory holds once it is known to be valid.
    package struct Content: Sendable {
        package var corpus: Corpus
        /// `products.yaml` as written: the server reads it with the corpus.
        package var catalogue: String
        /// A hash of every file and of every asset's name.
        package var version: String
        package var assets: [AssetSlot: PlannedAsset]

        /// The name of the asset filling each slot, as the database keeps it.
        package var assetNames: [String: String] { Dictionary(uniqueKeysWithValues: assets.map { ($0.key.description, $0.value.name) }) }
    }

    public let directory: String
    package let planner: AssetPlanner

    /// `narrators`: the speech models that time the words of definitions;
    /// without them the content has no timings.
    public init(directory: String, openMojiDirectory: String, narrators: SpeechModels? = nil) {
        self.directory = directory
        var narratorNames: [Language: String] = [:]
        for language in Language.allCases {
            if case .success(let model) = narrators?.active(language) { narratorNames[language] = model.description.name }
        }
        planner = AssetPlanner(corpusDirectory: directory, openMojiDirectory: openMojiDirectory, narrators: narratorNames)
    }

    /// The corpus, its products, its assets and its version, or every
    /// problem found.
    package func read() throws -> Content {
        let root = URL(fileURLWithPath: directory)
        let manager = FileManager.default
        var files: [CorpusLoader.File] = []
        var hasher = SHA256()
        var pictures = Set<String>()
        let enumerator = manager.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        var paths: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            paths.append(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
        }
        for path in paths.sorted() {
            let data = try Data(contentsOf: root.appendingPathComponent(path))
            hasher.update(data: Data(path.utf8))
            hasher.update(data: data)
            if path.hasPrefix("pictures/"), path.hasSuffix(".svg") { pictures.insert(String(path.dropFirst(9).dropLast(4))) }
            if path.hasSuffix(".yaml") { files.append(.init(path: path, text: String(decoding: data, as: UTF8.self))) }
        }
        let drawn = pictures
        let planner = planner
        let hasOpenMoji = planner.isOpenMojiInstalled
        let loader = CorpusLoader { reference in
            switch reference {
            case .svg(let name): drawn.contains(name)
            case .emoji(let points): !hasOpenMoji || planner.emojiFile(points) != nil
            }
        }
        let (corpus, problems) = loader.load(files.filter { $0.path != "products.yaml" })
        var allProblems = problems
        if !hasOpenMoji {
            allProblems.append(
                ContentProblem(
                    file: planner.openMojiDirectory, line: 1, kind: .missingAsset,
                    message: "OpenMoji's drawings are not installed there: run `make install-deps`"))
        }
        let catalogue = files.first { $0.path == "products.yaml" }
        if let catalogue {
            let (_, problems) = CatalogueReader(for: corpus).read(catalogue.text)
            allProblems += problems.map {
                ContentProblem(file: catalogue.path, line: $0.line, kind: .invalidValue, message: $0.message)
            }
        }
        let plan = AssetPlan(corpus: corpus, files: Set(paths))
        allProblems += plan.problems
        guard allProblems.isEmpty else { throw Invalid(problems: allProblems) }
        let assets = try planner.assets(for: plan)
        for (slot, asset) in assets.sorted(by: { $0.key < $1.key }) { hasher.update(data: Data("\(slot)=\(asset.name)\n".utf8)) }
        let version = hasher.finalize().prefix(16).hexadecimal
        return Content(corpus: corpus, catalogue: catalogue?.text ?? "", version: version, assets: assets)
    }

    /// Validates, then imports in one transaction unless this version is
    /// already there.
    public func run(into store: ContentStore, logger: Logger, progress: ContentStore.Progress? = nil) async throws -> Report {
        try await importContent(try read(), into: store, logger: logger, progress: progress)
    }

    package func importContent(
        _ content: Content, into store: ContentStore, logger: Logger,
        progress: ContentStore.Progress? = nil
    ) async throws -> Report {
        let imported = try await store.importCorpus(
            content.corpus, assets: content.assetNames, catalogue: content.catalogue, version: content.version,
            progress: progress)
        logger.info("content", metadata: ["version": "\(content.version)", "imported": "\(imported)"])
        let corpus = content.corpus
        return Report(
            version: content.version, imported: imported, wordLists: corpus.wordLists.count,
            concepts: corpus.concepts.count, phrases: corpus.phrases.count, grammarNotes: corpus.grammarNotes.count,
            packs: corpus.packs.count, lessons: corpus.lessonCount, stories: corpus.stories.count,
            assets: Set(content.assets.values.map(\.name)).count)
    }
}

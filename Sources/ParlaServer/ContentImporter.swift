import Crypto
import Foundation
import Logging
import ParlaContent
import ParlaCore
import ParlaStore
import Yams

/// Reads a `Corpora/` directory, validates all of it, and imports it.
public struct ContentImporter: Sendable {
    public struct Report: Sendable {
        public var version: String
        public var imported: Bool
        public var wordLists: Int, concepts: Int, phrases: Int, grammarNotes: Int
    }

    public struct Invalid: Error, CustomStringConvertible {
        public var problems: [ContentProblem]
        public var description: String { problems.map(\.description).joined(separator: "\n") }
    }

    /// A product that unlocks word lists (a bundle, or an old app's set).
    public struct Product: Sendable, Equatable {
        public var id: String
        public var unlocks: [String]
    }

    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// The corpus, its products and its version (a hash of every file), or
    /// every problem found.
    public func read() throws -> (corpus: Corpus, products: [Product], version: String) {
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
        let loader = CorpusLoader { reference in
            switch reference {
            case .svg(let name): drawn.contains(name)
            case .emoji: true  // drawings are checked by `parla content build`
            }
        }
        let (corpus, problems) = loader.load(files.filter { $0.path != "products.yaml" })
        var allProblems = problems
        let products = readProducts(files.first { $0.path == "products.yaml" }, lists: Set(corpus.wordLists.map(\.id)), problems: &allProblems)
        guard allProblems.isEmpty else { throw Invalid(problems: allProblems) }
        let version = hasher.finalize().prefix(16).map { String(format: "%02x", $0) }.joined()
        return (corpus, products, version)
    }

    private func readProducts(_ file: CorpusLoader.File?, lists: Set<String>, problems: inout [ContentProblem]) -> [Product] {
        guard let file, let node = try? Yams.compose(yaml: file.text) else { return [] }
        var products: [Product] = []
        for entry in node["products"]?.sequence.map(Array.init) ?? [] {
            guard let id = entry["id"]?.string else { continue }
            let unlocks = (entry["unlocks"]?.sequence.map(Array.init) ?? []).compactMap(\.string)
            for list in unlocks where !lists.contains(list) {
                problems.append(ContentProblem(file: file.path, line: entry.mark?.line ?? 1, kind: .unknownReference,
                                               message: "product \(id) unlocks \(list), which is not a word list"))
            }
            products.append(Product(id: id, unlocks: unlocks))
        }
        return products
    }

    /// Validates, then imports in one transaction unless this version is
    /// already there.
    public func run(into store: ContentStore, logger: Logger) async throws -> Report {
        let (corpus, products, version) = try read()
        let imported = try await store.importCorpus(corpus, version: version)
        for product in products { try await store.mapProduct(product.id, unlocks: product.unlocks) }
        logger.info("content", metadata: ["version": "\(version)", "imported": "\(imported)"])
        return Report(version: version, imported: imported, wordLists: corpus.wordLists.count, concepts: corpus.concepts.count,
                      phrases: corpus.phrases.count, grammarNotes: corpus.grammarNotes.count)
    }
}

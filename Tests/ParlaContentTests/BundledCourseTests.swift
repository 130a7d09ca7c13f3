import Foundation
import ParlaContent
import ParlaCore
import Testing

@Suite("the bundled course")
struct BundledCourseTests {
    static let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Corpora").standardized

    /// Every YAML file of Corpora but the catalogue, as `parla content import` reads them.
    static func load() throws -> (Corpus, [ContentProblem]) {
        let root = corpora.path
        let paths = try #require(FileManager.default.subpathsOfDirectory(atPath: root).sorted())
        let files = try paths.filter { $0.hasSuffix(".yaml") && $0 != "products.yaml" }.map {
            CorpusLoader.File(path: $0, text: try String(contentsOfFile: root + "/" + $0, encoding: .utf8))
        }
        let drawn = Set(paths.filter { $0.hasPrefix("pictures/") && $0.hasSuffix(".svg") }.map { String($0.dropFirst(9).dropLast(4)) })
        // OpenMoji's drawings are checked by the importer where they are installed.
        return CorpusLoader { reference in
            if case .svg(let name) = reference { return drawn.contains(name) }
            return true
        }.load(files)
    }

    @Test("every language: 8 packs of at least 6 lessons, a sight-words pack, two story packs, 12 stories of 80-250 words")
    func sizes() throws {
        let (corpus, problems) = try Self.load()
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        for language in Language.allCases {
            let packs = corpus.packs.filter { $0.language == language }
            #expect(packs.count >= 8, "\(language.code): \(packs.count) packs")
            for pack in packs { #expect(pack.lessons.count >= 6, "\(pack.id): \(pack.lessons.count) lessons") }
            #expect(
                packs.contains { $0.section == .learnToRead && $0.lessons.contains { $0.screens.contains { $0.template == .sightWords } } })
            #expect(packs.filter { $0.section == .readAStory }.count >= 2, "\(language.code)")
            #expect(packs.filter { $0.section == .discover }.allSatisfy { $0.wordList != nil })
            let stories = corpus.stories.filter { $0.language == language }
            #expect(stories.count >= 12, "\(language.code): \(stories.count) stories")
            #expect(Set(stories.map(\.level)) == [.a1, .a2], "\(language.code)")
            for story in stories { #expect(Story.wordCount.contains(story.wordCount), "\(story.id): \(story.wordCount) words") }
            // Every template a lesson can use is used somewhere in the language's course.
            let templates = Set(packs.flatMap(\.lessons).flatMap(\.screens).map(\.template))
            #expect(templates == Set(ScreenTemplate.allCases), "\(language.code): \(templates)")
            #expect(corpus.sightWords[language]?.count == 40, "\(language.code)")
        }
        for template in ScreenTemplate.allCases {
            #expect(corpus.instructions.templates[template]?.instruction.count == Language.allCases.count, "\(template)")
        }
    }
}

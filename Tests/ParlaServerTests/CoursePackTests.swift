import Foundation
import Logging
import ParlaContent
import ParlaServices
import ParlaStore
import ParlaTestSupport
import Testing

@Suite("the course: packs, lessons and stories")
struct CoursePackTests {
    let logger = Logger(label: "parla.tests.course")

    @Test("the course is imported with the content and read back as it was written")
    func importedWhole() async throws {
        let written = try ContentImporter(directory: TestApp.corporaDirectory, openMojiDirectory: TestApp.openMojiDirectory).read().corpus
        let url = try await TestDatabase.shared.newDatabase()
        let read = try await TestDatabase.withPool(url, connections: 1, logger: logger) { database in
            try await ContentStore(database: database).loadCorpus()?.corpus
        }
        let corpus = try #require(read)
        #expect(!written.packs.isEmpty && corpus.packs == written.packs)
        #expect(corpus.stories == written.stories && corpus.sightWords == written.sightWords)
        #expect(corpus.instructions == written.instructions && !corpus.instructions.closing.isEmpty)
    }
}

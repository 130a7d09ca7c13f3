import Foundation
import ParlaCommerce
import ParlaContent
import ParlaCore
import ParlaStore
import ParlaTeaching

/// The course's packs as a learner sees them (issue 34, seed 001): per
/// section, each pack with the learner's progress, whether its account may
/// open it and the offer that would.
package struct PackService: Sendable {
    package let lessons: LessonStore
    package let learners: LearnerStore
    package let content: ContentService
    package let plans: EntitlementService

    package init(lessons: LessonStore, learners: LearnerStore, content: ContentService, plans: EntitlementService) {
        (self.lessons, self.learners, self.content, self.plans) = (lessons, learners, content, plans)
    }

    /// The course in `language` as the learner stands in it.
    package struct View: Sendable {
        package var language: Language
        /// Titles and summaries are shown in it.
        package var native: Language
        package var progress: CourseProgress
        package var records: [String: CourseLessonRecord]
        /// Per locked pack, what on sale opens it, priced in the view's
        /// currency: the pack alone, then the mega-packs that hold it.
        package var offers: [String: [Offer]]
        /// The packs of the course in this language, by shared id: what an
        /// offer's `coursePacks` name.
        package var packsByShared: [String: CoursePack]
    }

    package func course(_ authorized: AuthorizedLearner, language code: String, currency: String) async throws -> View {
        try await view(authorized, language: try content.language(code), currency: currency)
    }

    /// One pack of the course, with the rest of the view it comes from.
    package func pack(_ authorized: AuthorizedLearner, id: String, currency: String) async throws -> (View, CourseProgress.Pack) {
        guard let language = try content.snapshot().corpus.packs.first(where: { $0.id == id })?.language else {
            throw ParlaError(.packNotFound)
        }
        let view = try await view(authorized, language: language, currency: currency)
        guard let pack = view.progress.packs.first(where: { $0.pack.id == id }) else { throw ParlaError(.packNotFound) }
        return (view, pack)
    }

    private func view(_ authorized: AuthorizedLearner, language: Language, currency: String) async throws -> View {
        let snapshot = try content.snapshot()
        async let ownership = plans.ownership(for: authorized)
        async let records = lessons.courseLessons(learner: authorized, language: language)
        async let learner = learners.learner(authorized)
        let (owned, taken) = try await (ownership, records)
        let packs = snapshot.corpus.packs.filter { $0.language == language }
        let progress = CourseProgress(packs: packs, records: taken) { !owned.mayOpen(coursePack: $0.sharedID) }
        let now = Date()
        var offers: [String: [Offer]] = [:]
        for pack in progress.packs where pack.locked {
            offers[pack.pack.id] = snapshot.catalogue.offers(opening: pack.pack.sharedID, for: owned, currency: currency, at: now)
        }
        return View(
            language: language, native: try await learner.nativeLanguage, progress: progress, records: taken, offers: offers,
            packsByShared: Dictionary(packs.map { ($0.sharedID, $0) }, uniquingKeysWith: { first, _ in first }))
    }
}

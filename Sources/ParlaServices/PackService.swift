import Foundation
import ParlaCommerce
import ParlaContent
import ParlaCore
import ParlaLearningStore
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
    package let courses: CourseStore
    /// Where what learners make of each lesson is counted (a read replica's, when there is one).
    package let appeal: AnalyticsStore
    package let downloadSizes = PackDownloadSizes()

    package init(
        lessons: LessonStore, learners: LearnerStore, content: ContentService, plans: EntitlementService, courses: CourseStore,
        appeal: AnalyticsStore
    ) {
        (self.lessons, self.learners, self.content, self.plans) = (lessons, learners, content, plans)
        (self.courses, self.appeal) = (courses, appeal)
    }

    /// The main menu in `language`: what to take next, with the course view
    /// it comes from. Lessons are weighed by what learners at the learner's
    /// level made of them (at every level while none at its level took any).
    package func menu(_ authorized: AuthorizedLearner, language code: String) async throws -> (View, CourseMenu) {
        let (course, _, appeal) = try await standing(authorized, language: code) { language, level in
            let appeal = try await self.appeal.courseAppeal(language: language, level: level)
            guard appeal.isEmpty, level != nil else { return appeal }
            return try await self.appeal.courseAppeal(language: language, level: nil)
        }
        return (course, CourseMenu(progress: course.progress, records: course.records, appeal: appeal))
    }

    /// The learner's path through the course in `language`, with the
    /// course view it comes from (`CoursePath`).
    package func path(_ authorized: AuthorizedLearner, language code: String) async throws -> (View, CoursePath) {
        let (course, level, _) = try await standing(authorized, language: code) { _, _ in () }
        let path = CoursePath(
            corpus: try content.snapshot().corpus, language: course.language, progress: course.progress, courseLevel: level)
        return (course, path)
    }

    /// The course view in `language` (no prices or sizes) and the
    /// learner's course level there, with what `alongside` reads from that
    /// level: both read while the view is.
    private func standing<Extra: Sendable>(
        _ authorized: AuthorizedLearner, language code: String,
        alongside: (Language, CEFRLevel?) async throws -> Extra
    ) async throws -> (View, CEFRLevel?, Extra) {
        let language = try content.language(code)
        async let view = view(authorized, language: language, currency: "USD", sized: false)
        let level = try await courses.courses(of: authorized).first { $0.language == language }?.level
        let extra = try await alongside(language, level)
        return (try await view, level, extra)
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
        /// Per pack, the bytes of its assets the store has (seed 001: "273MB");
        /// empty for a view asked without them.
        package var downloadBytes: [String: Int]
    }

    /// An asset of a pack's download: its slot, its name in the store, and
    /// its size and hash once the store has made it (nil: not yet).
    package struct BundledAsset: Sendable {
        package var slot: AssetSlot
        package var name: String
        package var file: AssetFile?
    }

    /// Everything a pack shows and says for this learner, to download whole
    /// and learn offline: `pack_locked` (403) while its account may not open it.
    package func bundle(_ authorized: AuthorizedLearner, id: String) async throws -> (View, CourseProgress.Pack, [BundledAsset]) {
        let (view, pack) = try await pack(authorized, id: id, currency: "USD", sized: false)
        guard !pack.locked else { throw ParlaError(.packLocked) }
        let snapshot = try content.snapshot()
        let planned = assets(of: pack.pack, native: view.native, snapshot)
        let files = try await content.assets.files(planned.map(\.name))
        return (view, pack, planned.map { BundledAsset(slot: $0.slot, name: $0.name, file: files[$0.name]) })
    }

    /// The pack's slots that the content fills, with their asset names.
    private func assets(of pack: CoursePack, native: Language, _ snapshot: ContentCatalog.Snapshot) -> [(slot: AssetSlot, name: String)] {
        snapshot.corpus.assetSlots(of: pack, native: native) { snapshot.concepts[$0] }.compactMap { slot in
            snapshot.assets[slot.description].map { (slot, $0) }
        }
    }

    /// `sized`: with each pack's download size (what the page shows needs it).
    package func course(_ authorized: AuthorizedLearner, language code: String, currency: String, sized: Bool) async throws -> View {
        try await view(authorized, language: try content.language(code), currency: currency, sized: sized)
    }

    /// One pack of the course, with the rest of the view it comes from.
    package func pack(_ authorized: AuthorizedLearner, id: String, currency: String, sized: Bool) async throws -> (
        View, CourseProgress.Pack
    ) {
        guard let language = try content.snapshot().corpus.packs.first(where: { $0.id == id })?.language else {
            throw ParlaError(.packNotFound)
        }
        let view = try await view(authorized, language: language, currency: currency, sized: sized)
        guard let pack = view.progress.packs.first(where: { $0.pack.id == id }) else { throw ParlaError(.packNotFound) }
        return (view, pack)
    }

    private func view(_ authorized: AuthorizedLearner, language: Language, currency: String, sized: Bool) async throws -> View {
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
        let native = try await learner.nativeLanguage
        // Only for the views that show it.
        let downloadBytes =
            sized
            ? try await downloadSizes.bytes(
                of: packs, native: native, stamp: snapshot.version,
                assets: { assets(of: $0, native: native, snapshot).map(\.name) }, files: content.assets) : [:]
        return View(
            language: language, native: native, progress: progress, records: taken, offers: offers,
            packsByShared: Dictionary(packs.map { ($0.sharedID, $0) }, uniquingKeysWith: { first, _ in first }),
            downloadBytes: downloadBytes)
    }
}

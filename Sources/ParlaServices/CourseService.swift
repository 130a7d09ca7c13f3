import Foundation
import ParlaContent
import ParlaCore
import ParlaKept
import ParlaStore

/// The languages a learner studies (T3.1-T3.3).
package struct CourseService: Sendable {
    package let courses: CourseStore
    /// Where a learner's letter case and its courses' variants are read:
    /// the cards kept in memory (one query when not kept).
    package let directory: LearnerDirectory
    package let content: ContentService

    /// A course from the beginning starts at A1; one by placement waits for
    /// the placement test to say where.
    package func start(_ learner: AuthorizedLearner, language code: String, start: Course.Start, variant: String? = nil)
        async throws -> Course
    {
        let language = try content.language(code)
        let course = Course(
            language: language, start: start, level: start == .beginning ? .a1 : nil, variant: try chosen(variant, of: language),
            createdAt: Date())
        return try await courses.create(course, learner: learner)
    }

    /// Changes the course's variant; what it learnt stays.
    package func setVariant(_ learner: AuthorizedLearner, language code: String, variant: String) async throws -> Course {
        let language = try content.language(code)
        return try await courses.setVariant(try chosen(variant, of: language), language: language, learner: learner)
    }

    /// The variant a course is in, as the content names it: the default
    /// one when it names none (or names one the content no longer has).
    package func variant(_ course: Course) throws -> Alphabet? {
        try content.snapshot().corpus.variant(course.variant, of: course.language)
    }

    /// The variant of the learner's course in `language` (the default one
    /// when it has none there).
    package func variant(of learner: AuthorizedLearner, in language: Language) async throws -> Alphabet? {
        try content.snapshot().corpus.variant(try await card(of: learner).variants[language.code], of: language)
    }

    private func card(of learner: AuthorizedLearner) async throws -> LearnerCard {
        guard let card = try await directory.cards([learner.uuid])[learner.uuid] else { throw ParlaError(.learnerNotFound) }
        return card
    }

    /// How `learner` sees the words of `language`: its course's variant
    /// (the default one without a course there) in its letter case (read
    /// when not given); nil where the content has no alphabet for it.
    package func writing(of learner: AuthorizedLearner, in language: Language, letterCase: LetterCase? = nil) async throws
        -> WordWriting?
    {
        let card = try await card(of: learner)
        let variant = try content.snapshot().corpus.variant(card.variants[language.code], of: language)
        return variant.map { WordWriting($0, letterCase: letterCase ?? card.letterCase) }
    }

    /// A variant asked for: stored as named, or nil for the default one.
    private func chosen(_ variant: String?, of language: Language) throws -> String? {
        guard let variant else { return nil }
        let corpus = try content.snapshot().corpus
        guard let alphabet = corpus.alphabet(variant), alphabet.language == language else {
            throw ParlaError(.variantNotFound, fieldErrors: [FieldError("variant", .variantNotFound)])
        }
        return alphabet.variant == corpus.defaultVariant(of: language)?.variant ? nil : alphabet.variant
    }

    package func list(_ learner: AuthorizedLearner) async throws -> [Course] {
        try await courses.courses(of: learner)
    }

    package init(courses: CourseStore, directory: LearnerDirectory, content: ContentService) {
        self.courses = courses
        self.directory = directory
        self.content = content
    }
}

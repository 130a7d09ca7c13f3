import Foundation

/// A language a learner studies.
public struct Course: Sendable, Equatable {
    public enum Start: String, Sendable, CaseIterable {
        /// From A1.
        case beginning
        /// From the level a placement test finds.
        case placement
    }

    public var language: Language
    public var start: Start
    /// Where the course starts; nil until the placement test is done.
    public var level: CEFRLevel?
    /// The variant of the language studied (an alphabet of the content:
    /// `en-GB`, `en-phonics`...); nil for the language's default one.
    public var variant: String?
    public var createdAt: Date

    public init(language: Language, start: Start, level: CEFRLevel?, variant: String? = nil, createdAt: Date) {
        (self.language, self.start, self.level, self.variant, self.createdAt) = (language, start, level, variant, createdAt)
    }
}

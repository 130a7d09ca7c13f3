import Foundation

/// A drawing of a learner's Art Space (seed 001): a picture it drew, a
/// title, and what it said about it when it recorded that.
public struct Drawing: Sendable, Equatable {
    public struct Recording: Sendable, Equatable {
        public var mediaType: String
        public var seconds: Double
        public init(mediaType: String, seconds: Double) { (self.mediaType, self.seconds) = (mediaType, seconds) }
    }

    public var id: DrawingID
    public var title: String
    public var picture: PictureInfo
    public var recording: Recording?
    /// Whether the teachers of the learner's classes may see it; its own
    /// account always may.
    public var isShared: Bool
    public var createdAt: Date

    public init(id: DrawingID, title: String, picture: PictureInfo, recording: Recording?, isShared: Bool, createdAt: Date) {
        (self.id, self.title, self.picture, self.recording, self.isShared, self.createdAt) =
            (id, title, picture, recording, isShared, createdAt)
    }
}

/// The Art Space's rules.
public enum ArtSpaceRules {
    public static let titleLength = 60
    /// Drawings a learner keeps at most (each up to a picture's and a
    /// recording's size): a full Art Space refuses a new one.
    public static let drawingsPerLearner = 100

    /// A title as given, or `invalid_title`.
    public static func title(_ raw: String) throws(ParlaError) -> String {
        guard let title = Label.normalized(raw, maximumLength: titleLength) else {
            throw ParlaError(.invalidTitle, fieldErrors: [FieldError("title", .invalidTitle)])
        }
        return title
    }

    /// Who sees which drawings: the learner's own account all of them, a
    /// teacher of its classes only those it shares.
    public static func seesUnshared(_ role: AuthorizedLearner.Role) -> Bool { role == .owner }

    /// A drawing as `reader` may have it: a voice is heard only by those
    /// who may hear the learner's recordings (its account, or a teacher it
    /// shares its recordings with), as for speech attempts.
    public static func shown(_ drawing: Drawing, to reader: AuthorizedLearner) -> Drawing {
        var shown = drawing
        if !reader.mayHearRecordings { shown.recording = nil }
        return shown
    }
}

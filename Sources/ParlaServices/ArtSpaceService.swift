import Foundation
import NIOPosix
import ParlaCore
import ParlaSpeech
import ParlaStore

/// The Art Space (seed 001): a learner keeps its drawings, each with a
/// title and what it said about it. Pictures and recordings are untrusted:
/// a picture's type and size are read from its bytes (`ImageInspector`), a
/// recording is decoded, off the event loops, within the limits speech
/// attempts have. Its account sees every drawing; the teachers of its
/// classes only those it shares (`ArtSpaceRules`).
package struct ArtSpaceService: Sendable {
    package let drawings: DrawingStore
    /// What a recording may be: as a speech attempt's.
    package let limits: AudioLimits

    package init(drawings: DrawingStore, limits: AudioLimits) { (self.drawings, self.limits) = (drawings, limits) }

    package func save(_ learner: AuthorizedLearner, title raw: String, picture bytes: [UInt8]) async throws -> Drawing {
        let title = try ArtSpaceRules.title(raw)
        let info = try ImageInspector.inspect(bytes)
        return try await drawings.create(learner, title: title, picture: info, bytes: bytes)
    }

    package func list(_ learner: AuthorizedLearner) async throws -> [Drawing] {
        try await drawings.drawings(of: learner, sharedOnly: !ArtSpaceRules.seesUnshared(learner.role)).map {
            ArtSpaceRules.shown($0, to: learner)
        }
    }

    package func get(_ learner: AuthorizedLearner, _ id: DrawingID) async throws -> Drawing {
        ArtSpaceRules.shown(try await drawings.drawing(id, of: learner, sharedOnly: !ArtSpaceRules.seesUnshared(learner.role)), to: learner)
    }

    package func picture(_ learner: AuthorizedLearner, _ id: DrawingID) async throws -> (ImageFormat, [UInt8]) {
        try await drawings.picture(id, of: learner, sharedOnly: !ArtSpaceRules.seesUnshared(learner.role))
    }

    /// What the learner said about the drawing; `drawing_not_found` when it said nothing.
    package func recording(_ learner: AuthorizedLearner, _ id: DrawingID) async throws -> (mediaType: String, bytes: [UInt8]) {
        guard learner.mayHearRecordings,
            let recording = try await drawings.recording(id, of: learner, sharedOnly: !ArtSpaceRules.seesUnshared(learner.role))
        else { throw ParlaError(.drawingNotFound) }
        return recording
    }

    package func update(_ learner: AuthorizedLearner, _ id: DrawingID, title raw: String?, isShared: Bool?) async throws -> Drawing {
        let title = try raw.map { raw throws(ParlaError) in try ArtSpaceRules.title(raw) }
        guard title != nil || isShared != nil else { throw ParlaError(.nothingToUpdate) }
        return try await drawings.update(id, of: learner, title: title, isShared: isShared)
    }

    /// Keeps a recording about the drawing (replacing one before): decoded
    /// first, so that only sound within the limits is kept.
    package func record(_ learner: AuthorizedLearner, _ id: DrawingID, audio: [UInt8]) async throws -> Drawing {
        guard audio.count <= limits.maxBytes else { throw ParlaError(.audioTooLarge) }
        guard let mediaType = AudioDecoder.mediaType(of: audio) else { throw ParlaError(.unsupportedAudio) }
        // The drawing first: nothing is decoded for one that is not there.
        _ = try await drawings.drawing(id, of: learner, sharedOnly: false)
        let limits = self.limits
        let decoded = try await NIOThreadPool.singleton.runIfActive { try AudioDecoder.decode(audio, sampleRate: 16_000, limits: limits) }
        return try await drawings.setRecording(id, of: learner, (mediaType, decoded.duration, audio))
    }

    package func removeRecording(_ learner: AuthorizedLearner, _ id: DrawingID) async throws -> Drawing {
        try await drawings.setRecording(id, of: learner, nil)
    }

    package func delete(_ learner: AuthorizedLearner, _ id: DrawingID) async throws {
        try await drawings.delete(id, of: learner)
    }
}

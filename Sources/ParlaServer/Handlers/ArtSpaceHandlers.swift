import Foundation
import OpenAPIRuntime
import ParlaAPI
import ParlaCore
import ParlaServices

/// The Art Space (`ArtSpaceService`): a learner's drawings and what it said about them.
extension APIHandler {
    func listDrawings(_ input: Operations.ListDrawings.Input) async throws -> Operations.ListDrawings.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let drawings = try await artSpace.list(learner).map { Components.Schemas.Drawing($0, learner: learner.id) }
        return .ok(.init(body: .json(.init(drawings: drawings))))
    }

    func saveDrawing(_ input: Operations.SaveDrawing.Input) async throws -> Operations.SaveDrawing.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let upload: HTTPBody =
            switch input.body {
            case .png(let body), .jpeg(let body), .binary(let body): body
            }
        let bytes = try await Self.collect(upload)
        let drawing = try await artSpace.save(learner, title: input.query.title, picture: bytes)
        return .created(.init(body: .json(.init(drawing, learner: learner.id))))
    }

    func getDrawing(_ input: Operations.GetDrawing.Input) async throws -> Operations.GetDrawing.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let drawing = try await artSpace.get(learner, try parseID(input.path.drawingId, orElse: .drawingNotFound))
        return .ok(.init(body: .json(.init(drawing, learner: learner.id))))
    }

    func updateDrawing(_ input: Operations.UpdateDrawing.Input) async throws -> Operations.UpdateDrawing.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        guard case .json(let form) = input.body else { throw ParlaError(.malformedRequest) }
        let drawing = try await artSpace.update(
            learner, try parseID(input.path.drawingId, orElse: .drawingNotFound), title: form.title, isShared: form.shared)
        return .ok(.init(body: .json(.init(drawing, learner: learner.id))))
    }

    func deleteDrawing(_ input: Operations.DeleteDrawing.Input) async throws -> Operations.DeleteDrawing.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        try await artSpace.delete(learner, try parseID(input.path.drawingId, orElse: .drawingNotFound))
        return .noContent(.init())
    }

    func getDrawingPicture(_ input: Operations.GetDrawingPicture.Input) async throws -> Operations.GetDrawingPicture.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let (format, bytes) = try await artSpace.picture(learner, try parseID(input.path.drawingId, orElse: .drawingNotFound))
        let body = HTTPBody(bytes)
        return .ok(.init(body: format == .png ? .png(body) : .jpeg(body)))
    }

    func getDrawingRecording(_ input: Operations.GetDrawingRecording.Input) async throws -> Operations.GetDrawingRecording.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let recording = try await artSpace.recording(learner, try parseID(input.path.drawingId, orElse: .drawingNotFound))
        return .ok(.init(body: .recording(recording.bytes, mediaType: recording.mediaType)))
    }

    func recordDrawing(_ input: Operations.RecordDrawing.Input) async throws -> Operations.RecordDrawing.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let upload: HTTPBody =
            switch input.body {
            case .audioWav(let body), .audioXWav(let body), .audioFlac(let body), .audioOgg(let body), .audioOpus(let body),
                .audioMpeg(let body), .binary(let body):
                body
            }
        let audio = try await Self.collect(upload)
        let drawing = try await artSpace.record(learner, try parseID(input.path.drawingId, orElse: .drawingNotFound), audio: audio)
        return .ok(.init(body: .json(.init(drawing, learner: learner.id))))
    }

    func deleteDrawingRecording(_ input: Operations.DeleteDrawingRecording.Input) async throws
        -> Operations.DeleteDrawingRecording.Output
    {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let drawing = try await artSpace.removeRecording(learner, try parseID(input.path.drawingId, orElse: .drawingNotFound))
        return .ok(.init(body: .json(.init(drawing, learner: learner.id))))
    }
}

extension Components.Schemas.Drawing {
    init(_ drawing: Drawing, learner: LearnerID) {
        let path = "/v1/learners/\(learner)/drawings/\(drawing.id)"
        self.init(
            id: drawing.id.description, title: drawing.title, picture: path + "/picture",
            pictureType: drawing.picture.mediaType == .png ? .imagePng : .imageJpeg, width: drawing.picture.width,
            height: drawing.picture.height,
            recording: drawing.recording.map { .init(path: path + "/recording", mediaType: $0.mediaType, seconds: $0.seconds) },
            shared: drawing.isShared, createdAt: drawing.createdAt)
    }
}

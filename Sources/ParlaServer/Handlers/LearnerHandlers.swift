import Foundation
import OpenAPIRuntime
import ParlaAPI
import ParlaCore

extension APIHandler {
    func listAvatars(_ input: Operations.ListAvatars.Input) async throws -> Operations.ListAvatars.Output {
        let language = self.language
        return .ok(.init(body: .json(.init(avatars: Avatar.catalogue.map { .init(id: $0.id, name: $0.name.text(in: language)) }))))
    }

    func listLearners(_ input: Operations.ListLearners.Input) async throws -> Operations.ListLearners.Output {
        let learners = try await learners.list(try await caller())
        return .ok(.init(body: .json(.init(learners: learners.map { .init($0) }))))
    }

    func createLearner(_ input: Operations.CreateLearner.Input) async throws -> Operations.CreateLearner.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let form = LearnerForm(
            displayName: body.displayName, age: body.age, avatarID: body.avatarId,
            nativeLanguage: body.nativeLanguage, targetLanguages: body.targetLanguages,
            keepRecordings: body.keepRecordings, publicProfile: body.publicProfile, letterCase: body.letterCase?.rawValue)
        let learner = try await learners.create(try await caller(), form)
        return .created(.init(body: .json(.init(learner))))
    }

    func getLearner(_ input: Operations.GetLearner.Input) async throws -> Operations.GetLearner.Output {
        let learner = try await learners.get(try await authorized(input.path.learnerId, for: .read))
        return .ok(.init(body: .json(.init(learner))))
    }

    func updateLearner(_ input: Operations.UpdateLearner.Input) async throws -> Operations.UpdateLearner.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let learner = try await authorized(input.path.learnerId, for: .write)
        let form = LearnerForm(
            displayName: body.displayName, removeDisplayName: body.removeDisplayName, age: body.age, removeAge: body.removeAge,
            avatarID: body.avatarId,
            nativeLanguage: body.nativeLanguage, targetLanguages: body.targetLanguages,
            keepRecordings: body.keepRecordings, publicProfile: body.publicProfile, letterCase: body.letterCase?.rawValue)
        return .ok(.init(body: .json(.init(try await learners.update(learner, form)))))
    }

    func deleteLearner(_ input: Operations.DeleteLearner.Input) async throws -> Operations.DeleteLearner.Output {
        try await learners.delete(try await authorized(input.path.learnerId, for: .write))
        return .noContent(.init())
    }

    func getLearnerPicture(_ input: Operations.GetLearnerPicture.Input) async throws -> Operations.GetLearnerPicture.Output {
        let (format, bytes) = try await learners.picture(try await authorized(input.path.learnerId, for: .read))
        let body = HTTPBody(bytes)
        return .ok(.init(body: format == .png ? .png(body) : .jpeg(body)))
    }

    func putLearnerPicture(_ input: Operations.PutLearnerPicture.Input) async throws -> Operations.PutLearnerPicture.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let upload: HTTPBody
        switch input.body {
        case .png(let body), .jpeg(let body): upload = body
        }
        // The body middleware has already bounded the size.
        let bytes = try await [UInt8](collecting: upload, upTo: .max)
        let info = try await learners.setPicture(learner, bytes: bytes)
        return .ok(.init(body: .json(.init(info, learner: learner.id))))
    }

    func deleteLearnerPicture(_ input: Operations.DeleteLearnerPicture.Input) async throws -> Operations.DeleteLearnerPicture.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        try await learners.deletePicture(learner)
        return .ok(.init(body: .json(.init(nil, learner: learner.id))))
    }
}

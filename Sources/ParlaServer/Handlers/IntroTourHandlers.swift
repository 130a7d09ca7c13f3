import ParlaAPI
import ParlaCore
import ParlaStore

extension APIHandler {
    func getIntroTour(_ input: Operations.GetIntroTour.Input) async throws -> Operations.GetIntroTour.Output {
        let language = language
        return .ok(
            .init(
                body: .json(
                    .init(
                        version: IntroTour.version,
                        steps: IntroTour.steps.map {
                            .init(id: $0.id, feature: $0.feature, title: $0.title.text(in: language), text: $0.text.text(in: language))
                        }))))
    }

    func getLearnerIntroTour(_ input: Operations.GetLearnerIntroTour.Input) async throws -> Operations.GetLearnerIntroTour.Output {
        let learner = try await authorized(input.path.learnerId, for: .actAs)
        return .ok(.init(body: .json(.init(try await IntroTourStore(database: database).progress(learner)))))
    }

    func putLearnerIntroTour(_ input: Operations.PutLearnerIntroTour.Input) async throws -> Operations.PutLearnerIntroTour.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let learner = try await authorized(input.path.learnerId, for: .write)
        let (status, step) = try IntroTour.validate(status: body.status, step: body.step)
        return .ok(.init(body: .json(.init(try await IntroTourStore(database: database).record(learner, status: status, step: step)))))
    }
}

extension Components.Schemas.IntroTourProgress {
    init(_ progress: IntroTourStore.Progress) {
        self.init(
            version: IntroTour.version, status: .init(rawValue: progress.status.rawValue)!, seenVersion: progress.version,
            step: progress.step, updatedAt: progress.updatedAt,
            show: IntroTour.shouldShow(status: progress.status, seenVersion: progress.version))
    }
}

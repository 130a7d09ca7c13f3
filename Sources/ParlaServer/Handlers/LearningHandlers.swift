import Foundation
import OpenAPIRuntime
import ParlaAPI
import ParlaCore
import ParlaLearning
import ParlaServices

extension APIHandler {
    func startCourse(_ input: Operations.StartCourse.Input) async throws -> Operations.StartCourse.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        guard case .json(let form) = input.body, let start = Course.Start(rawValue: form.start.rawValue) else {
            throw ParlaError(.malformedRequest)
        }
        let course = try await courses.start(learner, language: form.language.rawValue, start: start, variant: form.variant)
        return .created(.init(body: .json(try view(course))))
    }

    func listCourses(_ input: Operations.ListCourses.Input) async throws -> Operations.ListCourses.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        return .ok(.init(body: .json(.init(courses: try await courses.list(learner).map(view)))))
    }

    func updateCourse(_ input: Operations.UpdateCourse.Input) async throws -> Operations.UpdateCourse.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        guard case .json(let form) = input.body else { throw ParlaError(.malformedRequest) }
        let course = try await courses.setVariant(learner, language: input.path.language.rawValue, variant: form.variant)
        return .ok(.init(body: .json(try view(course))))
    }

    /// A course as the API shows it: with the variant it is in, named.
    private func view(_ course: Course) throws -> Components.Schemas.Course {
        Components.Schemas.Course(
            language: .init(rawValue: course.language.code) ?? .en, start: .init(rawValue: course.start.rawValue) ?? .beginning,
            variant: try courses.variant(course)?.variant ?? course.language.code,
            level: course.level.flatMap { .init(rawValue: $0.rawValue) }, createdAt: course.createdAt)
    }
}

extension APIHandler {
    func startPlacement(_ input: Operations.StartPlacement.Input) async throws -> Operations.StartPlacement.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        guard case .json(let form) = input.body else { throw ParlaError(.malformedRequest) }
        let (view, created) = try await placements.start(learner, language: form.language.rawValue)
        let body = try Components.Schemas.Placement(view, content.snapshot())
        return created ? .created(.init(body: .json(body))) : .ok(.init(body: .json(body)))
    }

    func getPlacement(_ input: Operations.GetPlacement.Input) async throws -> Operations.GetPlacement.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let placement: PlacementID = try parseID(input.path.placementId, orElse: .placementNotFound)
        let view = try await placements.get(learner, placement: placement)
        return .ok(.init(body: .json(try .init(view, content.snapshot()))))
    }

    func answerPlacement(_ input: Operations.AnswerPlacement.Input) async throws -> Operations.AnswerPlacement.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let placement: PlacementID = try parseID(input.path.placementId, orElse: .placementNotFound)
        guard case .json(let answer) = input.body else { throw ParlaError(.malformedRequest) }
        let view = try await placements.respond(
            learner, placement: placement, itemID: answer.itemId,
            optionID: answer.optionId, responseTimeMilliseconds: answer.responseTimeMs)
        return .ok(.init(body: .json(try .init(view, content.snapshot()))))
    }
}

extension Components.Schemas.Placement {
    init(_ view: PlacementService.View, _ snapshot: ContentCatalog.Snapshot) {
        let question = view.question.map { served in
            Components.Schemas.PlacementQuestion(
                itemId: served.question.id, number: served.number, skill: .init(rawValue: served.question.skill.rawValue) ?? .vocabulary,
                stem: served.question.stem, passage: served.question.passage,
                audio: snapshot.assetPath(.placementAudio(item: served.question.id, served.question.language)),
                options: served.options.map { .init(id: $0.id, text: $0.text) }, timeLimitSeconds: served.timeLimitSeconds)
        }
        let result = view.result.map { result in
            Components.Schemas.PlacementResult(
                level: .init(rawValue: result.level.rawValue) ?? .a1, ability: result.theta, standardError: result.standardError,
                itemsUsed: result.itemsUsed, seconds: view.finishedAt.map { $0.timeIntervalSince(view.startedAt) } ?? 0,
                skills: result.skills.map { skill in
                    .init(
                        skill: .init(rawValue: skill.skill.rawValue) ?? .vocabulary, level: .init(rawValue: skill.level.rawValue) ?? .a1,
                        ability: skill.theta, standardError: skill.standardError, itemsUsed: skill.itemsUsed)
                })
        }
        self.init(
            id: view.id.description, language: .init(rawValue: view.language.code) ?? .en,
            status: view.finishedAt == nil ? .inProgress : .finished, answered: view.answered, startedAt: view.startedAt,
            finishedAt: view.finishedAt, question: question, result: result)
    }
}

extension APIHandler {
    func getProficiency(_ input: Operations.GetProficiency.Input) async throws -> Operations.GetProficiency.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let view = try await proficiency.proficiency(learner, language: input.query.language.rawValue)
        func status(_ status: ProficiencyStatus) -> Components.Schemas.ProficiencyStatus {
            .init(
                skill: status.skill.flatMap { .init(rawValue: $0.rawValue) }, ability: status.theta,
                level: .init(rawValue: status.level.rawValue) ?? .a1,
                nextLevel: status.nextLevel.flatMap { .init(rawValue: $0.rawValue) }, progress: status.progress, responses: status.responses
            )
        }
        let body = Components.Schemas.Proficiency(
            language: .init(rawValue: view.language.code) ?? .en, overall: status(view.report.overall),
            skills: view.report.skills.map(status),
            history: view.history.map { snapshot in
                .init(
                    day: calendarDay(snapshot.day), skill: .init(rawValue: snapshot.skill?.rawValue ?? "overall") ?? .overall,
                    ability: snapshot.theta, level: .init(rawValue: snapshot.level.rawValue) ?? .a1)
            },
            gaps: view.gaps.map { gap in
                .init(
                    kind: .init(rawValue: gap.kind.rawValue) ?? .topic, id: gap.id,
                    skill: gap.skill.flatMap { .init(rawValue: $0.rawValue) },
                    ability: gap.theta, predictedSuccess: gap.predictedSuccess,
                    reasons: gap.reasons.compactMap { .init(rawValue: $0.rawValue) }, severity: gap.severity,
                    missedItems: gap.mostMissedItemIds)
            })
        return .ok(.init(body: .json(body)))
    }
}

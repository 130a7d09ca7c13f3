import ParlaAPI
import ParlaCore
import ParlaStore

extension APIHandler {
    func recordEvents(_ input: Operations.RecordEvents.Input) async throws -> Operations.RecordEvents.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let learner = try await authorized(input.path.learnerId, for: .write)
        let reports = (body.events ?? []).map {
            Analytics.Report(
                id: $0.id, kind: $0.kind, occurredAt: $0.occurredAt, language: $0.language, listID: $0.listId, itemKind: $0.itemKind,
                itemID: $0.itemId, screen: $0.screen, durationMs: $0.durationMs)
        }
        let recorded = try await analytics.record(reports, utcOffsetMinutes: body.utcOffsetMinutes, for: learner)
        return .ok(
            .init(
                body: .json(
                    .init(
                        accepted: recorded.accepted, duplicates: recorded.duplicates, tooOld: recorded.tooOld,
                        ignored: recorded.ignored))))
    }

    func getActivity(_ input: Operations.GetActivity.Input) async throws -> Operations.GetActivity.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let activity = try await analytics.activity(of: learner, from: input.query.from, to: input.query.to, today: input.query.today)
        return .ok(
            .init(
                body: .json(
                    .init(
                        from: activity.from.description, to: activity.to.description,
                        totalSeconds: activity.days.reduce(0) { $0 + $1.seconds },
                        days: activity.days.map {
                            .init(
                                day: $0.day.description, seconds: $0.seconds, events: $0.events, lessons: $0.lessons, games: $0.games,
                                learning: $0.learning)
                        },
                        streak: .init(current: activity.streak.current, longest: activity.streak.longest)))))
    }

    func getMostTouched(_ input: Operations.GetMostTouched.Input) async throws -> Operations.GetMostTouched.Output {
        try await staff(.analyticsReport)
        let language = try content.language(input.query.language)
        let (items, first, last) = try await analytics.mostTouched(
            language: language, list: input.query.list, from: input.query.from, to: input.query.to, limit: input.query.limit)
        return .ok(
            .init(
                body: .json(
                    .init(
                        language: .init(language), list: input.query.list, from: first.description, to: last.description,
                        items: items.map {
                            .init(
                                kind: .init(rawValue: $0.touched.itemKind.rawValue)!, id: $0.touched.itemID, text: $0.text,
                                touches: $0.touched.touches,
                                byKind: .init(
                                    additionalProperties: Dictionary(
                                        uniqueKeysWithValues: $0.touched.byKind.map { ($0.key.rawValue, $0.value) })))
                        }))))
    }
}

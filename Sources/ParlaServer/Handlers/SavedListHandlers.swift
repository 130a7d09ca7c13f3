import ParlaAPI
import ParlaCore
import ParlaServices

extension APIHandler {
    private var savedList: SavedListService {
        SavedListService(saved: .init(database: database), feed: .init(database: database), content: content, plans: plans)
    }

    func listSavedItems(_ input: Operations.ListSavedItems.Input) async throws -> Operations.ListSavedItems.Output {
        let learner = try await authorized(input.path.learnerId, for: .actAs)
        let language = try content.language(input.query.language)
        let items = try await savedList.list(learner, language: language)
        return .ok(.init(body: .json(.init(language: .init(language), limit: SavedList.limit, items: items.map { .init($0) }))))
    }

    func saveItem(_ input: Operations.SaveItem.Input) async throws -> Operations.SaveItem.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let learner = try await authorized(input.path.learnerId, for: .write)
        var errors: [FieldError] = []
        if body.language == nil { errors.append(FieldError("language", .required)) }
        if body.id?.isEmpty != false { errors.append(FieldError("id", .required)) }
        if !errors.isEmpty { throw ParlaError.validation(errors) }
        let kind = try SavedListService.kind(body.kind)
        let language = try content.language(body.language!)
        let (item, new) = try await savedList.save(learner, language: language, kind: kind, id: body.id!)
        return new ? .created(.init(body: .json(.init(item)))) : .ok(.init(body: .json(.init(item))))
    }

    func updateSavedItem(_ input: Operations.UpdateSavedItem.Input) async throws -> Operations.UpdateSavedItem.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let learner = try await authorized(input.path.learnerId, for: .write)
        let item = try await savedList.setStudying(
            learner, language: try content.language(input.query.language), kind: try SavedListService.kind(input.path.kind),
            id: input.path.itemId, body.studying)
        return .ok(.init(body: .json(.init(item))))
    }

    func removeSavedItem(_ input: Operations.RemoveSavedItem.Input) async throws -> Operations.RemoveSavedItem.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        try await savedList.remove(
            learner, language: try content.language(input.query.language), kind: try SavedListService.kind(input.path.kind),
            id: input.path.itemId)
        return .noContent(.init())
    }
}

extension APIHandler {
    func getFeed(_ input: Operations.GetFeed.Input) async throws -> Operations.GetFeed.Output {
        let learner = try await authorized(input.path.learnerId, for: .actAs)
        let size = input.query.limit ?? DiscoveryFeed.defaultSize
        guard (1...DiscoveryFeed.largestSize).contains(size) else { throw ParlaError.validation([FieldError("limit", .validationFailed)]) }
        let cards = try await savedList.cards(learner, language: try content.language(input.query.language), size: size)
        return .ok(
            .init(
                body: .json(
                    .init(cards: cards.map { .init(kind: .init(rawValue: $0.kind.rawValue)!, id: $0.id, text: $0.text) }))))
    }

    func reactToCard(_ input: Operations.ReactToCard.Input) async throws -> Operations.ReactToCard.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let learner = try await authorized(input.path.learnerId, for: .write)
        let (language, kind) = (try content.language(input.query.language), try SavedListService.kind(input.path.kind))
        switch body.reaction {
        case .like:
            return .ok(.init(body: .json(.init(try await savedList.like(learner, language: language, kind: kind, id: input.path.itemId)))))
        case .dismiss:
            try await savedList.dismiss(learner, language: language, kind: kind, id: input.path.itemId)
            return .noContent(.init())
        }
    }
}

extension Components.Schemas.SavedItem {
    init(_ item: SavedListService.Item) {
        self.init(
            kind: .init(rawValue: item.saved.kind.rawValue)!, id: item.saved.itemID, text: item.text, studying: item.saved.studying,
            savedAt: item.saved.savedAt)
    }
}

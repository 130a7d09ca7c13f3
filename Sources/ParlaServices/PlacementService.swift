import Foundation
import ParlaContent
import ParlaCore
import ParlaLearning
import ParlaLearningStore
import ParlaStore

/// The adaptive placement test (T3.4, T3.5): serves one question at a
/// time, never its answer, scores each response with its time, and at the
/// end sets the level the learner's course starts at.
package struct PlacementService: Sendable {
    package let placements: PlacementStore
    package let content: ContentService

    /// How much quicker than the server measured a client may say it
    /// answered (the network and drawing the screen take some time); no
    /// quicker, so no client can claim impossible speed.
    package static let clientAllowance = 2.0

    /// A question as the learner sees it: options shuffled, with ids.
    package struct ServedQuestion: Sendable {
        package var question: PlacementQuestion
        package var options: [(id: String, text: String)]
        package var timeLimitSeconds: Double
        package var number: Int
    }

    package struct View: Sendable {
        package var id: PlacementID
        package var language: Language
        package var question: ServedQuestion?
        package var result: PlacementResult?
        package var answered: Int
        package var startedAt: Date
        package var finishedAt: Date?
    }

    /// The language's bank: every question with its 2PL parameters, from
    /// its written level until `parla placement calibrate` estimates them.
    package func bank(_ language: Language, parameters: [String: (discrimination: Double, difficulty: Double)] = [:]) throws
        -> (bank: PlacementBank, questions: [String: PlacementQuestion])
    {
        let questions = try content.snapshot().corpus.placementQuestions.filter { $0.language == language }
        guard !questions.isEmpty else { throw ParlaError(.placementUnavailable) }
        let items = questions.map { question in
            var item = PlacementItem.initial(
                id: question.id, skill: question.skill, level: question.level,
                timeLimitSeconds: PlacementSession.timeLimit(question.skill),
                optionCount: question.distractors.count + 1)
            if let calibrated = parameters[question.id] {
                (item.discrimination, item.difficulty) = (calibrated.discrimination, calibrated.difficulty)
            }
            return item
        }
        return (try PlacementBank(items: items), Dictionary(uniqueKeysWithValues: questions.map { ($0.id, $0) }))
    }

    /// Starts a test in `language`, or resumes the open one (its question
    /// served again, its clock restarted). Returns whether it is new.
    package func start(_ learner: AuthorizedLearner, language code: String) async throws -> (View, created: Bool) {
        let language = try content.language(code)
        let (bank, questions) = try bank(language, parameters: try await placements.parameters(language))
        if let open = try await placements.open(learner: learner, language: language) {
            return (try await resume(open, learner: learner, questions: questions), false)
        }
        let id = PlacementID.generate()
        var session = PlacementSession()
        var random = Self.random(id, step: 0)
        let first = session.nextItem(from: bank, using: &random)
        let stored = try await placements.create(
            id, learner: learner, language: language,
            change: .init(session: try Self.encode(session), servedItem: first?.id, servedAt: Date()))
        return (try view(stored, questions: questions), stored.id == id)
    }

    /// The test as it stands; an open one serves its question again, its
    /// clock restarted, in the same step.
    package func get(_ learner: AuthorizedLearner, placement: PlacementID) async throws -> View {
        let stored = try await placements.update(placement, learner: learner) { current in
            guard current.finishedAt == nil, current.servedItem != nil else { return nil }
            return .init(session: current.session, servedItem: current.servedItem, servedAt: Date())
        }
        return try view(stored, questions: try bank(stored.language).questions)
    }

    /// The learner is looking at the question again: its clock restarts.
    private func resume(
        _ stored: PlacementStore.Stored, learner: AuthorizedLearner,
        questions: [String: PlacementQuestion]
    ) async throws -> View {
        guard stored.finishedAt == nil, stored.servedItem != nil else { return try view(stored, questions: questions) }
        let restarted = try await placements.update(stored.id, learner: learner) { current in
            .init(session: current.session, servedItem: current.servedItem, servedAt: Date())
        }
        return try view(restarted, questions: questions)
    }

    /// Scores the answer to the question on screen and serves the next, or
    /// ends the test. The response time used is the client's, bounded by
    /// the server's own measure.
    package func respond(
        _ learner: AuthorizedLearner, placement: PlacementID, itemID: String, optionID: String,
        responseTimeMilliseconds: Int?
    ) async throws -> View {
        let now = Date()
        // The bank is built once, before the row is locked.
        let language = try await placements.language(of: placement)
        let (bank, questions) = try bank(language, parameters: try await placements.parameters(language))
        let stored = try await placements.update(placement, learner: learner) { stored in
            guard stored.finishedAt == nil else { throw ParlaError(.placementFinished) }
            guard stored.servedItem == itemID else { throw ParlaError(.notCurrentItem) }
            guard let question = questions[itemID] else { throw ParlaError(.notCurrentItem) }
            guard let chosen = Self.options(question, placement: stored.id).first(where: { $0.id == optionID }) else {
                throw ParlaError(.optionNotFound)
            }
            let measured = max(0, now.timeIntervalSince(stored.servedAt ?? now))
            let claimed = responseTimeMilliseconds.map { Double(max(0, $0)) / 1000 } ?? measured
            let responseTime = max(min(claimed, measured), measured - Self.clientAllowance)
            var session = try JSONDecoder().decode(PlacementSession.self, from: stored.session)
            let correct = chosen.text == question.correct
            do {
                try session.record(itemId: itemID, correct: correct, responseTime: responseTime)
            } catch {
                throw ParlaError(.notCurrentItem)
            }
            var random = Self.random(stored.id, step: session.responses.count)
            let next = session.nextItem(from: bank, using: &random)
            let answer = (itemID, correct, Int((responseTime * 1000).rounded()))
            guard next == nil else {
                return .init(session: try Self.encode(session), servedItem: next?.id, servedAt: now, answer: answer)
            }
            let result = session.result(in: bank)
            // The placement seeds the abilities the lessons then move.
            let abilities = result.initialAbilities()
            let snapshots = ProficiencyReport(abilities: abilities, cuts: bank.cuts).snapshots(on: now)
            return .init(
                session: try Self.encode(session), servedItem: nil, servedAt: nil, answer: answer,
                finish: .init(
                    result: try Self.encode(result), level: result.level,
                    abilities: abilities, snapshots: snapshots))
        }
        return try view(stored, questions: questions)
    }

    private func view(_ stored: PlacementStore.Stored, questions: [String: PlacementQuestion]) throws -> View {
        let session = try JSONDecoder().decode(PlacementSession.self, from: stored.session)
        let result = try stored.result.map { try JSONDecoder().decode(PlacementResult.self, from: $0) }
        let served = stored.servedItem.flatMap { questions[$0] }.map { question in
            ServedQuestion(
                question: question, options: Self.options(question, placement: stored.id),
                timeLimitSeconds: PlacementSession.timeLimit(question.skill), number: session.responses.count + 1)
        }
        return View(
            id: stored.id, language: stored.language, question: stored.finishedAt == nil ? served : nil, result: result,
            answered: session.responses.count, startedAt: stored.startedAt, finishedAt: stored.finishedAt)
    }

    /// The question's options in an order fixed for this test (so a reload
    /// shows the same order), ids a-d by position.
    package static func options(_ question: PlacementQuestion, placement: PlacementID) -> [(id: String, text: String)] {
        var random = SimulationRandom(seed: StableHash.of("\(placement)|\(question.id)"))
        let texts = ([question.correct] + question.distractors).shuffled(using: &random)
        return zip(["a", "b", "c", "d", "e", "f"], texts).map { ($0, $1) }
    }

    /// The generator that picks the item after `step` answers: the same
    /// test always makes the same choices, so a retried request agrees.
    package static func random(_ placement: PlacementID, step: Int) -> SimulationRandom {
        SimulationRandom(seed: StableHash.of("\(placement)#\(step)"))
    }

    /// Re-estimates a language's item parameters from every stored answer
    /// (marginal maximum likelihood, EM); items with too few answers keep
    /// theirs. Returns what it did.
    package func calibrate(_ language: Language, minimumResponses: Int) async throws -> CalibrationResult {
        let (bank, _) = try bank(language, parameters: try await placements.parameters(language))
        let responses = try await placements.responses(language).map {
            CalibrationResponse(respondentId: $0.placement, itemId: $0.itemID, correct: $0.correct)
        }
        var options = CalibrationOptions()
        options.minimumResponses = minimumResponses
        let (calibrated, result) = bank.calibrated(responses: responses, options: options)
        let counts = Dictionary(grouping: responses, by: \.itemId).mapValues(\.count)
        let changed = calibrated.items.filter { result.recalibratedItemIds.contains($0.id) }
        try await placements.saveParameters(language, changed.map { ($0.id, $0.discrimination, $0.difficulty, counts[$0.id] ?? 0) })
        return result
    }

    /// State stored as JSON (tests, lessons): keys sorted, so equal states are equal bytes.
    package static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(value)
    }

    package init(placements: PlacementStore, content: ContentService) {
        self.placements = placements
        self.content = content
    }
}

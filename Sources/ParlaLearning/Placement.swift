import Foundation
import ParlaCore

/// A placement test session: an adaptive test (CAT) that ends with a CEFR level overall and per skill.
///
/// Value type, Codable, so the server stores it between requests and resumes it. Each step:
/// `nextItem(from:using:)` picks an item (idempotent while an item is pending), the client answers,
/// `record(itemId:correct:responseTime:)` scores it. Every answer keeps a copy of the item's
/// parameters, so the estimate never needs the bank again and survives a recalibration mid-test.
///
/// - Estimate: EAP on a quadrature grid with the prior N(0, 1) and the configured likelihood
///   (signed residual time by default, see `ItemResponse`); standard error = posterior SD.
/// - Selection: content balancing first (the skill furthest below its target share of the items
///   given so far; ties go to the skill holding the most informative item), then the 5 items of that
///   skill with the most Fisher information at the current estimate, one of them at random
///   ("randomesque", Kingsbury & Zara 1989) so no item is over-exposed.
/// - Stop: posterior SD < 0.3 after at least 8 items, or 25 items, or no item left.
public struct PlacementSession: Codable, Sendable, Hashable {
    public private(set) var configuration: PlacementConfiguration
    public private(set) var responses: [PlacementResponse]
    /// The item handed out and not yet answered.
    public private(set) var pendingItem: PlacementItem?
    /// Set when selection found no item left to give.
    public private(set) var bankExhausted: Bool
    /// Unnormalised log posterior on the grid nodes, kept up to date by `record` (and rebuilt on decoding)
    /// so each step costs one item's likelihood, not the whole test's.
    private var logPosterior: [Double]

    private enum CodingKeys: String, CodingKey {
        case configuration, responses, pendingItem, bankExhausted
    }

    /// Starts a session.
    public init(configuration: PlacementConfiguration = PlacementConfiguration()) {
        self.configuration = configuration
        self.responses = []
        self.pendingItem = nil
        self.bankExhausted = false
        self.logPosterior = Self.logPrior(configuration)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.configuration = try container.decode(PlacementConfiguration.self, forKey: .configuration)
        self.responses = try container.decode([PlacementResponse].self, forKey: .responses)
        self.pendingItem = try container.decodeIfPresent(PlacementItem.self, forKey: .pendingItem)
        self.bankExhausted = try container.decode(Bool.self, forKey: .bankExhausted)
        self.logPosterior = Self.logPosterior(responses, configuration: configuration)
    }

    /// The current overall estimate.
    public var estimate: AbilityEstimate {
        QuadratureGrid.moments(thetas: Self.thetas(configuration), logWeights: logPosterior)
    }

    /// Whether the test is over.
    public var isDone: Bool {
        if bankExhausted || responses.count >= configuration.maximumItems { return true }
        return responses.count >= configuration.minimumItems && estimate.standardError < configuration.targetStandardError
    }

    /// The item to show next; the pending one again if it has not been answered; `nil` once done.
    public mutating func nextItem(from bank: PlacementBank, using generator: inout some RandomNumberGenerator) -> PlacementItem? {
        if let pendingItem { return pendingItem }
        guard !isDone else { return nil }
        let theta = estimate.theta
        guard let item = Self.select(from: bank, after: responses, at: theta, configuration: configuration, using: &generator) else {
            bankExhausted = true
            return nil
        }
        pendingItem = item
        return item
    }

    /// Scores the answer to the pending item. `responseTime` is in seconds; at or beyond the item's
    /// time limit it is a time-out (S = 0).
    @discardableResult
    public mutating func record(itemId: String, correct: Bool, responseTime: Double) throws(PlacementError) -> PlacementResponse {
        guard let item = pendingItem else { throw isDone ? .sessionFinished : .noPendingItem }
        guard item.id == itemId else { throw .unexpectedItem(expected: item.id, received: itemId) }
        guard responseTime >= 0, !responseTime.isNaN else { throw .invalidResponseTime }
        let response = PlacementResponse(item: item, correct: correct, responseTimeSeconds: responseTime)
        responses.append(response)
        Self.add(response, to: &logPosterior, configuration: configuration)
        pendingItem = nil
        return response
    }

    /// The outcome so far (final once `isDone`): ability, level, per-skill levels.
    ///
    /// Per-skill estimates use only that skill's answers with the same N(0, 1) prior, so a skill seen
    /// in 2-3 items is pulled towards the middle: they show relative strengths, the overall level is
    /// the placement. Skills without answers are left out.
    public func result(cuts: CEFRCutScores) -> PlacementResult {
        let overall = estimate
        let skills = Skill.allCases.compactMap { skill -> SkillPlacement? in
            let answers = responses.filter { $0.item.skill == skill }
            guard !answers.isEmpty else { return nil }
            let estimate = QuadratureGrid.moments(
                thetas: Self.thetas(configuration), logWeights: Self.logPosterior(answers, configuration: configuration)
            )
            return SkillPlacement(
                skill: skill, theta: estimate.theta, standardError: estimate.standardError,
                level: cuts.level(for: estimate.theta), itemsUsed: answers.count
            )
        }
        return PlacementResult(
            theta: overall.theta, standardError: overall.standardError, level: cuts.level(for: overall.theta),
            progress: cuts.progress(theta: overall.theta), skills: skills, itemsUsed: responses.count,
            isDone: isDone, scoring: configuration.scoring
        )
    }

    /// The outcome with the bank's cut scores.
    public func result(in bank: PlacementBank) -> PlacementResult {
        result(cuts: bank.cuts)
    }

    /// Grid nodes on the theta scale: prior mean + prior SD * z.
    static func thetas(_ configuration: PlacementConfiguration) -> [Double] {
        configuration.grid.nodes.map { configuration.priorMean + configuration.priorSD * $0 }
    }

    static func logPrior(_ configuration: PlacementConfiguration) -> [Double] {
        configuration.grid.nodes.map { -0.5 * $0 * $0 }
    }

    static func logPosterior(_ responses: [PlacementResponse], configuration: PlacementConfiguration) -> [Double] {
        var logPosterior = logPrior(configuration)
        for response in responses { add(response, to: &logPosterior, configuration: configuration) }
        return logPosterior
    }

    static func add(_ response: PlacementResponse, to logPosterior: inout [Double], configuration: PlacementConfiguration) {
        let statistic = response.statistic(configuration.scoring)
        for (node, theta) in thetas(configuration).enumerated() {
            logPosterior[node] += ItemResponse.logLikelihood(
                statistic: statistic, theta: theta, discrimination: response.item.discrimination,
                difficulty: response.item.difficulty, scoring: configuration.scoring
            )
        }
    }

    static func select(
        from bank: PlacementBank, after responses: [PlacementResponse], at theta: Double, configuration: PlacementConfiguration,
        using generator: inout some RandomNumberGenerator
    ) -> PlacementItem? {
        let used = Set(responses.map(\.item.id))
        let remaining = bank.items.filter { !used.contains($0.id) }
        guard !remaining.isEmpty else { return nil }
        func information(_ item: PlacementItem) -> Double {
            ItemResponse.information(
                theta: theta, discrimination: item.discrimination, difficulty: item.difficulty, scoring: configuration.scoring
            )
        }
        let scored = remaining.map { (item: $0, information: information($0)) }

        // Content balancing: target shares over the skills that still have items.
        let available = Skill.allCases.filter { skill in scored.contains { $0.item.skill == skill } }
        let targets = configuration.targetShares(for: available)
        let given = Double(responses.count + 1)
        func deficit(_ skill: Skill) -> Double {
            (targets[skill] ?? 0) * given - Double(responses.count(where: { $0.item.skill == skill }))
        }
        let bestInformation = Dictionary(grouping: scored, by: \.item.skill).mapValues { $0.map(\.information).max() ?? 0 }
        let largestDeficit = available.map(deficit).max() ?? 0
        let skill =
            available
            .filter { deficit($0) >= largestDeficit - 1e-9 }
            .max { (bestInformation[$0] ?? 0) < (bestInformation[$1] ?? 0) }
        // Most informative first; ties by id so the pool does not depend on the bank's order.
        let pool = scored.filter { skill == nil || $0.item.skill == skill }.sorted {
            $0.information != $1.information ? $0.information > $1.information : $0.item.id < $1.item.id
        }
        let candidates = pool.prefix(max(configuration.candidateCount, 1))
        guard !candidates.isEmpty else { return nil }
        let pick = Int.random(in: 0..<candidates.count, using: &generator)
        return candidates[candidates.startIndex + pick].item
    }
}

/// One item of a placement bank: 2PL parameters plus what the client needs to show it.
public struct PlacementItem: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var skill: Skill
    /// The level the item was written for; sets its initial difficulty.
    public var level: CEFRLevel
    /// a: how sharply the item separates learners below and above its difficulty.
    public var discrimination: Double
    /// b: the ability with even odds of a right answer (logit scale).
    public var difficulty: Double
    /// d: the time limit, which also normalises response times in the SRT score.
    public var timeLimitSeconds: Double
    /// Choices offered (0 for an open answer). The placement likelihood has no guessing floor: the SRT
    /// score already penalises fast guessing (a fast wrong answer costs what a fast right one earns);
    /// the count is for the client and for the practice model when the item is reused.
    public var optionCount: Int

    public init(
        id: String, skill: Skill, level: CEFRLevel, discrimination: Double, difficulty: Double,
        timeLimitSeconds: Double, optionCount: Int
    ) {
        self.id = id
        self.skill = skill
        self.level = level
        self.discrimination = discrimination
        self.difficulty = difficulty
        self.timeLimitSeconds = timeLimitSeconds
        self.optionCount = optionCount
    }

    /// A new, uncalibrated item: `b` at the centre of its level's band, `a = 1`.
    ///
    /// `a = 1` for every skill: with no data there is no ground to favour one skill's items, and at
    /// a = 1 the item sits on the same scale as the practice model (P = logistic(theta - b)), so an item
    /// moves between placement and practice unchanged. `calibrate` replaces both once answers exist.
    public static func initial(
        id: String, skill: Skill, level: CEFRLevel, timeLimitSeconds: Double, optionCount: Int, cuts: CEFRCutScores = .standard
    ) -> PlacementItem {
        PlacementItem(
            id: id, skill: skill, level: level, discrimination: 1, difficulty: cuts.centre(of: level),
            timeLimitSeconds: timeLimitSeconds, optionCount: optionCount
        )
    }
}

/// A language's placement item bank with the cut scores that map its theta scale to CEFR levels.
public struct PlacementBank: Codable, Sendable, Hashable {
    public let items: [PlacementItem]
    public let cuts: CEFRCutScores

    /// Checks that ids are unique, discriminations positive and time limits positive.
    public init(items: [PlacementItem], cuts: CEFRCutScores = .standard) throws(PlacementError) {
        var ids = Set<String>()
        for item in items {
            guard ids.insert(item.id).inserted else { throw .duplicateItem(item.id) }
            guard item.discrimination > 0, item.discrimination.isFinite, item.difficulty.isFinite,
                item.timeLimitSeconds > 0, item.timeLimitSeconds.isFinite
            else { throw .invalidItem(item.id) }
        }
        self.init(checked: items, cuts: cuts)
    }

    /// For items valid by construction (generated, or calibrated within the allowed ranges).
    init(checked items: [PlacementItem], cuts: CEFRCutScores) {
        self.items = items
        self.cuts = cuts
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let items = try container.decode([PlacementItem].self, forKey: .items)
        let cuts = try container.decode(CEFRCutScores.self, forKey: .cuts)
        do {
            try self.init(items: items, cuts: cuts)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .items, in: container, debugDescription: "\(error)")
        }
    }

    public func item(id: String) -> PlacementItem? {
        items.first { $0.id == id }
    }

    /// The bank re-estimated from `responses` (see `ItemCalibration`); items with too few answers keep their parameters.
    public func calibrated(
        responses: [CalibrationResponse], options: CalibrationOptions = CalibrationOptions()
    ) -> (bank: PlacementBank, result: CalibrationResult) {
        let result = ItemCalibration.calibrate(items: items, responses: responses, options: options)
        // Same ids and limits, a and b clamped to finite ranges: still valid.
        return (PlacementBank(checked: result.items, cuts: cuts), result)
    }
}

/// Settings of a placement test.
public struct PlacementConfiguration: Codable, Sendable, Hashable {
    public var scoring: PlacementScoring = .signedResidualTime
    public var minimumItems: Int = 8
    public var maximumItems: Int = 25
    /// Stop once the posterior SD is below this (after `minimumItems`).
    public var targetStandardError: Double = 0.3
    /// How many of the most informative items the next one is drawn from.
    public var candidateCount: Int = 5
    public var grid: QuadratureGrid = .standard
    public var priorMean: Double = 0
    public var priorSD: Double = 1
    /// Share of the items each skill should get; empty means equal shares.
    public var contentTargets: [SkillShare] = []

    public init(scoring: PlacementScoring = .signedResidualTime) {
        self.scoring = scoring
    }

    /// Target shares normalised over `skills` (those with items left).
    func targetShares(for skills: [Skill]) -> [Skill: Double] {
        var shares: [Skill: Double] = [:]
        for skill in skills {
            shares[skill] = contentTargets.isEmpty ? 1 : max(contentTargets.first { $0.skill == skill }?.share ?? 0, 0)
        }
        let total = shares.values.reduce(0, +)
        guard total > 0 else { return Dictionary(uniqueKeysWithValues: skills.map { ($0, 1 / Double(skills.count)) }) }
        return shares.mapValues { $0 / total }
    }
}

/// A skill's target share of a placement test's items.
public struct SkillShare: Codable, Sendable, Hashable {
    public var skill: Skill
    public var share: Double
    public init(skill: Skill, share: Double) {
        self.skill = skill
        self.share = share
    }
}

/// One answered placement item.
public struct PlacementResponse: Codable, Sendable, Hashable {
    /// The item as it was when asked.
    public var item: PlacementItem
    public var correct: Bool
    public var responseTimeSeconds: Double
    /// S = (2x - 1)(1 - t/d), 0 on a time-out.
    public var score: Double

    public init(item: PlacementItem, correct: Bool, responseTimeSeconds: Double) {
        self.item = item
        self.correct = correct
        self.responseTimeSeconds = responseTimeSeconds
        self.score = ItemResponse.signedResidualTime(correct: correct, responseTime: responseTimeSeconds, timeLimit: item.timeLimitSeconds)
    }

    func statistic(_ scoring: PlacementScoring) -> Double {
        ItemResponse.statistic(correct: correct, score: score, scoring: scoring)
    }
}

/// The outcome of a placement test.
public struct PlacementResult: Codable, Sendable, Hashable {
    public var theta: Double
    /// Posterior SD.
    public var standardError: Double
    public var level: CEFRLevel
    /// The proficiency bar within `level`.
    public var progress: Double
    public var skills: [SkillPlacement]
    public var itemsUsed: Int
    public var isDone: Bool
    public var scoring: PlacementScoring

    /// Starting practice abilities: each skill's placement estimate, or the overall one for a skill the
    /// test did not reach. `responses` is the number of that skill's items, so K(n) starts where that
    /// much evidence would have left it.
    public func initialAbilities() -> [SkillAbility] {
        Skill.allCases.map { skill in
            if let placement = skills.first(where: { $0.skill == skill }) {
                return SkillAbility(skill: skill, theta: placement.theta, responses: placement.itemsUsed)
            }
            return SkillAbility(skill: skill, theta: theta, responses: 0)
        }
    }
}

/// A per-skill placement estimate.
public struct SkillPlacement: Codable, Sendable, Hashable {
    public var skill: Skill
    public var theta: Double
    public var standardError: Double
    public var level: CEFRLevel
    public var itemsUsed: Int
}

/// What can go wrong with placement data.
public enum PlacementError: Error, Sendable, Hashable {
    case sessionFinished
    case noPendingItem
    case unexpectedItem(expected: String, received: String)
    case invalidResponseTime
    case duplicateItem(String)
    case invalidItem(String)
    case invalidCutScores
}

extension PlacementSession {
    /// Seconds a learner has for an item, by skill: reading a passage takes
    /// longer than choosing a word. Past it the answer counts as a time-out.
    public static func timeLimit(_ skill: Skill) -> Double {
        switch skill {
        case .vocabulary: 30
        case .grammar: 45
        case .reading: 120
        case .listening: 60
        case .speaking: 60
        }
    }
}

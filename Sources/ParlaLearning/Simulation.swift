import Foundation
import ParlaCore

/// A small seeded random number generator (SplitMix64, Steele, Lea & Flood 2014) for reproducible
/// simulations and tests. Not for anything secret.
public struct SimulationRandom: RandomNumberGenerator, Codable, Sendable, Hashable {
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        self.state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in the open interval (0, 1), so logarithms of it are finite.
    public mutating func nextUnit() -> Double {
        (Double(next() >> 11) + 0.5) / 9_007_199_254_740_992
    }

    /// Standard normal (Box-Muller).
    public mutating func nextNormal() -> Double {
        sqrt(-2 * log(nextUnit())) * cos(2 * Double.pi * nextUnit())
    }

    /// A generator for the `index`-th member of a simulated population, independent of the others.
    public static func member(_ index: Int, of seed: UInt64) -> SimulationRandom {
        var mixer = SimulationRandom(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        return SimulationRandom(seed: mixer.next())
    }
}

/// How simulated learners spend time on an item.
public enum ResponseTiming: Codable, Sendable, Hashable {
    /// Exactly the SRT model: S drawn from its density `kappa e^{kappa S} / (2 sinh kappa)` with
    /// kappa = a (theta - b); then x = [S > 0] (so P(x = 1) is the 2PL) and t = d (1 - |S|). Learners
    /// answer easy items fast and right, items near their level slowly, and err fast on items far
    /// above them, as the model assumes. Time-outs have probability 0.
    case signedResidualTime
    /// A misfit check: accuracy from the 2PL, time independent of ability and accuracy,
    /// t = d * exp(log(medianFraction) + sigma z) (van der Linden's lognormal with one common speed),
    /// t >= d a time-out. Under it response time carries no information about ability.
    case lognormal(medianFraction: Double, sigma: Double)
}

/// A simulated learner with one true ability in every skill.
public struct SimulatedLearner: Codable, Sendable, Hashable {
    public var theta: Double
    public var timing: ResponseTiming

    public init(theta: Double, timing: ResponseTiming = .signedResidualTime) {
        self.theta = theta
        self.timing = timing
    }

    /// An answer to `item`: correctness and response time in seconds.
    public func answer(_ item: PlacementItem, using generator: inout SimulationRandom) -> (correct: Bool, responseTime: Double) {
        let kappa = ItemResponse.kappa(theta: theta, discrimination: item.discrimination, difficulty: item.difficulty)
        switch timing {
        case .signedResidualTime:
            let score = Self.signedResidualTime(kappa: kappa, uniform: generator.nextUnit())
            return (score > 0, item.timeLimitSeconds * (1 - abs(score)))
        case let .lognormal(medianFraction, sigma):
            let correct = generator.nextUnit() < ItemResponse.logistic(kappa)
            let fraction = exp(log(max(medianFraction, 1e-6)) + sigma * generator.nextNormal())
            return (correct, item.timeLimitSeconds * min(fraction, 1))
        }
    }

    /// Inverse-CDF draw from the SRT density on [-1, 1]: for kappa > 0, S = 1 + log(u + (1 - u) e^{-2 kappa}) / kappa.
    static func signedResidualTime(kappa: Double, uniform u: Double) -> Double {
        if abs(kappa) < 1e-8 { return 2 * u - 1 }
        if kappa < 0 { return -signedResidualTime(kappa: -kappa, uniform: 1 - u) }
        let score = 1 + log(u + (1 - u) * exp(-2 * kappa)) / kappa
        return min(max(score, -1), 1)
    }
}

/// The shape of a synthetic placement bank.
public struct SyntheticBankSpecification: Codable, Sendable, Hashable {
    public var itemCount: Int = 300
    /// a ~ U(range); U(0.8, 2.0) is a usual choice in CAT simulation studies.
    public var discriminationRange: ClosedRange<Double> = 0.8...2.0
    /// b = centre of the item's level + U(-spread, spread).
    public var difficultySpread: Double = 0.5
    public var cuts: CEFRCutScores = .standard

    public init() {}
}

/// Figures of a placement simulation.
public struct PlacementMetrics: Codable, Sendable, Hashable {
    public var learners: Int
    /// sqrt(mean (theta_hat - theta)^2).
    public var rootMeanSquareError: Double
    /// mean (theta_hat - theta).
    public var bias: Double
    public var meanItems: Double
    public var medianItems: Double
    /// Mean final posterior SD, to compare with the RMSE (does the test know how sure it is?).
    public var meanStandardError: Double
    /// Share of learners whose test stopped on precision rather than on the item limit.
    public var reachedTargetShare: Double
    /// Share placed at their true level.
    public var exactLevelAgreement: Double
    /// Share placed at most one level away.
    public var withinOneLevelAgreement: Double
}

/// Simulated placement tests: the figures behind the CAT's settings.
public enum PlacementSimulation {
    /// A synthetic bank: items spread evenly over skills (in turn) and levels, with skill-typical time limits.
    public static func syntheticBank(
        _ specification: SyntheticBankSpecification = SyntheticBankSpecification(), seed: UInt64
    ) -> PlacementBank {
        var generator = SimulationRandom(seed: seed)
        let skills = Skill.allCases
        let levels = CEFRLevel.allCases
        let items = (0..<max(specification.itemCount, 0)).map { index -> PlacementItem in
            let skill = skills[index % skills.count]
            let level = levels[(index / skills.count) % levels.count]
            let range = specification.discriminationRange
            let a = range.lowerBound + (range.upperBound - range.lowerBound) * generator.nextUnit()
            let b = specification.cuts.centre(of: level) + specification.difficultySpread * (2 * generator.nextUnit() - 1)
            return PlacementItem(
                id: "\(skill.rawValue)-\(index)", skill: skill, level: level, discrimination: a, difficulty: b,
                timeLimitSeconds: timeLimit(skill), optionCount: skill == .speaking ? 0 : 4
            )
        }
        // Ids are unique, a > 0 and time limits positive by construction.
        return PlacementBank(checked: items, cuts: specification.cuts)
    }

    /// Seconds allowed per item: longer where the learner must read or listen first.
    static func timeLimit(_ skill: Skill) -> Double {
        switch skill {
        case .vocabulary: 15
        case .grammar: 20
        case .listening: 30
        case .reading: 40
        case .speaking: 30
        }
    }

    /// One complete placement test taken by `learner`.
    public static func place(
        _ learner: SimulatedLearner, bank: PlacementBank, configuration: PlacementConfiguration, using generator: inout SimulationRandom
    ) -> PlacementSession {
        var session = PlacementSession(configuration: configuration)
        while let item = session.nextItem(from: bank, using: &generator) {
            let answer = learner.answer(item, using: &generator)
            // The item was just handed out, so recording it cannot fail.
            _ = try? session.record(itemId: item.id, correct: answer.correct, responseTime: answer.responseTime)
        }
        return session
    }

    /// Places `learnerCount` learners with theta ~ N(0, 1) and summarises the outcomes. The same seed
    /// gives the same true abilities whatever the configuration, so scorings are compared on the same people.
    public static func evaluate(
        bank: PlacementBank, configuration: PlacementConfiguration, learnerCount: Int, seed: UInt64,
        timing: ResponseTiming = .signedResidualTime
    ) -> PlacementMetrics {
        var errors: [Double] = []
        var items: [Int] = []
        var standardErrors: [Double] = []
        var reached = 0, exact = 0, withinOne = 0
        for index in 0..<max(learnerCount, 0) {
            var generator = SimulationRandom.member(index, of: seed)
            let learner = SimulatedLearner(theta: generator.nextNormal(), timing: timing)
            let session = place(learner, bank: bank, configuration: configuration, using: &generator)
            let result = session.result(in: bank)
            errors.append(result.theta - learner.theta)
            items.append(result.itemsUsed)
            standardErrors.append(result.standardError)
            if result.standardError < configuration.targetStandardError { reached += 1 }
            let distance = abs(CEFRCutScores.index(of: result.level) - CEFRCutScores.index(of: bank.cuts.level(for: learner.theta)))
            if distance == 0 { exact += 1 }
            if distance <= 1 { withinOne += 1 }
        }
        let count = Double(max(errors.count, 1))
        let sorted = items.sorted()
        let median: Double =
            sorted.isEmpty
            ? 0
            : sorted.count % 2 == 1
                ? Double(sorted[sorted.count / 2])
                : Double(sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        return PlacementMetrics(
            learners: errors.count,
            rootMeanSquareError: sqrt(errors.reduce(0) { $0 + $1 * $1 } / count),
            bias: errors.reduce(0, +) / count,
            meanItems: Double(items.reduce(0, +)) / count,
            medianItems: median,
            meanStandardError: standardErrors.reduce(0, +) / count,
            reachedTargetShare: Double(reached) / count,
            exactLevelAgreement: Double(exact) / count,
            withinOneLevelAgreement: Double(withinOne) / count
        )
    }

    /// Every one of `respondentCount` simulated respondents (theta ~ N(0, 1)) answering every item, for calibration.
    public static func calibrationResponses(
        items: [PlacementItem], respondentCount: Int, seed: UInt64, timing: ResponseTiming = .signedResidualTime
    ) -> [CalibrationResponse] {
        var responses: [CalibrationResponse] = []
        responses.reserveCapacity(items.count * max(respondentCount, 0))
        for index in 0..<max(respondentCount, 0) {
            var generator = SimulationRandom.member(index, of: seed)
            let learner = SimulatedLearner(theta: generator.nextNormal(), timing: timing)
            for item in items {
                let answer = learner.answer(item, using: &generator)
                let score = ItemResponse.signedResidualTime(
                    correct: answer.correct, responseTime: answer.responseTime, timeLimit: item.timeLimitSeconds
                )
                responses.append(CalibrationResponse(respondentId: "r\(index)", itemId: item.id, correct: answer.correct, score: score))
            }
        }
        return responses
    }
}

/// Every simulated learner's answer to every item of a bank, drawn once, so
/// that different adaptive tests (ours at fixed lengths, catsim's) face the
/// very same responses whatever items they pick.
public struct ResponseMatrix: Sendable {
    public var thetas: [Double]
    /// `answers[learner][item]`, items in bank order.
    public var answers: [[(correct: Bool, responseTime: Double)]]

    public init(bank: PlacementBank, learnerCount: Int, seed: UInt64, timing: ResponseTiming = .signedResidualTime) {
        var thetas: [Double] = [], answers: [[(Bool, Double)]] = []
        for index in 0..<max(learnerCount, 0) {
            var generator = SimulationRandom.member(index, of: seed)
            let learner = SimulatedLearner(theta: generator.nextNormal(), timing: timing)
            thetas.append(learner.theta)
            answers.append(bank.items.map { learner.answer($0, using: &generator) })
        }
        (self.thetas, self.answers) = (thetas, answers)
    }

    /// Our test stopped at exactly `length` items, answers read from the
    /// matrix: root mean square error and bias of the estimates.
    public func fixedLength(_ length: Int, bank: PlacementBank, scoring: PlacementScoring, seed: UInt64) -> (rmse: Double, bias: Double) {
        var configuration = PlacementConfiguration(scoring: scoring)
        (configuration.minimumItems, configuration.maximumItems, configuration.targetStandardError) = (length, length, 0)
        let position = Dictionary(uniqueKeysWithValues: bank.items.enumerated().map { ($1.id, $0) })
        var errors: [Double] = []
        for (learner, theta) in thetas.enumerated() {
            var generator = SimulationRandom.member(learner, of: seed)
            var session = PlacementSession(configuration: configuration)
            while let item = session.nextItem(from: bank, using: &generator), let index = position[item.id] {
                let answer = answers[learner][index]
                _ = try? session.record(itemId: item.id, correct: answer.correct, responseTime: answer.responseTime)
            }
            errors.append(session.estimate.theta - theta)
        }
        let count = Double(max(errors.count, 1))
        return ((errors.reduce(0) { $0 + $1 * $1 } / count).squareRoot(), errors.reduce(0, +) / count)
    }
}

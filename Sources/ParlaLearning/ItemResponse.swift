import Foundation
import ParlaCore

/// How a placement answer becomes evidence about ability.
public enum PlacementScoring: String, Codable, Sendable, CaseIterable {
    /// Accuracy and response time together, through the signed residual time score.
    case signedResidualTime
    /// Accuracy alone (plain 2PL); kept for comparison and for items without a time limit.
    case accuracyOnly
}

/// Item response functions shared by the practice model, the placement test and calibration.
///
/// Both placement likelihoods are exponential families in the same natural parameter
/// `kappa = a (theta - b)`: the log-likelihood of one answer is `kappa * T - A(kappa)`, where the
/// sufficient statistic `T` is the correctness `x` (2PL) or the signed residual time score `S`
/// (SRT). Only the cumulant `A` differs, so estimation, information and calibration share one code path.
///
/// The SRT model (Maris & van der Maas 2012, "Speed-accuracy response models: scoring rules based on
/// response time and accuracy", Psychometrika 77; used in the Math Garden by Klinkenberg, Straatemeier
/// & van der Maas 2011): with time limit `d` and response time `t`, the score is `S = (2x - 1)(1 - t/d)`,
/// and the joint density of (x, t) is proportional to `exp(kappa * S)`. On the normalised residual time
/// `u = 1 - t/d` in [0, 1]:
///
///     f(x = 1, u) = exp( kappa u) / Z,   f(x = 0, u) = exp(-kappa u) / Z,
///     Z = integral_0^1 (e^{kappa u} + e^{-kappa u}) du = 2 sinh(kappa) / kappa.
///
/// Hence the density of S on [-1, 1] is `kappa e^{kappa S} / (2 sinh kappa)` (uniform when kappa = 0),
/// and `P(x = 1) = (e^kappa - 1) / kappa / Z = e^kappa / (1 + e^kappa) = logistic(kappa)`: the accuracy
/// margin is exactly the 2PL with the same a and b (the time limit, folded into `a` here, sets the
/// discrimination; in seconds the exponent is `a d (theta - b)` with S in seconds, and the well-known
/// `exp(2 a d (theta - b))` only appears inside `coth`). The cumulant is `A(kappa) = log(2 sinh(kappa) / kappa)`,
/// the expected score `A'(kappa) = coth(kappa) - 1/kappa`, and the information about kappa
/// `A''(kappa) = 1/kappa^2 - 1/sinh^2(kappa)`, which is 1/3 at kappa = 0 (the 2PL gives 1/4) and decays
/// like 1/kappa^2 instead of e^{-|kappa|}: a time-scored item still informs far from its difficulty.
/// A time-out (t >= d) scores S = 0, which the model reads as "close to the item's difficulty".
public enum ItemResponse {
    /// The logistic function, stable for large |x|.
    public static func logistic(_ x: Double) -> Double {
        if x >= 0 { return 1 / (1 + exp(-x)) }
        let e = exp(x)
        return e / (1 + e)
    }

    /// The 2PL probability of a correct answer, with an optional guessing floor `g`: `g + (1 - g) logistic(a (theta - b))`.
    public static func probability(theta: Double, discrimination: Double = 1, difficulty: Double, guessing: Double = 0) -> Double {
        guessing + (1 - guessing) * logistic(discrimination * (theta - difficulty))
    }

    /// The signed residual time score `S = (2x - 1)(1 - t/d)` in [-1, 1]; 0 on a time-out.
    ///
    /// A missing or non-finite time counts as a time-out: without a time there is no speed evidence,
    /// and S = 0 keeps the answer neutral rather than inventing one.
    public static func signedResidualTime(correct: Bool, responseTime: Double, timeLimit: Double) -> Double {
        guard timeLimit > 0, timeLimit.isFinite, responseTime.isFinite, responseTime < timeLimit else { return 0 }
        let residual = 1 - max(responseTime, 0) / timeLimit
        return correct ? residual : -residual
    }

    /// The natural parameter `kappa = a (theta - b)` of both placement likelihoods.
    public static func kappa(theta: Double, discrimination: Double, difficulty: Double) -> Double {
        discrimination * (theta - difficulty)
    }

    /// The cumulant `A(kappa)`: `log(1 + e^kappa)` for the 2PL, `log(2 sinh(kappa) / kappa)` for SRT.
    public static func cumulant(_ kappa: Double, scoring: PlacementScoring) -> Double {
        switch scoring {
        case .accuracyOnly:
            return kappa > 0 ? kappa + log1p(exp(-kappa)) : log1p(exp(kappa))
        case .signedResidualTime:
            let k = abs(kappa)
            if k < 1e-3 { return log(2) + k * k / 6 - k * k * k * k / 180 }
            return k + log1p(-exp(-2 * k)) - log(k)
        }
    }

    /// `A'(kappa)`: the expected sufficient statistic, P(correct) for the 2PL, E[S] for SRT.
    public static func expectedStatistic(_ kappa: Double, scoring: PlacementScoring) -> Double {
        switch scoring {
        case .accuracyOnly:
            return logistic(kappa)
        case .signedResidualTime:
            if abs(kappa) < 1e-3 { return kappa / 3 - kappa * kappa * kappa / 45 }
            return 1 / tanh(kappa) - 1 / kappa
        }
    }

    /// `A''(kappa)`: the variance of the sufficient statistic, i.e. the information about kappa.
    public static func statisticVariance(_ kappa: Double, scoring: PlacementScoring) -> Double {
        switch scoring {
        case .accuracyOnly:
            let p = logistic(kappa)
            return p * (1 - p)
        case .signedResidualTime:
            let k = abs(kappa)
            if k < 1e-2 { return 1.0 / 3 - k * k / 15 + 2 * k * k * k * k / 189 }
            let s = sinh(k)
            return 1 / (k * k) - 1 / (s * s)
        }
    }

    /// The sufficient statistic of one answer: x for the 2PL, S for SRT.
    public static func statistic(correct: Bool, score: Double, scoring: PlacementScoring) -> Double {
        switch scoring {
        case .accuracyOnly: return correct ? 1 : 0
        case .signedResidualTime: return score
        }
    }

    /// The log-likelihood of one answer given ability: `kappa T - A(kappa)`.
    ///
    /// For SRT this is the log-density of S on [-1, 1]; for the 2PL the log-probability of x.
    public static func logLikelihood(
        statistic: Double, theta: Double, discrimination: Double, difficulty: Double, scoring: PlacementScoring
    ) -> Double {
        let k = kappa(theta: theta, discrimination: discrimination, difficulty: difficulty)
        return k * statistic - cumulant(k, scoring: scoring)
    }

    /// Fisher information about theta: `a^2 A''(a (theta - b))`.
    public static func information(theta: Double, discrimination: Double, difficulty: Double, scoring: PlacementScoring) -> Double {
        let k = kappa(theta: theta, discrimination: discrimination, difficulty: difficulty)
        return discrimination * discrimination * statisticVariance(k, scoring: scoring)
    }
}

/// An ability estimate on the logit scale with its standard error (posterior SD for EAP).
public struct AbilityEstimate: Codable, Sendable, Hashable {
    public var theta: Double
    public var standardError: Double
    public init(theta: Double, standardError: Double) {
        self.theta = theta
        self.standardError = standardError
    }
}

/// Equally spaced quadrature nodes on the standard normal scale, for EAP estimates and EM calibration.
///
/// Nodes are `z` values; an estimate with prior N(mean, sd) evaluates the likelihood at `mean + sd * z`,
/// so one grid serves the placement prior N(0, 1) and the topic priors centred on a skill's ability.
/// Equal weights times the normal density: with a spacing of 0.1 this is as exact as the trapezoid
/// rule on these smooth, fast-decaying integrands.
public struct QuadratureGrid: Codable, Sendable, Hashable {
    public var lowerBound: Double
    public var upperBound: Double
    public var pointCount: Int

    /// 121 points from -6 to 6 (spacing 0.1). Not -4 to 4: C2 starts at 2.5 and is centred on 3, and a
    /// strong learner's per-skill posterior (2-3 items, SD ~0.8) reaches past 4; on a grid cut at 4 its
    /// mean was off by 0.01. The prior still makes the outer nodes negligible for everyone else.
    public static let standard = QuadratureGrid(lowerBound: -6, upperBound: 6, pointCount: 121)

    public init(lowerBound: Double, upperBound: Double, pointCount: Int) {
        self.lowerBound = lowerBound
        self.upperBound = max(upperBound, lowerBound)
        self.pointCount = max(pointCount, 2)
    }

    public var nodes: [Double] {
        let step = (upperBound - lowerBound) / Double(pointCount - 1)
        return (0..<pointCount).map { lowerBound + Double($0) * step }
    }

    /// The EAP estimate (posterior mean and SD) under the prior N(priorMean, priorSD^2).
    public func expectedAPosteriori(
        priorMean: Double = 0, priorSD: Double = 1, logLikelihood: (Double) -> Double
    ) -> AbilityEstimate {
        let thetas = nodes.map { priorMean + priorSD * $0 }
        let logPosterior = zip(nodes, thetas).map { z, theta in -0.5 * z * z + logLikelihood(theta) }
        return Self.moments(thetas: thetas, logWeights: logPosterior)
    }

    /// Mean and SD of a distribution given by unnormalised log weights on the nodes.
    static func moments(thetas: [Double], logWeights: [Double]) -> AbilityEstimate {
        let top = logWeights.max() ?? 0
        var total = 0.0, sum = 0.0, sumSquares = 0.0
        for (theta, logWeight) in zip(thetas, logWeights) {
            let weight = exp(logWeight - top)
            total += weight
            sum += weight * theta
            sumSquares += weight * theta * theta
        }
        let mean = sum / total
        return AbilityEstimate(theta: mean, standardError: sqrt(max(sumSquares / total - mean * mean, 0)))
    }
}

// MARK: - Calibration

/// One answer collected for calibration (from placement tests or practice).
public struct CalibrationResponse: Codable, Sendable, Hashable {
    public var respondentId: String
    public var itemId: String
    public var correct: Bool
    /// The signed residual time score, if the answer was timed; SRT calibration skips answers without one.
    public var score: Double?

    public init(respondentId: String, itemId: String, correct: Bool, score: Double? = nil) {
        self.respondentId = respondentId
        self.itemId = itemId
        self.correct = correct
        self.score = score
    }
}

/// Settings of marginal maximum likelihood calibration.
public struct CalibrationOptions: Codable, Sendable, Hashable {
    /// Accuracy only by default: it needs no timing assumption and its estimates serve both scorings,
    /// since the SRT accuracy margin is the same 2PL.
    public var scoring: PlacementScoring = .accuracyOnly
    /// Items with fewer answers keep their current (initial) parameters; their answers still inform the E-step.
    public var minimumResponses: Int = 30
    /// Ability distribution of the calibration sample, N(0, 1), on these nodes.
    public var grid = QuadratureGrid(lowerBound: -4, upperBound: 4, pointCount: 41)
    public var maximumCycles: Int = 500
    /// EM stops when no parameter moves more than this in a cycle.
    public var tolerance: Double = 1e-4
    /// SD of a lognormal prior on `a` centred on 1 (BILOG's default, 0.5), which keeps `a` finite for items
    /// nearly everyone gets right; `nil` gives plain MML.
    public var discriminationPriorSD: Double? = 0.5
    public var discriminationRange: ClosedRange<Double> = 0.2...4
    public var difficultyRange: ClosedRange<Double> = -6...6

    public init() {}
}

/// The outcome of a calibration run.
public struct CalibrationResult: Codable, Sendable, Hashable {
    /// Every input item: re-estimated when it had enough answers, unchanged otherwise.
    public var items: [PlacementItem]
    /// Ids of the items re-estimated, in input order.
    public var recalibratedItemIds: [String]
    public var cycles: Int
    public var converged: Bool
    /// Marginal log-likelihood of all answers at the final parameters.
    public var logLikelihood: Double
}

/// Re-estimation of item parameters (a, b) by marginal maximum likelihood with EM (Bock & Aitkin 1981).
///
/// E-step: each respondent's posterior over the quadrature nodes given all their answers; it yields,
/// per item and node, the expected number of respondents `N_iq` and the expected sum of the sufficient
/// statistic `T_iq`. M-step: per item, maximise `sum_q kappa_q T_iq - N_iq A(kappa_q)` (plus the prior on
/// `a`) by Fisher scoring, with `kappa_q = a (theta_q - b)`. Because both scorings are exponential
/// families in kappa, the same step calibrates the 2PL (T = x) and the SRT model (T = S).
///
/// The theta scale is set by the N(0, 1) ability prior of the calibration sample. When that sample is
/// not the placement population (e.g. only beginners), link the new parameters to the bank's scale
/// (`ItemCalibration.linkedMeanSigma`) before replacing the bank, or the cut scores will drift.
public enum ItemCalibration {
    public static func calibrate(
        items: [PlacementItem], responses: [CalibrationResponse], options: CalibrationOptions = CalibrationOptions()
    ) -> CalibrationResult {
        var parameters = items.map { (a: $0.discrimination, b: $0.difficulty) }
        var indexById: [String: Int] = [:]
        for (index, item) in items.enumerated() where indexById[item.id] == nil { indexById[item.id] = index }

        // Each respondent's answers as (item index, statistic); only their first answer to an item counts.
        var respondentIndex: [String: Int] = [:]
        var grouped: [[(item: Int, statistic: Double)]] = []
        var seen = Set<String>()
        var responseCounts = [Int](repeating: 0, count: items.count)
        for response in responses {
            guard let item = indexById[response.itemId] else { continue }
            let statistic: Double
            switch options.scoring {
            case .accuracyOnly:
                statistic = response.correct ? 1 : 0
            case .signedResidualTime:
                // An untimed answer has no score; reading it as S = 0 would claim "close to b".
                guard let score = response.score, score.isFinite else { continue }
                statistic = min(max(score, -1), 1)
            }
            guard seen.insert(response.respondentId + "\u{1F}" + response.itemId).inserted else { continue }
            let respondent: Int
            if let known = respondentIndex[response.respondentId] {
                respondent = known
            } else {
                respondent = grouped.count
                respondentIndex[response.respondentId] = respondent
                grouped.append([])
            }
            grouped[respondent].append((item, statistic))
            responseCounts[item] += 1
        }
        let answers = AnswerTable(grouped)
        let free = items.indices.filter { responseCounts[$0] >= max(options.minimumResponses, 1) }
        let thetas = options.grid.nodes
        let logPrior = thetas.map { -0.5 * $0 * $0 }
        let nodeCount = thetas.count

        var cycles = 0
        var converged = free.isEmpty
        while !converged && cycles < options.maximumCycles {
            cycles += 1
            let step = expectation(
                parameters: parameters, answers: answers, thetas: thetas, logPrior: logPrior, scoring: options.scoring
            )
            var largestChange = 0.0
            for item in free {
                let updated = maximization(
                    start: parameters[item], thetas: thetas,
                    counts: Array(step.counts[(item * nodeCount)..<((item + 1) * nodeCount)]),
                    sums: Array(step.sums[(item * nodeCount)..<((item + 1) * nodeCount)]),
                    options: options
                )
                largestChange = max(largestChange, abs(updated.a - parameters[item].a), abs(updated.b - parameters[item].b))
                parameters[item] = updated
            }
            converged = largestChange < options.tolerance
        }
        let logLikelihood = expectation(
            parameters: parameters, answers: answers, thetas: thetas, logPrior: logPrior, scoring: options.scoring
        ).logLikelihood
        var calibrated = items
        for item in free {
            calibrated[item].discrimination = parameters[item].a
            calibrated[item].difficulty = parameters[item].b
        }
        return CalibrationResult(
            items: calibrated, recalibratedItemIds: free.map { items[$0].id }, cycles: cycles,
            converged: converged, logLikelihood: logLikelihood
        )
    }

    /// Puts `calibrated` items on the scale of `reference` items (same ids) by mean/sigma linking of difficulties.
    ///
    /// The linear map `theta' = A theta + B` matches the mean and SD of the common items' difficulties;
    /// `b' = A b + B` and `a' = a / A` leave every response probability unchanged.
    public static func linkedMeanSigma(_ calibrated: [PlacementItem], to reference: [PlacementItem]) -> [PlacementItem] {
        let referenceById = Dictionary(reference.map { ($0.id, $0.difficulty) }, uniquingKeysWith: { first, _ in first })
        let pairs = calibrated.compactMap { item in referenceById[item.id].map { (new: item.difficulty, old: $0) } }
        guard pairs.count >= 2 else { return calibrated }
        func meanAndSD(_ values: [Double]) -> (Double, Double) {
            let mean = values.reduce(0, +) / Double(values.count)
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
            return (mean, sqrt(variance))
        }
        let (newMean, newSD) = meanAndSD(pairs.map(\.new))
        let (oldMean, oldSD) = meanAndSD(pairs.map(\.old))
        guard newSD > 1e-9, oldSD > 1e-9 else { return calibrated }
        let slope = oldSD / newSD
        let intercept = oldMean - slope * newMean
        return calibrated.map { item in
            var linked = item
            linked.difficulty = slope * item.difficulty + intercept
            linked.discrimination = item.discrimination / slope
            return linked
        }
    }

    /// Expected counts and statistic sums per item and node, flattened item-major.
    private static func expectation(
        parameters: [(a: Double, b: Double)], answers: AnswerTable,
        thetas: [Double], logPrior: [Double], scoring: PlacementScoring
    ) -> (counts: [Double], sums: [Double], logLikelihood: Double) {
        let nodeCount = thetas.count
        // kappa and A(kappa) per item and node, so the respondent loop only adds.
        var kappas = [Double](repeating: 0, count: parameters.count * nodeCount)
        var cumulants = kappas
        for (item, parameter) in parameters.enumerated() {
            for (node, theta) in thetas.enumerated() {
                let k = parameter.a * (theta - parameter.b)
                kappas[item * nodeCount + node] = k
                cumulants[item * nodeCount + node] = ItemResponse.cumulant(k, scoring: scoring)
            }
        }
        var counts = [Double](repeating: 0, count: parameters.count * nodeCount)
        var sums = counts
        var logLikelihood = 0.0
        var posterior = [Double](repeating: 0, count: nodeCount)
        // Unsafe buffers: this loop is the whole cost of calibration, and in unoptimised (test) builds
        // array subscripts would make it an order of magnitude slower.
        kappas.withUnsafeBufferPointer { kappas in
            cumulants.withUnsafeBufferPointer { cumulants in
                counts.withUnsafeMutableBufferPointer { counts in
                    sums.withUnsafeMutableBufferPointer { sums in
                        posterior.withUnsafeMutableBufferPointer { posterior in
                            answers.items.withUnsafeBufferPointer { items in
                                answers.statistics.withUnsafeBufferPointer { statistics in
                                    for respondent in 0..<answers.respondentCount {
                                        let range = answers.starts[respondent]..<answers.starts[respondent + 1]
                                        var node = 0
                                        while node < nodeCount {
                                            posterior[node] = logPrior[node]
                                            node += 1
                                        }
                                        for answer in range {
                                            let base = items[answer] * nodeCount
                                            let statistic = statistics[answer]
                                            node = 0
                                            while node < nodeCount {
                                                posterior[node] += kappas[base + node] * statistic - cumulants[base + node]
                                                node += 1
                                            }
                                        }
                                        var top = -Double.infinity
                                        node = 0
                                        while node < nodeCount {
                                            top = max(top, posterior[node])
                                            node += 1
                                        }
                                        var total = 0.0
                                        node = 0
                                        while node < nodeCount {
                                            posterior[node] = exp(posterior[node] - top)
                                            total += posterior[node]
                                            node += 1
                                        }
                                        logLikelihood += top + log(total)
                                        node = 0
                                        while node < nodeCount {
                                            posterior[node] /= total
                                            node += 1
                                        }
                                        for answer in range {
                                            let base = items[answer] * nodeCount
                                            let statistic = statistics[answer]
                                            node = 0
                                            while node < nodeCount {
                                                counts[base + node] += posterior[node]
                                                sums[base + node] += posterior[node] * statistic
                                                node += 1
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // The prior's normalising constant, so the value is a true marginal log-likelihood.
        let priorNormaliser = log(logPrior.reduce(0) { $0 + exp($1) })
        logLikelihood -= Double(answers.respondentCount) * priorNormaliser
        return (counts, sums, logLikelihood)
    }

    /// All answers in flat arrays, respondent after respondent (`starts` has one extra end offset).
    private struct AnswerTable {
        var items: [Int] = []
        var statistics: [Double] = []
        var starts: [Int] = [0]

        init(_ grouped: [[(item: Int, statistic: Double)]]) {
            for respondent in grouped {
                items += respondent.map(\.item)
                statistics += respondent.map(\.statistic)
                starts.append(items.count)
            }
        }

        var respondentCount: Int { starts.count - 1 }
    }

    /// Fisher scoring of one item's (a, b) on the expected complete-data log-likelihood.
    private static func maximization(
        start: (a: Double, b: Double), thetas: [Double], counts: [Double], sums: [Double], options: CalibrationOptions
    ) -> (a: Double, b: Double) {
        func objective(_ a: Double, _ b: Double) -> Double {
            var value = 0.0
            for node in thetas.indices {
                let k = a * (thetas[node] - b)
                value += k * sums[node] - counts[node] * ItemResponse.cumulant(k, scoring: options.scoring)
            }
            if let sd = options.discriminationPriorSD {
                value -= log(a) * log(a) / (2 * sd * sd) + log(a)
            }
            return value
        }
        var (a, b) = start
        var current = objective(a, b)
        for _ in 0..<20 {
            var gradientA = 0.0, gradientB = 0.0, infoAA = 0.0, infoAB = 0.0, infoBB = 0.0
            for node in thetas.indices {
                let centred = thetas[node] - b
                let k = a * centred
                let residual = sums[node] - counts[node] * ItemResponse.expectedStatistic(k, scoring: options.scoring)
                let weight = counts[node] * ItemResponse.statisticVariance(k, scoring: options.scoring)
                gradientA += residual * centred
                gradientB -= residual * a
                infoAA += weight * centred * centred
                infoAB -= weight * centred * a
                infoBB += weight * a * a
            }
            if let sd = options.discriminationPriorSD {
                gradientA -= (log(a) / (sd * sd) + 1) / a
                infoAA += 1 / (sd * sd * a * a)
            }
            let determinant = infoAA * infoBB - infoAB * infoAB
            guard determinant > 1e-12 else { break }
            var stepA = (infoBB * gradientA - infoAB * gradientB) / determinant
            var stepB = (infoAA * gradientB - infoAB * gradientA) / determinant
            // Halve the step until the objective does not fall, staying inside the allowed ranges.
            var accepted = false
            for _ in 0..<30 {
                let nextA = min(max(a + stepA, options.discriminationRange.lowerBound), options.discriminationRange.upperBound)
                let nextB = min(max(b + stepB, options.difficultyRange.lowerBound), options.difficultyRange.upperBound)
                let value = objective(nextA, nextB)
                if value >= current - 1e-12 {
                    accepted = abs(nextA - a) > 1e-10 || abs(nextB - b) > 1e-10
                    (a, b, current) = (nextA, nextB, value)
                    break
                }
                stepA /= 2
                stepB /= 2
            }
            if !accepted || (abs(stepA) < 1e-7 && abs(stepB) < 1e-7) { break }
        }
        return (a, b)
    }
}

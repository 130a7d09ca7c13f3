import Foundation
import ParlaCore

// Calibration: item parameters fitted to collected answers (`ItemResponse`'s model).

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

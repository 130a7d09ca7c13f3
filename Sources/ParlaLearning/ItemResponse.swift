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

import Foundation

/// A score fitted to human ratings: named features, each clipped to the
/// range the fit saw most of (its lower and upper percentiles) and
/// standardized, then weighted (ridge regression). Pure and small enough
/// to keep in a profile's JSON.
public struct LinearScore: Codable, Sendable, Equatable {
    public var features: [String]
    public var lower: [Double]
    public var upper: [Double]
    public var mean: [Double]
    public var scale: [Double]
    public var weights: [Double]
    public var intercept: Double

    public init(
        features: [String], lower: [Double], upper: [Double], mean: [Double], scale: [Double], weights: [Double], intercept: Double
    ) {
        (self.features, self.lower, self.upper, self.mean, self.scale, self.weights, self.intercept) = (
            features, lower, upper, mean, scale, weights, intercept
        )
    }

    /// The prediction for `values` (a feature missing counts as its mean).
    public func predict(_ values: [String: Double]) -> Double {
        var total = intercept
        for (index, name) in features.enumerated() {
            let value = min(upper[index], max(lower[index], values[name] ?? mean[index]))
            total += weights[index] * (value - mean[index]) / scale[index]
        }
        return total
    }

    /// Fits `features` of `rows` to `targets`: each feature clipped to its
    /// `clip` and 1 - `clip` quantiles, standardized, then ridge regression
    /// with penalty `ridge` (the intercept is not penalized).
    public static func fit(_ rows: [[String: Double]], targets: [Double], features: [String], ridge: Double, clip: Double = 0.05)
        -> LinearScore
    {
        let n = rows.count
        let columns = features.map { name in rows.map { $0[name] ?? 0 } }
        var (lower, upper, mean, scale) = ([Double](), [Double](), [Double](), [Double]())
        var standardized: [[Double]] = []
        for column in columns {
            let sorted = column.sorted()
            let low = quantile(sorted, clip), high = quantile(sorted, 1 - clip)
            let clipped = column.map { min(high, max(low, $0)) }
            let average = clipped.reduce(0, +) / Double(max(1, n))
            let spread = (clipped.reduce(0) { $0 + ($1 - average) * ($1 - average) } / Double(max(1, n))).squareRoot()
            let safe = spread > 1e-12 ? spread : 1
            lower.append(low)
            upper.append(high)
            mean.append(average)
            scale.append(safe)
            standardized.append(clipped.map { ($0 - average) / safe })
        }
        // Centred features: the intercept is the targets' mean, the weights solve (X'X + ridge I) w = X'y.
        let targetMean = targets.reduce(0, +) / Double(max(1, n))
        let p = features.count
        var matrix = [[Double]](repeating: [Double](repeating: 0, count: p), count: p)
        var vector = [Double](repeating: 0, count: p)
        for i in 0..<p {
            for j in i..<p {
                var sum = 0.0
                for row in 0..<n { sum += standardized[i][row] * standardized[j][row] }
                (matrix[i][j], matrix[j][i]) = (sum, sum)
            }
            matrix[i][i] += ridge
            for row in 0..<n { vector[i] += standardized[i][row] * (targets[row] - targetMean) }
        }
        return LinearScore(
            features: features, lower: lower, upper: upper, mean: mean, scale: scale, weights: solve(matrix, vector),
            intercept: targetMean)
    }

    /// The `q` quantile of sorted values, interpolated.
    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        guard let first = sorted.first else { return 0 }
        let position = q * Double(sorted.count - 1)
        let below = Int(position.rounded(.down))
        guard below + 1 < sorted.count else { return sorted.last ?? first }
        return sorted[below] + (position - Double(below)) * (sorted[below + 1] - sorted[below])
    }

    /// Gaussian elimination with partial pivoting; a singular system gives zeros where undetermined.
    static func solve(_ matrix: [[Double]], _ vector: [Double]) -> [Double] {
        var (a, b) = (matrix, vector)
        let n = b.count
        for column in 0..<n {
            let pivot = (column..<n).max { abs(a[$0][column]) < abs(a[$1][column]) } ?? column
            guard abs(a[pivot][column]) > 1e-12 else { continue }
            a.swapAt(column, pivot)
            b.swapAt(column, pivot)
            for row in (column + 1)..<max(column + 1, n) {
                let factor = a[row][column] / a[column][column]
                for k in column..<n { a[row][k] -= factor * a[column][k] }
                b[row] -= factor * b[column]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in (0..<n).reversed() where abs(a[row][row]) > 1e-12 {
            var sum = b[row]
            for k in (row + 1)..<max(row + 1, n) { sum -= a[row][k] * x[k] }
            x[row] = sum / a[row][row]
        }
        return x
    }
}

/// A monotone map fitted to (prediction, target) pairs by pool-adjacent-
/// violators (isotonic regression): each step is the mean target of the
/// predictions it covers, interpolated between steps' centres. It turns a
/// linear score into what the raters would say on average, where the two
/// do not rise in a straight line.
public struct IsotonicMap: Codable, Sendable, Equatable {
    /// The centres of the steps, rising, and each step's value (never falling).
    public var inputs: [Double]
    public var outputs: [Double]

    public init(inputs: [Double], outputs: [Double]) { (self.inputs, self.outputs) = (inputs, outputs) }

    public func callAsFunction(_ value: Double) -> Double {
        guard let first = inputs.first, let last = inputs.last else { return value }
        if value <= first || value.isNaN { return outputs[0] }
        if value >= last { return outputs[outputs.count - 1] }
        let upper = inputs.firstIndex { $0 >= value }!
        let (x0, x1, y0, y1) = (inputs[upper - 1], inputs[upper], outputs[upper - 1], outputs[upper])
        return x1 > x0 ? y0 + (y1 - y0) * (value - x0) / (x1 - x0) : y1
    }

    public static func fit(predictions: [Double], targets: [Double]) -> IsotonicMap {
        // Blocks of (sum of targets, count, sum of predictions), merged while a block's mean falls below the one before.
        var blocks: [(sum: Double, count: Double, inputs: Double)] = []
        for (prediction, target) in zip(predictions, targets).sorted(by: { $0.0 < $1.0 }) {
            blocks.append((target, 1, prediction))
            while blocks.count > 1,
                blocks[blocks.count - 2].sum / blocks[blocks.count - 2].count >= blocks[blocks.count - 1].sum
                    / blocks[blocks.count - 1].count
            {
                let last = blocks.removeLast()
                blocks[blocks.count - 1].sum += last.sum
                blocks[blocks.count - 1].count += last.count
                blocks[blocks.count - 1].inputs += last.inputs
            }
        }
        return IsotonicMap(inputs: blocks.map { $0.inputs / $0.count }, outputs: blocks.map { $0.sum / $0.count })
    }
}

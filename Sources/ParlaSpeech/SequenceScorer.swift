import Foundation

/// The multi-task sequence scorer of issue 36: one token per phone of the
/// attempt, read by a small bidirectional GRU that scores each phone (the
/// raters' 0-2), each word (accuracy, stress, total, 0-10) and the
/// sentence (accuracy, completeness, fluency, prosody, total, 0-10) at
/// once. Trained offline by `training/train_scorer.py` on speechocean762's
/// train split (`make train-speech`); the weights file (`Models/en/scorer.json`,
/// format "parla-gopt-scorer-1") names its inputs and says its computation
/// in words; this is that computation, in plain Swift.
///
/// Design note: inference is a few thousand multiply-adds a token (an
/// ensemble of three 24-wide GRUs), far below what decoding costs, so it
/// stays plain loops over flat row-major arrays: no BLAS, no Float16, and
/// Double throughout so that it matches the script's float64 reference.
public struct SequenceScorer: Sendable {
    public static let format = "parla-gopt-scorer-1"

    /// A tensor as PyTorch lays it out: row-major, `shape` its sizes.
    struct Tensor: Decodable, Sendable {
        var shape: [Int]
        var data: [Double]

        var rows: Int { shape.first ?? 0 }
        var columns: Int { shape.count > 1 ? shape[1] : 1 }
    }

    struct Member: Decodable, Sendable {
        var tensors: [String: Tensor]
    }

    struct Weights: Decodable, Sendable {
        struct Config: Decodable, Sendable { var dim: Int, depth: Int }
        var format: String
        var architecture: String
        var config: Config
        var phones: [String]
        var inputs: [String]
        var inputMean: [Double]
        var inputStd: [Double]
        var columns: [Int]
        var utteranceScale: Double
        var members: [Member]
    }

    /// One GRU direction of one layer: PyTorch's gates r, z, n stacked in rows.
    struct Direction: Sendable {
        var inputWeights: Tensor, hiddenWeights: Tensor, inputBias: [Double], hiddenBias: [Double]
    }

    struct Network: Sendable {
        var projection: Tensor
        var projectionBias: [Double]
        var phoneEmbedding: Tensor
        /// Per layer, forward then reverse.
        var layers: [(forward: Direction, reverse: Direction)]
        var phoneHead: Tensor, phoneBias: [Double]
        var wordHead: Tensor, wordBias: [Double]
        var utteranceHead: Tensor, utteranceBias: [Double]
    }

    /// The model's phones, in the order its phone embedding and the
    /// evidence's posteriors use.
    public let phones: [String]
    /// The names of the raw inputs a token carries, in order.
    public let inputs: [String]
    let mean: [Double], deviation: [Double], columns: [Int]
    /// Per input, its place in the rows `SequenceInputs` builds.
    let builtPlaces: [Int]
    let scale: Double
    let width: Int
    let members: [Network]

    /// What the scorer says of one attempt's tokens.
    public struct Output: Sendable, Equatable {
        /// Per token, the raters' phone accuracy, 0-2.
        public var phones: [Double]
        /// Per token, its word's accuracy, stress and total, 0-10.
        public var words: [[Double]]
        /// Accuracy, completeness, fluency, prosody and total, 0-10.
        public var utterance: [Double]
    }

    public init(contentsOf path: String) throws {
        try self.init(data: Data(contentsOf: URL(fileURLWithPath: path)), source: path)
    }

    init(data: Data, source: String) throws {
        let weights = try JSONDecoder().decode(Weights.self, from: data)
        func fail(_ why: String) -> SpeechSetupError { SpeechSetupError("\(source): \(why)") }
        guard weights.format == Self.format else { throw fail("format \(weights.format), not \(Self.format)") }
        guard weights.architecture == "bigru" else { throw fail("architecture \(weights.architecture) has no Swift inference") }
        let count = weights.inputs.count
        guard weights.inputMean.count == count, weights.inputStd.count == count, weights.columns.allSatisfy({ (0..<count).contains($0) })
        else { throw fail("input statistics do not match its \(count) inputs") }
        guard !weights.members.isEmpty else { throw fail("no members") }
        // By name: weights trained before an input was added still read
        // theirs; one naming an input not built here cannot be used.
        let built = Dictionary(
            SequenceInputs.names(phones: weights.phones).enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let places = weights.inputs.compactMap { built[$0] }
        guard places.count == count else {
            throw fail("it reads inputs SequenceInputs does not build (training/features.py and Swift differ)")
        }
        let dim = weights.config.dim
        members = try weights.members.map { member in
            func tensor(_ name: String, _ shape: [Int]) throws -> Tensor {
                guard let tensor = member.tensors[name], tensor.shape == shape, tensor.data.count == shape.reduce(1, *) else {
                    throw fail("tensor \(name) missing or not \(shape)")
                }
                return tensor
            }
            func direction(_ layer: Int, _ suffix: String) throws -> Direction {
                let input = layer == 0 ? dim : 2 * dim
                return Direction(
                    inputWeights: try tensor("gru.weight_ih_l\(layer)\(suffix)", [3 * dim, input]),
                    hiddenWeights: try tensor("gru.weight_hh_l\(layer)\(suffix)", [3 * dim, dim]),
                    inputBias: try tensor("gru.bias_ih_l\(layer)\(suffix)", [3 * dim]).data,
                    hiddenBias: try tensor("gru.bias_hh_l\(layer)\(suffix)", [3 * dim]).data)
            }
            return Network(
                projection: try tensor("in_proj.weight", [dim, weights.columns.count]),
                projectionBias: try tensor("in_proj.bias", [dim]).data,
                phoneEmbedding: try tensor("phone_embed.weight", [weights.phones.count, dim]),
                layers: try (0..<weights.config.depth).map { (try direction($0, ""), try direction($0, "_reverse")) },
                phoneHead: try tensor("head_phone.weight", [1, 2 * dim]), phoneBias: try tensor("head_phone.bias", [1]).data,
                wordHead: try tensor("head_word.weight", [3, 2 * dim]), wordBias: try tensor("head_word.bias", [3]).data,
                utteranceHead: try tensor("head_utt.weight", [5, 2 * dim]), utteranceBias: try tensor("head_utt.bias", [5]).data)
        }
        (phones, inputs, mean, deviation, columns, builtPlaces) = (
            weights.phones, weights.inputs, weights.inputMean, weights.inputStd, weights.columns, places
        )
        (scale, width) = (weights.utteranceScale, dim)
    }

    /// The scores of one attempt's tokens: `inputs` each token's raw
    /// inputs (`self.inputs`, in order), `phones` its phone's index in
    /// `self.phones`. The ensemble's mean.
    public func predict(inputs: [[Double]], phones tokenPhones: [Int]) -> Output {
        guard !inputs.isEmpty else { return Output(phones: [], words: [], utterance: Array(repeating: 0, count: 5)) }
        precondition(inputs.allSatisfy { $0.count == self.inputs.count } && inputs.count == tokenPhones.count, "tokens unlike the model's")
        let tokenPhones = tokenPhones.map { phones.indices.contains($0) ? $0 : 0 }
        let standardized = inputs.map { row in
            columns.map { column in (row[column] - mean[column]) / (deviation[column] > 0 ? deviation[column] : 1) }
        }
        var output = Output(
            phones: Array(repeating: 0, count: inputs.count), words: Array(repeating: [0, 0, 0], count: inputs.count),
            utterance: Array(repeating: 0, count: 5))
        let share = 1 / Double(members.count)
        for network in members {
            let states = run(network, standardized, tokenPhones)
            var pooled = Array(repeating: 0.0, count: 2 * width)
            for (t, state) in states.enumerated() {
                output.phones[t] += share * Self.affine(network.phoneHead, network.phoneBias, state)[0]
                for (k, value) in Self.affine(network.wordHead, network.wordBias, state).enumerated() {
                    output.words[t][k] += share * scale * value
                }
                for k in pooled.indices { pooled[k] += state[k] / Double(states.count) }
            }
            for (k, value) in Self.affine(network.utteranceHead, network.utteranceBias, pooled).enumerated() {
                output.utterance[k] += share * scale * value
            }
        }
        return output
    }

    /// What the scorer says of a raw attempt (`PhraseScoring`'s) with its
    /// phones' evidence and its words' pronunciations, on the raters'
    /// scales; nil when the evidence has no phone posteriors (a model
    /// without a readable definition), which the scorer cannot do without.
    public func fitted(_ raw: AttemptScore, evidence: [PhoneEvidence?], pronunciations: [Pronunciation]) -> FittedScores? {
        guard evidence.contains(where: { $0?.posteriors?.count == phones.count }) else { return nil }
        let tokens = SequenceInputs(raw, evidence: evidence, pronunciations: pronunciations, phones: phones)
        let output = predict(inputs: tokens.rows.map { row in builtPlaces.map { row[$0] } }, phones: tokens.phones)
        func clipped(_ value: Double, _ top: Double) -> Double { min(top, max(0, value)) }
        var phoneScores = raw.words.map { Array(repeating: 0.0, count: $0.phones.count) }
        var wordSums = Array(repeating: [0.0, 0.0], count: raw.words.count)
        var wordTokens = Array(repeating: 0, count: raw.words.count)
        for (t, place) in tokens.places.enumerated() {
            if let phone = place.phone { phoneScores[place.word][phone] = clipped(output.phones[t], 2) }
            wordSums[place.word][0] += output.words[t][0]
            wordSums[place.word][1] += output.words[t][1]
            wordTokens[place.word] += 1
        }
        let words = zip(wordSums, wordTokens).map { sums, count in count == 0 ? [0.0, 0.0] : sums.map { clipped($0 / Double(count), 10) } }
        let utterance = output.utterance.map { clipped($0, 10) }
        return FittedScores(
            phones: phoneScores, words: words.map { $0[0] }, stress: words.map { $0[1] }, overall: utterance[4], accuracy: utterance[0],
            fluency: utterance[2], prosody: utterance[3], judgesOmitted: true)
    }

    /// Each token's output of the last GRU layer, [forward | reverse].
    func run(_ network: Network, _ standardized: [[Double]], _ tokenPhones: [Int]) -> [[Double]] {
        var sequence = zip(standardized, tokenPhones).map { input, phone in
            let embedding = network.phoneEmbedding.data[(phone * width)..<((phone + 1) * width)]
            return zip(Self.affine(network.projection, network.projectionBias, input), embedding).map { tanh($0 + $1) }
        }
        for layer in network.layers {
            let forward = Self.recur(layer.forward, sequence, width: width)
            let reverse = Array(Self.recur(layer.reverse, sequence.reversed(), width: width).reversed())
            sequence = zip(forward, reverse).map { $0 + $1 }
        }
        return sequence
    }

    /// PyTorch's GRU over `sequence`, from a zero state: every step's state.
    static func recur(_ direction: Direction, _ sequence: [[Double]], width: Int) -> [[Double]] {
        var state = Array(repeating: 0.0, count: width)
        var states: [[Double]] = []
        states.reserveCapacity(sequence.count)
        for input in sequence {
            let x = affine(direction.inputWeights, direction.inputBias, input)
            let h = affine(direction.hiddenWeights, direction.hiddenBias, state)
            for k in 0..<width {
                let reset = sigmoid(x[k] + h[k])
                let update = sigmoid(x[width + k] + h[width + k])
                let candidate = tanh(x[2 * width + k] + reset * h[2 * width + k])
                state[k] = (1 - update) * candidate + update * state[k]
            }
            states.append(state)
        }
        return states
    }

    /// weight @ vector + bias, weight [rows, columns] row-major.
    static func affine(_ weight: Tensor, _ bias: [Double], _ vector: [Double]) -> [Double] {
        let columns = weight.columns
        return weight.data.withUnsafeBufferPointer { w in
            (0..<weight.rows).map { row in
                var sum = bias[row]
                let base = row * columns
                for column in 0..<columns { sum += w[base + column] * vector[column] }
                return sum
            }
        }
    }

    static func sigmoid(_ value: Double) -> Double { 1 / (1 + exp(-value)) }
}

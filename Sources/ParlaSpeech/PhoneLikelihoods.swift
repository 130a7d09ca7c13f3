import Foundation

/// How well each phone of the model explains each frame of an utterance:
/// the best score of its senones (in any context), in nats below the
/// frame's best senone. From these come frame-level phone posteriors, the evidence
/// goodness of pronunciation is measured on beyond the Viterbi path.
public struct PhoneLikelihoods: Sendable, Equatable {
    /// The model's phones; `+NSN+`-style fillers are left out.
    public var phones: [String]
    public var frames: Int
    /// Frame after frame, one value a phone.
    public var values: [Float]

    public init(phones: [String], frames: Int, values: [Float]) {
        (self.phones, self.frames, self.values) = (phones, frames, values)
        index = Dictionary(uniqueKeysWithValues: phones.enumerated().map { ($1, $0) })
    }

    private var index: [String: Int] = [:]

    public static func == (a: PhoneLikelihoods, b: PhoneLikelihoods) -> Bool {
        a.phones == b.phones && a.frames == b.frames && a.values == b.values
    }

    public func value(_ frame: Int, _ phone: Int) -> Float { values[frame * phones.count + phone] }

    static func isSilence(_ phone: String) -> Bool { phone.uppercased() == "SIL" }

    /// Reads a senone score file as pocketsphinx writes it (`-senlogdir`,
    /// `acmod_write_scores`): a text header up to "endhdr\n", a byte-order
    /// word, then per frame the count of senones scored and, all being
    /// scored, each one's score (16 bits, lower is better, relative to the
    /// frame's best, in `natsPerUnit`).
    public init(senoneFile bytes: UnsafeRawBufferPointer, definition: ModelDefinition, natsPerUnit: Double) throws {
        let marker = Array("endhdr\n".utf8)
        guard
            let headerEnd = (0..<max(0, min(bytes.count, 4096) - marker.count + 1)).first(where: { start in
                marker.indices.allSatisfy { bytes[start + $0] == marker[$0] }
            })
        else { throw ModelDefinition.Unreadable(description: "no senone score header") }
        var position = headerEnd + marker.count + 4
        let kept = definition.phones.indices.filter { !ModelDefinition.isNoise(definition.phones[$0]) }
        let frameSize = 2 + 2 * definition.senoneCount
        var values: [Float] = []
        var frames = 0
        values.reserveCapacity(max(0, bytes.count - position) / frameSize * kept.count)
        while position + frameSize <= bytes.count {
            let scored = Int(bytes.loadUnaligned(fromByteOffset: position, as: Int16.self))
            guard scored == definition.senoneCount else {
                throw ModelDefinition.Unreadable(description: "a frame with \(scored) senones scored, not all")
            }
            let scores = position + 2
            for phone in kept {
                var best = Int16.max
                for senone in definition.senones[phone] {
                    best = min(best, bytes.loadUnaligned(fromByteOffset: scores + 2 * senone, as: Int16.self))
                }
                values.append(Float(-Double(best) * natsPerUnit))
            }
            frames += 1
            position += frameSize
        }
        self.init(phones: kept.map { definition.phones[$0] }, frames: frames, values: values)
    }

    /// How many nats better `phone` explains the frames `range` than
    /// `other` does (negative: worse), or nil when either is not the
    /// model's or the frames are not all here.
    public func advantage(of phone: String, over other: String, frames range: ClosedRange<Int>) -> Double? {
        guard let own = index[phone], let theirs = index[other], range.lowerBound >= 0, range.upperBound < frames else { return nil }
        return range.reduce(0) { $0 + Double(value($1, own)) - Double(value($1, theirs)) }
    }

    /// What the frames `range` say of `phone`, or nil when the phone is not
    /// the model's or the frames are not all here.
    public func evidence(for phone: String, frames range: ClosedRange<Int>) -> PhoneEvidence? {
        guard let expected = index[phone], range.lowerBound >= 0, range.upperBound < frames else { return nil }
        var evidence = PhoneEvidence()
        var competitors = [Double](repeating: 0, count: phones.count)
        var posteriors = [Double](repeating: 0, count: phones.count)
        for frame in range {
            var best = -Float.infinity
            var bestPhone = 0
            for q in phones.indices where value(frame, q) > best { (best, bestPhone) = (value(frame, q), q) }
            let own = Double(value(frame, expected))
            evidence.gapToBest += own - Double(best)
            if bestPhone != expected { evidence.otherShare += 1 }
            var total = 0.0
            for q in phones.indices { total += exp(Double(value(frame, q)) - Double(best)) }
            let normalizer = Double(best) + log(total)
            evidence.logPosterior += own - normalizer
            for q in phones.indices {
                posteriors[q] += Double(value(frame, q)) - normalizer
                if q != expected { competitors[q] += Double(value(frame, q)) }
            }
        }
        let count = Double(range.count)
        evidence.posteriors = posteriors.map { Float($0 / count) }
        evidence.gapToBest /= count
        evidence.otherShare /= count
        evidence.logPosterior /= count
        // Silence is not a sound said instead.
        let candidates = competitors.indices.filter { $0 != expected && !Self.isSilence(phones[$0]) }
        evidence.heardAs = phones[candidates.max { competitors[$0] < competitors[$1] } ?? expected]
        return evidence
    }
}

/// What the frames of one aligned phone say of it.
public struct PhoneEvidence: Sendable, Equatable, Codable {
    /// Mean over the frames of the log posterior of the phone (acoustic
    /// scale 1: scales 0.1 and 0.3 were measured and agreed less with raters).
    public var logPosterior = 0.0
    /// Mean nats below the frame's best phone (0: it is the best throughout).
    public var gapToBest = 0.0
    /// The share of frames another phone explains best.
    public var otherShare = 0.0
    /// The other phone that explains the frames best, on the whole.
    public var heardAs = ""
    /// The phone the alignment heard in its place: one of its likely
    /// substitutes (`PhoneSubstitutions`), nil when it heard the phone.
    public var substitute: String?
    /// How loud the phone was against the attempt's other phones, in dB
    /// (`SpeechActivity.relativeLevels`): a stressed vowel stands out, a
    /// swallowed consonant sinks. Nil in evidence measured before it was.
    public var energy: Double?
    /// Mean over the frames of the log posterior of every phone of the
    /// model (`PhoneLikelihoods.phones`: the model definition's phones in
    /// its order, fillers left out): the Kaldi GOP recipe's LPP vector, whose
    /// differences from the phone's own are its LPR (issue 36).
    public var posteriors: [Float]?

    public init() {}
}

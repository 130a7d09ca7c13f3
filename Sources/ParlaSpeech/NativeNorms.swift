import Foundation

/// How native speakers say each phone of a model, measured on native read
/// speech aligned with its own text (`parla speech natives`): the mean and
/// spread of each phone's evidence and duration, and of the articulation
/// rate. A learner's phone is measured against them in spreads (z), so
/// that one mapping to 0-100 means the same in every language and for
/// every phone: some phones fit their models worse than others even when
/// natives say them.
public struct NativeNorms: Codable, Sendable, Equatable {
    public struct Spread: Codable, Sendable, Equatable {
        public var mean: Double
        public var deviation: Double

        public init(mean: Double, deviation: Double) { (self.mean, self.deviation) = (mean, deviation) }

        /// How many spreads `value` lies from the mean.
        public func z(_ value: Double) -> Double { (value - mean) / max(deviation, 1e-6) }
    }

    public struct Phone: Codable, Sendable, Equatable {
        /// Instances measured.
        public var count: Int
        /// Mean nats below the frame's best phone (`PhoneEvidence.gapToBest`).
        public var gap: Spread
        /// Mean log posterior at acoustic scale 1.
        public var logPosterior: Spread
        /// The natural log of its frames.
        public var logDuration: Spread
        /// Its loudness against the clip's other phones, dB
        /// (`PhoneEvidence.energy`); nil in norms measured before it was.
        public var energy: Spread?
    }

    public var phones: [String: Phone]
    /// All phones together, and what a phone too rare in the native speech leans on.
    public var pooled: Phone
    /// Phones per second while speaking.
    public var rate: Spread
    /// What was measured, for people.
    public var source: String?

    /// The norms of `phone`; the pooled ones for a phone never measured.
    public func phone(_ phone: String) -> Phone { phones[phone] ?? pooled }

    /// One native phone as measured.
    public struct Sample: Sendable {
        public var phone: String
        public var gap: Double
        public var logPosterior: Double
        public var frames: Int
        public var energy: Double?

        public init(phone: String, gap: Double, logPosterior: Double, frames: Int, energy: Double? = nil) {
            (self.phone, self.gap, self.logPosterior, self.frames, self.energy) = (phone, gap, logPosterior, frames, energy)
        }
    }

    /// The norms of `samples`, each phone's mean and spread drawn towards
    /// the pooled ones as if `prior` pooled instances were added: a phone
    /// seen three times gets a cautious spread, not a lucky narrow one.
    public static func measure(_ samples: [Sample], rates: [Double], prior: Double = 10, source: String? = nil) -> NativeNorms {
        func spread(_ values: [Double], towards pooled: Spread?) -> Spread {
            let n = Double(values.count)
            guard let pooled else {
                let mean = values.reduce(0, +) / max(1, n)
                let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / max(1, n - 1)
                return Spread(mean: mean, deviation: variance.squareRoot())
            }
            let mean = (values.reduce(0, +) + prior * pooled.mean) / (n + prior)
            let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            let variance =
                (squares + prior * (pooled.deviation * pooled.deviation + (pooled.mean - mean) * (pooled.mean - mean))) / (n + prior)
            return Spread(mean: mean, deviation: variance.squareRoot())
        }
        func norms(_ samples: [Sample], towards pooled: Phone?) -> Phone {
            let energies = samples.compactMap(\.energy)
            return Phone(
                count: samples.count, gap: spread(samples.map(\.gap), towards: pooled?.gap),
                logPosterior: spread(samples.map(\.logPosterior), towards: pooled?.logPosterior),
                logDuration: spread(samples.map { log(Double(max(1, $0.frames))) }, towards: pooled?.logDuration),
                energy: energies.isEmpty ? pooled?.energy : spread(energies, towards: pooled?.energy))
        }
        let pooled = norms(samples, towards: nil)
        let phones = Dictionary(grouping: samples, by: \.phone).mapValues { norms($0, towards: pooled) }
        return NativeNorms(phones: phones, pooled: pooled, rate: spread(rates, towards: nil), source: source)
    }
}

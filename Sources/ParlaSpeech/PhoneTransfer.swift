import Foundation

/// Another language's model's phones as the English sequence scorer knows
/// them (`training/phone_transfer.py`, issue 36 must-have 6): each phone
/// carried to the en-us phone of its IPA, else to the nearest of its class.
/// An attempt scored by that model is carried phone by phone (its labels,
/// its pronunciations and its evidence's posteriors) into the scorer's
/// phones; the scores that come back are per word and phone, so they apply
/// to the attempt as it was.
public struct PhoneTransfer: Codable, Sendable, Equatable {
    public static let format = "parla-phone-transfer-1"
    public var format: String
    /// The scorer's weights, relative to the models directory.
    public var scorer: String
    /// Each model phone's scorer phone.
    public var phones: [String: String]
    /// How it was made, for people.
    public var source: String?

    public init(scorer: String, phones: [String: String], source: String? = nil) {
        (format, self.scorer, self.phones, self.source) = (Self.format, scorer, phones, source)
    }

    public static func load(_ path: String) throws -> PhoneTransfer {
        let transfer = try JSONDecoder().decode(PhoneTransfer.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        guard transfer.format == format else { throw SpeechSetupError("\(path): format \(transfer.format), not \(format)") }
        return transfer
    }

    /// The scorer's phone for `phone` (silence for one the table lacks: the
    /// scorer's embedding for "nothing known").
    public func carried(_ phone: String) -> String { phones[phone] ?? "SIL" }

    /// An attempt scored with a model whose posteriors are over
    /// `modelPhones`, in the scorer's `scorerPhones`. A scorer phone several
    /// model phones carry to has their posteriors' mass together (log-sum-
    /// exp of the mean log posteriors); one none carries to has the least of
    /// the phone's posteriors: it explains nothing there.
    public func carried(
        _ raw: AttemptScore, evidence: [PhoneEvidence?], pronunciations: [Pronunciation], modelPhones: [String], scorerPhones: [String]
    ) -> (score: AttemptScore, evidence: [PhoneEvidence?], pronunciations: [Pronunciation]) {
        var score = raw
        for w in score.words.indices {
            for p in score.words[w].phones.indices { score.words[w].phones[p].phone = carried(raw.words[w].phones[p].phone) }
        }
        let target = Dictionary(scorerPhones.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let sources = modelPhones.map { target[carried($0)] }
        let evidence = evidence.map { item -> PhoneEvidence? in
            guard var item, let posteriors = item.posteriors, posteriors.count == modelPhones.count else { return item }
            var groups = [[Double]](repeating: [], count: scorerPhones.count)
            for (k, value) in posteriors.enumerated() { if let t = sources[k] { groups[t].append(Double(value)) } }
            let floor = Double(posteriors.min() ?? 0)
            item.posteriors = groups.map { group in
                guard let top = group.max() else { return Float(floor) }
                return Float(top + log(group.reduce(0) { $0 + exp($1 - top) }))
            }
            item.heardAs = carried(item.heardAs)
            item.substitute = item.substitute.map(carried)
            return item
        }
        return (score, evidence, pronunciations.map { $0.map(carried) })
    }
}

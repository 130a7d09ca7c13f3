import Foundation

/// The phones learners are likely to say instead of each phone of a model
/// (`Models/<lang>/substitutions.json`, written by
/// `training/substitutions.py`: for English from speechocean762's train
/// split, for French, German and Spanish by phone class). The alignment
/// grammar offers them beside the phone, so the path itself says what a
/// phone was heard as (issue 36, must-have 5).
///
/// Design note: a substitute wins only where its path scores better than
/// the phone's by more than the grammar's `penalty`, so a clear
/// substitution is found and a phone merely said with an accent mostly is
/// not (the penalty was chosen on train-split speech: training/README.md).
/// `PocketSphinxDecoder.alignPhones` then puts the path back in the
/// phone's terms: the words, their phones and the scores stay the
/// phrase's, and what was heard rides along (`PhoneEvidence.substitute`).
public struct PhoneSubstitutions: Sendable, Equatable, Codable {
    public static let format = "parla-substitutions-1"
    public var format: String
    /// How the table was made, for people.
    public var source: String?
    /// How much less likely, in nats, the grammar makes each substitute
    /// than the phone (its weight is e^-penalty, the phone's 1).
    public var penalty: Double
    /// JSGF weights are written as plain decimals of at most 30 places.
    public static let penalties = 0.0...69.0
    /// Phone -> its likely substitutes, most likely first.
    public var substitutes: [String: [String]]

    public init(penalty: Double, substitutes: [String: [String]], source: String? = nil) {
        (format, self.penalty, self.substitutes, self.source) = (Self.format, penalty, substitutes, source)
    }

    public static func load(_ path: String) throws -> PhoneSubstitutions {
        let table = try JSONDecoder().decode(PhoneSubstitutions.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        guard table.format == format else { throw ModelDefinition.Unreadable(description: "\(path): not \(format)") }
        guard penalties.contains(table.penalty) else {
            throw ModelDefinition.Unreadable(description: "\(path): penalty \(table.penalty) is not in \(penalties)")
        }
        return table
    }

    /// What the grammar offers where the phrase has `phone`: the phone
    /// itself, then its substitutes, each with its JSGF weight.
    public func alternatives(_ phone: String) -> [(heard: String, weight: String)] {
        var others: [String] = []
        for other in substitutes[phone] ?? [] where other != phone && !others.contains(other) { others.append(other) }
        let weight = String(format: "%.30f", exp(-penalty))
        return [(phone, "1")] + others.map { ($0, weight) }
    }
}

/// A learner's substitution simulated on a native's clip (issue 36,
/// must-have 6: how well the alignment finds a substituted phone, measured
/// on natives' read speech, where the truth is known): where the native
/// said `said`, the phrase asks for `asked`, a phone `said` is a likely
/// substitute of. The alignment should hear `said` there.
public struct SubstitutionTrial: Sendable, Equatable {
    /// The word and the phone of its commonest pronunciation changed.
    public var word: Int
    public var phone: Int
    public var asked: String
    public var said: String

    public init(word: Int, phone: Int, asked: String, said: String) {
        (self.word, self.phone, self.asked, self.said) = (word, phone, asked, said)
    }

    /// What the scorer made of a trial (`SpeechScorer.substitutionTrial`).
    public struct Outcome: Sendable {
        public var trial: SubstitutionTrial
        /// Whether the alignment heard `said` where `asked` was asked for.
        public var found: Bool
        /// The clip's other phones, and how many of them the alignment heard a substitute for.
        public var otherPhones: Int
        public var othersSubstituted: Int
        /// The score (0-100, as the API returns it) of the phone asked for, and of the others.
        public var phoneScore: Double
        public var otherScores: [Double]
    }

    /// The phrase as the trial asks for it: the word's commonest
    /// pronunciation alone, with `asked` in place.
    public func applied(to expected: [ExpectedWord]) -> [ExpectedWord] {
        var changed = expected
        var pronunciation = expected[word].commonest
        pronunciation[phone] = asked
        changed[word].pronunciations = [pronunciation]
        return changed
    }
}

extension PhoneSubstitutions {
    /// The trial for a native's clip of `expected`: from the middle word
    /// outward, the first phone of a word's commonest pronunciation that is
    /// some phone's likely substitute; that phone (the first alphabetically)
    /// is asked for in its place. Nil: no phone of the phrase is any phone's
    /// substitute.
    public func trial(_ expected: [ExpectedWord]) -> SubstitutionTrial? {
        var askedFor: [String: String] = [:]
        for (phone, others) in substitutes.sorted(by: { $0.key < $1.key }) {
            for other in others where askedFor[other] == nil { askedFor[other] = phone }
        }
        let middle = expected.count / 2
        let order = expected.indices.sorted { (abs($0 - middle), $0) < (abs($1 - middle), $1) }
        for word in order {
            for (index, said) in expected[word].commonest.enumerated() {
                if let asked = askedFor[said] { return SubstitutionTrial(word: word, phone: index, asked: asked, said: said) }
            }
        }
        return nil
    }
}

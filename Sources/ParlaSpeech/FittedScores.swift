import Foundation

/// What a scorer fitted to human raters says of a raw attempt, on the
/// raters' scales: the linear `ScoringModel` says phones, words and the
/// sentence; the `SequenceScorer` also the sentence's accuracy, fluency and
/// prosody and each word's stress. One rule turns either into the attempt's
/// scores and verdict (`applied`).
public struct FittedScores: Sendable, Equatable {
    /// Per word, per phone scored: the raters' phone accuracy, 0-2.
    public var phones: [[Double]]
    /// Per word: its accuracy, 0-10.
    public var words: [Double]
    /// Per word: its lexical stress, 0-10 (nil: not scored).
    public var stress: [Double]?
    /// The sentence's overall score, 0-10.
    public var overall: Double
    /// The sentence's accuracy, fluency and prosody, 0-10 (nil: the mean
    /// of the words said, and the raw scorer's fluency; no prosody).
    public var accuracy: Double?
    public var fluency: Double?
    public var prosody: Double?
    /// Whether it judges the words the raw scorer found left out, as raters
    /// do (the sequence scorer reads them as missing evidence): a word
    /// squeezed into too few frames is then scored and judged like any
    /// other, and a word the alignment never reached keeps its verdict
    /// with the scorer's scores. (On speechocean762's test split the raw
    /// scorer leaves out 173 words; the raters scored 88 of them 8.7 of 10
    /// on average.)
    public var judgesOmitted: Bool

    public init(
        phones: [[Double]], words: [Double], stress: [Double]? = nil, overall: Double, accuracy: Double? = nil, fluency: Double? = nil,
        prosody: Double? = nil, judgesOmitted: Bool = false
    ) {
        (self.phones, self.words, self.stress, self.overall) = (phones, words, stress, overall)
        (self.accuracy, self.fluency, self.prosody, self.judgesOmitted) = (accuracy, fluency, prosody, judgesOmitted)
    }

    /// The raw score the other words' median must reach for a word to be plainly wrong among them.
    static let saidWell = 60.0

    /// The attempt scored: each phone 0-100 (50 per point of the raters'
    /// 0-2), each word and the sentence 0-100 (10 per point of their 0-10).
    /// Decisions that rest on what the decoder found (no speech, the wrong
    /// phrase, an attempt cut short) stay the raw scorer's; passing is
    /// decided afresh on the fitted scores.
    public func applied(to raw: AttemptScore, passThreshold: Double, mispronouncedShareAllowed: Double) -> AttemptScore {
        var score = raw
        func othersSaidWell(_ index: Int) -> Bool {
            let others = raw.words.indices.filter { $0 != index && raw.words[$0].error != .omitted }.map { raw.words[$0].score }.sorted()
            return !others.isEmpty && others[others.count / 2] >= Self.saidWell
        }
        for index in score.words.indices {
            for (p, prediction) in phones[index].enumerated() { score.words[index].phones[p].score = rounded(50 * prediction) }
            if score.words[index].error == .omitted {
                guard judgesOmitted else { continue }
                if score.words[index].phones.isEmpty {
                    score.words[index].score = rounded(10 * words[index])
                    score.words[index].stress = stress.map { rounded(10 * $0[index]) }
                    continue
                }
            }
            // A word whose raw goodness is as bad as another phrase's (below
            // the anchor `wrong` maps to) among words said well is another
            // word said: the raters' data has too few such words for the fit
            // to see them. It stays flagged, its score held below the good
            // range. (Among words the raw scorer finds poor too, a low one is
            // an accent, which the fit knows.)
            // In the wrong phrase, the raw scorer's verdict on each word stands.
            let plainlyWrong = raw.words[index].score < PhraseScoring.wrongAnchorScore && othersSaidWell(index)
            score.words[index].score = rounded(10 * words[index])
            score.words[index].stress = stress.map { rounded(10 * $0[index]) }
            if plainlyWrong { score.words[index].score = min(score.words[index].score, ScoringModel.goodWord - 1) }
            if raw.feedback == .wrongPhrase { score.words[index].score = min(score.words[index].score, raw.words[index].score) }
            score.words[index].error =
                score.words[index].score < ScoringModel.goodWord || plainlyWrong
                    || raw.words[index].error == .mispronounced && raw.feedback == .wrongPhrase
                ? .mispronounced : .none
        }
        let said = score.words.filter { $0.error != .omitted }
        score.accuracy =
            said.isEmpty ? 0 : accuracy.map { rounded(10 * $0) } ?? rounded(said.map(\.score).reduce(0, +) / Double(said.count))
        if let fluency { score.fluency = rounded(10 * fluency) }
        score.prosody = prosody.map { rounded(10 * $0) }
        // An attempt with more than a quarter of its words unsaid: they still
        // count, half a phrase well said is half a score. (A word or two
        // missed is the raters' business, a feature among others.)
        let fitted = rounded(10 * overall * (raw.completeness < 75 ? raw.completeness / 100 : 1))
        score.overall = [.noSpeech, .wrongPhrase].contains(raw.feedback) ? min(raw.overall, fitted) : fitted
        let mispronounced = score.words.filter { $0.error == .mispronounced }.count
        let missed = score.words.filter { $0.error == .omitted }.count
        score.passed =
            ![.noSpeech, .wrongPhrase].contains(raw.feedback) && score.overall >= passThreshold
            && Double(mispronounced + missed) <= mispronouncedShareAllowed * Double(score.words.count)
        switch raw.feedback {
        case .noSpeech, .wrongPhrase:
            break
        case .incomplete where !score.passed:
            break
        default:
            score.feedback =
                score.passed
                ? (score.overall >= AttemptScore.greatAt && !score.words.contains { $0.error != .none } ? .great : .good)
                : mispronounced > 0 ? .wordMispronounced : raw.completeness < 100 ? .incomplete : .wordMispronounced
        }
        return score
    }

    func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}

import Foundation

/// The sequence scorer's tokens for one raw attempt: one per phone scored,
/// and one per phone of each word left out (its dictionary pronunciation,
/// marked missing), with the inputs `training/features.py` builds for it.
/// That script is the training side of this file: the two must build the
/// same columns, in the same order, from the same attempt (the weights
/// file names them, and `SequenceScorer` refuses weights whose names
/// differ).
public struct SequenceInputs: Sendable {
    /// Per token, its raw inputs (`names(phones:)`).
    public var rows: [[Double]] = []
    /// Per token, its phone's index in the model's phones.
    public var phones: [Int] = []
    /// Per token, its word in the attempt, and its phone there (nil: a
    /// phone of a word left out).
    public var places: [(word: Int, phone: Int?)] = []

    static let wordErrors: [AttemptScore.WordError] = [.none, .mispronounced, .omitted]
    static let positions = ["begin", "inside", "end", "single"]
    static let scalars =
        ["logPosterior", "gapToBest", "otherShare", "lppOwn", "lppMargin", "phoneScore", "logDuration", "pauseBefore", "pauseAfter"]
        + ["energy", "energyInWord"]
        + ["wordScore"] + wordErrors.map { "wordError.\($0.rawValue)" } + positions.map { "position.\($0)" }
        + ["wordPhones", "wordMeanLogPosterior", "wordMinLogPosterior", "wordMeanPhoneScore", "wordLogDuration"]
        + [
            "overall", "accuracy", "completeness", "fluency", "goodness", "speechRate", "logDuration.utterance", "insertions", "passed",
            "utteranceMeanLogPosterior", "utteranceMissingShare",
        ] + ["missing"]

    /// The inputs' names: each phone's log posterior (LPP), the canonical
    /// phone's minus each (LPR), then the scalars.
    public static func names(phones: [String]) -> [String] {
        phones.map { "lpp.\($0)" } + phones.map { "lpr.\($0)" } + scalars
    }

    static func logDuration(_ seconds: Double) -> Double { log(max(seconds, 0.01)) }

    /// The tokens of `score` (a raw attempt, `PhraseScoring`'s), with its
    /// phones' evidence in the order of the words' phones, and each word's
    /// dictionary pronunciation (what a word said without phones stands for).
    public init(_ score: AttemptScore, evidence: [PhoneEvidence?], pronunciations: [[String]], phones model: [String]) {
        let index = Dictionary(model.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let silence = index["SIL"] ?? 0
        let count = model.count
        let column = Dictionary(uniqueKeysWithValues: Self.scalars.enumerated().map { ($1, 2 * count + $0) })
        let width = 2 * count + Self.scalars.count
        // The scored words' phones are the first entries of the evidence (the
        // alignment's path); any after them belong to a word it left unfinished.
        var offsets: [Int] = []
        var total = 0
        for word in score.words {
            offsets.append(total)
            total += word.phones.count
        }
        let evidenceHolds = evidence.count >= total
        func evidenceOf(_ word: Int, _ phone: Int) -> PhoneEvidence? { evidenceHolds ? evidence[offsets[word] + phone] : nil }
        let times = score.words.flatMap { $0.phones.map { (start: $0.start, end: $0.end) } }
        let logPosteriors = evidenceHolds ? evidence.compactMap { $0?.logPosterior } : []
        let utterance: [(String, Double)] = [
            ("overall", score.overall / 100), ("accuracy", score.accuracy / 100), ("completeness", score.completeness / 100),
            ("fluency", score.fluency / 100), ("goodness", max(score.goodness, -10)), ("speechRate", score.speechRate),
            ("logDuration.utterance", Self.logDuration(score.duration)), ("insertions", Double(score.insertions)),
            ("passed", score.passed ? 1 : 0),
            ("utteranceMeanLogPosterior", logPosteriors.isEmpty ? 0 : logPosteriors.reduce(0, +) / Double(logPosteriors.count)),
        ]
        var missing = 0
        for (w, word) in score.words.enumerated() {
            let pronunciation = word.phones.isEmpty && w < pronunciations.count ? pronunciations[w] : []
            let tokens = word.phones.isEmpty ? pronunciation.count : word.phones.count
            let wordEvidence = word.phones.indices.compactMap { evidenceOf(w, $0)?.logPosterior }
            let loudest = word.phones.indices.compactMap { evidenceOf(w, $0)?.energy }.max()
            for position in 0..<tokens {
                var row = Array(repeating: 0.0, count: width)
                func set(_ name: String, _ value: Double) { row[column[name]!] = value }
                for (name, value) in utterance { set(name, value) }
                let place = tokens == 1 ? "single" : position == 0 ? "begin" : position == tokens - 1 ? "end" : "inside"
                set("position.\(place)", 1)
                set("wordPhones", Double(tokens))
                set("wordScore", word.score / 100)
                set("wordError.\(word.error.rawValue)", 1)
                if !wordEvidence.isEmpty {
                    set("wordMeanLogPosterior", wordEvidence.reduce(0, +) / Double(wordEvidence.count))
                    set("wordMinLogPosterior", wordEvidence.min()!)
                }
                if let first = word.phones.first, let last = word.phones.last {
                    set("wordMeanPhoneScore", word.phones.map(\.score).reduce(0, +) / Double(word.phones.count) / 100)
                    set("wordLogDuration", Self.logDuration(last.end - first.start))
                }
                guard !word.phones.isEmpty else {
                    set("missing", 1)
                    missing += 1
                    rows.append(row)
                    phones.append(index[pronunciation[position]] ?? silence)
                    places.append((w, nil))
                    continue
                }
                let phone = word.phones[position]
                let flat = offsets[w] + position
                set("phoneScore", phone.score / 100)
                set("logDuration", Self.logDuration(phone.end - phone.start))
                // Pauses in seconds, at most one: a longer one says no more.
                set("pauseBefore", flat > 0 ? min(1, max(0, phone.start - times[flat - 1].end)) : 0)
                set("pauseAfter", flat + 1 < times.count ? min(1, max(0, times[flat + 1].start - phone.end)) : 0)
                let own = index[phone.phone]
                if let evidence = evidenceOf(w, position) {
                    set("logPosterior", evidence.logPosterior)
                    set("gapToBest", evidence.gapToBest)
                    set("otherShare", evidence.otherShare)
                    // Tens of dB: against the attempt's phones, and against the word's loudest (stress).
                    if let energy = evidence.energy, let loudest {
                        set("energy", energy / 10)
                        set("energyInWord", (energy - loudest) / 10)
                    }
                }
                if let posteriors = evidenceOf(w, position)?.posteriors, !posteriors.isEmpty, posteriors.count == count {
                    for k in 0..<count { row[k] = Double(posteriors[k]) }
                    if let own {
                        for k in 0..<count { row[count + k] = row[own] - row[k] }
                        set("lppOwn", row[own])
                        // The phone's margin over the best other phone, silence apart.
                        let others = (0..<count).filter { $0 != own && $0 != silence }.map { row[$0] }
                        set("lppMargin", row[own] - (others.max() ?? row[own]))
                    }
                } else {
                    set("missing", 1)
                }
                rows.append(row)
                phones.append(own ?? silence)
                places.append((w, position))
            }
        }
        let share = rows.isEmpty ? 0 : Double(missing) / Double(rows.count)
        for t in rows.indices { rows[t][column["utteranceMissingShare"]!] = share }
    }
}

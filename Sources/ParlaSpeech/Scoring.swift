import Foundation
import ParlaCore

/// How one attempt at a phrase went, word by word.
public struct AttemptScore: Sendable, Codable, Equatable {
    /// A passed attempt scored this high overall, with no word wrong, is
    /// great; a word scored this high was said well (the dashboard's grade).
    public static let greatAt = 85.0

    public enum Feedback: String, Sendable, Codable, CaseIterable {
        case great, good
        case wordMispronounced = "word_mispronounced"
        case incomplete
        case wrongPhrase = "wrong_phrase"
        case noSpeech = "no_speech"
    }

    public enum WordError: String, Sendable, Codable { case none, mispronounced, omitted }

    public struct PhoneScore: Sendable, Codable, Equatable {
        public var phone: String
        public var start: Double
        public var end: Double
        public var score: Double
        /// The phone in IPA, and what it was heard as, in IPA: the
        /// substitute the alignment took in its place (`substituted`), else
        /// the phone its frames sound most like besides it (from the
        /// frames' phone posteriors).
        public var ipa: String?
        public var heardAs: String?
        public var substituted: Bool?

        public init(
            phone: String, start: Double, end: Double, score: Double, ipa: String? = nil, heardAs: String? = nil, substituted: Bool? = nil
        ) {
            (self.phone, self.start, self.end, self.score, self.ipa, self.heardAs) = (phone, start, end, score, ipa, heardAs)
            self.substituted = substituted
        }
    }

    /// What to work on in a mispronounced word: its worst phone (of those
    /// the alignment heard a substitute for, when it heard any), the
    /// letters that spell it, what it sounded like instead (IPA), and the
    /// word said instead when the phones heard spell one.
    public struct Hint: Sendable, Codable, Equatable {
        /// The phone's place in the word's `phones`.
        public var phoneIndex: Int
        public var phone: String
        public var heardAs: String?
        /// The letters of the word that spell the phone, as written (nil:
        /// none do, or the language has no spelling table).
        public var letters: String?
        /// The dictionary's word the phones the alignment heard spell ("man"
        /// for "men"), when it is another word.
        public var heardAsWord: String?

        public init(phoneIndex: Int, phone: String, heardAs: String?, letters: String? = nil, heardAsWord: String? = nil) {
            (self.phoneIndex, self.phone, self.heardAs, self.letters, self.heardAsWord) = (phoneIndex, phone, heardAs, letters, heardAsWord)
        }

        /// The hint in words, in every language, for `word`.
        public func message(word: String) -> LocalizedText {
            Wording.pronunciationHint(phone: phone, word: word, heardAs: heardAs, letters: letters, heardAsWord: heardAsWord)
        }
    }

    public struct WordScore: Sendable, Codable, Equatable {
        public var text: String
        /// Seconds from the start of the recording; absent when omitted.
        public var start: Double?
        public var end: Double?
        public var score: Double
        public var error: WordError
        public var phones: [PhoneScore]
        /// For a mispronounced word.
        public var hint: Hint?
        /// 0-100: the word's lexical stress as raters would judge it (nil:
        /// not said, or a language whose scorer does not judge it).
        public var stress: Double?

        public init(
            text: String, start: Double?, end: Double?, score: Double, error: WordError, phones: [PhoneScore], hint: Hint? = nil,
            stress: Double? = nil
        ) {
            (self.text, self.start, self.end, self.score, self.error, self.phones, self.hint, self.stress) = (
                text, start, end, score, error, phones, hint, stress
            )
        }

        /// Names each phone in IPA with what it was heard as (`evidence`,
        /// in the order of the phones), and, when the word is mispronounced,
        /// the phone to work on with the letters that spell it (`graphemes`,
        /// the language's spelling table) and the word said instead
        /// (`wordPronounced`: the dictionary's word said with given phones).
        public mutating func annotate(
            evidence: [PhoneEvidence?], ipa: [String: String], graphemes: Graphemes? = nil,
            wordPronounced: ((Pronunciation) -> String?)? = nil
        ) {
            var heardPhones = phones.map(\.phone)
            for (index, evidence) in zip(phones.indices, evidence) {
                let heard = evidence.map { $0.substitute ?? $0.heardAs }
                phones[index].ipa = ipa[phones[index].phone] ?? phones[index].phone
                phones[index].heardAs = heard.map { ipa[$0] ?? $0 }
                phones[index].substituted = evidence.map { $0.substitute != nil }
                if let substitute = evidence?.substitute { heardPhones[index] = substitute }
            }
            let substituted = phones.indices.filter { phones[$0].substituted == true }
            guard error == .mispronounced,
                let worst = (substituted.isEmpty ? Array(phones.indices) : substituted).min(by: { phones[$0].score < phones[$1].score })
            else {
                hint = nil
                return
            }
            let spelled = graphemes?.spellings(of: text, phones: phones.map { $0.ipa ?? $0.phone })
            let saidInstead = substituted.isEmpty ? nil : wordPronounced?(heardPhones)
            hint = Hint(
                phoneIndex: worst, phone: phones[worst].ipa ?? phones[worst].phone, heardAs: phones[worst].heardAs,
                letters: spelled.flatMap { worst < $0.count ? $0[worst].map(String.init) : nil },
                heardAsWord: saidInstead.flatMap { $0.lowercased() == text.lowercased() ? nil : $0 })
        }
    }

    /// 0-100: completeness x (0.8 accuracy + 0.2 fluency), less the share
    /// of speech that was not the phrase's words.
    public var overall: Double
    /// 0-100: how well the words said were pronounced.
    public var accuracy: Double
    /// 0-100: the share of the phrase's words that were said.
    public var completeness: Double
    /// 0-100: speech rate and pauses (fitted to raters: their fluency).
    public var fluency: Double
    /// 0-100: intonation, rhythm and stress as raters would judge them (nil
    /// where the language's scorer does not judge them).
    public var prosody: Double?
    public var words: [WordScore]
    /// Stretches of speech outside the phrase's words.
    public var insertions: Int
    /// What was heard, for an incomplete or wrong attempt.
    public var recognizedText: String?
    public var passed: Bool
    public var feedback: Feedback
    /// Mean goodness of pronunciation over the words, nats per frame (the
    /// calibration's raw measure).
    public var goodness: Double
    /// Phones per second of speech.
    public var speechRate: Double
    public var duration: Double
    public var warnings: [String]

    public init(
        overall: Double, accuracy: Double, completeness: Double, fluency: Double, words: [WordScore], insertions: Int,
        recognizedText: String?, passed: Bool, feedback: Feedback, goodness: Double, speechRate: Double, duration: Double,
        warnings: [String]
    ) {
        (self.overall, self.accuracy, self.completeness, self.fluency, self.words, self.insertions) = (
            overall, accuracy, completeness, fluency, words, insertions
        )
        (self.recognizedText, self.passed, self.feedback, self.goodness, self.speechRate, self.duration, self.warnings) = (
            recognizedText, passed, feedback, goodness, speechRate, duration, warnings
        )
    }
}

/// The arithmetic of scoring, from what the decoder found: pure, so every
/// rule is unit-tested without audio.
///
/// Goodness of pronunciation (GOP) of a phone: its forced-alignment
/// acoustic score minus the free phone loop's score over the same frames,
/// per frame, in nats (0 when the expected phone is the best any phone
/// could do; very negative when another phone fits far better). Scores map
/// GOP linearly so that the language's `right` anchor gives 85 and `wrong`
/// gives 15, clamped to 0-100.
public struct PhraseScoring: Sendable {
    public struct Segment: Sendable, Equatable {
        public var label: String
        public var start: Int
        public var end: Int
        public var acoustic: Int32

        public init(label: String, start: Int, end: Int, acoustic: Int32) {
            (self.label, self.start, self.end, self.acoustic) = (label, start, end, acoustic)
        }

        var frames: Int { end - start + 1 }
    }

    public var calibration: Calibration
    public var passThreshold: Double
    public var natsPerUnit: Double
    public var framesPerSecond = 100.0
    /// Below this a word is mispronounced.
    public var wordThreshold = 50.0
    /// A pass allows at most this share of the words mispronounced, however
    /// well the rest went: half a phrase said right is not the phrase.
    public var mispronouncedShareAllowed = PhraseScoring.mispronouncedShareAllowed
    public static let mispronouncedShareAllowed = 0.25
    /// The label a phone has in the alignment grammar.
    public var phoneLabel: @Sendable (String) -> String

    public init(
        calibration: Calibration, passThreshold: Double, natsPerUnit: Double,
        phoneLabel: @escaping @Sendable (String) -> String
    ) {
        (self.calibration, self.passThreshold, self.natsPerUnit, self.phoneLabel) = (calibration, passThreshold, natsPerUnit, phoneLabel)
    }

    /// The scores the anchors map to: `right` 85, `wrong` 15.
    public static let rightAnchorScore = 85.0
    public static let wrongAnchorScore = 15.0
    /// The raw rule's wrong phrase: the words said scored below this (a
    /// model with a `PhraseCheck` decides these attempts by it instead).
    public static let wrongPhraseAccuracy = 40.0

    public func score(goodness: Double) -> Double {
        let span = calibration.right - calibration.wrong
        guard span > 0 else { return 0 }
        let (low, high) = (Self.wrongAnchorScore, Self.rightAnchorScore)
        return min(100, max(0, low + (high - low) * (goodness - calibration.wrong) / span))
    }

    static func isFiller(_ label: String) -> Bool {
        label.hasPrefix("<") || label.hasPrefix("[") || label.hasPrefix("+") || label.hasPrefix("(") || label == "SIL"
            || label == "sil" || label == "parla_silence"
    }

    /// The free loop's acoustic score over frames `start...end`, pro-rating
    /// segments that overlap only in part.
    static func loopScore(_ loop: [Segment], _ start: Int, _ end: Int) -> Double {
        loop.reduce(0) { sum, segment in
            let overlap = min(segment.end, end) - max(segment.start, start) + 1
            return overlap > 0 ? sum + Double(segment.acoustic) * Double(overlap) / Double(segment.frames) : sum
        }
    }

    /// Splits the aligned phones into the expected words, choosing for each
    /// the pronunciation the path took. Words the path never reached get nil.
    static func wordsOfPath(_ expected: [ExpectedWord], _ phones: [Segment], phoneLabel: (String) -> String)
        -> [(pronunciation: Pronunciation, segments: [Segment])?]
    {
        var index = 0
        var result: [(Pronunciation, [Segment])?] = []
        for word in expected {
            let labels = phones[index...].prefix(32).map(\.label)
            let matching = word.pronunciations
                .filter { pronunciation in
                    pronunciation.count <= labels.count && zip(pronunciation, labels).allSatisfy { phoneLabel($0) == $1 }
                }
                .max { $0.count < $1.count }
            guard let matching else {
                result.append(nil)
                index = phones.count
                continue
            }
            result.append((matching, Array(phones[index..<(index + matching.count)])))
            index += matching.count
        }
        return result
    }

    public func score(
        expected: [ExpectedWord], alignment: [Segment], alignmentComplete: Bool, loop: [Segment],
        duration: Double, recognizedText: String? = nil, warnings: [String] = []
    ) -> AttemptScore {
        let speechInLoop = loop.filter { !Self.isFiller($0.label) }.reduce(0) { $0 + $1.frames }
        let phones = alignment.filter { !Self.isFiller($0.label) }
        let paths = Self.wordsOfPath(expected, phones, phoneLabel: phoneLabel)
        var words: [AttemptScore.WordScore] = []
        var goodnessSum = 0.0, framesSum = 0, scoredFramesSum = 0.0
        var spans: [(start: Int, end: Int)] = []
        var phoneCount = 0
        for (word, path) in zip(expected, paths) {
            guard let path, let first = path.segments.first, let last = path.segments.last else {
                words.append(.init(text: word.text, start: nil, end: nil, score: 0, error: .omitted, phones: []))
                continue
            }
            var wordGoodness = 0.0
            var phoneScores: [AttemptScore.PhoneScore] = []
            for (phone, segment) in zip(path.pronunciation, path.segments) {
                let difference = (Double(segment.acoustic) - Self.loopScore(loop, segment.start, segment.end)) * natsPerUnit
                wordGoodness += difference
                phoneScores.append(
                    .init(
                        phone: phone, start: seconds(segment.start), end: seconds(segment.end + 1),
                        score: rounded(score(goodness: difference / Double(segment.frames)))))
            }
            let frames = last.end - first.start + 1
            // Every phone counts the same: one long phone that happens to fit
            // must not carry a word whose other phones do not.
            let wordScore = phoneScores.map(\.score).reduce(0, +) / Double(phoneScores.count)
            // A word skipped in the middle is squeezed into the fewest frames
            // its phones allow, and fits badly.
            let squeezed = Double(frames) / Double(path.pronunciation.count) < 3.5 && wordScore < 35
            let error: AttemptScore.WordError = squeezed ? .omitted : wordScore < wordThreshold ? .mispronounced : .none
            words.append(
                .init(
                    text: word.text, start: seconds(first.start), end: seconds(last.end + 1), score: rounded(wordScore),
                    error: error, phones: phoneScores))
            if error != .omitted {
                goodnessSum += wordGoodness
                framesSum += frames
                scoredFramesSum += wordScore * Double(path.pronunciation.count)
                spans.append((first.start, last.end))
                phoneCount += path.pronunciation.count
            }
        }
        let said = words.filter { $0.error != .omitted }.count
        let completeness = expected.isEmpty ? 0 : 100 * Double(said) / Double(expected.count)
        let accuracy = phoneCount > 0 ? scoredFramesSum / Double(phoneCount) : 0
        let (fluency, rate) = fluency(spans: spans, phones: phoneCount)
        let (insertions, insertedFrames) = insertions(loop: loop, spans: spans)
        // Speech outside the phrase's words: something else was said too.
        let extraSpeech = speechInLoop > 0 ? Double(insertedFrames) / Double(speechInLoop) : 0
        // Unsaid words count as zero: half a phrase perfectly said is 50.
        var overall = completeness / 100 * (0.8 * accuracy + 0.2 * fluency) * (1 - extraSpeech)
        if speechInLoop < 20 || said == 0 { overall = 0 }
        let mispronounced = words.filter { $0.error == .mispronounced }.count
        let passed = overall >= passThreshold && Double(mispronounced) <= mispronouncedShareAllowed * Double(expected.count)
        let feedback: AttemptScore.Feedback
        if speechInLoop < 20 {
            feedback = .noSpeech
        } else if said == 0 || accuracy < Self.wrongPhraseAccuracy || extraSpeech > 0.4 {
            feedback = .wrongPhrase
        } else if passed {
            feedback = overall >= AttemptScore.greatAt && !words.contains { $0.error != .none } ? .great : .good
        } else if completeness < 75 || !alignmentComplete && completeness < 100 {
            feedback = .incomplete
        } else {
            feedback = .wordMispronounced
        }
        return AttemptScore(
            overall: rounded(overall), accuracy: rounded(accuracy), completeness: rounded(completeness), fluency: rounded(fluency),
            words: words, insertions: insertions, recognizedText: recognizedText, passed: passed, feedback: feedback,
            goodness: framesSum > 0 ? (goodnessSum / Double(framesSum) * 1000).rounded() / 1000 : -99,
            speechRate: rounded(rate), duration: rounded(duration), warnings: warnings)
    }

    /// 100 at a natural rate (7 phones a second or more), less when slower,
    /// 15 less for each pause of more than 0.6 s between words.
    func fluency(spans: [(start: Int, end: Int)], phones: Int) -> (score: Double, rate: Double) {
        guard let first = spans.first, let last = spans.last, phones > 0 else { return (0, 0) }
        let speaking = spans.reduce(0) { $0 + $1.end - $1.start + 1 }
        let rate = Double(phones) / (Double(speaking) / framesPerSecond)
        let pauses = zip(spans, spans.dropFirst()).filter { Double($1.start - $0.end) / framesPerSecond > 0.6 }.count
        _ = (first, last)
        return (max(0, min(100, 100 * rate / 7) - 15 * Double(pauses)), rate)
    }

    /// Runs of at least 0.3 s of speech (by the phone loop) before the first
    /// word, after the last, or in a gap between words: how many, and their
    /// frames.
    func insertions(loop: [Segment], spans: [(start: Int, end: Int)]) -> (runs: Int, frames: Int) {
        var runs = 0, frames = 0, current = 0
        func inWords(_ segment: Segment) -> Bool {
            spans.contains { segment.start <= $0.end && segment.end >= $0.start }
        }
        func close() {
            if current >= 30 { (runs, frames) = (runs + 1, frames + current) }
            current = 0
        }
        for segment in loop {
            if Self.isFiller(segment.label) || inWords(segment) { close() } else { current += segment.frames }
        }
        close()
        return (runs, frames)
    }

    func seconds(_ frame: Int) -> Double { (Double(frame) / framesPerSecond * 100).rounded() / 100 }
    func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}

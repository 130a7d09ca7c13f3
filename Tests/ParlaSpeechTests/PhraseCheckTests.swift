import Foundation
import ParlaSpeech
import Testing

/// The wrong-phrase check, without audio: what it reads of an attempt, how
/// it is fitted, and which of the raw scorer's verdicts it decides.
@Suite("phrase check")
struct PhraseCheckTests {
    /// An attempt of three words scored `scores` (raw, 0-100), its phones'
    /// evidence all `logPosterior`.
    static func attempt(_ scores: [Double], feedback: AttemptScore.Feedback = .wordMispronounced) -> AttemptScore {
        let words = scores.enumerated().map { index, score in
            AttemptScore.WordScore(
                text: "w\(index)", start: Double(index), end: Double(index) + 0.5, score: score, error: score < 80 ? .mispronounced : .none,
                phones: [.init(phone: "AH", start: Double(index), end: Double(index) + 0.5, score: score)])
        }
        let accuracy = scores.reduce(0, +) / Double(scores.count)
        return AttemptScore(
            overall: accuracy, accuracy: accuracy, completeness: 100, fluency: 80, words: words, insertions: 0,
            recognizedText: feedback == .wrongPhrase ? "something else" : nil, passed: false, feedback: feedback,
            goodness: accuracy / 20 - 5, speechRate: 10, duration: 2, warnings: [])
    }

    /// The sequence scorer's sentence scores of `raw`: here its raw accuracy, on 0-10.
    static func sentence(_ raw: AttemptScore) -> FittedScores {
        FittedScores(phones: [], words: [], overall: raw.accuracy / 10, accuracy: raw.accuracy / 10)
    }

    static func evidence(_ logPosterior: Double, count: Int = 3) -> [PhoneEvidence?] {
        var evidence = PhoneEvidence()
        (evidence.logPosterior, evidence.gapToBest, evidence.otherShare) = (logPosterior, logPosterior / 2, min(1, -logPosterior / 10))
        return Array(repeating: evidence, count: count)
    }

    @Test(
        "it reads the raw accuracy and completeness, how many words are plainly or poorly said, their spread, the phones' evidence and the sentence scores"
    )
    func inputs() {
        let values = PhraseCheck.inputs(
            Self.attempt([10, 30, 90]), evidence: Self.evidence(-4) + [nil], fitted: Self.sentence(Self.attempt([10, 30, 90])))
        #expect(values.count == PhraseCheck.inputNames.count)
        let named = Dictionary(uniqueKeysWithValues: zip(PhraseCheck.inputNames, values))
        #expect(abs(named["accuracy"]! - 130.0 / 300) < 1e-12 && named["completeness"] == 1)
        #expect(abs(named["wordsVeryPoor"]! - 1.0 / 3) < 1e-12 && abs(named["wordsPoor"]! - 2.0 / 3) < 1e-12)
        #expect(abs(named["wordScoreSpread"]! - 0.3399346342) < 1e-9)
        // Phones without evidence are left out of its means.
        #expect(named["logPosterior"] == -4 && named["gapToBest"] == -2 && abs(named["otherShare"]! - 0.4) < 1e-12)
        #expect(abs(named["fittedAccuracy"]! - 130.0 / 300) < 1e-12 && abs(named["fittedOverall"]! - 130.0 / 300) < 1e-12)
        let unheard = Dictionary(
            uniqueKeysWithValues: zip(
                PhraseCheck.inputNames, PhraseCheck.inputs(Self.attempt([50]), evidence: [nil], fitted: Self.sentence(Self.attempt([50])))))
        #expect(unheard["logPosterior"] == -10 && unheard["otherShare"] == 1)
    }

    /// Right attempts: words 15-100, some poorly said, phones' evidence good
    /// to fair; wrong ones: most words plainly wrong, evidence poor, but
    /// for a few that sound just like right ones.
    static func fitted() -> PhraseCheck {
        var right: [[Double]] = []
        var wrong: [[Double]] = []
        for i in 0..<300 {
            let shift = Double(i % 30)
            let (good, other) = (attempt([15 + 2 * shift, 30 + shift, 85 - shift]), attempt([shift / 2, 5 + shift, 50 - shift]))
            right.append(PhraseCheck.inputs(good, evidence: evidence(-1 - shift / 10), fitted: sentence(good)))
            // One wrong attempt in eight sounds just like a right one.
            let (said, heard) = i % 8 == 0 ? (good, evidence(-1 - shift / 10)) : (other, evidence(-3.5 - shift / 10))
            wrong.append(PhraseCheck.inputs(said, evidence: heard, fitted: sentence(said)))
        }
        return PhraseCheck.fit(right: right, wrong: wrong, rightFlagged: 0.01, wrongCleared: 0.1)
    }

    @Test("fitted by logistic regression, it parts right from wrong attempts, its threshold flagging at most the share of right ones asked")
    func fit() throws {
        let check = Self.fitted()
        #expect(check.inputs == PhraseCheck.inputNames && check.weights.count == PhraseCheck.inputNames.count)
        let good = check.logOdds(
            Self.attempt([70, 85, 95]), evidence: Self.evidence(-1.5), fitted: Self.sentence(Self.attempt([70, 85, 95])))
        let other = check.logOdds(
            Self.attempt([5, 10, 40]), evidence: Self.evidence(-4.5), fitted: Self.sentence(Self.attempt([5, 10, 40])))
        #expect(good < check.threshold && other >= check.threshold)
        // Poorer words and poorer evidence each raise the odds of the wrong phrase.
        #expect(
            check.logOdds(Self.attempt([40, 70, 95]), evidence: Self.evidence(-1.5), fitted: Self.sentence(Self.attempt([40, 70, 95])))
                > good)
        #expect(
            check.logOdds(Self.attempt([70, 85, 95]), evidence: Self.evidence(-3), fitted: Self.sentence(Self.attempt([70, 85, 95]))) > good
        )
        // It survives its profile's round trip.
        let decoded = try JSONDecoder().decode(PhraseCheck.self, from: try JSONEncoder().encode(check))
        #expect(decoded == check)
    }

    @Test(
        "it decides the raw rule's wrong phrase by accuracy, flagging and clearing where it is sure; no speech, nothing said and speech outside the phrase stay the raw rule's"
    )
    func decided() throws {
        let check = Self.fitted()
        // Raw rule: accuracy below 40 is the wrong phrase. The same poor words with better or worse evidence, and
        // sentence scores from poor to good: where the check is sure it is right, the flag is cleared; where it
        // doubts, the raw verdict stands, either way; where it is sure it is wrong, flagged.
        let accented = Self.attempt([38, 36, 40], feedback: .wrongPhrase)
        var unflagged = accented
        unflagged.feedback = .wordMispronounced
        let readings = stride(from: -1.0, through: -5, by: -0.25).flatMap { logPosterior in
            (0...20).map { (evidence: Self.evidence(logPosterior), fitted: FittedScores(phones: [], words: [], overall: Double($0) / 2)) }
        }
        func odds(_ reading: (evidence: [PhoneEvidence?], fitted: FittedScores)) -> Double {
            check.logOdds(accented, evidence: reading.evidence, fitted: reading.fitted)
        }
        #expect(check.clearBelow < check.threshold)
        let sure = try #require(readings.first { odds($0) < check.clearBelow })
        let cleared = check.decided(accented, evidence: sure.evidence, fitted: sure.fitted)
        #expect(cleared.feedback == .wordMispronounced && cleared.recognizedText == nil)
        let doubtful = try #require(readings.first { odds($0) >= check.clearBelow && odds($0) < check.threshold })
        #expect(check.decided(accented, evidence: doubtful.evidence, fitted: doubtful.fitted).feedback == .wrongPhrase)
        #expect(check.decided(unflagged, evidence: doubtful.evidence, fitted: doubtful.fitted) == unflagged)
        let wrong = try #require(readings.first { odds($0) >= check.threshold })
        #expect(check.decided(unflagged, evidence: wrong.evidence, fitted: wrong.fitted).feedback == .wrongPhrase)
        // An attempt the raw rule let through, most of its words plainly wrong: flagged.
        let other = check.decided(
            Self.attempt([5, 10, 60]), evidence: Self.evidence(-4.5), fitted: Self.sentence(Self.attempt([5, 10, 60])))
        #expect(other.feedback == .wrongPhrase)
        // Flagged with accuracy above the rule's bound: speech outside the phrase, the raw rule's reason.
        let extra = Self.attempt([90, 95, 90], feedback: .wrongPhrase)
        #expect(check.decided(extra, evidence: Self.evidence(-1), fitted: Self.sentence(extra)) == extra)
        var silent = Self.attempt([0, 0, 0], feedback: .noSpeech)
        #expect(check.decided(silent, evidence: Self.evidence(-9), fitted: Self.sentence(silent)) == silent)
        silent.feedback = .wrongPhrase
        for index in silent.words.indices { (silent.words[index].error, silent.words[index].phones) = (.omitted, []) }
        #expect(check.decided(silent, evidence: [], fitted: Self.sentence(silent)) == silent)
    }
}

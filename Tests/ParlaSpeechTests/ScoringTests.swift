import ParlaSpeech
import Testing

/// The arithmetic of a score, on made-up decoder output (one score unit is
/// one nat; a frame is 10 ms).
@Suite("phrase scoring")
struct ScoringTests {
    typealias Segment = PhraseScoring.Segment
    let hello = ExpectedWord(text: "hello", pronunciations: [["HH", "AH", "L", "OW"], ["HH", "EH", "L", "OW"]])
    let world = ExpectedWord(text: "world", pronunciations: [["W", "ER", "L", "D"]])

    var scoring: PhraseScoring {
        PhraseScoring(
            calibration: Calibration(right: -1, wrong: -5), passThreshold: 60, natsPerUnit: 1, phoneLabel: { "ph_" + $0.lowercased() })
    }

    /// Phones of `frames` frames each from `start`, each `gop` nats per
    /// frame worse than the loop, and the loop over the same frames.
    func say(_ phones: [String], from start: Int, frames: Int = 8, gop: Double = 0) -> (aligned: [Segment], loop: [Segment]) {
        var aligned: [Segment] = [], loop: [Segment] = []
        for (index, phone) in phones.enumerated() {
            let first = start + index * frames, last = first + frames - 1
            loop.append(Segment(label: phone, start: first, end: last, acoustic: -100 * Int32(frames)))
            aligned.append(
                Segment(
                    label: "ph_" + phone.lowercased(), start: first, end: last,
                    acoustic: Int32(-100 * Double(frames) + gop * Double(frames))))
        }
        return (aligned, loop)
    }

    @Test("every phone the best any phone could do: full marks, great")
    func perfect() {
        let first = say(["HH", "AH", "L", "OW"], from: 10), second = say(["W", "ER", "L", "D"], from: 42)
        let result = scoring.score(
            expected: [hello, world], alignment: first.aligned + second.aligned, alignmentComplete: true,
            loop: first.loop + second.loop, duration: 1)
        #expect(result.completeness == 100)
        #expect(result.accuracy == 100)
        #expect(result.passed)
        #expect(result.feedback == .great)
        #expect(result.words.map(\.error) == [.none, .none])
        #expect(result.words[0].start == 0.1 && result.words[1].end == 0.74)
        #expect(result.words[0].phones.map(\.phone) == ["HH", "AH", "L", "OW"])
        #expect(result.goodness == 0)
    }

    @Test("a badly said word is mispronounced and named; the rest stays")
    func mispronounced() {
        var strict = scoring
        strict.passThreshold = 80
        let first = say(["HH", "AH", "L", "OW"], from: 10), second = say(["W", "ER", "L", "D"], from: 42, gop: -6)
        let result = strict.score(
            expected: [hello, world], alignment: first.aligned + second.aligned, alignmentComplete: true,
            loop: first.loop + second.loop, duration: 1)
        #expect(result.words.map(\.error) == [.none, .mispronounced])
        #expect(result.words[1].score == 0)
        #expect(!result.passed)
        #expect(result.feedback == .wordMispronounced)
    }

    @Test("a pass needs most words right: above the threshold with half of them mispronounced is no pass")
    func mostWordsRight() {
        var lenient = scoring
        lenient.passThreshold = 30
        let first = say(["HH", "AH", "L", "OW"], from: 10), second = say(["W", "ER", "L", "D"], from: 42, gop: -6)
        let result = lenient.score(
            expected: [hello, world], alignment: first.aligned + second.aligned, alignmentComplete: true,
            loop: first.loop + second.loop, duration: 1)
        #expect(result.overall >= 30)
        #expect(!result.passed)
        #expect(result.feedback == .wordMispronounced)
    }

    @Test("the anchors: right gives 85, wrong 15, clamped to 0-100")
    func anchors() {
        #expect(scoring.score(goodness: -1) == 85)
        #expect(scoring.score(goodness: -5) == 15)
        #expect(scoring.score(goodness: -3) == 50)
        #expect(scoring.score(goodness: 2) == 100)
        #expect(scoring.score(goodness: -20) == 0)
    }

    @Test("a learner who stops early: the words never reached are omitted, incomplete")
    func incomplete() {
        let first = say(["HH", "EH", "L", "OW"], from: 10)
        let result = scoring.score(
            expected: [hello, world], alignment: first.aligned, alignmentComplete: false, loop: first.loop, duration: 1)
        #expect(result.words.map(\.error) == [.none, .omitted])
        #expect(result.words[1].start == nil)
        #expect(result.completeness == 50)
        #expect(result.feedback == .incomplete)
        // The path took the second way to say "hello".
        #expect(result.words[0].phones.map(\.phone) == ["HH", "EH", "L", "OW"])
    }

    @Test("a word squeezed into the fewest frames and fitting badly was skipped")
    func squeezed() {
        let first = say(["HH", "AH", "L", "OW"], from: 10), second = say(["W", "ER", "L", "D"], from: 42, frames: 3, gop: -6)
        let result = scoring.score(
            expected: [hello, world], alignment: first.aligned + second.aligned, alignmentComplete: true,
            loop: first.loop + second.loop, duration: 1)
        #expect(result.words[1].error == .omitted)
        #expect(result.completeness == 50)
    }

    @Test("nothing but silence in the phone loop is no speech")
    func silence() {
        let loop = [Segment(label: "SIL", start: 0, end: 99, acoustic: -1000)]
        let result = scoring.score(expected: [hello], alignment: [], alignmentComplete: false, loop: loop, duration: 1)
        #expect(result.feedback == .noSpeech)
        #expect(result.overall == 0)
        #expect(!result.passed)
    }

    @Test("speech after the last word is an insertion, and much of it another phrase; a long pause costs fluency")
    func insertionsAndPauses() {
        let first = say(["HH", "AH", "L", "OW"], from: 10), second = say(["W", "ER", "L", "D"], from: 122)
        let extra = say(["B", "AH", "N", "AH", "N", "AH"], from: 160)
        let result = scoring.score(
            expected: [hello, world], alignment: first.aligned + second.aligned, alignmentComplete: true,
            loop: first.loop + second.loop + extra.loop, duration: 2.5)
        #expect(result.insertions == 1)
        #expect(result.fluency == 85)
        #expect(result.speechRate == 12.5)
        // 48 of 112 frames of speech were something else: another phrase.
        #expect(result.feedback == .wrongPhrase)
        #expect(!result.passed)
    }

    @Test("AUC counts the pairs where the right attempt wins")
    func auc() {
        #expect(SpeechCalibration.auc(right: [-1, -2], wrong: [-5, -6]) == 1)
        #expect(SpeechCalibration.auc(right: [-1, -7], wrong: [-5, -6]) == 0.5)
        #expect(SpeechCalibration.auc(right: [-5], wrong: [-5]) == 0.5)
    }
}

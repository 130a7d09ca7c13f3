import Foundation
import ParlaSpeech
import Testing

/// The arithmetic of agreement with human raters, without audio.
@Suite("agreement with raters")
struct AgreementTests {
    @Test("Pearson's r: 1 and -1 on lines, the textbook value otherwise, nan without spread")
    func pearson() {
        #expect(abs(Agreement.pearson([1, 2, 3], [2, 4, 6]) - 1) < 1e-12)
        #expect(abs(Agreement.pearson([1, 2, 3], [3, 2, 1]) + 1) < 1e-12)
        // x = 1...5, y = 2, 4, 5, 4, 5: r = 6 / sqrt(10 * 6).
        #expect(abs(Agreement.pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]) - 6 / (10.0 * 6).squareRoot()) < 1e-12)
        #expect(Agreement.pearson([1, 1, 1], [1, 2, 3]).isNaN)
        #expect(Agreement.pearson([1], [1]).isNaN)
    }

    @Test("folds keep each speaker's items together and spread the speakers")
    func folds() {
        let speakers = ["b", "a", "c", "a", "d", "b", "e"]
        let folds = Agreement.folds(speakers: speakers, count: 2)
        for (speaker, fold) in zip(speakers, folds) {
            #expect(Set(zip(speakers, folds).filter { $0.0 == speaker }.map(\.1)) == [fold])
        }
        #expect(folds == [1, 0, 0, 0, 1, 1, 0])
    }

    @Test("detection counts flagged phones; the best threshold maximizes F1")
    func detection() {
        let phones: [Agreement.PhoneJudgement] = [
            .init(score: 10, mispronounced: true), .init(score: 20, mispronounced: true), .init(score: 30, mispronounced: false),
            .init(score: 40, mispronounced: true), .init(score: 80, mispronounced: false), .init(score: 90, mispronounced: false),
        ]
        let at35 = Agreement.detection(phones, threshold: 35)
        #expect(at35 == Agreement.Detection(truePositives: 2, falsePositives: 1, falseNegatives: 1))
        #expect(abs(at35.precision - 2.0 / 3) < 1e-12 && abs(at35.recall - 2.0 / 3) < 1e-12)
        // Flagging up to 40 catches all three for one false alarm: F1 6/7, the best.
        #expect(Agreement.bestThreshold(phones) == 60)
        #expect(abs(Agreement.detection(phones, threshold: 60).f1 - 6.0 / 7) < 1e-12)
        #expect(Agreement.Detection().f1 == 0)
    }

    @Test("words pair in order by text, skipping scored words the raters did not score")
    func words() {
        let pairs = Agreement.pairWords(human: ["It's", "A", "cat", "dog"], scored: ["it's", "uh", "a", "cat."])
        #expect(pairs.map(\.human) == [0, 1, 2] && pairs.map(\.scored) == [0, 2, 3])
    }

    @Test("phones pair by the fewest edits, stress ignored; inserted and deleted phones have no partner")
    func phones() {
        let pairs = Agreement.pairPhones(human: ["K", "AE1", "T", "S"], scored: ["K", "AH", "T"])
        #expect(pairs.map(\.human) == [0, 1, 2] && pairs.map(\.scored) == [0, 1, 2])
        let inserted = Agreement.pairPhones(human: ["AH0", "S"], scored: ["AH", "Z", "S"])
        #expect(inserted.map(\.human) == [0, 1] && inserted.map(\.scored) == [0, 2])
        #expect(Agreement.pairPhones(human: [], scored: ["AH"]).isEmpty)
    }
}

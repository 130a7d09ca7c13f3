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

    @Test("a recording said as another utterance's text: another text, every rater's score 0, the recording and speaker its own")
    func mismatched() throws {
        func utterance(_ id: String, _ text: String) throws -> RatedUtterance {
            let json = """
                {"id": "\(id)", "text": "\(text)", "accuracy": 8, "total": 8, "fluency": 9, "prosodic": 9,
                 "words": [{"text": "\(text)", "accuracy": 9, "total": 9, "stress": 10, "phones": ["AH0"], "phones-accuracy": [2]}]}
                """
            return try JSONDecoder().decode(RatedUtterance.self, from: Data(json.utf8))
        }
        let list = try [utterance("000010001", "A"), utterance("000020001", "B"), utterance("000030001", "A"), utterance("000040001", "C")]
        let wrong = RatedUtterance.mismatched(list)
        #expect(wrong.map(\.id) == ["000010001~000040001", "000020001~000040001", "000030001~000020001", "000040001~000020001"])
        #expect(zip(wrong, list).allSatisfy { $0.text != $1.text && $0.recording == $1.id && $0.speaker == $1.speaker })
        #expect(wrong.allSatisfy { $0.accuracy == 0 && $0.total == 0 && $0.fluency == nil && $0.prosodic == nil })
        #expect(wrong.flatMap(\.words).allSatisfy { $0.accuracy == 0 && $0.stress == nil && $0.phonesAccuracy == [0] })
        #expect(RatedUtterance.mismatched([try utterance("000010001", "A")]).isEmpty)
    }
}

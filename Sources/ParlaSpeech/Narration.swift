import Foundation

/// When each word of a text is spoken in a recording of it: what a
/// read-along highlights as the narration plays.
public struct NarrationAlignment: Sendable, Codable, Equatable {
    public struct Word: Sendable, Codable, Equatable {
        public var word: String
        /// Seconds from the start of the recording.
        public var start: Double
        public var end: Double

        public init(word: String, start: Double, end: Double) { (self.word, self.start, self.end) = (word, start, end) }
    }

    /// The text's words in order (punctuation left out), each with its
    /// times; a word the recording never reaches is left out too.
    public var words: [Word]
    /// Whether the recording reached the end of the text.
    public var complete: Bool
    public var duration: Double

    /// Word times from a phone-level forced alignment: a word runs from its
    /// first phone's start to its last phone's end.
    static func from(
        expected: [ExpectedWord], alignment: [PhraseScoring.Segment], complete: Bool, duration: Double,
        framesPerSecond: Double = 100, phoneLabel: (String) -> String
    ) -> NarrationAlignment {
        let phones = alignment.filter { !PhraseScoring.isFiller($0.label) }
        let paths = PhraseScoring.wordsOfPath(expected, phones, phoneLabel: phoneLabel)
        let words = zip(expected, paths).compactMap { word, path -> Word? in
            guard let first = path?.segments.first, let last = path?.segments.last else { return nil }
            func seconds(_ frame: Int) -> Double { (Double(frame) / framesPerSecond * 100).rounded() / 100 }
            return Word(word: word.text, start: seconds(first.start), end: min(seconds(last.end + 1), (duration * 100).rounded() / 100))
        }
        return NarrationAlignment(
            words: words, complete: complete && words.count == expected.count, duration: (duration * 100).rounded() / 100)
    }
}

extension NarrationAlignment {
    /// Word times from a synthesizer's word events: each word starts at its
    /// event (the last one at or before its first letter) and ends where its
    /// sound fades before the next word starts.
    static func fromSynthesis(
        text: String, wordStarts: [(character: Int, milliseconds: Int)], samples: [Int16],
        sampleRate: Int
    ) -> NarrationAlignment {
        let duration = Double(samples.count) / Double(sampleRate)
        let decibels = SpeechActivity.frameDecibels(samples, sampleRate: sampleRate)
        let threshold = SpeechActivity.threshold(decibels)
        let events = wordStarts.sorted { $0.character < $1.character }
        let placed = PhraseText.wordOffsets(text).compactMap { word, offset -> (String, Double)? in
            guard let event = events.last(where: { $0.character <= offset }) ?? events.first else { return nil }
            return (word, Double(event.milliseconds) / 1000)
        }
        var words: [Word] = []
        for (index, (word, start)) in placed.enumerated() {
            let next = index + 1 < placed.count ? max(start, placed[index + 1].1) : duration
            // The last frame with sound before the next word.
            let first = Int(start * 100), last = min(decibels.count, Int(next * 100))
            let sounding = first < last ? (first..<last).last { decibels[$0] > threshold } : nil
            let end = sounding.map { Double($0 + 1) / 100 } ?? next
            words.append(Word(word: word, start: (start * 100).rounded() / 100, end: (max(end, start) * 100).rounded() / 100))
        }
        return NarrationAlignment(words: words, complete: !words.isEmpty, duration: (duration * 100).rounded() / 100)
    }
}

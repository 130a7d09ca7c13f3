import Foundation
import ParlaCore
import ParlaTestSupport
import Testing

@testable import ParlaSpeech

/// Narration alignment: the times of a text's words in a recording of it,
/// for read-along highlighting of definitions.
@Suite("narration alignment")
struct NarrationTests {
    static let scorer = ScorerTests.scorer

    @Test("word times come from the first and last phone of each word; unreached words are left out")
    func fromPhones() {
        let expected = [
            ExpectedWord(text: "Le", pronunciations: [["l", "ə"]]), ExpectedWord(text: "chat", pronunciations: [["ʃ", "a"]]),
            ExpectedWord(text: "dort", pronunciations: [["d", "ɔ", "ʁ"]]),
        ]
        func phone(_ label: String, _ start: Int, _ end: Int) -> PhraseScoring.Segment {
            .init(label: label, start: start, end: end, acoustic: 0)
        }
        let alignment = [
            phone("<sil>", 0, 19), phone("l", 20, 24), phone("ə", 25, 31), phone("sil", 32, 40),
            phone("ʃ", 41, 50), phone("a", 51, 62),
        ]
        let narration = NarrationAlignment.from(expected: expected, alignment: alignment, complete: false, duration: 0.7) { $0 }
        #expect(narration.words == [.init(word: "Le", start: 0.2, end: 0.32), .init(word: "chat", start: 0.41, end: 0.63)])
        #expect(!narration.complete)
        #expect(narration.duration == 0.7)
    }

    @Test("synthesis: each word starts at its event and ends where its sound fades")
    func fromSynthesis() {
        // "Le" sounds 0.10-0.30 s, "chat" 0.40-0.80 s, "dort" 1.00-1.50 s.
        var samples = [Int16](repeating: 0, count: 16_000 * 2)
        for (from, to) in [(0.1, 0.3), (0.4, 0.8), (1.0, 1.5)] {
            let tone = Audio.toneSamples(seconds: to - from)
            samples.replaceSubrange(Int(from * 16_000)..<(Int(from * 16_000) + tone.count), with: tone)
        }
        let narration = NarrationAlignment.fromSynthesis(
            text: "Le chat, « dort ».", wordStarts: [(0, 100), (3, 400), (9, 1000)],
            samples: samples, sampleRate: 16_000)
        #expect(
            narration.words == [
                .init(word: "Le", start: 0.1, end: 0.3), .init(word: "chat", start: 0.4, end: 0.8),
                .init(word: "dort", start: 1.0, end: 1.5),
            ])
        #expect(narration.complete)
        #expect(narration.duration == 2)
    }

    @Test(
        "espeak-ng's own word times cover the words it says, in the audio its command line makes",
        arguments: [
            ("en-gb", "The elephant is a very big grey animal."),
            ("fr", "L'éléphant est un très gros animal gris."),
            ("de", "Der Elefant ist ein sehr großes, graues Tier."),
        ])
    func synthesized(voice: String, text: String) throws {
        let narration = try #require(Espeak.narration(text, voice: voice, rate: 150))
        #expect(narration.words.map(\.word) == PhraseText.words(text))
        #expect(narration.words.allSatisfy { $0.start < $0.end })
        #expect(zip(narration.words, narration.words.dropFirst()).allSatisfy { $0.end <= $1.start && $0.start < $1.start })
        let command = try Self.spokenByCommand(text, voice: voice)
        // The same speech: lengths within a tenth of a second. After other
        // synthesis in the same process the library's closing pause has
        // come out 57 ms longer than the command's (a fresh-clone run), so
        // a twentieth was too tight; where each word sounds is checked below.
        #expect(abs(command.duration - narration.duration) < 0.1, "\(command.duration) vs \(narration.duration)")
        // Every word sounds in the command's audio where the events put it.
        let decibels = SpeechActivity.frameDecibels(command.samples, sampleRate: 16_000)
        for word in narration.words {
            let frames = Int(word.start * 100)..<min(decibels.count, Int(word.end * 100))
            #expect(frames.contains { decibels[$0] > -35 }, "\(word.word) is silent at \(word.start)-\(word.end)")
        }
        #expect(narration.words.last!.end <= narration.duration)
    }

    /// What `espeak-ng -v voice -s 150` makes of `text`, at 16 kHz.
    static func spokenByCommand(_ text: String, voice: String) throws -> DecodedAudio {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = ["-v", voice, "-s", "150", "--stdout", text]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let bytes = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        return try AudioDecoder.decode(bytes, sampleRate: 16_000, limits: .narration)
    }

    @Test("real read speech: two clips joined by a pause are split at the pause, in order")
    func realSpeech() async throws {
        let clips = try ScorerTests.englishClips()
        let first = try AudioDecoder.decode(try [UInt8](Data(contentsOf: URL(fileURLWithPath: clips[0].file))), sampleRate: 16_000)
        let second = try AudioDecoder.decode(try [UInt8](Data(contentsOf: URL(fileURLWithPath: clips[1].file))), sampleRate: 16_000)
        let pause = [Int16](repeating: 0, count: 16_000)
        let audio = Audio.wav(first.samples + pause + second.samples)
        let alignment = try await Self.scorer.align(
            audio, text: clips[0].text + " " + clips[1].text, language: .english,
            limits: .narration)
        let firstCount = PhraseText.words(clips[0].text).count
        #expect(alignment.complete)
        #expect(alignment.words.count == firstCount + PhraseText.words(clips[1].text).count)
        #expect(zip(alignment.words, alignment.words.dropFirst()).allSatisfy { $0.end <= $1.start && $0.start < $0.end })
        let pauseStart = first.duration, pauseEnd = first.duration + 1
        #expect(alignment.words[firstCount - 1].end <= pauseStart + 0.05)
        #expect(alignment.words[firstCount].start >= pauseEnd - 0.05)
        #expect(alignment.words.last!.end <= alignment.duration)
    }

    @Test("a recording cut short is incomplete and leaves out the words it never reaches")
    func cutShort() async throws {
        let clip = try ScorerTests.englishClips()[1]
        let whole = try AudioDecoder.decode(try [UInt8](Data(contentsOf: URL(fileURLWithPath: clip.file))), sampleRate: 16_000)
        let half = Audio.wav(Array(whole.samples.prefix(whole.samples.count / 2)))
        let alignment = try await Self.scorer.align(half, text: clip.text, language: .english)
        let words = PhraseText.words(clip.text)
        #expect(!alignment.complete)
        #expect(alignment.words.count < words.count)
        #expect(alignment.words.map(\.word) == Array(words.prefix(alignment.words.count)))
    }
}

import CSampleRate
import CSndFile
import Foundation
import ParlaCore

/// What an upload may be: bytes and seconds.
public struct AudioLimits: Sendable {
    public var maxBytes = 2 * 1024 * 1024
    public var maxSeconds = 15.0
    /// Less speech than this cannot be scored.
    public var minSpeechSeconds = 0.3

    public init() {}

    public init(maxBytes: Int, maxSeconds: Double) { (self.maxBytes, self.maxSeconds) = (maxBytes, maxSeconds) }

    /// A narration read from our own files (a definition's audio, a
    /// recording in Corpora): longer than an attempt may be.
    public static let narration = AudioLimits(maxBytes: 16 * 1024 * 1024, maxSeconds: 120)
}

/// A recording as the decoders want it: mono 16-bit samples at the model's
/// rate, with what was learned while decoding it.
public struct DecodedAudio: Sendable {
    public var samples: [Int16]
    public var sampleRate: Int
    /// The share of samples at or near full scale (heavy clipping spoils scores).
    public var clippedFraction: Double
    /// Seconds of audio that carry speech by their energy.
    public var speechSeconds: Double

    public var duration: Double { Double(samples.count) / Double(sampleRate) }
    /// More than 1% of samples at full scale.
    public var isClipped: Bool { clippedFraction > 0.01 }
}

/// Decodes untrusted audio (WAV, FLAC, Ogg Vorbis, Ogg Opus, MP3 and what
/// else libsndfile reads) from memory: downmixed to mono, resampled with
/// libsamplerate. Every way it can fail is a `ParlaError` with its own code;
/// nothing in the bytes can crash the process. Blocking: call it off the
/// event loops.
public enum AudioDecoder {
    /// What a recording is by its first bytes (WAV, FLAC, Ogg, MP3), so that
    /// it is served as what it is, whatever its upload claimed; nil for
    /// anything else.
    public static func mediaType(of bytes: [UInt8]) -> String? {
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let magic = Array(text.utf8)
            return bytes.count >= offset + magic.count && Array(bytes[offset..<(offset + magic.count)]) == magic
        }
        if starts("RIFF"), starts("WAVE", at: 8) { return "audio/wav" }
        if starts("fLaC") { return "audio/flac" }
        if starts("OggS") { return "audio/ogg" }
        if starts("ID3") || (bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0) { return "audio/mpeg" }
        return nil
    }

    public static func decode(_ bytes: [UInt8], sampleRate target: Int, limits: AudioLimits = AudioLimits())
        throws(ParlaError) -> DecodedAudio
    {
        guard bytes.count <= limits.maxBytes else { throw ParlaError(.audioTooLarge) }
        guard bytes.count >= 12 else { throw ParlaError(.unsupportedAudio) }
        let (interleaved, channels, rate) = try read(bytes, maxSeconds: limits.maxSeconds)
        let frames = interleaved.count / channels
        var mono = [Float](repeating: 0, count: frames)
        var clipped = 0
        for frame in 0..<frames {
            var sum: Float = 0
            for channel in 0..<channels {
                let value = interleaved[frame * channels + channel]
                if abs(value) >= 0.999 { clipped += 1 }
                sum += value
            }
            mono[frame] = sum / Float(channels)
        }
        let resampled = rate == target ? mono : try resample(mono, from: rate, to: target)
        let samples = resampled.map { Int16(max(-32768, min(32767, ($0 * 32767).rounded()))) }
        let speech = SpeechActivity.speechSeconds(samples, sampleRate: target)
        guard speech.loudestDecibels > SpeechActivity.silenceDecibels else { throw ParlaError(.noSpeech) }
        guard speech.seconds >= limits.minSpeechSeconds else { throw ParlaError(.audioTooShort) }
        return DecodedAudio(
            samples: samples, sampleRate: target,
            clippedFraction: interleaved.isEmpty ? 0 : Double(clipped) / Double(interleaved.count),
            speechSeconds: speech.seconds)
    }

    /// Interleaved float samples, the channel count and the rate.
    private static func read(_ bytes: [UInt8], maxSeconds: Double) throws(ParlaError) -> ([Float], Int, Int) {
        let file = MemoryFile(bytes)
        let context = Unmanaged.passRetained(file)
        defer { context.release() }
        var io = SF_VIRTUAL_IO(
            get_filelen: { MemoryFile.from($0).length },
            seek: { offset, whence, data in MemoryFile.from(data).seek(offset, whence) },
            read: { pointer, count, data in MemoryFile.from(data).read(into: pointer, count) },
            write: { _, _, _ in 0 },
            tell: { MemoryFile.from($0).position })
        var info = SF_INFO()
        guard let handle = sf_open_virtual(&io, Int32(SFM_READ), &info, context.toOpaque()) else {
            throw ParlaError(.unsupportedAudio)
        }
        defer { sf_close(handle) }
        let channels = Int(info.channels), rate = Int(info.samplerate)
        guard (1...16).contains(channels), (4_000...192_000).contains(rate), info.frames > 0 else {
            throw ParlaError(.unsupportedAudio)
        }
        guard Double(info.frames) / Double(rate) <= maxSeconds else { throw ParlaError(.audioTooLong) }
        var samples = [Float](repeating: 0, count: Int(info.frames) * channels)
        let read = samples.withUnsafeMutableBufferPointer { sf_readf_float(handle, $0.baseAddress, info.frames) }
        guard read > 0 else { throw ParlaError(.unsupportedAudio) }
        samples.removeLast(samples.count - Int(read) * channels)
        // A decoder may hand back NaN or huge values from a broken stream.
        for index in samples.indices where !samples[index].isFinite || abs(samples[index]) > 1 {
            samples[index] = samples[index].isFinite ? max(-1, min(1, samples[index])) : 0
        }
        return (samples, channels, rate)
    }

    private static func resample(_ input: [Float], from rate: Int, to target: Int) throws(ParlaError) -> [Float] {
        let ratio = Double(target) / Double(rate)
        var output = [Float](repeating: 0, count: Int(Double(input.count) * ratio) + 64)
        var generated = 0
        let status = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                var data = SRC_DATA()
                data.data_in = source.baseAddress
                data.input_frames = source.count
                data.data_out = destination.baseAddress
                data.output_frames = destination.count
                data.src_ratio = ratio
                let status = src_simple(&data, Int32(SRC_SINC_FASTEST), 1)
                generated = Int(data.output_frames_gen)
                return status
            }
        }
        guard status == 0 else { throw ParlaError(.unsupportedAudio) }
        return Array(output.prefix(generated))
    }
}

/// The bytes libsndfile reads through its virtual I/O callbacks.
private final class MemoryFile {
    let bytes: [UInt8]
    var position: sf_count_t = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> MemoryFile {
        Unmanaged<MemoryFile>.fromOpaque(pointer!).takeUnretainedValue()
    }

    var length: sf_count_t { sf_count_t(bytes.count) }

    func seek(_ offset: sf_count_t, _ whence: Int32) -> sf_count_t {
        let base: sf_count_t =
            switch whence {
            case SEEK_CUR: position
            case SEEK_END: length
            default: 0
            }
        let target = base + offset
        guard target >= 0, target <= length else { return -1 }
        position = target
        return position
    }

    func read(into pointer: UnsafeMutableRawPointer?, _ count: sf_count_t) -> sf_count_t {
        guard let pointer, count > 0, position < length else { return 0 }
        let available = min(count, length - position)
        bytes.withUnsafeBytes { buffer in
            pointer.copyMemory(from: buffer.baseAddress! + Int(position), byteCount: Int(available))
        }
        position += available
        return available
    }
}

/// Speech found by energy, 10 ms at a time: a frame is speech when it is
/// well above the recording's own noise floor.
public enum SpeechActivity {
    /// Below this loudest frame (dBFS) a recording is silence.
    public static let silenceDecibels = -50.0

    public static func frameDecibels(_ samples: [Int16], sampleRate: Int) -> [Double] {
        let size = max(1, sampleRate / 100)
        return stride(from: 0, to: samples.count, by: size).map { start in
            let frame = samples[start..<min(samples.count, start + size)]
            let energy = frame.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(frame.count)
            return 10 * log10(max(energy, 1) / (32768.0 * 32768.0))
        }
    }

    public static func speechSeconds(_ samples: [Int16], sampleRate: Int) -> (seconds: Double, loudestDecibels: Double) {
        let decibels = frameDecibels(samples, sampleRate: sampleRate)
        guard let loudest = decibels.max() else { return (0, -120) }
        let threshold = threshold(decibels)
        return (Double(decibels.filter { $0 > threshold }.count) / 100, loudest)
    }

    /// Each phone's loudness against the attempt's: the mean level (dB) of
    /// its frames less the mean over every phone's frames. Relative, so a
    /// quiet microphone or a distant speaker changes nothing; nil for a
    /// phone whose frames are not all in the recording.
    public static func relativeLevels(_ decibels: [Double], phones: [ClosedRange<Int>]) -> [Double?] {
        let levels = phones.map { frames -> (sum: Double, count: Int)? in
            guard frames.lowerBound >= 0, frames.upperBound < decibels.count else { return nil }
            return (frames.reduce(0) { $0 + decibels[$1] }, frames.count)
        }
        let (sum, count) = levels.compactMap { $0 }.reduce((0.0, 0)) { ($0.0 + $1.sum, $0.1 + $1.count) }
        guard count > 0 else { return levels.map { _ in nil } }
        return levels.map { level in level.map { $0.sum / Double($0.count) - sum / Double(count) } }
    }

    /// The level (dBFS) above which a frame is speech: well above the noise
    /// floor, and within 40 dB of the loudest frame.
    static func threshold(_ decibels: [Double]) -> Double {
        guard let loudest = decibels.max() else { return 0 }
        let sorted = decibels.sorted()
        return max(sorted[sorted.count / 10] + 12, loudest - 40, silenceDecibels)
    }
}

/// A recording with its long silences taken out, as the decoders hear it,
/// and the way back to the recording's own times. Long silences carry
/// nothing to score and upset cepstral mean normalization, but a result's
/// times must be the recording's (pocketsphinx's own silence removal
/// forgets where it cut, so it is off).
struct CompactedAudio: Sendable {
    var samples: [Int16]
    /// For each 10 ms frame kept, the frame it was in the recording.
    var originalFrames: [Int]
    /// For each frame kept, its level (dBFS): measured once, to find the
    /// speech, and read again for each phone's loudness.
    var decibels: [Double]

    /// Keeps every frame within `margin` frames of speech; a silence
    /// shorter than `2 * margin + 1` frames is kept whole.
    init(_ samples: [Int16], sampleRate: Int, margin: Int = 25) {
        let size = max(1, sampleRate / 100)
        let decibels = SpeechActivity.frameDecibels(samples, sampleRate: sampleRate)
        let threshold = SpeechActivity.threshold(decibels)
        let speech = decibels.indices.filter { decibels[$0] > threshold }
        var keep = [Bool](repeating: speech.isEmpty, count: decibels.count)
        for frame in speech {
            for near in max(0, frame - margin)...min(decibels.count - 1, frame + margin) { keep[near] = true }
        }
        var kept: [Int16] = []
        kept.reserveCapacity(samples.count)
        var frames: [Int] = []
        for frame in decibels.indices where keep[frame] {
            kept += samples[(frame * size)..<min(samples.count, (frame + 1) * size)]
            frames.append(frame)
        }
        (self.samples, originalFrames, self.decibels) = (kept, frames, frames.map { decibels[$0] })
    }

    /// The recording's frame for a frame of the compacted audio.
    func original(_ frame: Int) -> Int {
        guard let last = originalFrames.last else { return frame }
        return frame < originalFrames.count ? originalFrames[max(0, frame)] : last + frame - originalFrames.count + 1
    }

    func original(_ segments: [PhraseScoring.Segment]) -> [PhraseScoring.Segment] {
        segments.map { .init(label: $0.label, start: original($0.start), end: original($0.end), acoustic: $0.acoustic) }
    }
}

import Foundation

/// Audio files the tests make themselves, and what they read back from them.
public enum Audio {
    /// A 16-bit mono PCM WAV file of a tone.
    public static func tone(seconds: Double, hertz: Double = 440, sampleRate: Int = 16_000) -> [UInt8] {
        wav(toneSamples(seconds: seconds, hertz: hertz, sampleRate: sampleRate), sampleRate: sampleRate)
    }

    public static func toneSamples(seconds: Double, hertz: Double = 440, sampleRate: Int = 16_000) -> [Int16] {
        (0..<Int(seconds * Double(sampleRate))).map { Int16(8000 * sin(2 * Double.pi * hertz * Double($0) / Double(sampleRate))) }
    }

    /// A 16-bit mono PCM WAV file of `pcm`.
    public static func wav(_ pcm: [Int16], sampleRate: Int = 16_000, channels: Int = 1) -> [UInt8] {
        var samples = [UInt8]()
        samples.reserveCapacity(pcm.count * 2)
        for value in pcm { samples += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return Array("RIFF".utf8) + le32(36 + samples.count) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(channels)
            + le32(sampleRate) + le32(sampleRate * 2 * channels) + le16(2 * channels) + le16(16) + Array("data".utf8)
            + le32(samples.count) + samples
    }

    /// Whether the bytes are an Ogg stream carrying Opus.
    public static func isOggOpus(_ bytes: [UInt8]) -> Bool {
        bytes.count > 36 && bytes.prefix(4) == Array("OggS".utf8)[...] && bytes[28..<36] == Array("OpusHead".utf8)[...]
    }

    /// The playing time of an Ogg Opus file: the last page's granule
    /// position (48 kHz samples) less the header's pre-skip.
    public static func opusDuration(_ bytes: [UInt8]) -> Double? {
        guard isOggOpus(bytes) else { return nil }
        let preSkip = Int(bytes[38]) | Int(bytes[39]) << 8
        var index = bytes.count - 27
        while index >= 0 {
            if bytes[index..<(index + 4)] == Array("OggS".utf8)[...] {
                var granule = 0
                for offset in 0..<8 { granule |= Int(bytes[index + 6 + offset]) << (8 * offset) }
                return Double(granule - preSkip) / 48_000
            }
            index -= 1
        }
        return nil
    }
}

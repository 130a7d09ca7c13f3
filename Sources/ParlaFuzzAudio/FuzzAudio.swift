import Foundation
import ParlaCore
import ParlaFuzzTarget
import ParlaSpeech

/// One input through the audio decoder as an uploaded recording goes (16
/// kHz, an upload's byte limit), but with at most `fuzzedSeconds` of audio.
/// Fuzzed headers soon declare the 15 s an upload may hold, and decoding
/// and resampling that much held the fuzzer near 120 runs a second; the
/// duration check is the same code at any limit, and every decoding path
/// is reached by a second of audio. The fuzzer, the replay and the
/// regression tests all call this, so they exercise the same code. Any
/// outcome is fine; a crash, trap, hang or sanitizer report is a finding.
public func decodeUpload(_ bytes: [UInt8]) -> Result<DecodedAudio, ParlaError> {
    Result { () throws(ParlaError) in try AudioDecoder.decode(bytes, sampleRate: 16_000, limits: fuzzedLimits) }
}

/// Seconds of audio a fuzzed input may decode to (see `decodeUpload`).
public let fuzzedSeconds = 1.5
private let fuzzedLimits = AudioLimits(maxBytes: AudioLimits().maxBytes, maxSeconds: fuzzedSeconds)

/// `parla-fuzz-audio`: libFuzzer's target, or a replay (`FuzzTarget`).
@main
struct FuzzAudio {
    static func main() {
        FuzzTarget.main(input: { _ = decodeUpload($0) }) { bytes in
            switch decodeUpload(bytes) {
            case .success(let audio): "decoded, \(audio.duration) s, \(audio.speechSeconds) s of speech"
            case .failure(let error): error.code.rawValue
            }
        }
    }
}

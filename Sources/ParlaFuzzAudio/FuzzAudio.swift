import Foundation
import ParlaCore
import ParlaFuzzTarget
import ParlaSpeech

/// One input through the audio decoder exactly as an uploaded recording
/// goes (16 kHz, the default limits). The fuzzer, the replay and the
/// regression tests all call this, so they exercise the same code. Any
/// outcome is fine; a crash, trap, hang or sanitizer report is a finding.
public func decodeUpload(_ bytes: [UInt8]) -> Result<DecodedAudio, ParlaError> {
    Result { () throws(ParlaError) in try AudioDecoder.decode(bytes, sampleRate: 16_000) }
}

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

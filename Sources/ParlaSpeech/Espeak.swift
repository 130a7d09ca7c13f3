import CEspeakNG
import Foundation
import Synchronization

/// espeak-ng's grapheme-to-phoneme, in IPA. The library keeps one global
/// state (the voice), so every call holds one lock; a word takes well under
/// a millisecond.
public enum Espeak {
    private static let lock = Mutex<(initialized: Bool, voice: String?)>((false, nil))

    /// The IPA of `text` in `voice`, phonemes separated by `_` and words by
    /// spaces; nil when espeak-ng cannot start or lacks the voice.
    public static func ipa(_ text: String, voice: String) -> String? {
        lock.withLock { state -> String? in
            if !state.initialized {
                guard espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0) > 0 else { return nil }
                state.initialized = true
            }
            if state.voice != voice {
                guard espeak_SetVoiceByName(voice) == EE_OK else { return nil }
                state.voice = voice
            }
            var parts: [String] = []
            text.withCString { start in
                var pointer: UnsafeRawPointer? = UnsafeRawPointer(start)
                // IPA (bit 1), `_` between phonemes (bits 8-23).
                let mode = Int32(espeakPHONEMES_IPA) | Int32(UInt8(ascii: "_")) << 8
                while pointer != nil {
                    guard let phonemes = espeak_TextToPhonemes(&pointer, espeakCHARS_UTF8, mode) else { break }
                    parts.append(String(cString: phonemes))
                }
            }
            return parts.joined(separator: " ")
        }
    }
}

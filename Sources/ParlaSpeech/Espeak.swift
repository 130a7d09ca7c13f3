import CEspeakNG
import Foundation
import Synchronization

/// espeak-ng's grapheme-to-phoneme, in IPA. The library keeps one global
/// state (the voice), so every call holds one lock; a word takes well under
/// a millisecond.
public enum Espeak {
    private struct State {
        var sampleRate: Int32 = 0
        var voice: String?
    }
    private static let lock = Mutex<State>(State())

    /// What the synthesis callback hears; only touched while `lock` is held
    /// (synthesis is synchronous, on the caller's thread).
    private nonisolated(unsafe) static var heard: (samples: [Int16], words: [(character: Int, milliseconds: Int)]) = ([], [])

    /// Runs `body` with espeak-ng started and speaking `voice`; nil when it
    /// cannot start or lacks the voice.
    private static func withVoice<Result>(_ voice: String, _ body: (Int) -> Result?) -> Result? {
        lock.withLock { state -> Result? in
            if state.sampleRate == 0 {
                let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0)
                guard rate > 0 else { return nil }
                state.sampleRate = rate
            }
            if state.voice != voice {
                guard select(voice) else { return nil }
                state.voice = voice
            }
            return body(Int(state.sampleRate))
        }
    }

    /// A voice by its name ("fr"), or else by its language ("en-gb"), as
    /// espeak-ng's command line finds it.
    private static func select(_ voice: String) -> Bool {
        if espeak_SetVoiceByName(voice) == EE_OK { return true }
        return voice.withCString { language in
            var properties = espeak_VOICE()
            properties.languages = language
            return espeak_SetVoiceByProperties(&properties) == EE_OK
        }
    }

    /// When espeak-ng says each word of `text` with `voice` at `rate` words
    /// a minute: the synthesizer's own word events (it knows where it put
    /// each word), each word ending where its sound fades. The audio is the
    /// one `espeak-ng -v voice -s rate` makes for the same text.
    public static func narration(_ text: String, voice: String, rate: Int) -> NarrationAlignment? {
        withVoice(voice) { sampleRate -> NarrationAlignment? in
            heard = ([], [])
            espeak_SetSynthCallback { samples, count, events in
                if let samples, count > 0 { Espeak.heard.samples += UnsafeBufferPointer(start: samples, count: Int(count)) }
                var event = events
                while let current = event, current.pointee.type != espeakEVENT_LIST_TERMINATED {
                    if current.pointee.type == espeakEVENT_WORD {
                        Espeak.heard.words.append((Int(current.pointee.text_position) - 1, Int(current.pointee.audio_position)))
                    }
                    event = current + 1
                }
                return 0
            }
            espeak_SetParameter(espeakRATE, Int32(rate), 0)
            defer { espeak_SetParameter(espeakRATE, espeakRATE_NORMAL, 0) }
            let status = text.withCString { pointer in
                espeak_Synth(pointer, strlen(pointer) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8 | espeakENDPAUSE), nil, nil)
            }
            guard status == EE_OK else { return nil }
            return NarrationAlignment.fromSynthesis(text: text, wordStarts: heard.words, samples: heard.samples, sampleRate: sampleRate)
        }
    }

    /// The IPA of `text` in `voice`, phonemes separated by `_` and words by
    /// spaces; nil when espeak-ng cannot start or lacks the voice.
    public static func ipa(_ text: String, voice: String) -> String? {
        withVoice(voice) { _ -> String? in
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

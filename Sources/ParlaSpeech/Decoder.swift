import CPocketSphinx
import Foundation
import ParlaCore

/// One pocketsphinx decoder with the searches phrase scoring needs. It
/// owns its C handles and is used by one thread at a time (the pool hands
/// it out), hence `@unchecked Sendable`.
final class PocketSphinxDecoder: @unchecked Sendable {
    struct Segment: Equatable {
        var label: String
        var start: Int
        var end: Int
        /// Acoustic score, log base 1.0001 shifted left 10 bits.
        var acoustic: Int32
        /// The substitute the alignment took in the phone's place (its
        /// label and score are then the phone's: see `PhoneSubstitutions`).
        var heard: String? = nil

        var frames: Int { end - start + 1 }
    }

    /// What one search found in the audio.
    struct Pass {
        var segments: [Segment]
        /// False when the grammar's final state was never reached (the
        /// learner stopped early or said something else): `segments` is the
        /// best partial path.
        var complete: Bool
        var frames: Int
        /// Each frame's phone likelihoods, when the pass kept them.
        var likelihoods: PhoneLikelihoods? = nil
    }

    let sampleRate: Int
    /// Natural-log units per segment score unit.
    let natsPerUnit: Double
    private let decoder: OpaquePointer
    private let config: OpaquePointer
    private var words = Set<String>()
    private var hasPhoneLoop = false

    private static let quiet: Void = { err_set_logfp(nil) }()

    init(model: ActiveModel, scratchDirectory: String) throws {
        _ = Self.quiet
        // The decoder only knows the words each phrase adds: a one-word
        // dictionary starts fast and stays small.
        let dictionary = "\(scratchDirectory)/parla-\(model.description.name).dict"
        if !FileManager.default.fileExists(atPath: dictionary) {
            try FileManager.default.createDirectory(atPath: scratchDirectory, withIntermediateDirectories: true)
            try "parla_silence SIL\n".write(toFile: dictionary, atomically: true, encoding: .utf8)
        }
        let arguments =
            [
                "parla", "-hmm", model.acousticPath, "-dict", dictionary, "-samprate", String(model.description.sampleRate),
                // Scores of different searches are comparable only when every senone is scored.
                "-compallsen", "yes", "-allphone_ci", "yes", "-logfn", "/dev/null",
                // Its voice activity detection drops silent frames,
                // which shifts every time after a pause.
                "-remove_silence", "no",
            ]
            + (model.description.arguments ?? [])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        guard let config = argv.withUnsafeMutableBufferPointer({ cmd_ln_parse_r(nil, ps_args(), Int32($0.count), $0.baseAddress, 0) })
        else { throw SpeechSetupError("pocketsphinx refused the arguments of \(model.description.name)") }
        ps_default_search_args(config)
        guard let decoder = ps_init(config) else {
            cmd_ln_free_r(config)
            throw SpeechSetupError("pocketsphinx could not load \(model.acousticPath)")
        }
        self.config = config
        self.decoder = decoder
        sampleRate = model.description.sampleRate
        natsPerUnit = log(cmd_ln_float_r(config, "-logbase")) * 1024
    }

    deinit {
        ps_free(decoder)
        cmd_ln_free_r(config)
    }

    /// The word a phone is in the phone-level grammar.
    static func phoneWord(_ phone: String) -> String { "ph_" + phone.lowercased() }

    private func addWord(_ word: String, phones: String) {
        guard !words.contains(word) else { return }
        if ps_lookup_word(decoder, word) == nil { ps_add_word(decoder, word, phones, 0) }
        words.insert(word)
    }

    /// The word a substitute of a phone is in the phone-level grammar.
    static func substituteWord(_ phone: String, heard: String) -> String { "sb_" + phone.lowercased() + "_" + heard.lowercased() }

    /// Phone-level forced alignment of the expected words: every phone is a
    /// grammar word, a word's pronunciations are alternatives. With
    /// `definition`, the pass also keeps every frame's phone likelihoods,
    /// and each phone may be said as one of its `substitutions` (which the
    /// likelihoods then score in the phone's terms).
    func alignPhones(
        _ expected: [ExpectedWord], audio: [Int16], definition: ModelDefinition? = nil, substitutions: PhoneSubstitutions? = nil
    ) throws -> Pass {
        // Substitutes only where the senone stream is read: without the
        // frames' likelihoods a substitute could not be scored as the phone.
        let substitutions = definition == nil || acousticModel == nil ? nil : substitutions
        var substituted: [String: (phone: String, heard: String)] = [:]
        func alternatives(_ phone: String) -> String {
            addWord(Self.phoneWord(phone), phones: phone)
            guard let offered = substitutions?.alternatives(phone), offered.count > 1 else { return Self.phoneWord(phone) }
            let words = offered.map { heard, weight in
                let weight = "/\(weight)/ "
                guard heard != phone else { return weight + Self.phoneWord(phone) }
                let word = Self.substituteWord(phone, heard: heard)
                addWord(word, phones: heard)
                substituted[word] = (phone, heard)
                return weight + word
            }
            return "( " + words.joined(separator: " | ") + " )"
        }
        var grammar = "#JSGF V1.0;\ngrammar phones;\npublic <phrase> ="
        for word in expected {
            let variants = word.pronunciations.map { $0.map(alternatives).joined(separator: " ") }
            grammar += variants.count == 1 ? " " + variants[0] : " ( " + variants.joined(separator: " | ") + " )"
        }
        grammar += ";\n"
        guard ps_set_jsgf_string(decoder, "phones", grammar) == 0 else {
            throw SpeechSetupError("pocketsphinx refused the phone grammar")
        }
        guard let definition else { return try run("phones", audio) }
        var pass = try withSenoneScores(definition) { try run("phones", audio) }
        guard !substituted.isEmpty else { return pass }
        for index in pass.segments.indices {
            guard let (phone, heard) = substituted[pass.segments[index].label] else { continue }
            let segment = pass.segments[index]
            // Scored as the phone said there: its substitute's score less
            // how much better the substitute explains those frames.
            // (Without likelihoods, only when the stream could not be
            // opened, the phone keeps its substitute's score.)
            let advantage = pass.likelihoods?.advantage(of: phone, over: heard, frames: segment.start...segment.end) ?? 0
            pass.segments[index].label = Self.phoneWord(phone)
            pass.segments[index].acoustic = segment.acoustic + Int32(clamping: Int((advantage / natsPerUnit).rounded()))
            pass.segments[index].heard = heard
        }
        return pass
    }

    /// The acoustic model inside the decoder (`ps_decoder_t.acmod`, after
    /// the configuration and the reference count: pocketsphinx keeps it
    /// private). Checked: its own first field is the same configuration.
    private lazy var acousticModel: OpaquePointer? = {
        let decoder = UnsafeRawPointer(self.decoder)
        guard let acmod = decoder.load(fromByteOffset: 16, as: OpaquePointer?.self),
            UnsafeRawPointer(acmod).load(as: OpaquePointer?.self) == config
        else { return nil }
        return acmod
    }()

    /// Runs a pass while the acoustic model writes every frame's senone
    /// scores (`-compallsen`: all of them) to memory, and adds the frames'
    /// phone likelihoods to it. The model closes the stream at the end of
    /// the utterance.
    private func withSenoneScores(_ definition: ModelDefinition, _ pass: () throws -> Pass) throws -> Pass {
        // Without them the attempt is still scored, raw.
        guard let acmod = acousticModel else { return try pass() }
        let buffer = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
        let size = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        (buffer.pointee, size.pointee) = (nil, 0)
        defer {
            free(buffer.pointee)
            buffer.deallocate()
            size.deallocate()
        }
        guard let stream = open_memstream(buffer, size) else { return try pass() }
        guard acmod_set_senfh(acmod, stream) == 0 else {
            acmod_set_senfh(acmod, nil)
            return try pass()
        }
        // Closed whatever happens before the buffer is read or freed: the
        // end of the utterance closes it, but not an utterance that never
        // started (then this does).
        let result = Result { try pass() }
        acmod_set_senfh(acmod, nil)
        var passed = try result.get()
        if let bytes = buffer.pointee {
            passed.likelihoods = try? PhoneLikelihoods(
                senoneFile: UnsafeRawBufferPointer(start: bytes, count: size.pointee), definition: definition, natsPerUnit: natsPerUnit)
        }
        return passed
    }

    /// A free loop of context-independent phones over the same audio: what
    /// the best any phone could do, frame by frame.
    func phoneLoop(audio: [Int16]) throws -> Pass {
        if !hasPhoneLoop {
            guard ps_set_allphone_file(decoder, "loop", nil) == 0 else { throw SpeechSetupError("pocketsphinx has no phone loop") }
            hasPhoneLoop = true
        }
        return try run("loop", audio)
    }

    /// Recognition restricted to a vocabulary (the phrase's words and common
    /// words), in any order: what the learner said instead.
    func recognize(vocabulary: [(id: String, phones: Pronunciation)], audio: [Int16]) throws -> Pass {
        guard !vocabulary.isEmpty else { return Pass(segments: [], complete: false, frames: 0) }
        for entry in vocabulary { addWord(entry.id, phones: entry.phones.joined(separator: " ")) }
        let alternatives = vocabulary.map(\.id).joined(separator: " | ")
        let grammar = "#JSGF V1.0;\ngrammar free;\npublic <speech> = ( \(alternatives) )+;\n"
        guard ps_set_jsgf_string(decoder, "free", grammar) == 0 else { throw SpeechSetupError("pocketsphinx refused the grammar") }
        return try run("free", audio)
    }

    private func run(_ search: String, _ audio: [Int16]) throws -> Pass {
        guard ps_set_search(decoder, search) == 0 else { throw SpeechSetupError("no search \(search)") }
        ps_start_stream(decoder)
        ps_start_utt(decoder)
        // The whole utterance at once: cepstral mean normalization then
        // uses this recording alone, so a score does not depend on what the
        // decoder heard before (fed in pieces, it carries the last mean over).
        audio.withUnsafeBufferPointer { samples in
            _ = ps_process_raw(decoder, samples.baseAddress, samples.count, 0, 1)
        }
        // Before the end of the utterance: if the grammar never reaches its
        // final state, this partial path is all there will be.
        let partial = segments()
        ps_end_utt(decoder)
        var score: Int32 = 0
        let final = ps_get_hyp(decoder, &score) != nil ? segments() : []
        let frames = Int(ps_get_n_frames(decoder))
        return final.isEmpty
            ? Pass(segments: partial, complete: false, frames: frames) : Pass(segments: final, complete: true, frames: frames)
    }

    private func segments() -> [Segment] {
        var result: [Segment] = []
        var iterator = ps_seg_iter(decoder)
        while let segment = iterator {
            var start: Int32 = 0, end: Int32 = 0, acoustic: Int32 = 0, language: Int32 = 0, backoff: Int32 = 0
            ps_seg_frames(segment, &start, &end)
            _ = ps_seg_prob(segment, &acoustic, &language, &backoff)
            result.append(Segment(label: String(cString: ps_seg_word(segment)), start: Int(start), end: Int(end), acoustic: acoustic))
            iterator = ps_seg_next(segment)
        }
        return result
    }
}

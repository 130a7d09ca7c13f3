import Foundation
import ParlaSpeech
import Testing

/// Frame-level phone evidence: the model's definition, pocketsphinx's
/// senone score files, and what the frames say of an aligned phone.
@Suite("phone likelihoods")
struct PhoneLikelihoodTests {
    @Test("Debian's US English model: 42 phones, each with its own states' senones and its triphones'")
    func englishDefinition() throws {
        let definition = try ModelDefinition.read("/usr/share/pocketsphinx/model/en-us/en-us/mdef")
        #expect(definition.phones.count == 42 && definition.senoneCount == 5126)
        #expect(definition.phones.prefix(4) == ["+NSN+", "+SPN+", "AA", "AE"])
        let aa = try #require(definition.phones.firstIndex(of: "AA"))
        #expect([6, 7, 8].allSatisfy(definition.senones[aa].contains))
        #expect(definition.senones[aa].count > 3)
        // Every senone models some phone; none is out of range.
        #expect(Set(definition.senones.joined()).count == definition.senoneCount)
        #expect(throws: ModelDefinition.Unreadable.self) { try ModelDefinition.parse(Array("BMDF".utf8)) }
    }

    @Test("a model definition in SphinxTrain's text layout: phones in order, each with its senones in every context")
    func textDefinition() throws {
        let text = """
            0.3
            2 n_base
            1 n_tri
            12 n_state_map
            7 n_tied_state
            6 n_tied_ci_state
            2 n_tied_tmat
            #
            # Columns definitions
            #base lft  rt p attrib tmat      ... state id's ...
            SIL - - - filler 0 0 1 2 N
            AA - - - n/a 1 3 4 5 N
            AA SIL SIL s n/a 1 3 6 5 N
            """
        let definition = try ModelDefinition.parse(Array(text.utf8))
        #expect(definition.phones == ["SIL", "AA"] && definition.senoneCount == 7)
        #expect(definition.senones == [[0, 1, 2], [3, 4, 5, 6]])
        #expect(throws: ModelDefinition.Unreadable.self) {
            try ModelDefinition.parse(Array(text.replacingOccurrences(of: "3 6 5 N", with: "3 9 5 N").utf8))
        }
    }

    @Test("a senone score file: each phone's best senone a frame, in nats below the frame's best; fillers left out")
    func senoneFile() throws {
        let definition = ModelDefinition(phones: ["+NSN+", "AA", "B"], senones: [[0], [1, 2], [3]], senoneCount: 4)
        var bytes = Array("s3\nversion 0.1\nn_sen 4\nlogbase 1.000100\nendhdr\n".utf8) + [0x44, 0x33, 0x22, 0x11]
        for frame: [Int16] in [[0, 10, 4, 0], [7, 0, 9, 20]] {
            for value in [Int16(4)] + frame { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        }
        // A header alone, or cut before its byte-order word: no frames, no crash.
        let header = Array("s3\nendhdr\n".utf8)
        for cut in [header, header + [0x44]] {
            let empty = try cut.withUnsafeBytes { try PhoneLikelihoods(senoneFile: $0, definition: definition, natsPerUnit: 0.5) }
            #expect(empty.frames == 0)
        }
        bytes += [4, 0]  // a frame cut short is left out
        let likelihoods = try bytes.withUnsafeBytes { try PhoneLikelihoods(senoneFile: $0, definition: definition, natsPerUnit: 0.5) }
        #expect(likelihoods.phones == ["AA", "B"] && likelihoods.frames == 2)
        #expect(likelihoods.values == [-2, 0, 0, -10])
        var partial = Array(bytes.prefix(bytes.count - 2 - 10))
        partial.replaceSubrange(partial.count - 10..<partial.count - 8, with: [3, 0])  // three senones scored, not all
        #expect(throws: ModelDefinition.Unreadable.self) {
            try partial.withUnsafeBytes { try PhoneLikelihoods(senoneFile: $0, definition: definition, natsPerUnit: 0.5) }
        }
    }

    @Test("an aligned phone's evidence: its gap to the best phone, the share of frames another explains, posteriors, what it sounds like")
    func evidence() throws {
        // Three phones over four frames; B is expected on frames 1...3.
        let likelihoods = PhoneLikelihoods(
            phones: ["A", "B", "C"], frames: 4, values: [0, -5, -5, -1, 0, -9, -4, 0, -9, 0, -2, -9])
        let evidence = try #require(likelihoods.evidence(for: "B", frames: 1...3))
        #expect(abs(evidence.gapToBest - (-2.0 / 3)) < 1e-9)
        #expect(abs(evidence.otherShare - 1.0 / 3) < 1e-9)
        #expect(evidence.heardAs == "A")
        // The mean over the frames of log softmax for B.
        func logPosterior(_ frame: [Double], _ phone: Int) -> Double { frame[phone] - log(frame.map(exp).reduce(0, +)) }
        let expected = [[-1.0, 0, -9], [-4, 0, -9], [0, -2, -9]].map { logPosterior($0, 1) }.reduce(0, +) / 3
        #expect(abs(evidence.logPosterior - expected) < 1e-9)
        // The GOP vector: every phone's mean log posterior, B's own among them.
        let frames = [[-1.0, 0, -9], [-4, 0, -9], [0, -2, -9]]
        let posteriors = try #require(evidence.posteriors)
        #expect(posteriors.count == 3 && abs(Double(posteriors[1]) - expected) < 1e-5)
        for phone in 0..<3 {
            let mean = frames.map { logPosterior($0, phone) }.reduce(0, +) / 3
            #expect(abs(Double(posteriors[phone]) - mean) < 1e-5)
        }
        // Silence is never what a phone sounded like instead.
        let withSilence = PhoneLikelihoods(phones: ["A", "B", "SIL"], frames: 2, values: [-3, 0, -1, -4, 0, -1])
        #expect(withSilence.evidence(for: "B", frames: 0...1)?.heardAs == "A")
        #expect(likelihoods.evidence(for: "Z", frames: 0...1) == nil)
        #expect(likelihoods.evidence(for: "A", frames: 2...4) == nil)
    }

    @Test("how much better one phone explains frames than another: what a substitute's score is put back by")
    func advantage() throws {
        let likelihoods = PhoneLikelihoods(
            phones: ["A", "B", "C"], frames: 4, values: [0, -5, -5, -1, 0, -9, -4, 0, -9, 0, -2, -9])
        // Frames 1-3: B 0, 0, -2 against A -1, -4, 0.
        let expected: Double = 1 + 4 - 2
        #expect(likelihoods.advantage(of: "B", over: "A", frames: 1...3) == expected)
        #expect(likelihoods.advantage(of: "A", over: "B", frames: 1...3) == -expected)
        #expect(likelihoods.advantage(of: "A", over: "A", frames: 0...3) == 0)
        #expect(likelihoods.advantage(of: "Z", over: "A", frames: 0...1) == nil)
        #expect(likelihoods.advantage(of: "A", over: "B", frames: 3...4) == nil)
    }
}

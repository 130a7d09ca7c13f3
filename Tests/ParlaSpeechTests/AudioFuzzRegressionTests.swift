import Foundation
import ParlaCore
import ParlaFuzzAudio
import ParlaTestSupport
import Testing

/// The fuzzer's seeds and every input it found a problem with
/// (`make fuzz-decoders`, Tests/Fuzz/README.md), through the very function
/// the fuzzer calls: each decodes or is refused with a `ParlaError`, never
/// crashes. The seeds must also really be audio, or fuzzing would start
/// from noise: libsndfile reads every one.
@Suite("audio fuzzing regressions")
struct AudioFuzzRegressionTests {
    static let seeds = FuzzInputs.list("seeds/audio")

    @Test(
        "every seed and every finding is decoded or refused; every seed is read",
        arguments: seeds + FuzzInputs.list("regressions/audio"))
    func input(_ input: String) throws {
        let outcome = FuzzInputs.outcome(decodeUpload(try FuzzInputs.bytes(input)))
        if input.hasPrefix("seeds/") {
            // Too short or too quiet is a verdict on the sound: the file itself was read.
            #expect(["decoded", "audio_too_short", "no_speech"].contains(outcome))
        }
    }

    @Test("the seeds are many formats, and those holding the whole word decode")
    func seedsDecode() throws {
        #expect(Self.seeds.count >= 40)
        let decoded = try Self.seeds.filter { FuzzInputs.outcome(decodeUpload(try FuzzInputs.bytes($0))) == "decoded" }
        #expect(decoded.count >= 10)
    }
}

/// Files under Tests/Fuzz, named by their path there.
enum FuzzInputs {
    static let directory = TestApp.projectDirectory + "/Tests/Fuzz"

    static func list(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + folder)) ?? []).sorted().map { folder + "/" + $0 }
    }

    static func bytes(_ input: String) throws -> [UInt8] { try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + input))) }

    static func outcome<Value>(_ result: Result<Value, ParlaError>) -> String {
        switch result {
        case .success: "decoded"
        case .failure(let error): error.code.rawValue
        }
    }
}

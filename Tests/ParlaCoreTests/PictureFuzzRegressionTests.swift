import Foundation
import ParlaCore
import ParlaFuzzPicture
import ParlaTestSupport
import Testing

/// The fuzzer's seeds and every input it found a problem with
/// (`make fuzz-decoders`, Tests/Fuzz/README.md), through the very function
/// the fuzzer calls: each is read or refused with a `ParlaError`, never
/// crashes. A seed's name says what it is (`progressive-64x48.jpg`), and
/// that is what it must read as.
@Suite("picture fuzzing regressions")
struct PictureFuzzRegressionTests {
    static let directory = TestApp.projectDirectory + "/Tests/Fuzz"
    static let seeds = list("seeds/picture")

    @Test(
        "every seed reads as its name says; every finding is read or refused",
        arguments: seeds + list("regressions/picture"))
    func input(_ input: String) throws {
        let outcome = inspectUpload(try bytes(input))
        guard input.hasPrefix("seeds/") else { return }
        let size = try #require(input.firstMatch(of: /-(\d+)x(\d+)\./))
        let (width, height) = (Int(size.1)!, Int(size.2)!)
        if ImageInspector.dimensions.contains(width) && ImageInspector.dimensions.contains(height) {
            let format: ImageFormat = input.hasSuffix(".png") ? .png : .jpeg
            #expect(try outcome.get() == PictureInfo(mediaType: format, width: width, height: height))
        } else {
            #expect(throws: ParlaError(.invalidImageDimensions)) { try outcome.get() }
        }
    }

    @Test func seedsAreThere() {
        #expect(Self.seeds.count >= 10)
    }

    static func list(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + folder)) ?? []).sorted().map { folder + "/" + $0 }
    }

    func bytes(_ input: String) throws -> [UInt8] { try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.directory + "/" + input))) }
}

import ParlaCore
import ParlaTestSupport
import Testing

@Suite("picture headers")
struct ImageInspectorTests {
    @Test func png() throws {
        let info = try ImageInspector.inspect(Images.png(width: 300, height: 200))
        #expect(info == PictureInfo(mediaType: .png, width: 300, height: 200))
    }

    @Test func jpeg() throws {
        let info = try ImageInspector.inspect(Images.jpeg(width: 640, height: 480))
        #expect(info == PictureInfo(mediaType: .jpeg, width: 640, height: 480))
    }

    @Test func refusals() {
        #expect(throws: ParlaError(.unsupportedImage)) { try ImageInspector.inspect([]) }
        #expect(throws: ParlaError(.unsupportedImage)) { try ImageInspector.inspect(Images.gif(width: 40, height: 40)) }
        #expect(throws: ParlaError(.unsupportedImage)) { try ImageInspector.inspect(Array(Images.png(width: 40, height: 40).prefix(20))) }
        #expect(throws: ParlaError(.unsupportedImage)) { try ImageInspector.inspect([0xFF, 0xD8, 0xFF, 0xD9]) }
        #expect(throws: ParlaError(.invalidImageDimensions)) { try ImageInspector.inspect(Images.png(width: 31, height: 100)) }
        #expect(throws: ParlaError(.invalidImageDimensions)) { try ImageInspector.inspect(Images.jpeg(width: 100, height: 4097)) }
    }

    @Test("truncated or mutated headers never crash, they are refused or read")
    func mutations() {
        var generator = SystemRandomNumberGenerator()
        let seeds = [Images.png(width: 64, height: 64), Images.jpeg(width: 64, height: 64)]
        for seed in seeds {
            for _ in 0..<2_000 {
                var bytes = Array(seed.prefix(Int.random(in: 0...min(seed.count, 400), using: &generator)))
                for _ in 0..<Int.random(in: 0...4, using: &generator) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                _ = try? ImageInspector.inspect(bytes)
            }
        }
    }
}

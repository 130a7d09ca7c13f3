import Foundation
import Testing

@testable import ParlaCore

@Suite("hexadecimal")
struct HexadecimalTests {
    @Test("two lower-case digits a byte, as String(format: \"%02x\") writes them")
    func digits() {
        #expect([UInt8]().hexadecimal == "")
        #expect([0x00, 0x0f, 0x10, 0xab, 0xff].hexadecimal == "000f10abff")
        let all = (0...255).map(UInt8.init)
        #expect(all.hexadecimal == all.map { String(format: "%02x", $0) }.joined())
    }
}

import Foundation
import Testing

@testable import ParlaCore

@Suite("stable hash")
struct StableHashTests {
    @Test("FNV-1a's published 64-bit values: the same in every process and every release")
    func published() {
        #expect(StableHash.of("") == 0xcbf2_9ce4_8422_2325)
        #expect(StableHash.of("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(StableHash.of("foobar") == 0x8594_4171_f739_67e8)
        #expect(StableHash.of("foobar") == StableHash.of(Array("foobar".utf8)))
    }
}

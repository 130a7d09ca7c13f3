import Testing

@testable import ParlaServer

@Suite("byte ranges")
struct ByteRangeTests {
    @Test("one range in each of its three forms")
    func forms() {
        #expect(ByteRange.parse("bytes=0-99", length: 1000) == .range(ByteRange(first: 0, last: 99)))
        #expect(ByteRange.parse("bytes=900-", length: 1000) == .range(ByteRange(first: 900, last: 999)))
        #expect(ByteRange.parse("bytes=-10", length: 1000) == .range(ByteRange(first: 990, last: 999)))
        #expect(ByteRange.parse("bytes=-5000", length: 1000) == .range(ByteRange(first: 0, last: 999)))
        #expect(ByteRange.parse("bytes=990-5000", length: 1000) == .range(ByteRange(first: 990, last: 999)))
        #expect(ByteRange.parse("bytes=0-0", length: 1000).count == 1)
    }

    @Test("past the end is unsatisfiable; anything else we do not read is the whole file")
    func edges() {
        #expect(ByteRange.parse("bytes=1000-", length: 1000) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=1000-2000", length: 1000) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-0", length: 1000) == .unsatisfiable)
        #expect(ByteRange.parse(nil, length: 1000) == .whole)
        #expect(ByteRange.parse("items=0-5", length: 1000) == .whole)
        #expect(ByteRange.parse("bytes=0-5,10-20", length: 1000) == .whole)
        #expect(ByteRange.parse("bytes=9-5", length: 1000) == .whole)
        #expect(ByteRange.parse("bytes=a-b", length: 1000) == .whole)
        #expect(ByteRange.parse("bytes=-", length: 1000) == .whole)
    }
}

extension ByteRange.Parsed {
    var count: Int? { if case .range(let range) = self { range.count } else { nil } }
}

extension Sequence<UInt8> {
    /// Lower-case hexadecimal, two digits a byte: how digests are written
    /// (asset names, content versions, entity tags, rate-limit keys).
    /// `String(format: "%02x")` per byte cost microseconds on a hot path.
    public var hexadecimal: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// The picture formats a profile accepts, recognized from their bytes
/// rather than from what the client claims.
public enum ImageFormat: String, Sendable, Equatable {
    case png = "image/png"
    case jpeg = "image/jpeg"

    public var mediaType: String { rawValue }
}

/// Reads an uploaded picture's format and dimensions from its header, so
/// untrusted bytes are checked before anything stores or decodes them.
public enum ImageInspector {
    public static let dimensions = 32...4096

    /// The picture's format and size, or a `ParlaError` for anything else.
    public static func inspect(_ bytes: [UInt8]) throws(ParlaError) -> PictureInfo {
        if let info = png(bytes) ?? jpeg(bytes) {
            guard dimensions.contains(info.width), dimensions.contains(info.height) else {
                throw ParlaError(.invalidImageDimensions)
            }
            return info
        }
        throw ParlaError(.unsupportedImage)
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// PNG: the signature, then the IHDR chunk with width and height.
    private static func png(_ b: [UInt8]) -> PictureInfo? {
        guard b.count >= 33, Array(b[0..<8]) == pngSignature, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        return PictureInfo(mediaType: .png, width: Int(bigEndian32(b, 16)), height: Int(bigEndian32(b, 20)))
    }

    /// JPEG: walk the marker segments to the first start-of-frame.
    private static func jpeg(_ b: [UInt8]) -> PictureInfo? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= b.count {
            guard b[offset] == 0xFF else { return nil }
            let marker = b[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            if marker == 0xD9 || marker == 0xDA { return nil }  // end or scan before any frame
            let length = Int(b[offset + 2]) << 8 | Int(b[offset + 3])
            guard length >= 2 else { return nil }
            let isStartOfFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isStartOfFrame {
                guard offset + 9 <= b.count else { return nil }
                let height = Int(b[offset + 5]) << 8 | Int(b[offset + 6])
                let width = Int(b[offset + 7]) << 8 | Int(b[offset + 8])
                return PictureInfo(mediaType: .jpeg, width: width, height: height)
            }
            offset += 2 + length
        }
        return nil
    }

    private static func bigEndian32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }
}

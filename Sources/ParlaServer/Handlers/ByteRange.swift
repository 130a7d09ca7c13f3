import Foundation

/// One byte range of a `Range` header (RFC 9110 section 14).
public struct ByteRange: Sendable, Equatable {
    public var first: Int
    public var last: Int

    public init(first: Int, last: Int) { (self.first, self.last) = (first, last) }

    public var count: Int { last - first + 1 }

    public enum Parsed: Sendable, Equatable {
        /// No usable range: serve the whole file (a header we do not read,
        /// or several ranges, which we may answer in full).
        case whole
        case range(ByteRange)
        /// Syntactically right but outside the file: 416.
        case unsatisfiable
    }

    public static func parse(_ header: String?, length: Int) -> Parsed {
        guard let header, header.hasPrefix("bytes=") else { return .whole }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let start = spec[..<dash], end = spec[spec.index(after: dash)...]
        switch (Int(start), Int(end)) {
        case (let first?, nil) where end.isEmpty && first >= 0:
            return first < length ? .range(ByteRange(first: first, last: length - 1)) : .unsatisfiable
        case (nil, let suffix?) where start.isEmpty && suffix >= 0:
            return suffix > 0 && length > 0 ? .range(ByteRange(first: max(0, length - suffix), last: length - 1)) : .unsatisfiable
        case (let first?, let last?) where first >= 0 && last >= first:
            return first < length ? .range(ByteRange(first: first, last: min(last, length - 1))) : .unsatisfiable
        default:
            return .whole
        }
    }
}

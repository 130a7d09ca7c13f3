import Foundation

/// An app's version as the apps send it (`X-App-Version: 2.10.1`): numeric
/// parts, compared part by part, missing parts counting as 0.
public struct AppVersion: Sendable, Comparable, CustomStringConvertible {
    public var parts: [Int]

    /// Nil unless one to four dot-separated numbers of up to nine digits.
    public init?(_ text: String) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(pieces.count),
            pieces.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        parts = pieces.map { Int($0)! }
    }

    public var description: String { parts.map(String.init).joined(separator: ".") }

    public static func < (a: AppVersion, b: AppVersion) -> Bool {
        for index in 0..<max(a.parts.count, b.parts.count) {
            let (x, y) = (index < a.parts.count ? a.parts[index] : 0, index < b.parts.count ? b.parts[index] : 0)
            if x != y { return x < y }
        }
        return false
    }

    public static func == (a: AppVersion, b: AppVersion) -> Bool { !(a < b) && !(b < a) }
}

/// The apps' platforms (`X-App-Platform`).
public enum AppPlatform: String, Sendable, CaseIterable {
    case ios, android
}

/// What the service asks of an app on one platform (configuration,
/// `clients.<platform>.*`): the oldest version it still serves, the newest
/// there is, and where to get it.
public struct ClientRelease: Sendable, Equatable {
    public var minimum: AppVersion?
    public var latest: AppVersion?
    public var storeURL: String?

    public init(minimum: AppVersion? = nil, latest: AppVersion? = nil, storeURL: String? = nil) {
        (self.minimum, self.latest, self.storeURL) = (minimum, latest, storeURL)
    }

    /// An app this old is no longer served: it must update.
    public func requiresUpdate(_ version: AppVersion) -> Bool { minimum.map { version < $0 } ?? false }

    /// A newer app exists.
    public func offersUpdate(_ version: AppVersion) -> Bool { latest.map { version < $0 } ?? false }
}

import Crypto
import Foundation
import NIOPosix
import ParlaCore
import Synchronization

/// Pictures and audio, one file per asset, named by a hash of what made it
/// (`<32 hex>.opus`, `<32 hex>.svg`, `<32 hex>.json` for word timings, `<32 hex>.png` for flags): a name never changes its bytes, so
/// clients may cache them forever and a build only makes what is missing.
/// The directory is not in git (`.parla/assets` by default).
package final class AssetStore: Sendable {
    package enum Kind: String, Sendable, CaseIterable {
        case opus, svg, json, png

        package var mediaType: String {
            switch self {
            case .opus: "audio/ogg"
            case .svg: "image/svg+xml"
            case .json: "application/json"
            case .png: "image/png"
            }
        }
    }

    package let directory: String
    /// Assets read so far: they are small and immutable.
    private let cache = Mutex<(bytes: Int, files: [String: [UInt8]])>((0, [:]))
    private static let cacheLimit = 64 * 1024 * 1024

    /// Each asset's size and hash, once read (`Kept`: AssetFiles): a name
    /// never changes its bytes, so nothing drops them; a missing file is
    /// not kept.
    private let files = Mutex<[String: AssetFile]>([:])

    package init(directory: String) { self.directory = directory }

    /// The sizes and SHA-256s of `names`, for a download manifest; a name
    /// the store does not have (yet) is left out. What is not known yet is
    /// read and hashed on a thread pool, once.
    package func files(_ names: some Collection<String>) async throws -> [String: AssetFile] {
        var known: [String: AssetFile] = [:]
        let unknown = files.withLock { files in
            names.filter { name in
                if let file = files[name] { known[name] = file }
                return known[name] == nil && Self.kind(of: name) != nil
            }
        }
        guard !unknown.isEmpty else { return known }
        let directory = directory
        let read: [String: AssetFile] = try await NIOThreadPool.singleton.runIfActive {
            var read: [String: AssetFile] = [:]
            for name in unknown {
                guard let bytes = FileManager.default.contents(atPath: directory + "/" + name) else { continue }
                read[name] = AssetFile(bytes: bytes.count, sha256: SHA256.hash(data: bytes).hexadecimal)
            }
            return read
        }
        files.withLock { $0.merge(read) { first, _ in first } }
        return known.merging(read) { first, _ in first }
    }

    /// The kind of a well-formed asset name, nil for anything else (so no
    /// request can name a path outside the store).
    package static func kind(of name: String) -> Kind? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 32, parts[0].allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        return Kind(rawValue: String(parts[1]))
    }

    package func path(of name: String) -> String { directory + "/" + name }

    package func contains(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(of: name)) }

    /// Moves a finished file into the store under `name`, atomically.
    package func add(_ name: String, from file: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard rename(file, path(of: name)) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path(of: name)])
        }
    }

    /// The bytes of an asset, or nil when the store does not have it. Read
    /// on a thread pool: file I/O blocks.
    package func bytes(of name: String) async throws -> [UInt8]? {
        guard Self.kind(of: name) != nil else { return nil }
        if let cached = cache.withLock({ $0.files[name] }) { return cached }
        let path = path(of: name)
        let read: [UInt8]? = try await NIOThreadPool.singleton.runIfActive {
            FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        }
        guard let read else { return nil }
        cache.withLock { cache in
            if cache.bytes + read.count > Self.cacheLimit { cache = (0, [:]) }
            cache.files[name] = read
            cache.bytes += read.count
        }
        return read
    }
}

/// What a download manifest says of an asset.
package struct AssetFile: Sendable, Equatable {
    package var bytes: Int
    /// Lowercase hex.
    package var sha256: String
}

import Foundation
import ParlaContent
import ParlaCore
import Synchronization

/// Each pack's download size for a narrator's language, summed once per
/// content version (`Kept`: PackDownloadSizes): the pack list shows it for
/// every pack, and summing it walks every screen of the pack for its
/// assets (`Corpus.assetSlots`) on each request otherwise. A size is kept
/// only once every asset of the pack is made (until then the background
/// build may add one at any time), and only the current content's: a new
/// version drops the rest.
package final class PackDownloadSizes: Sendable {
    private let sizes = Mutex<(stamp: String, bytes: [String: Int])>(("", [:]))

    package init() {}

    /// The bytes of each of `packs`' assets made so far for a learner whose
    /// own language is `native`, by pack id; `assets` names each pack's.
    package func bytes(
        of packs: [CoursePack], native: Language, stamp: String, assets: (CoursePack) -> [String], files: AssetStore
    ) async throws -> [String: Int] {
        func key(_ pack: CoursePack) -> String { "\(pack.id)|\(native.code)" }
        var known: [String: Int] = [:]
        sizes.withLock { kept in
            guard kept.stamp == stamp else { return }
            for pack in packs { known[pack.id] = kept.bytes[key(pack)] }
        }
        let missing = packs.filter { known[$0.id] == nil }
        guard !missing.isEmpty else { return known }
        let names = missing.map { ($0, assets($0)) }
        let found = try await files.files(Set(names.flatMap(\.1)))
        var complete: [String: Int] = [:]
        for (pack, names) in names {
            let made = names.compactMap { found[$0]?.bytes }
            known[pack.id] = made.reduce(0, +)
            if made.count == names.count { complete[key(pack)] = known[pack.id] }
        }
        sizes.withLock { kept in
            if kept.stamp != stamp { kept = (stamp, [:]) }
            kept.bytes.merge(complete) { _, new in new }
        }
        return known
    }
}

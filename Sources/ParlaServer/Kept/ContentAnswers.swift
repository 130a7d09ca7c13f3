import Foundation
import HTTPTypes
import ParlaServices
import Synchronization

/// What the two content answer caches share: which operations are
/// content's, which requests only a handler may answer, the key an answer
/// is kept under, and answers kept per content version.
enum ContentAnswers {
    static let operations: Set<String> = [
        "listLanguages", "listWordLists", "getWordListPage", "getWord", "listPhrases", "getPhrase", "listGrammarNotes", "getGrammarNote",
        "getAlphabet",
    ]
    /// Operations whose answer follows `Accept-Language` unless the path
    /// names the reader's language (`ui=`).
    static let explained: Set<String> = ["listGrammarNotes", "getGrammarNote"]

    /// A request with a caller (a token) or naming a learner: it must be
    /// authenticated and authorized by its handler every time.
    static func isPersonal(_ request: HTTPRequest, path: String) -> Bool {
        request.headerFields[.authorization] != nil || path.contains("learnerId=")
    }

    /// Whether the answer follows the reader's `Accept-Language`.
    static func followsReader(_ operationID: String, path: String) -> Bool {
        explained.contains(operationID) && !path.contains("ui=")
    }

    /// The path without the learner's id (learners on the same lists share
    /// an answer), marked when a learner is named (its answer is private),
    /// and with the reader's language where the answer follows it.
    static func key(_ path: String, operationID: String) -> String {
        var parts = path.split(separator: "?", maxSplits: 1)
        var own = false
        if parts.count == 2, parts[1].contains("learnerId=") {
            let query = parts[1].split(separator: "&").filter { item in
                guard item.hasPrefix("learnerId=") else { return true }
                own = true
                return false
            }
            parts[1] = query.joined(separator: "&")[...]
        }
        var key = parts.joined(separator: "?")
        if own { key += "#own" }
        if followsReader(operationID, path: path) { key += "#" + RequestScope.here.language.code }
        return key
    }

    /// Answers by key for one content version: a new version, or more than
    /// `maximumKeys` keys, starts afresh.
    final class Kept<Answer: Sendable>: Sendable {
        let maximumKeys: Int
        private let kept = Mutex<(version: String, byKey: [String: Answer])>(("", [:]))

        init(maximumKeys: Int) { self.maximumKeys = maximumKeys }

        subscript(key: String, version version: String) -> Answer? {
            kept.withLock { $0.version == version ? $0.byKey[key] : nil }
        }

        /// Changes the answer kept under `key` for `version`.
        func update(_ key: String, version: String, _ change: (inout Answer?) -> Void) {
            kept.withLock { kept in
                if kept.version != version || kept.byKey.count >= maximumKeys { kept = (version, [:]) }
                change(&kept.byKey[key])
            }
        }
    }
}

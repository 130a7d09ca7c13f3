import Foundation

/// HTTP's conditional GET (RFC 9110, 13.1.2): whether a client's
/// `If-None-Match` names the current entity tag, so a 304 answers it.
public enum EntityTag {
    /// True when `ifNoneMatch` is `*` or lists `tag`, weakly or strongly.
    public static func isCurrent(_ tag: String, ifNoneMatch: String?) -> Bool {
        guard let ifNoneMatch else { return false }
        return ifNoneMatch == "*"
            || ifNoneMatch.split(separator: ",").contains {
                var listed = $0.trimmingCharacters(in: .whitespaces)[...]
                if listed.hasPrefix("W/") { listed = listed.dropFirst(2) }
                return listed == tag
            }
    }
}

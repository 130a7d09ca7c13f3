import Foundation

/// A first or last name: Unicode letters (with their combining marks), words
/// joined by a single space, hyphen or apostrophe. "Zoë", "Weiß", "Muñoz",
/// "O'Brien", "Jean-Luc" and "김민준" pass; digits and other symbols fail.
public enum PersonName {
    public static let maximumLength = 50

    /// The trimmed, NFC-normalized name, or nil when it is not a name.
    public static func normalized(_ raw: String) -> String? {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard !name.isEmpty, name.count <= maximumLength else { return nil }
        var previousWasLetter = false
        for character in name {
            if character.isNameLetter {
                previousWasLetter = true
            } else if character.isNameJoiner, previousWasLetter {
                previousWasLetter = false
            } else {
                return nil
            }
        }
        return previousWasLetter ? name : nil
    }
}

extension Character {
    /// A letter, possibly followed by combining marks (a decomposed "é").
    fileprivate var isNameLetter: Bool {
        guard let first = unicodeScalars.first, first.properties.isAlphabetic else { return false }
        return unicodeScalars.dropFirst().allSatisfy {
            switch $0.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: true
            default: false
            }
        }
    }

    fileprivate var isNameJoiner: Bool { self == " " || self == "-" || self == "'" || self == "\u{2019}" }
}

/// An email address in RFC 5322 addr-spec form (dot-atom local part) with a
/// dotted domain. Letters outside ASCII are allowed (RFC 6531 addresses).
public enum EmailAddress {
    /// The trimmed address, or nil when it is not a valid one.
    public static func normalized(_ raw: String) -> String? {
        let address = raw.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard address.utf8.count <= 254, let at = address.lastIndex(of: "@") else { return nil }
        let local = address[..<at]
        let domain = address[address.index(after: at)...]
        guard isDotAtom(local), local.utf8.count <= 64, isDottedDomain(domain) else { return nil }
        return address
    }

    /// The form that identifies an account: addresses differing only in
    /// case are the same account.
    public static func canonical(_ normalized: String) -> String { normalized.lowercased() }

    private static let atomSymbols = Set("!#$%&'*+/=?^_`{|}~-")

    private static func isDotAtom(_ text: Substring) -> Bool {
        guard !text.isEmpty else { return false }
        return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { atom in
            !atom.isEmpty
                && atom.unicodeScalars.allSatisfy { scalar in
                    scalar.isASCII
                        ? (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || atomSymbols.contains(Character(scalar)))
                        : (scalar.properties.isAlphabetic || scalar.properties.numericType != nil)
                }
        }
    }

    private static func isDottedDomain(_ text: Substring) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, text.utf8.count <= 253 else { return false }
        let labelsValid = labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy { $0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        }
        guard labelsValid, let topLevel = labels.last else { return false }
        return topLevel.count >= 2 && !topLevel.allSatisfy(\.isNumber)
    }
}

public enum PasswordPolicy {
    public static let lengths = 10...128

    /// Field errors for a new password; the email it must not equal is
    /// compared case-insensitively.
    public static func problems(_ password: String, email: String?) -> [ErrorCode] {
        if !lengths.contains(password.count) { return [.invalidPassword] }
        if let email, password.trimmingCharacters(in: .whitespaces).lowercased() == EmailAddress.canonical(email) {
            return [.passwordIsEmail]
        }
        return []
    }
}

/// A free-text label: trimmed, printable, bounded. Device names and learner
/// display names ("Anna's iPad", "Léa 2") are labels.
public enum Label {
    public static func normalized(_ raw: String, maximumLength: Int) -> String? {
        let label = raw.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard (1...maximumLength).contains(label.count) else { return nil }
        let printable = label.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator: false
            default: true
            }
        }
        return printable ? label : nil
    }
}

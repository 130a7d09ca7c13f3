/// A language Parla teaches and speaks to its users in.
///
/// Text direction is a property of the language so that right-to-left
/// languages (Hebrew) can be added without touching callers.
/// Coded as a key, texts per language are JSON objects (`{"en": ...}`).
public enum Language: String, CaseIterable, Codable, CodingKeyRepresentable, Sendable, Comparable {
    case english = "en"
    case french = "fr"
    case italian = "it"
    case german = "de"
    case spanish = "es"

    public enum TextDirection: String, Sendable { case leftToRight = "ltr", rightToLeft = "rtl" }

    public var code: String { rawValue }
    public var textDirection: TextDirection { .leftToRight }

    public var englishName: String {
        switch self {
        case .english: "English"
        case .french: "French"
        case .italian: "Italian"
        case .german: "German"
        case .spanish: "Spanish"
        }
    }

    /// The language's name for itself.
    public var nativeName: String {
        switch self {
        case .english: "English"
        case .french: "français"
        case .italian: "italiano"
        case .german: "Deutsch"
        case .spanish: "español"
        }
    }

    /// Accepts a BCP 47 tag and keeps its primary subtag: `fr-CA` is French.
    public init?(tag: String) {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        self.init(rawValue: primary)
    }

    public static func < (lhs: Language, rhs: Language) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// The language a response is written in, chosen from an `Accept-Language`
/// header (RFC 9110 §12.5.4): the supported language with the highest
/// q-value wins, earlier entries win ties, English is the fallback.
public enum LanguagePreference {
    public static func negotiate(_ header: String?, fallback: Language = .english) -> Language {
        guard let header, !header.isEmpty else { return fallback }
        var best: (language: Language, quality: Double)?
        for entry in header.split(separator: ",") {
            let parts = entry.split(separator: ";").map { $0.trimmingSpaces }
            guard let tag = parts.first, !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            guard quality > 0 else { continue }
            if tag == "*" { continue }  // any language: the fallback is one
            guard let language = Language(tag: tag) else { continue }
            if best == nil || quality > best!.quality { best = (language, quality) }
        }
        return best?.language ?? fallback
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(self.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}

import Foundation

/// What a learner profile holds beyond its identity, with its rules.
public enum LearnerProfileRules {
    public static let ages = 3...120
    public static let displayNameLength = 40
    /// A family account: parents and children, as in the lesson-pack apps.
    public static let maximumLearnersPerAccount = 8
}

/// How a learner sees letters (seed 003's letter case option): every word,
/// letter tile and alphabet shown to it follows this, except a word whose
/// own case override says otherwise (`Casing` applies it).
public enum LetterCase: String, Sendable, CaseIterable, Codable {
    case lower, upper
    /// The first letter of each word in capitals.
    case title

    /// A letter as a capital. A letter whose capital is two letters (ß:
    /// "SS") stays as it is; ẞ is rare, and German teaching shows ß.
    public static func capital(_ letter: String) -> String {
        let upper = letter.uppercased()
        return upper.count == letter.count ? upper : letter
    }
}

/// A word's letters as a learner spells them (seed 003).
public enum Letters {
    /// Characters a word may have that are shown in place, not spelled.
    public static let shownOnly: Set<Character> = [" ", "-", "'", "’", "."]

    /// The letter of an alphabet (`letters`, small letters) that a small
    /// written letter is said as: itself, or where the alphabet lacks it,
    /// its bare letter (Spanish á is said as a); nil when neither is one.
    public static func said(_ letter: String, in letters: Set<String>) -> String? {
        if letters.contains(letter) { return letter }
        let bare = letter.folding(options: .diacriticInsensitive, locale: nil)
        return letters.contains(bare) ? bare : nil
    }

    /// What makes a word one to spell with an alphabet's tiles (a lesson's
    /// screen, a game's deal, the importer's check): 2 to `longest` letters,
    /// each said as a letter of `letters`, besides the characters shown
    /// only. The letters said, in order; nil for a word that is not one.
    public static func spelled(_ word: String, in letters: Set<String>, longest: Int) -> [String]? {
        var spelled: [String] = []
        for character in word.lowercased() where !shownOnly.contains(character) {
            guard let letter = said(String(character), in: letters) else { return nil }
            spelled.append(letter)
        }
        return (2...max(2, longest)).contains(spelled.count) ? spelled : nil
    }
}

/// The "thinking caps" a learner picks as an avatar (the hat shop of the
/// children's app): a fixed catalogue with names in every language.
public struct Avatar: Sendable, Equatable {
    public let id: String
    public let name: LocalizedText

    public static let catalogue: [Avatar] = [
        Avatar(
            id: "cap-explorer",
            name: LocalizedText(
                en: "Explorer's hat", fr: "Chapeau d'explorateur", it: "Cappello da esploratore", de: "Entdeckerhut",
                es: "Sombrero de explorador")),
        Avatar(
            id: "cap-wizard",
            name: LocalizedText(
                en: "Wizard's hat", fr: "Chapeau de magicien", it: "Cappello da mago", de: "Zauberhut", es: "Sombrero de mago")),
        Avatar(
            id: "cap-pilot",
            name: LocalizedText(
                en: "Pilot's cap", fr: "Casquette de pilote", it: "Berretto da pilota", de: "Pilotenmütze", es: "Gorra de piloto")),
        Avatar(
            id: "cap-chef",
            name: LocalizedText(en: "Chef's hat", fr: "Toque de chef", it: "Cappello da cuoco", de: "Kochmütze", es: "Gorro de cocinero")),
        Avatar(id: "cap-crown", name: LocalizedText(en: "Crown", fr: "Couronne", it: "Corona", de: "Krone", es: "Corona")),
        Avatar(
            id: "cap-graduate",
            name: LocalizedText(en: "Graduation cap", fr: "Toque de diplômé", it: "Tocco da laureato", de: "Doktorhut", es: "Birrete")),
        Avatar(
            id: "cap-pirate",
            name: LocalizedText(
                en: "Pirate's hat", fr: "Chapeau de pirate", it: "Cappello da pirata", de: "Piratenhut", es: "Sombrero de pirata")),
        Avatar(
            id: "cap-beanie", name: LocalizedText(en: "Beanie", fr: "Bonnet", it: "Berretto di lana", de: "Wollmütze", es: "Gorro de lana")),
    ]

    public static let defaultID = "cap-explorer"

    public static func isKnown(_ id: String) -> Bool { catalogue.contains { $0.id == id } }
}

/// The built-in pictures a profile shows when it has none of its own.
public enum DefaultPicture {
    public static let count = 6

    /// The same learner always gets the same default picture.
    public static func number(for learner: LearnerID) -> Int {
        let hash = withUnsafeBytes(of: learner.uuid.uuid) { StableHash.of($0) }
        return Int(hash % UInt64(count)) + 1
    }
}

import ParlaContent
import ParlaCore

/// The test's own view of a language's order, through the same collation
/// the server uses (its rules are unit-tested in ParlaContentTests).
struct ParlaContentOrder {
    let collation: Collation
    init(_ language: Language) { collation = Collation(language) }
    func before(_ a: String, _ b: String) -> Bool { collation.sortsBefore(a, b) }
    func initial(_ word: String) -> String? { collation.initial(of: word) }
}

/// The Common European Framework's levels, A1 (beginner) to C2 (mastery).
public enum CEFRLevel: String, CaseIterable, Codable, Sendable, Comparable {
    case a1 = "A1", a2 = "A2", b1 = "B1", b2 = "B2", c1 = "C1", c2 = "C2"

    public static func < (lhs: CEFRLevel, rhs: CEFRLevel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// What a learner can be good or bad at, measured apart.
public enum Skill: String, CaseIterable, Codable, Sendable {
    case vocabulary, grammar, listening, reading, speaking
}

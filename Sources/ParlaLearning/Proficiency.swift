import Foundation
import ParlaCore

/// Cut scores on the ability (logit) scale that turn an ability into a CEFR level.
///
/// Five ascending cuts, the lower bounds of A2, B1, B2, C1 and C2. The standard cuts are one logit apart,
/// A1 < -1.5 <= A2 < -0.5 <= B1 < 0.5 <= B2 < 1.5 <= C1 < 2.5 <= C2, so that B1, the middle of the
/// scale, is centred on 0 (the placement prior's mean) and one logit (the odds of success multiplied
/// by e) separates adjacent level centres. A1 and C2 are given notional bands as wide as their
/// neighbours' (-2.5 and 3.5) for their centres and progress bars. A bank stores its own cuts, so a
/// language can move them after a standard-setting study without touching the code.
public struct CEFRCutScores: Codable, Sendable, Hashable {
    /// Lower bounds of A2, B1, B2, C1 and C2, strictly ascending.
    public let lowerBounds: [Double]

    public static let standard = CEFRCutScores(unchecked: [-1.5, -0.5, 0.5, 1.5, 2.5])

    public init(lowerBounds: [Double]) throws(PlacementError) {
        guard lowerBounds.count == CEFRLevel.allCases.count - 1,
            lowerBounds.allSatisfy(\.isFinite),
            zip(lowerBounds, lowerBounds.dropFirst()).allSatisfy({ $0 < $1 })
        else { throw .invalidCutScores }
        self.lowerBounds = lowerBounds
    }

    private init(unchecked lowerBounds: [Double]) {
        self.lowerBounds = lowerBounds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let bounds = try container.decode([Double].self, forKey: .lowerBounds)
        do {
            try self.init(lowerBounds: bounds)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .lowerBounds, in: container, debugDescription: "need 5 ascending cut scores")
        }
    }

    /// The level whose band holds `theta`; a theta exactly on a cut belongs to the higher level.
    public func level(for theta: Double) -> CEFRLevel {
        let index = lowerBounds.lastIndex(where: { theta >= $0 }).map { $0 + 1 } ?? 0
        return CEFRLevel.allCases[index]
    }

    /// The cut a learner must reach to be at `level`; `nil` for A1.
    public func lowerCut(of level: CEFRLevel) -> Double? {
        let index = Self.index(of: level)
        return index == 0 ? nil : lowerBounds[index - 1]
    }

    /// The cut that leads out of `level`; `nil` for C2.
    public func upperCut(of level: CEFRLevel) -> Double? {
        let index = Self.index(of: level)
        return index < lowerBounds.count ? lowerBounds[index] : nil
    }

    /// The band of `level`, with the notional outer bounds for A1 and C2.
    public func band(of level: CEFRLevel) -> ClosedRange<Double> {
        let lower = lowerCut(of: level) ?? (lowerBounds[0] - (lowerBounds[1] - lowerBounds[0]))
        let upper = upperCut(of: level) ?? (lowerBounds[4] + (lowerBounds[4] - lowerBounds[3]))
        return lower...upper
    }

    /// The middle of the level's band: the initial difficulty of an item written for that level.
    public func centre(of level: CEFRLevel) -> Double {
        let band = band(of: level)
        return (band.lowerBound + band.upperBound) / 2
    }

    /// The proficiency bar: how far `theta` has gone from its level's lower cut towards the next cut, in [0, 1].
    ///
    /// 0 on reaching a level, 1 just before the next; A1 counts from its notional floor and C2 fills
    /// towards its notional ceiling.
    public func progress(theta: Double) -> Double {
        let band = band(of: level(for: theta))
        let fraction = (theta - band.lowerBound) / (band.upperBound - band.lowerBound)
        return min(max(fraction, 0), 1)
    }

    static func index(of level: CEFRLevel) -> Int {
        CEFRLevel.allCases.firstIndex(of: level) ?? 0
    }
}

/// Where a learner stands in one skill, or overall: ability, level and the progress bar.
public struct ProficiencyStatus: Codable, Sendable, Hashable {
    /// `nil` for the overall status.
    public var skill: Skill?
    public var theta: Double
    public var level: CEFRLevel
    /// `nil` at C2.
    public var nextLevel: CEFRLevel?
    /// Progress from `level` to `nextLevel`, 0-1.
    public var progress: Double
    /// Answers the ability rests on.
    public var responses: Int

    public init(skill: Skill?, theta: Double, responses: Int, cuts: CEFRCutScores = .standard) {
        self.skill = skill
        self.theta = theta
        self.level = cuts.level(for: theta)
        let index = CEFRCutScores.index(of: level)
        self.nextLevel = index + 1 < CEFRLevel.allCases.count ? CEFRLevel.allCases[index + 1] : nil
        self.progress = cuts.progress(theta: theta)
        self.responses = responses
    }
}

/// A learner's proficiency in one language: overall and per skill.
public struct ProficiencyReport: Codable, Sendable, Hashable {
    public var overall: ProficiencyStatus
    /// One per skill given, in `Skill.allCases` order.
    public var skills: [ProficiencyStatus]

    /// The overall ability is the evidence-weighted mean of the skills' abilities, weight `n / (n + 10)`:
    /// a skill never practised weighs nothing (it would only pull the level to the prior), and one with
    /// ten answers counts half as much as a well-practised one. With no answers at all it is the plain mean.
    public init(abilities: [SkillAbility], cuts: CEFRCutScores = .standard) {
        let ordered = Skill.allCases.compactMap { skill in abilities.first { $0.skill == skill } }
        self.skills = ordered.map { ProficiencyStatus(skill: $0.skill, theta: $0.theta, responses: $0.responses, cuts: cuts) }
        self.overall = ProficiencyStatus(
            skill: nil, theta: Self.overallTheta(ordered), responses: ordered.reduce(0) { $0 + $1.responses }, cuts: cuts
        )
    }

    static func overallTheta(_ abilities: [SkillAbility]) -> Double {
        guard !abilities.isEmpty else { return 0 }
        let weights = abilities.map { Double(max($0.responses, 0)) / (Double(max($0.responses, 0)) + 10) }
        let totalWeight = weights.reduce(0, +)
        guard totalWeight > 0 else { return abilities.reduce(0) { $0 + $1.theta } / Double(abilities.count) }
        return zip(abilities, weights).reduce(0) { $0 + $1.0.theta * $1.1 } / totalWeight
    }

    /// Today's history rows: the overall status and one per skill.
    public func snapshots(on date: Date, utcOffsetSeconds: Int = 0) -> [ProficiencySnapshot] {
        let day = ProficiencySnapshot.startOfDay(date, utcOffsetSeconds: utcOffsetSeconds)
        return ([overall] + skills).map { ProficiencySnapshot(day: day, skill: $0.skill, theta: $0.theta, level: $0.level) }
    }
}

/// One row of the daily proficiency history: the last ability of the day for a skill (or overall).
public struct ProficiencySnapshot: Codable, Sendable, Hashable {
    /// The instant the learner's day began (see `startOfDay`).
    public var day: Date
    /// `nil` for the overall ability.
    public var skill: Skill?
    public var theta: Double
    public var level: CEFRLevel

    public init(day: Date, skill: Skill?, theta: Double, level: CEFRLevel) {
        self.day = day
        self.skill = skill
        self.theta = theta
        self.level = level
    }

    /// The start of the learner's day containing `date`, for a fixed UTC offset; arithmetic only, so it is pure.
    public static func startOfDay(_ date: Date, utcOffsetSeconds: Int = 0) -> Date {
        let local = date.timeIntervalSince1970 + Double(utcOffsetSeconds)
        return Date(timeIntervalSince1970: (local / 86_400).rounded(.down) * 86_400 - Double(utcOffsetSeconds))
    }

    /// `history` with `latest` folded in: a new row replaces the same day's row for the same skill,
    /// so the history keeps one row per day and skill. Sorted by day, then overall first, then skill order.
    public static func recording(_ latest: [ProficiencySnapshot], into history: [ProficiencySnapshot]) -> [ProficiencySnapshot] {
        func key(_ snapshot: ProficiencySnapshot) -> String { "\(snapshot.day.timeIntervalSince1970)|\(snapshot.skill?.rawValue ?? "")" }
        var rows: [String: ProficiencySnapshot] = [:]
        for snapshot in history + latest { rows[key(snapshot)] = snapshot }
        func order(_ skill: Skill?) -> Int { skill.flatMap { Skill.allCases.firstIndex(of: $0) }.map { $0 + 1 } ?? 0 }
        return rows.values.sorted { ($0.day, order($0.skill)) < ($1.day, order($1.skill)) }
    }
}

// MARK: - Gaps ("places of improvement")

/// What kind of area a gap is about.
public enum PracticeAreaKind: String, Codable, Sendable, CaseIterable {
    case skill, topic, grammarNote
}

/// A learner's history with one item in an area: answers so far and the item's difficulty.
public struct ItemRecord: Codable, Sendable, Hashable {
    public var itemId: String
    public var correctCount: Int
    public var wrongCount: Int
    public var difficulty: Double
    /// Choices offered (2+ gives a guessing floor of 1/k); 0 for open answers.
    public var optionCount: Int

    public init(itemId: String, correctCount: Int, wrongCount: Int, difficulty: Double, optionCount: Int = 0) {
        self.itemId = itemId
        self.correctCount = correctCount
        self.wrongCount = wrongCount
        self.difficulty = difficulty
        self.optionCount = optionCount
    }
}

/// A skill, topic or grammar note with the learner's item history in it.
public struct PracticeArea: Codable, Sendable, Hashable {
    public var kind: PracticeAreaKind
    /// The skill's raw value, the topic's key or the grammar note's id.
    public var id: String
    /// The skill whose ability the area's items draw on; `nil` uses the overall ability. Defaults: a skill
    /// area its own skill, a grammar note `.grammar`, a topic none (topics mix vocabulary, listening, reading).
    public var skill: Skill?
    public var items: [ItemRecord]

    public init(kind: PracticeAreaKind, id: String, skill: Skill? = nil, items: [ItemRecord]) {
        self.kind = kind
        self.id = id
        switch kind {
        case .skill: self.skill = skill ?? Skill(rawValue: id)
        case .grammarNote: self.skill = skill ?? .grammar
        case .topic: self.skill = skill
        }
        self.items = items
    }
}

/// Everything the gap analysis needs.
public struct GapAnalysisInput: Codable, Sendable, Hashable {
    public var abilities: [SkillAbility]
    public var areas: [PracticeArea]
    public var cuts: CEFRCutScores = .standard
    /// An area whose predicted success is under this is a gap.
    public var successThreshold: Double = 0.6
    public var missedItemLimit: Int = 5

    public init(abilities: [SkillAbility], areas: [PracticeArea]) {
        self.abilities = abilities
        self.areas = areas
    }
}

/// Why an area is a gap.
public enum GapReason: String, Codable, Sendable, CaseIterable {
    /// Its ability is below the lower cut of the learner's overall level.
    case belowLevel
    /// The predicted chance of success on its items is under the threshold.
    case lowPredictedSuccess
}

/// One place of improvement.
public struct ProficiencyGap: Codable, Sendable, Hashable {
    public var kind: PracticeAreaKind
    public var id: String
    public var skill: Skill?
    /// The area's ability: the skill's own for a skill, else estimated from the area's history.
    public var theta: Double
    /// Mean predicted chance of success on the area's items; `nil` without items.
    public var predictedSuccess: Double?
    public var reasons: [GapReason]
    /// How far below the bar, in logits; gaps are ranked by it.
    public var severity: Double
    /// The most often missed items, most misses first.
    public var mostMissedItemIds: [String]
}

/// Finds and ranks the areas a learner should work on.
///
/// A skill's ability is its practice ability. A topic's or grammar note's ability is the EAP estimate
/// from its own item history (binomial counts under the practice model's success probability) with
/// the prior N(ability of its skill, 1): with no history it is the skill's ability, and each answer
/// moves it towards what the learner actually does there. Severity puts both reasons on the logit
/// scale: `lowerCut - theta` for `belowLevel` and `logit(threshold) - logit(predicted)` for
/// `lowPredictedSuccess`, taking the larger; ties go to the area with more misses, then kind and id.
public enum GapAnalysis {
    public static func gaps(_ input: GapAnalysisInput) -> [ProficiencyGap] {
        let report = ProficiencyReport(abilities: input.abilities, cuts: input.cuts)
        let bar = input.cuts.lowerCut(of: report.overall.level)
        var areas = input.areas
        // Every skill with an ability is assessed, with or without item history.
        for ability in input.abilities where !areas.contains(where: { $0.kind == .skill && $0.skill == ability.skill }) {
            areas.append(PracticeArea(kind: .skill, id: ability.skill.rawValue, skill: ability.skill, items: []))
        }
        func abilityOf(_ skill: Skill?) -> Double {
            skill.flatMap { skill in input.abilities.first { $0.skill == skill }?.theta } ?? report.overall.theta
        }
        let threshold = min(max(input.successThreshold, 1e-6), 1 - 1e-6)
        var gaps: [(gap: ProficiencyGap, misses: Int)] = []
        for area in areas {
            let reference = abilityOf(area.skill)
            let theta = area.kind == .skill ? reference : areaAbility(area.items, priorMean: reference)
            let predicted = area.items.isEmpty ? nil : area.items.reduce(0.0) { $0 + success(theta, $1) } / Double(area.items.count)
            var reasons: [GapReason] = []
            var severity = -Double.infinity
            if let bar, theta < bar {
                reasons.append(.belowLevel)
                severity = max(severity, bar - theta)
            }
            if let predicted, predicted < threshold {
                reasons.append(.lowPredictedSuccess)
                let clamped = min(max(predicted, 1e-6), 1 - 1e-6)
                severity = max(severity, logit(threshold) - logit(clamped))
            }
            guard !reasons.isEmpty else { continue }
            let missed = area.items.filter { $0.wrongCount > 0 }.sorted { lhs, rhs in
                if lhs.wrongCount != rhs.wrongCount { return lhs.wrongCount > rhs.wrongCount }
                let lhsRate = Double(lhs.wrongCount) / Double(lhs.wrongCount + max(lhs.correctCount, 0))
                let rhsRate = Double(rhs.wrongCount) / Double(rhs.wrongCount + max(rhs.correctCount, 0))
                if lhsRate != rhsRate { return lhsRate > rhsRate }
                return lhs.itemId < rhs.itemId
            }
            let gap = ProficiencyGap(
                kind: area.kind, id: area.id, skill: area.skill, theta: theta, predictedSuccess: predicted, reasons: reasons,
                severity: severity, mostMissedItemIds: missed.prefix(max(input.missedItemLimit, 0)).map(\.itemId)
            )
            gaps.append((gap, area.items.reduce(0) { $0 + max($1.wrongCount, 0) }))
        }
        func kindOrder(_ kind: PracticeAreaKind) -> Int { PracticeAreaKind.allCases.firstIndex(of: kind) ?? 0 }
        return gaps.sorted { lhs, rhs in
            if lhs.gap.severity != rhs.gap.severity { return lhs.gap.severity > rhs.gap.severity }
            if lhs.misses != rhs.misses { return lhs.misses > rhs.misses }
            if lhs.gap.kind != rhs.gap.kind { return kindOrder(lhs.gap.kind) < kindOrder(rhs.gap.kind) }
            return lhs.gap.id < rhs.gap.id
        }.map(\.gap)
    }

    private static func success(_ theta: Double, _ item: ItemRecord) -> Double {
        AbilityModel.successProbability(theta: theta, difficulty: item.difficulty, optionCount: item.optionCount)
    }

    /// EAP ability from an area's history, prior N(priorMean, 1).
    static func areaAbility(_ items: [ItemRecord], priorMean: Double) -> Double {
        QuadratureGrid.standard.expectedAPosteriori(priorMean: priorMean, priorSD: 1) { theta in
            items.reduce(0.0) { total, item in
                let p = min(max(success(theta, item), 1e-12), 1 - 1e-12)
                return total + Double(max(item.correctCount, 0)) * log(p) + Double(max(item.wrongCount, 0)) * log(1 - p)
            }
        }.theta
    }

    private static func logit(_ p: Double) -> Double { log(p / (1 - p)) }
}

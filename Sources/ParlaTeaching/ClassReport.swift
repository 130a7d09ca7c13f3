import Foundation
import ParlaCore
import ParlaLearning

/// A class at a glance (issue 17): per learner its last activity, level,
/// trend over 7 and 30 days, weakest skill and assignment completion; for
/// the class the level distribution, its progress week by week, each
/// assignment's completion and the items most missed. Built from
/// rows the store reads in a few set queries; pure, so the rules are tested
/// without a database.
public struct ClassReport: Sendable, Equatable {
    public struct Learner: Sendable, Equatable {
        public var id: LearnerID
        public var displayName: String
        public var lastActive: Date?
        /// Where the learner stands overall in the class's language (level
        /// and the proficiency bar towards the next), as its own page says
        /// (`standing`); nil while nothing is known.
        public var overall: ProficiencyStatus?
        public var level: CEFRLevel? { overall?.level }
        public var theta: Double? { overall?.theta }
        /// Overall ability now minus 7 and 30 days ago (logits); nil without history then.
        public var trend7: Double?
        public var trend30: Double?
        /// The skill with the lowest ability among those practised.
        public var weakestSkill: Skill?
        /// Mean completion of the class's assignments (0-1); nil without any.
        public var assignmentCompletion: Double?
    }

    public struct Missed: Sendable, Equatable {
        public var item: String
        public var misses: Int
        public var answers: Int
        public init(item: String, misses: Int, answers: Int) { (self.item, self.misses, self.answers) = (item, misses, answers) }
    }

    /// The class's mean overall ability on a day, over the learners with one by then.
    public struct Point: Sendable, Equatable {
        public var day: Date
        public var theta: Double
        public var learners: Int
    }

    /// How many weeks back the class's progress goes.
    public static let progressWeeks = 12

    public var learners: [Learner]
    /// Learners per overall level; those with nothing known yet are not counted.
    public var levels: [CEFRLevel: Int]
    /// Weekly, the last `progressWeeks` weeks up to today; days before any learner had a level are left out.
    public var progress: [Point]
    /// Each assignment's mean completion over the class's learners (0-1).
    public var assignments: [AssignmentID: Double]
    public var mostMissed: [Missed]

    /// What the store reads, per member of the class.
    public struct Member: Sendable {
        public var id: LearnerID
        public var displayName: String
        public var lastActive: Date?
        /// Overall ability by day: every day of the last `progressWeeks`
        /// weeks and the last day before them.
        public var history: [(day: Date, theta: Double, level: CEFRLevel)]
        /// Each skill's ability and responses.
        public var skills: [(skill: Skill, theta: Double, responses: Int)]
        /// The level of the member's course in the class's language; nil
        /// without one, or while its placement test runs.
        public var courseLevel: CEFRLevel?
        /// Completion of each of the class's assignments (0-1), but those it
        /// may open nothing of.
        public var completions: [AssignmentID: Double]

        public init(
            id: LearnerID, displayName: String, lastActive: Date?, history: [(day: Date, theta: Double, level: CEFRLevel)],
            skills: [(skill: Skill, theta: Double, responses: Int)], courseLevel: CEFRLevel? = nil, completions: [AssignmentID: Double]
        ) {
            (self.id, self.displayName, self.lastActive, self.history) = (id, displayName, lastActive, history)
            (self.skills, self.courseLevel, self.completions) = (skills, courseLevel, completions)
        }

        /// Where the member stands overall now, by the rule its own page
        /// uses (`ProficiencyService`): every skill's ability, an unmeasured
        /// one at the prior that the course's level gives
        /// (`SkillAbility.everySkill`), weighed by `ProficiencyReport`. A
        /// learner who has only started a course at A1 is at A1, not
        /// without a level. One with neither an ability nor a course level
        /// in the language has nothing known yet (nil), not a guess.
        public var standing: ProficiencyStatus? {
            guard !skills.isEmpty || courseLevel != nil else { return nil }
            let measured = skills.map { SkillAbility(skill: $0.skill, theta: $0.theta, responses: $0.responses) }
            return ProficiencyReport(abilities: SkillAbility.everySkill(measured, courseLevel: courseLevel)).overall
        }
    }

    public init(members: [Member], missed: [Missed], today: Date) {
        let histories = members.map { $0.history.sorted { $0.day < $1.day } }
        learners = zip(members, histories).map { Self.summary($0, history: $1, today: today) }
        levels = learners.reduce(into: [:]) { counts, learner in
            if let level = learner.level { counts[level, default: 0] += 1 }
        }
        mostMissed = missed.sorted { ($0.misses, $1.item) > ($1.misses, $0.item) }
        // Each assignment's mean over the members it counts for.
        var sums: [AssignmentID: (total: Double, members: Int)] = [:]
        for member in members {
            for (assignment, completion) in member.completions {
                sums[assignment, default: (0, 0)].total += completion
                sums[assignment, default: (0, 0)].members += 1
            }
        }
        assignments = sums.mapValues { $0.total / Double($0.members) }
        progress = (0...Self.progressWeeks).reversed().compactMap { weeks in
            let day = today.addingTimeInterval(-Double(weeks * 7) * 86400)
            let known = histories.compactMap { history in history.last { $0.day <= day }?.theta }
            return known.isEmpty ? nil : Point(day: day, theta: known.reduce(0, +) / Double(known.count), learners: known.count)
        }
    }

    /// `history`: the member's, oldest day first.
    static func summary(_ member: Member, history: [(day: Date, theta: Double, level: CEFRLevel)], today: Date) -> Learner {
        let overall = member.standing
        /// The ability on the last day with a record at least `days` before today.
        func before(_ days: Int) -> Double? {
            let cutoff = today.addingTimeInterval(-Double(days) * 86400)
            return history.last { $0.day <= cutoff }?.theta
        }
        let practised = member.skills.filter { $0.responses > 0 }
        return Learner(
            id: member.id, displayName: member.displayName, lastActive: member.lastActive, overall: overall,
            trend7: zip2(overall?.theta, before(7)).map { $0 - $1 }, trend30: zip2(overall?.theta, before(30)).map { $0 - $1 },
            weakestSkill: practised.min { ($0.theta, $0.skill.rawValue) < ($1.theta, $1.skill.rawValue) }?.skill,
            assignmentCompletion: member.completions.isEmpty
                ? nil : member.completions.values.reduce(0, +) / Double(member.completions.count))
    }

    /// The class as a spreadsheet: one row per learner (RFC 4180 quoting).
    public func csv() -> String {
        func field(_ text: String) -> String {
            // A leading =, +, - or @ would be read as a formula: quoted and prefixed.
            let safe = text.first.map { "=+-@".contains($0) } == true ? "'" + text : text
            return safe.contains { ",\"\n\r".contains($0) } || safe != text
                ? "\"" + safe.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : safe
        }
        func number(_ value: Double?, _ digits: Int = 2) -> String { value.map { String(format: "%.\(digits)f", $0) } ?? "" }
        let formatter = ISO8601DateFormatter()
        var lines = ["learner_id,name,last_active,level,ability,trend_7_days,trend_30_days,weakest_skill,assignment_completion"]
        for learner in learners {
            lines.append(
                [
                    learner.id.description, field(learner.displayName), learner.lastActive.map(formatter.string(from:)) ?? "",
                    learner.level?.rawValue ?? "", number(learner.theta), number(learner.trend7), number(learner.trend30),
                    learner.weakestSkill?.rawValue ?? "", number(learner.assignmentCompletion),
                ].joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}

private func zip2<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}

import Foundation
import ParlaCore
import Testing

@testable import ParlaLearning

@Suite struct ProficiencyTests {
    let cuts = CEFRCutScores.standard

    @Test func cutScoresMapAbilityToLevels() {
        #expect(cuts.level(for: -9) == .a1)
        #expect(cuts.level(for: -1.5000001) == .a1)
        #expect(cuts.level(for: -1.5) == .a2, "a cut belongs to the level it opens")
        #expect(cuts.level(for: -0.5) == .b1)
        #expect(cuts.level(for: 0) == .b1)
        #expect(cuts.level(for: 0.5) == .b2)
        #expect(cuts.level(for: 1.49) == .b2)
        #expect(cuts.level(for: 1.5) == .c1)
        #expect(cuts.level(for: 2.5) == .c2)
        #expect(cuts.level(for: 9) == .c2)
        #expect(cuts.lowerCut(of: .a1) == nil && cuts.lowerCut(of: .b2) == 0.5)
        #expect(cuts.upperCut(of: .c2) == nil && cuts.upperCut(of: .b2) == 1.5)
        #expect(CEFRLevel.allCases.map { cuts.centre(of: $0) } == [-2, -1, 0, 1, 2, 3])
        for level in CEFRLevel.allCases { #expect(cuts.level(for: cuts.centre(of: level)) == level) }
    }

    @Test func theProgressBarFillsBetweenCuts() {
        #expect(cuts.progress(theta: 0.5) == 0, "just reached B2")
        #expect(cuts.progress(theta: 1.0) == 0.5)
        #expect(abs(cuts.progress(theta: 1.25) - 0.75) < 1e-12)
        #expect(cuts.progress(theta: 1.4999999) > 0.9999)
        #expect(cuts.progress(theta: 1.5) == 0, "C1 starts empty")
        #expect(cuts.progress(theta: -0.5) == 0)
        #expect(cuts.progress(theta: -2.5) == 0, "A1 counts from its notional floor")
        #expect(cuts.progress(theta: -2.0) == 0.5)
        #expect(cuts.progress(theta: -7) == 0)
        #expect(cuts.progress(theta: 3.0) == 0.5, "C2 fills towards a notional ceiling")
        #expect(cuts.progress(theta: 8) == 1)
        for theta in stride(from: -5.0, through: 5.0, by: 0.01) { #expect((0...1).contains(cuts.progress(theta: theta))) }

        let status = ProficiencyStatus(skill: .listening, theta: 1.0, responses: 12)
        #expect(status.level == .b2 && status.nextLevel == .c1 && status.progress == 0.5)
        #expect(ProficiencyStatus(skill: nil, theta: 4, responses: 0).nextLevel == nil)
    }

    @Test func customCutsAreValidated() throws {
        #expect(throws: PlacementError.invalidCutScores) { try CEFRCutScores(lowerBounds: [-1, 0, 1, 2]) }
        #expect(throws: PlacementError.invalidCutScores) { try CEFRCutScores(lowerBounds: [-1, 0, 0, 1, 2]) }
        #expect(throws: PlacementError.invalidCutScores) { try CEFRCutScores(lowerBounds: [-1, 0, .nan, 1, 2]) }
        let wide = try CEFRCutScores(lowerBounds: [-2, -1, 0.5, 1.8, 3])
        #expect(wide.level(for: 0) == .b1 && wide.centre(of: .b1) == -0.25)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CEFRCutScores.self, from: Data(#"{"lowerBounds":[3,2,1,0,-1]}"#.utf8))
        }
        let decoded = try JSONDecoder().decode(CEFRCutScores.self, from: JSONEncoder().encode(wide))
        #expect(decoded == wide)
    }

    @Test func theOverallAbilityWeighsSkillsByEvidence() {
        let report = ProficiencyReport(abilities: [
            SkillAbility(skill: .speaking, theta: 2, responses: 10),
            SkillAbility(skill: .vocabulary, theta: -1, responses: 30),
            SkillAbility(skill: .grammar, theta: 5, responses: 0),
        ])
        // Weights 30/40 and 10/20; grammar, never practised, weighs nothing.
        #expect(abs(report.overall.theta - (0.75 * -1 + 0.5 * 2) / 1.25) < 1e-12)
        #expect(report.overall.responses == 40)
        #expect(report.skills.map(\.skill) == [.vocabulary, .grammar, .speaking])
        #expect(ProficiencyReport(abilities: Skill.allCases.map { SkillAbility(skill: $0) }).overall.theta == 0)
    }

    @Test func theHistoryKeepsOneRowPerDayAndSkill() {
        let morning = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14 22:13 UTC
        let day = ProficiencySnapshot.startOfDay(morning)
        #expect(day == Date(timeIntervalSince1970: 1_699_920_000))
        // In UTC+2 it is already the 15th.
        #expect(ProficiencySnapshot.startOfDay(morning, utcOffsetSeconds: 7_200) == Date(timeIntervalSince1970: 1_699_999_200))

        let first = ProficiencyReport(abilities: [SkillAbility(skill: .reading, theta: 0.2, responses: 5)]).snapshots(on: morning)
        #expect(first.map(\.skill) == [nil, .reading])
        #expect(first.allSatisfy { $0.day == day })
        let later = ProficiencyReport(abilities: [SkillAbility(skill: .reading, theta: 0.6, responses: 6)])
            .snapshots(on: morning.addingTimeInterval(60))
        let nextDay = ProficiencyReport(abilities: [SkillAbility(skill: .reading, theta: 0.7, responses: 7)])
            .snapshots(on: morning.addingTimeInterval(86_400))
        var history = ProficiencySnapshot.recording(first, into: [])
        history = ProficiencySnapshot.recording(later, into: history)
        history = ProficiencySnapshot.recording(nextDay, into: history)
        #expect(history.count == 4)
        #expect(history.map(\.theta) == [0.6, 0.6, 0.7, 0.7])
        #expect(history[1].level == .b2 && history[1].skill == .reading)
    }

    /// Overall B2 (mean 0.62, lower cut 0.5). Grammar (-0.2) is 0.7 below the cut. The travel topic's items
    /// are far above the learner (predicted success about 0.2). The subjunctive note is missed more than a
    /// grammar ability of -0.2 predicts, so its own ability falls further below the cut than grammar's.
    /// Food is easy and answered right; speaking (0.6) is above the cut.
    @Test func gapsAreFoundAndRanked() throws {
        let abilities = [
            SkillAbility(skill: .vocabulary, theta: 1.0, responses: 200),
            SkillAbility(skill: .grammar, theta: -0.2, responses: 200),
            SkillAbility(skill: .listening, theta: 0.9, responses: 200),
            SkillAbility(skill: .reading, theta: 0.8, responses: 200),
            SkillAbility(skill: .speaking, theta: 0.6, responses: 200),
        ]
        let travel = PracticeArea(
            kind: .topic, id: "travel", skill: .vocabulary,
            items: [
                ItemRecord(itemId: "t1", correctCount: 0, wrongCount: 4, difficulty: 2.5),
                ItemRecord(itemId: "t2", correctCount: 1, wrongCount: 4, difficulty: 2.5),
                ItemRecord(itemId: "t3", correctCount: 0, wrongCount: 6, difficulty: 2.8),
                ItemRecord(itemId: "t4", correctCount: 0, wrongCount: 1, difficulty: 2.2),
                ItemRecord(itemId: "t5", correctCount: 2, wrongCount: 2, difficulty: 2.0),
                ItemRecord(itemId: "t6", correctCount: 0, wrongCount: 2, difficulty: 2.4),
                ItemRecord(itemId: "t7", correctCount: 3, wrongCount: 0, difficulty: 1.5),
            ])
        let subjunctive = PracticeArea(
            kind: .grammarNote, id: "subjunctive", skill: .grammar,
            items: [
                ItemRecord(itemId: "s1", correctCount: 1, wrongCount: 3, difficulty: 0.6, optionCount: 4),
                ItemRecord(itemId: "s2", correctCount: 2, wrongCount: 2, difficulty: 0.4, optionCount: 4),
            ])
        let food = PracticeArea(
            kind: .topic, id: "food", skill: .vocabulary,
            items: [
                ItemRecord(itemId: "f1", correctCount: 6, wrongCount: 0, difficulty: -1),
                ItemRecord(itemId: "f2", correctCount: 5, wrongCount: 1, difficulty: -0.5),
            ])
        let gaps = GapAnalysis.gaps(GapAnalysisInput(abilities: abilities, areas: [food, subjunctive, travel]))
        #expect(gaps.map(\.id) == ["travel", "subjunctive", "grammar"])
        #expect(zip(gaps, gaps.dropFirst()).allSatisfy { $0.severity >= $1.severity })

        let travelGap = gaps[0]
        #expect(travelGap.reasons == [.lowPredictedSuccess])
        #expect(travelGap.mostMissedItemIds == ["t3", "t1", "t2", "t6", "t5"], "top 5, most misses first, then miss rate")
        let predicted = try #require(travelGap.predictedSuccess)
        #expect(predicted < 0.3)
        #expect(abs(travelGap.severity - (log(0.6 / 0.4) - log(predicted / (1 - predicted)))) < 1e-12)

        let subjunctiveGap = gaps[1]
        #expect(subjunctiveGap.kind == .grammarNote && subjunctiveGap.skill == .grammar)
        #expect(subjunctiveGap.reasons.contains(.belowLevel))
        #expect(subjunctiveGap.theta < -0.2, "missed more than the grammar ability predicts")
        #expect(subjunctiveGap.mostMissedItemIds == ["s1", "s2"])

        let grammarGap = gaps[2]
        #expect(grammarGap.kind == .skill && grammarGap.reasons == [.belowLevel])
        #expect(abs(grammarGap.severity - 0.7) < 1e-12)
        #expect(grammarGap.predictedSuccess == nil && grammarGap.mostMissedItemIds.isEmpty)

        // The area's own history moves its ability from the skill's: up with right answers, down with misses.
        let rightAnswers = travel.items.map { ItemRecord(itemId: $0.itemId, correctCount: 5, wrongCount: 0, difficulty: $0.difficulty) }
        let wrongAnswers = travel.items.map { ItemRecord(itemId: $0.itemId, correctCount: 0, wrongCount: 5, difficulty: $0.difficulty) }
        #expect(abs(GapAnalysis.areaAbility([], priorMean: 1.0) - 1.0) < 1e-12)
        #expect(GapAnalysis.areaAbility(rightAnswers, priorMean: 1.0) > 2)
        #expect(GapAnalysis.areaAbility(wrongAnswers, priorMean: 1.0) < travelGap.theta)
        #expect(PracticeArea(kind: .grammarNote, id: "n", items: []).skill == .grammar)
        #expect(PracticeArea(kind: .topic, id: "t", items: []).skill == nil)
    }

    @Test func aLearnerAtA1HasOnlySuccessGaps() {
        let abilities = [SkillAbility(skill: .reading, theta: -3, responses: 50)]
        let reading = PracticeArea(
            kind: .skill, id: "reading",
            items: [
                ItemRecord(itemId: "r1", correctCount: 1, wrongCount: 0, difficulty: -4)
            ])
        #expect(reading.skill == .reading)
        #expect(GapAnalysis.gaps(GapAnalysisInput(abilities: abilities, areas: [reading])).isEmpty)
        let hard = PracticeArea(
            kind: .skill, id: "reading",
            items: [
                ItemRecord(itemId: "r2", correctCount: 0, wrongCount: 1, difficulty: -2)
            ])
        let gaps = GapAnalysis.gaps(GapAnalysisInput(abilities: abilities, areas: [hard]))
        #expect(gaps.count == 1 && gaps[0].reasons == [.lowPredictedSuccess] && gaps[0].mostMissedItemIds == ["r2"])
    }
}

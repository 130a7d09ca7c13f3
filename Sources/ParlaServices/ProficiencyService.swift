import Foundation
import ParlaCore
import ParlaLearning
import ParlaLearningStore
import ParlaStore

/// Where a learner stands in a language (T7.2, IF2): overall level, each
/// skill's ability, level and progress to the next level (the proficiency
/// bar), the history, and the places to improve.
package struct ProficiencyService: Sendable {
    package let abilities: AbilityStore
    package let content: ContentService

    package struct View: Sendable {
        package var language: Language
        package var report: ProficiencyReport
        package var history: [ProficiencySnapshot]
        package var gaps: [ProficiencyGap]
    }

    package func proficiency(_ learner: AuthorizedLearner, language code: String) async throws -> View {
        let language = try content.language(code)
        let found = try await abilities.proficiency(learner: learner, language: language)
        let known = found.abilities
        let cuts = CEFRCutScores.standard
        let abilities = SkillAbility.everySkill(known, courseLevel: found.courseLevel, cuts: cuts)
        let areas = Dictionary(grouping: found.topics, by: { "\($0.kind)|\($0.topic)" }).map { _, records in
            PracticeArea(
                kind: PracticeAreaKind(rawValue: records[0].kind) ?? .topic, id: records[0].topic, skill: records.first?.skill,
                items: records.map { record in
                    ItemRecord(
                        itemId: record.itemID, correctCount: record.correct, wrongCount: record.wrong,
                        difficulty: cuts.centre(of: record.level), optionCount: 4)
                })
        }
        let gaps = known.isEmpty ? [] : GapAnalysis.gaps(GapAnalysisInput(abilities: abilities, areas: areas))
        return View(language: language, report: ProficiencyReport(abilities: abilities, cuts: cuts), history: found.history, gaps: gaps)
    }

    package init(abilities: AbilityStore, content: ContentService) {
        self.abilities = abilities
        self.content = content
    }
}

import Foundation
import ParlaCore
import Testing

@testable import ParlaLearning

/// What one answer teaches (`AnswerLearning.learning`), the rule lessons and
/// games share, tested without a database.
@Suite struct AnswerLearningTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let scheduler = MemoryScheduler()

    func answer(correct: Bool, time: Double? = 3, weight: Double = 1, remember: Bool = true, skill: Skill = .vocabulary) -> PracticeAnswer {
        PracticeAnswer(
            itemID: "word:chat", skill: skill, correct: correct, responseTime: time, timeLimit: 30, optionCount: 4,
            initialDifficulty: -1.5, weight: weight, remember: remember)
    }

    @Test func aRightAnswerRaisesTheSkillLowersTheItemAndRemembersIt() {
        let model = LearnerModel(abilities: [SkillAbility(skill: .vocabulary, theta: -1, responses: 3)])
        let learned = AnswerLearning.learning(from: answer(correct: true), model: model, item: nil, at: now, scheduler: scheduler)
        #expect(learned.abilityChange > 0 && learned.difficultyChange < 0)
        #expect(learned.ability == SkillAbility(skill: .vocabulary, theta: -1 + learned.abilityChange, responses: 4))
        #expect(learned.card?.lastReview == now && learned.card?.due ?? now > now)
        #expect(!learned.lapse)
        #expect(learned.initialDifficulty == -1.5)
    }

    @Test func aWrongAnswerNeverRaisesTheSkill() {
        for theta in stride(from: -4.0, through: 4.0, by: 0.5) {
            let model = LearnerModel(abilities: [SkillAbility(skill: .grammar, theta: theta, responses: 10)])
            let learned = AnswerLearning.learning(
                from: answer(correct: false, skill: .grammar), model: model, item: nil, at: now,
                scheduler: scheduler)
            #expect(learned.abilityChange <= 0 && learned.ability.theta <= theta)
        }
    }

    /// T4.6: a right answer never lowers the bar. Wrong at first, then
    /// found: the ability stays where it stood before the item, while the
    /// item still grows harder and its memory takes the first try's grade.
    @Test func anItemFoundAtLastNeverLowersTheSkill() {
        for theta in stride(from: -4.0, through: 4.0, by: 0.5) {
            let model = LearnerModel(abilities: [SkillAbility(skill: .vocabulary, theta: theta, responses: 10)])
            var found = answer(correct: false)
            found.foundAtLast = true
            let learned = AnswerLearning.learning(from: found, model: model, item: nil, at: now, scheduler: scheduler)
            let wrong = AnswerLearning.learning(from: answer(correct: false), model: model, item: nil, at: now, scheduler: scheduler)
            #expect(learned.ability.theta >= theta && learned.abilityChange == 0)
            #expect(learned.ability.responses == 11)
            #expect(learned.difficultyChange == wrong.difficultyChange && learned.difficultyChange > 0)
            #expect(learned.card == wrong.card)
            #expect(
                learned.snapshots.allSatisfy { snapshot in
                    snapshot.skill == nil || snapshot.theta >= theta
                })
        }
    }

    @Test func weightScalesTheChangesAndAWeakAnswerLeavesMemoryAlone() {
        let model = LearnerModel(abilities: [SkillAbility(skill: .vocabulary, theta: 0, responses: 0)])
        let full = AnswerLearning.learning(from: answer(correct: false), model: model, item: nil, at: now, scheduler: scheduler)
        let half = AnswerLearning.learning(
            from: answer(correct: false, weight: 0.5, remember: false), model: model, item: nil, at: now,
            scheduler: scheduler)
        #expect(abs(half.abilityChange - full.abilityChange / 2) < 1e-12)
        #expect(abs(half.difficultyChange - full.difficultyChange / 2) < 1e-12)
        #expect(half.card == nil && !half.lapse)
    }

    @Test func forgettingACardInReviewIsALapse() {
        let inReview = MemoryCard(
            phase: .review, step: nil, stability: 12, difficulty: 5, due: now, lastReview: now.addingTimeInterval(-86_400 * 12))
        let model = LearnerModel(cards: ["word:chat": inReview])
        let forgot = AnswerLearning.learning(from: answer(correct: false), model: model, item: nil, at: now, scheduler: scheduler)
        #expect(forgot.lapse && forgot.card?.phase == .relearning)
        let recalled = AnswerLearning.learning(from: answer(correct: true), model: model, item: nil, at: now, scheduler: scheduler)
        #expect(!recalled.lapse && recalled.card?.phase == .review)
    }

    @Test func theItemsLearnedDifficultyIsWhatTheAnswerIsJudgedAgainst() {
        let model = LearnerModel(abilities: [SkillAbility(skill: .vocabulary, theta: 0, responses: 20)])
        let easy = AnswerLearning.learning(
            from: answer(correct: true), model: model, item: ItemDifficulty(difficulty: -3, responses: 50),
            at: now, scheduler: scheduler)
        let hard = AnswerLearning.learning(
            from: answer(correct: true), model: model, item: ItemDifficulty(difficulty: 3, responses: 50),
            at: now, scheduler: scheduler)
        #expect(hard.abilityChange > easy.abilityChange)
    }

    @Test func todaysHistoryTakesTheSkillAndTheWholeOnly() {
        let model = LearnerModel(abilities: [SkillAbility(skill: .reading, theta: 1, responses: 30)])
        let learned = AnswerLearning.learning(
            from: answer(correct: true, skill: .listening), model: model, item: nil, at: now,
            scheduler: scheduler)
        #expect(Set(learned.snapshots.map(\.skill)) == [nil, .listening])
        #expect(learned.snapshots.allSatisfy { $0.day == ProficiencySnapshot.startOfDay(now) })
        #expect(learned.snapshots.first { $0.skill == .listening }?.theta == learned.ability.theta)
    }

    @Test func aSkillNeverAnsweredStartsAtThePrior() {
        // Nothing measured: the centre of the course's level.
        let fresh = LearnerModel(courseLevel: .b1)
        let first = AnswerLearning.learning(from: answer(correct: true), model: fresh, item: nil, at: now, scheduler: scheduler)
        #expect(abs(first.ability.theta - first.abilityChange - CEFRCutScores.standard.centre(of: .b1)) < 1e-12)
        #expect(first.ability.responses == 1)
        // Other skills answered: their mean.
        let measured = LearnerModel(
            abilities: [
                SkillAbility(skill: .reading, theta: 1, responses: 4),
                SkillAbility(skill: .grammar, theta: 2, responses: 4),
            ], courseLevel: .a1)
        let next = AnswerLearning.learning(from: answer(correct: true), model: measured, item: nil, at: now, scheduler: scheduler)
        #expect(abs(next.ability.theta - next.abilityChange - 1.5) < 1e-12)
        #expect(measured.everySkill.count == Skill.allCases.count)
    }

    @Test func theModelAfterAnAnswerIsWhatTheAnswerTaught() {
        var model = LearnerModel(abilities: [SkillAbility(skill: .vocabulary, theta: 0, responses: 2)])
        let learned = AnswerLearning.learning(from: answer(correct: true), model: model, item: nil, at: now, scheduler: scheduler)
        model.apply(learned)
        #expect(model.abilities == [learned.ability])
        #expect(model.cards["word:chat"] == learned.card)
        // A weak answer moves the skill and leaves the card.
        let weak = AnswerLearning.learning(
            from: answer(correct: false, weight: 0.5, remember: false), model: model, item: nil,
            at: now, scheduler: scheduler)
        model.apply(weak)
        #expect(model.cards["word:chat"] == learned.card && model.abilities == [weak.ability])
    }
}

/// Several answers written at once (`AnswerSums`): what one write after the
/// other would leave.
@Suite struct AnswerSumsTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func answersToOneItemAreSummedInOrderAndOtherItemsKeptApart() {
        let scheduler = MemoryScheduler()
        var model = LearnerModel()
        var learned: [AnswerLearning] = []
        for (index, (item, correct)) in [("word:chat", false), ("word:chien", true), ("word:chat", true)].enumerated() {
            let answer = PracticeAnswer(
                itemID: item, skill: .vocabulary, correct: correct, responseTime: 3, timeLimit: 30, optionCount: 4,
                initialDifficulty: -1.5)
            let learning = AnswerLearning.learning(
                from: answer, model: model, item: nil, at: now.addingTimeInterval(Double(index) * 600), scheduler: scheduler)
            model.apply(learning)
            learned.append(learning)
        }
        let sums = AnswerSums(learned)
        #expect(sums.cards.map(\.item) == ["word:chat", "word:chien"])
        // The last review's memory, both reviews counted.
        let chat = sums.cards[0]
        #expect(chat.reviews == 2 && chat.lastReview == now.addingTimeInterval(1200).timeIntervalSince1970)
        #expect(chat.stability == learned[2].card?.stability && chat.due == learned[2].card?.due.timeIntervalSince1970)
        #expect(sums.items.map(\.responses) == [2, 1])
        #expect(abs(sums.items[0].change - (learned[0].difficultyChange + learned[2].difficultyChange)) < 1e-12)
        #expect(abs(sums.items[0].difficulty - (-1.5 + sums.items[0].change)) < 1e-12)
        // One ability row: the first answer's value, moved by the later ones.
        #expect(sums.abilities.count == 1 && sums.abilities[0].answers == 3)
        #expect(abs(sums.abilities[0].theta - model.everySkill.first { $0.skill == .vocabulary }!.theta) < 1e-9)
        // One history row per skill and day: the last answer's.
        #expect(Set(sums.history.map(\.skill)) == ["vocabulary", "overall"] && sums.history.count == 2)
    }
}

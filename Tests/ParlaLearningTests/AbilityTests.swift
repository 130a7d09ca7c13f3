import Foundation
import ParlaCore
import Testing

@testable import ParlaLearning

@Suite struct AbilityTests {
    @Test func aRightAnswerNeverLowersAbilityAndAWrongOneNeverRaisesIt() {
        let thetas = stride(from: -5.0, through: 5.0, by: 0.5)
        let difficulties = stride(from: -5.0, through: 5.0, by: 0.5)
        let times: [Double?] = [nil, -3, 0, 0.5, 4, 9.99, 10, 15, 1_000, .infinity, .nan]
        let limits: [Double?] = [nil, 0, -5, 10, 30]
        let options = [0, 1, 2, 3, 4, 6]
        let counts = [0, 5, 50, 1_000]
        var checked = 0
        var violations: [String] = []
        for theta in thetas {
            for difficulty in difficulties {
                for time in times {
                    for limit in limits {
                        for optionCount in options {
                            for responses in counts {
                                let ability = SkillAbility(skill: .reading, theta: theta, responses: responses)
                                let item = PracticeItem(
                                    id: "i", difficulty: difficulty, responses: responses, timeLimitSeconds: limit, optionCount: optionCount
                                )
                                let right = ability.recording(correct: true, responseTime: time, on: item)
                                let wrong = ability.recording(correct: false, responseTime: time, on: item)
                                // Checked in plain code and reported once: 120k #expect calls would dominate the suite.
                                let ok =
                                    right.ability.theta >= theta && wrong.ability.theta <= theta
                                    && right.item.difficulty <= difficulty && wrong.item.difficulty >= difficulty
                                    && right.abilityChange.isFinite && wrong.abilityChange.isFinite
                                if !ok {
                                    violations.append(
                                        "theta \(theta) b \(difficulty) t \(String(describing: time)) d \(String(describing: limit))")
                                }
                                checked += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(checked == 21 * 21 * 11 * 5 * 6 * 4)
        #expect(violations.isEmpty, "\(violations.prefix(5))")
    }

    @Test func theSpeedFactorStaysBetweenOneAndTwo() {
        for limit in [nil, 0, 5, 20, .infinity] as [Double?] {
            for time in [nil, -1, 0, 1, 5, 19, 20, 21, 1e9, .nan] as [Double?] {
                let factor = AbilityModel.speedFactor(responseTime: time, timeLimit: limit)
                #expect((1...2).contains(factor))
            }
        }
        #expect(AbilityModel.speedFactor(responseTime: 0, timeLimit: 20) == 2)
        #expect(AbilityModel.speedFactor(responseTime: 5, timeLimit: 20) == 1.75)
        #expect(AbilityModel.speedFactor(responseTime: 20, timeLimit: 20) == 1)
        #expect(AbilityModel.speedFactor(responseTime: 45, timeLimit: 20) == 1)
        #expect(AbilityModel.speedFactor(responseTime: 5, timeLimit: nil) == 1)
    }

    @Test func theStepShrinksWithEvidenceToAFloor() {
        #expect(AbilityModel.learnerStep(responses: 0) == 1)
        #expect(AbilityModel.learnerStep(responses: 20) == 0.5)
        #expect(abs(AbilityModel.learnerStep(responses: 380) - 0.05) < 1e-12)
        #expect(AbilityModel.learnerStep(responses: 10_000) == 0.05)
        #expect(AbilityModel.itemStep(responses: 0) == 0.5)
        #expect(AbilityModel.itemStep(responses: 10_000) == 0.02)
        for n in 0..<500 {
            #expect(AbilityModel.itemStep(responses: n) <= AbilityModel.learnerStep(responses: n))
        }
    }

    @Test func theUpdateFollowsTheFormula() {
        // theta 0.5, b 0, 4 options: P = 0.25 + 0.75 logistic(0.5); 10 answers so far: K = 1/1.5; t/d = 0.25.
        let ability = SkillAbility(skill: .vocabulary, theta: 0.5, responses: 10)
        let item = PracticeItem(id: "w", difficulty: 0, responses: 40, timeLimitSeconds: 20, optionCount: 4)
        let update = ability.recording(correct: false, responseTime: 5, on: item)
        let p = 0.25 + 0.75 / (1 + exp(-0.5))
        #expect(abs(update.expectedSuccess - p) < 1e-12)
        #expect(abs(update.abilityChange - (1 / 1.5) * (0 - p) * 1.75) < 1e-12)
        #expect(abs(update.difficultyChange - 0.5 / 3 * p) < 1e-12)
        #expect(update.ability.responses == 11 && update.item.responses == 41)
        #expect(abs(update.ability.theta - (0.5 + update.abilityChange)) < 1e-12)
    }

    @Test func aFastRightAnswerCountsTwiceASlowOne() {
        let ability = SkillAbility(skill: .grammar)
        let item = PracticeItem(id: "g", difficulty: 0.3, timeLimitSeconds: 10, optionCount: 3)
        let fast = ability.recording(correct: true, responseTime: 0, on: item)
        let slow = ability.recording(correct: true, responseTime: 10, on: item)
        #expect(abs(fast.abilityChange - 2 * slow.abilityChange) < 1e-12)
        #expect(fast.difficultyChange == slow.difficultyChange)
    }

    @Test func theGuessingFloorIsOneOverTheOptions() {
        #expect(AbilityModel.guessingFloor(optionCount: 4) == 0.25)
        #expect(AbilityModel.guessingFloor(optionCount: 2) == 0.5)
        #expect(AbilityModel.guessingFloor(optionCount: 1) == 0)
        #expect(AbilityModel.guessingFloor(optionCount: 0) == 0)
        #expect(abs(AbilityModel.successProbability(theta: -30, difficulty: 0, optionCount: 4) - 0.25) < 1e-9)
        #expect(abs(AbilityModel.successProbability(theta: 30, difficulty: 0, optionCount: 4) - 1) < 1e-9)
        #expect(AbilityModel.successProbability(theta: 0, difficulty: 0, optionCount: 0) == 0.5)
    }

    @Test func initialDifficultyComesFromLevelAndFrequency() {
        let cuts = CEFRCutScores.standard
        #expect(AbilityModel.initialDifficulty(level: .b1) == 0)
        #expect(AbilityModel.initialDifficulty(level: .a1) == -2)
        #expect(AbilityModel.initialDifficulty(level: .c2) == 3)
        // At the level's typical rank: the centre; twice as frequent: half a logit easier, capped at 0.45.
        #expect(AbilityModel.initialDifficulty(level: .b1, frequencyRank: 1400) == 0)
        #expect(abs(AbilityModel.initialDifficulty(level: .b1, frequencyRank: 1000) - 0.5 * log2(1000.0 / 1400)) < 1e-12)
        #expect(AbilityModel.initialDifficulty(level: .b1, frequencyRank: 700) == -0.45)
        #expect(AbilityModel.initialDifficulty(level: .b1, frequencyRank: 1) == -0.45)
        #expect(AbilityModel.initialDifficulty(level: .a2, frequencyRank: 1_000_000) == -1 + 0.45)
        #expect(AbilityModel.initialDifficulty(level: .a2, frequencyRank: 0) == -1)
        // Always inside the level's band.
        for level in CEFRLevel.allCases {
            for rank in [1, 10, 100, 1_000, 10_000, 100_000] {
                let b = AbilityModel.initialDifficulty(level: level, frequencyRank: rank)
                #expect(cuts.level(for: b) == level)
            }
        }
        let item = PracticeItem(id: "casa", level: .a1, frequencyRank: 350, timeLimitSeconds: 15, optionCount: 4)
        #expect(item.difficulty == -2 && item.responses == 0)
    }

    @Test func placementSeedsThePracticeAbilities() {
        let result = PlacementResult(
            theta: 0.7, standardError: 0.28, level: .b2, progress: 0.2,
            skills: [SkillPlacement(skill: .grammar, theta: 0.4, standardError: 0.6, level: .b1, itemsUsed: 3)],
            itemsUsed: 10, isDone: true, scoring: .signedResidualTime
        )
        let abilities = result.initialAbilities()
        #expect(abilities.map(\.skill) == Skill.allCases)
        #expect(abilities.first { $0.skill == .grammar } == SkillAbility(skill: .grammar, theta: 0.4, responses: 3))
        #expect(abilities.first { $0.skill == .speaking } == SkillAbility(skill: .speaking, theta: 0.7, responses: 0))
    }
}

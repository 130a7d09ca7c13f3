import Foundation
import ParlaCore
import Testing

@testable import ParlaLearning

@Suite struct SignedResidualTimeTests {
    @Test func theScoreStaysWithinMinusOneAndOneAndIsZeroOnATimeOut() {
        for limit in [1.0, 15, 40] {
            for fraction in [-2.0, 0, 0.1, 0.5, 0.99, 1, 1.5, 100] {
                for correct in [true, false] {
                    let score = ItemResponse.signedResidualTime(correct: correct, responseTime: fraction * limit, timeLimit: limit)
                    #expect((-1...1).contains(score))
                    if fraction >= 1 { #expect(score == 0) }
                    if fraction > 0 && fraction < 1 { #expect(abs(abs(score) - (1 - fraction)) < 1e-12) }
                    if fraction < 1 { #expect(correct ? score > 0 : score < 0) }
                }
            }
        }
        #expect(ItemResponse.signedResidualTime(correct: true, responseTime: 0, timeLimit: 20) == 1)
        #expect(ItemResponse.signedResidualTime(correct: false, responseTime: 0, timeLimit: 20) == -1)
        #expect(ItemResponse.signedResidualTime(correct: true, responseTime: .nan, timeLimit: 20) == 0)
        #expect(ItemResponse.signedResidualTime(correct: true, responseTime: .infinity, timeLimit: 20) == 0)
        #expect(ItemResponse.signedResidualTime(correct: true, responseTime: 3, timeLimit: 0) == 0)
    }

    /// The derivation in `ItemResponse`, checked numerically: the SRT density integrates to 1, its mass on
    /// S > 0 is the 2PL, and its mean and variance are A' and A''.
    @Test(arguments: [-7.0, -2, -0.5, -1e-4, 0, 5e-4, 0.3, 1, 2.5, 9])
    func theSignedResidualTimeDensityHasThe2PLAsItsAccuracyMargin(kappa: Double) {
        let intervals = 20_000
        let step = 2.0 / Double(intervals)
        var total = 0.0, positive = 0.0, mean = 0.0, second = 0.0
        for index in 0...intervals {
            let score = -1 + Double(index) * step
            let weight = (index == 0 || index == intervals ? 1.0 : index % 2 == 1 ? 4 : 2) * step / 3
            let density = exp(
                ItemResponse.logLikelihood(
                    statistic: score, theta: kappa, discrimination: 1, difficulty: 0, scoring: .signedResidualTime
                ))
            total += weight * density
            mean += weight * density * score
            second += weight * density * score * score
            if index >= intervals / 2 {
                let halfWeight = (index == intervals / 2 || index == intervals ? 1.0 : (index - intervals / 2) % 2 == 1 ? 4 : 2) * step / 3
                positive += halfWeight * density
            }
        }
        #expect(abs(total - 1) < 1e-8)
        #expect(abs(positive - 1 / (1 + exp(-kappa))) < 1e-8)
        #expect(abs(mean - ItemResponse.expectedStatistic(kappa, scoring: .signedResidualTime)) < 1e-8)
        #expect(abs(second - mean * mean - ItemResponse.statisticVariance(kappa, scoring: .signedResidualTime)) < 1e-7)
    }

    @Test func theSeriesAndClosedFormsAgreeWhereTheySwitch() {
        for scoring in PlacementScoring.allCases {
            for edge in [1e-3, 1e-2] {
                for sign in [-1.0, 1.0] {
                    let below = sign * edge * (1 - 1e-9), above = sign * edge * (1 + 1e-9)
                    let functions: [(Double, PlacementScoring) -> Double] = [
                        ItemResponse.cumulant, ItemResponse.expectedStatistic, ItemResponse.statisticVariance,
                    ]
                    for function in functions {
                        #expect(abs(function(below, scoring) - function(above, scoring)) < 1e-10)
                    }
                }
            }
        }
        #expect(ItemResponse.cumulant(800, scoring: .signedResidualTime).isFinite)
        #expect(ItemResponse.statisticVariance(800, scoring: .signedResidualTime) > 0)
    }

    /// Correctness is a function of S (its sign), so S can never carry less information than x.
    @Test func timeScoringNeverHasLessInformationThanAccuracy() {
        for kappa in stride(from: -12.0, through: 12.0, by: 0.25) {
            let srt = ItemResponse.statisticVariance(kappa, scoring: .signedResidualTime)
            let accuracy = ItemResponse.statisticVariance(kappa, scoring: .accuracyOnly)
            #expect(srt >= accuracy)
        }
        #expect(abs(ItemResponse.statisticVariance(0, scoring: .signedResidualTime) - 1.0 / 3) < 1e-15)
        #expect(ItemResponse.information(theta: 0.5, discrimination: 2, difficulty: 0.5, scoring: .accuracyOnly) == 1)
    }

    @Test(arguments: [-2.0, 0, 0.7, 3])
    func simulatedAnswersFollowTheModel(kappa: Double) {
        var generator = SimulationRandom(seed: 99)
        let item = PlacementItem(
            id: "x", skill: .reading, level: .b1, discrimination: 1, difficulty: 0, timeLimitSeconds: 30, optionCount: 4
        )
        let learner = SimulatedLearner(theta: kappa)
        let draws = 20_000
        var right = 0, scoreSum = 0.0
        for _ in 0..<draws {
            let answer = learner.answer(item, using: &generator)
            let score = ItemResponse.signedResidualTime(correct: answer.correct, responseTime: answer.responseTime, timeLimit: 30)
            #expect((0...30).contains(answer.responseTime))
            if answer.correct { right += 1 }
            scoreSum += score
        }
        #expect(abs(Double(right) / Double(draws) - ItemResponse.logistic(kappa)) < 0.015)
        #expect(abs(scoreSum / Double(draws) - ItemResponse.expectedStatistic(kappa, scoring: .signedResidualTime)) < 0.015)
    }

    @Test func theGeneratorIsReproducible() {
        var first = SimulationRandom(seed: 5), second = SimulationRandom(seed: 5), other = SimulationRandom(seed: 6)
        let a = (0..<10).map { _ in first.next() }
        #expect(a == (0..<10).map { _ in second.next() })
        #expect(a != (0..<10).map { _ in other.next() })
        for _ in 0..<1_000 { #expect((0..<1).contains(first.nextUnit()) && first.nextUnit() > 0) }
    }
}

@Suite struct PlacementTests {
    let bank = PlacementSimulation.syntheticBank(seed: 2026)

    /// The posterior computed independently: Simpson's rule on [-8, 8] with 16,000 intervals, densities written out.
    func bruteForcePosterior(_ responses: [PlacementResponse], scoring: PlacementScoring) -> (mean: Double, sd: Double) {
        func logDensity(_ theta: Double) -> Double {
            var total = -theta * theta / 2
            for response in responses {
                let k = response.item.discrimination * (theta - response.item.difficulty)
                switch scoring {
                case .accuracyOnly:
                    let p = 1 / (1 + exp(-k))
                    total += log(response.correct ? p : 1 - p)
                case .signedResidualTime:
                    total += abs(k) < 1e-12 ? log(0.5) : log(k / (2 * sinh(k))) + k * response.score
                }
            }
            return total
        }
        let intervals = 16_000
        let step = 16.0 / Double(intervals)
        let logs = (0...intervals).map { logDensity(-8 + Double($0) * step) }
        let top = logs.max()!
        var mass = 0.0, first = 0.0, second = 0.0
        for (index, value) in logs.enumerated() {
            let theta = -8 + Double(index) * step
            let weight = (index == 0 || index == intervals ? 1.0 : index % 2 == 1 ? 4 : 2) * exp(value - top)
            mass += weight
            first += weight * theta
            second += weight * theta * theta
        }
        let mean = first / mass
        return (mean, sqrt(second / mass - mean * mean))
    }

    @Test(arguments: PlacementScoring.allCases)
    func theEAPEstimateMatchesABruteForcePosterior(scoring: PlacementScoring) {
        for (index, theta) in [-2.5, -1.0, 0.0, 1.5, 3.0].enumerated() {
            var generator = SimulationRandom(seed: UInt64(100 + index))
            let session = PlacementSimulation.place(
                SimulatedLearner(theta: theta), bank: bank, configuration: PlacementConfiguration(scoring: scoring), using: &generator
            )
            let truth = bruteForcePosterior(session.responses, scoring: scoring)
            #expect(abs(session.estimate.theta - truth.mean) < 1e-3)
            #expect(abs(session.estimate.standardError - truth.sd) < 1e-3)
            // Per-skill estimates: the same prior and only that skill's answers.
            let result = session.result(in: bank)
            for skill in result.skills {
                let skillTruth = bruteForcePosterior(session.responses.filter { $0.item.skill == skill.skill }, scoring: scoring)
                #expect(abs(skill.theta - skillTruth.mean) < 1e-3)
                #expect(abs(skill.standardError - skillTruth.sd) < 1e-3)
            }
        }
        // No answers: the prior itself.
        let empty = PlacementSession(configuration: PlacementConfiguration(scoring: scoring)).estimate
        #expect(abs(empty.theta) < 1e-12 && abs(empty.standardError - 1) < 1e-3)
    }

    @Test(arguments: PlacementScoring.allCases)
    func aStrongLearnerPlacesAboveAWeakOne(scoring: PlacementScoring) {
        for seed in UInt64(1)...5 {
            var generator = SimulationRandom(seed: seed)
            let configuration = PlacementConfiguration(scoring: scoring)
            func place(_ theta: Double) -> PlacementResult {
                PlacementSimulation.place(SimulatedLearner(theta: theta), bank: bank, configuration: configuration, using: &generator)
                    .result(in: bank)
            }
            let strong = place(1.5)
            let weak = place(-1.5)
            #expect(strong.theta > weak.theta + 1.5)
            #expect(strong.level > weak.level)
            #expect(strong.isDone && weak.isDone)
        }
    }

    /// The SD after the first `count` answers, from the public pieces (the EAP itself is checked above).
    func standardError(after count: Int, of session: PlacementSession) -> Double {
        let scoring = session.configuration.scoring
        return QuadratureGrid.standard.expectedAPosteriori { theta in
            session.responses.prefix(count).reduce(0.0) { total, response in
                total
                    + ItemResponse.logLikelihood(
                        statistic: scoring == .accuracyOnly ? (response.correct ? 1 : 0) : response.score, theta: theta,
                        discrimination: response.item.discrimination, difficulty: response.item.difficulty, scoring: scoring
                    )
            }
        }.standardError
    }

    @Test(arguments: PlacementScoring.allCases)
    func theTestStopsAsSoonAsItIsPreciseEnoughWithinEightToTwentyFiveItems(scoring: PlacementScoring) {
        for index in 0..<30 {
            var generator = SimulationRandom.member(index, of: 77)
            let theta = -3 + 6 * generator.nextUnit()
            let session = PlacementSimulation.place(
                SimulatedLearner(theta: theta), bank: bank, configuration: PlacementConfiguration(scoring: scoring), using: &generator
            )
            let used = session.responses.count
            #expect((8...25).contains(used))
            #expect(session.isDone && session.pendingItem == nil)
            for count in 8..<used {
                #expect(standardError(after: count, of: session) >= 0.3, "should have stopped after \(count)")
            }
            #expect(standardError(after: used, of: session) < 0.3 || used == 25)
            #expect(Set(session.responses.map(\.item.id)).count == used)
        }
    }

    @Test func theMinimumAndMaximumLengthsHold() throws {
        let sharp = try PlacementBank(
            items: (0..<60).map { index in
                PlacementItem(
                    id: "s\(index)", skill: Skill.allCases[index % 5], level: .b1, discrimination: 3.5,
                    difficulty: -3 + Double(index) / 10, timeLimitSeconds: 20, optionCount: 4
                )
            })
        var generator = SimulationRandom(seed: 3)
        let short = PlacementSimulation.place(
            SimulatedLearner(theta: 0.2), bank: sharp, configuration: PlacementConfiguration(), using: &generator
        )
        #expect(short.responses.count == 8)
        #expect(standardError(after: 5, of: short) < 0.3, "precise long before the minimum")

        let blunt = try PlacementBank(
            items: (0..<60).map { index in
                PlacementItem(
                    id: "b\(index)", skill: Skill.allCases[index % 5], level: .b1, discrimination: 0.3,
                    difficulty: -3 + Double(index) / 10, timeLimitSeconds: 20, optionCount: 4
                )
            })
        let long = PlacementSimulation.place(
            SimulatedLearner(theta: 0.2), bank: blunt, configuration: PlacementConfiguration(), using: &generator
        )
        #expect(long.responses.count == 25)
        #expect(long.estimate.standardError >= 0.3)

        let tiny = try PlacementBank(items: Array(blunt.items.prefix(5)))
        var session = PlacementSession()
        while let item = session.nextItem(from: tiny, using: &generator) {
            try session.record(itemId: item.id, correct: true, responseTime: 5)
        }
        #expect(session.responses.count == 5 && session.bankExhausted && session.isDone)
    }

    @Test(arguments: PlacementScoring.allCases)
    func contentBalancingGivesEverySkillItsShare(scoring: PlacementScoring) {
        var configuration = PlacementConfiguration(scoring: scoring)
        configuration.minimumItems = 12
        for index in 0..<20 {
            var generator = SimulationRandom.member(index, of: 11)
            let session = PlacementSimulation.place(
                SimulatedLearner(theta: -2.5 + 0.25 * Double(index)), bank: bank, configuration: configuration, using: &generator
            )
            #expect(session.responses.count >= 12)
            let counts = Skill.allCases.map { skill in session.responses.count { $0.item.skill == skill } }
            #expect(counts.allSatisfy { $0 >= 1 })
            #expect(counts.max()! - counts.min()! <= 1, "equal targets: round robin")
        }

        configuration.contentTargets = [SkillShare(skill: .grammar, share: 2), SkillShare(skill: .reading, share: 1)]
        var generator = SimulationRandom(seed: 12)
        let session = PlacementSimulation.place(SimulatedLearner(theta: 0.5), bank: bank, configuration: configuration, using: &generator)
        let grammar = session.responses.count { $0.item.skill == .grammar }
        let reading = session.responses.count { $0.item.skill == .reading }
        #expect(grammar + reading == session.responses.count)
        #expect(abs(Double(grammar) - 2 * Double(session.responses.count) / 3) <= 1)
    }

    @Test func aStoredSessionResumesExactlyWhereItStopped() throws {
        var generator = SimulationRandom(seed: 8)
        var session = PlacementSession()
        let learner = SimulatedLearner(theta: 0.9)
        for _ in 0..<5 {
            let item = try #require(session.nextItem(from: bank, using: &generator))
            let answer = learner.answer(item, using: &generator)
            try session.record(itemId: item.id, correct: answer.correct, responseTime: answer.responseTime)
        }
        let pending = try #require(session.nextItem(from: bank, using: &generator))
        #expect(session.nextItem(from: bank, using: &generator) == pending, "the pending item is handed out again")

        let data = try JSONEncoder().encode(session)
        #expect(!String(decoding: data, as: UTF8.self).contains("logPosterior"))
        var resumed = try JSONDecoder().decode(PlacementSession.self, from: data)
        #expect(resumed == session)
        #expect(resumed.estimate == session.estimate)

        var originalGenerator = generator, resumedGenerator = generator
        var originalAnswers = generator, resumedAnswers = generator
        while let item = session.nextItem(from: bank, using: &originalGenerator) {
            let answer = learner.answer(item, using: &originalAnswers)
            try session.record(itemId: item.id, correct: answer.correct, responseTime: answer.responseTime)
        }
        while let item = resumed.nextItem(from: bank, using: &resumedGenerator) {
            let answer = learner.answer(item, using: &resumedAnswers)
            try resumed.record(itemId: item.id, correct: answer.correct, responseTime: answer.responseTime)
        }
        #expect(resumed.responses == session.responses)
        #expect(resumed.result(in: bank) == session.result(in: bank))
    }

    @Test func recordingChecksTheAnswerBelongsToThePendingItem() throws {
        var generator = SimulationRandom(seed: 1)
        var session = PlacementSession()
        #expect(throws: PlacementError.noPendingItem) { try session.record(itemId: "x", correct: true, responseTime: 3) }
        let item = try #require(session.nextItem(from: bank, using: &generator))
        #expect(throws: PlacementError.unexpectedItem(expected: item.id, received: "other")) {
            try session.record(itemId: "other", correct: true, responseTime: 3)
        }
        #expect(throws: PlacementError.invalidResponseTime) { try session.record(itemId: item.id, correct: true, responseTime: -1) }
        let timedOut = try session.record(itemId: item.id, correct: true, responseTime: item.timeLimitSeconds + 5)
        #expect(timedOut.score == 0)

        var finished = PlacementSession()
        while let next = finished.nextItem(from: bank, using: &generator) {
            try finished.record(itemId: next.id, correct: true, responseTime: 1)
        }
        #expect(finished.isDone && finished.nextItem(from: bank, using: &generator) == nil)
        #expect(throws: PlacementError.sessionFinished) { try finished.record(itemId: "x", correct: true, responseTime: 3) }
        let result = finished.result(in: bank)
        #expect(result.isDone && result.itemsUsed == finished.responses.count)
        #expect(result.level >= .c1, "all right and fast")
        #expect(result.skills.map(\.skill) == Skill.allCases)
        #expect(result.skills.reduce(0) { $0 + $1.itemsUsed } == result.itemsUsed)
    }

    @Test func aBankRejectsBadItems() throws {
        let item = PlacementItem.initial(id: "a", skill: .grammar, level: .b2, timeLimitSeconds: 20, optionCount: 4)
        #expect(item.difficulty == 1 && item.discrimination == 1)
        #expect(throws: PlacementError.duplicateItem("a")) { try PlacementBank(items: [item, item]) }
        var flat = item
        flat.discrimination = 0
        #expect(throws: PlacementError.invalidItem("a")) { try PlacementBank(items: [flat]) }
        var untimed = item
        untimed.timeLimitSeconds = 0
        #expect(throws: PlacementError.invalidItem("a")) { try PlacementBank(items: [untimed]) }

        let data = try JSONEncoder().encode(try PlacementBank(items: [item]))
        let broken = String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: "\"timeLimitSeconds\":20", with: "\"timeLimitSeconds\":-1")
        #expect(broken != String(decoding: data, as: UTF8.self))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlacementBank.self, from: Data(broken.utf8)) }
        #expect(try JSONDecoder().decode(PlacementBank.self, from: data).items == [item])
    }

    /// The benchmark: a 300-item bank, 200 learners with theta ~ N(0, 1). Seed chosen before the run.
    @Test func signedResidualTimeScoringMeetsTheBenchmarkGoals() {
        let srt = PlacementSimulation.evaluate(
            bank: bank, configuration: PlacementConfiguration(scoring: .signedResidualTime), learnerCount: 200, seed: 2026
        )
        let accuracy = PlacementSimulation.evaluate(
            bank: bank, configuration: PlacementConfiguration(scoring: .accuracyOnly), learnerCount: 200, seed: 2026
        )
        for (name, metrics) in [("srt", srt), ("accuracy", accuracy)] {
            print(
                String(
                    format: "placement %@: rmse %.3f bias %+.3f items mean %.2f median %.1f se %.3f level exact %.3f within one %.3f",
                    name, metrics.rootMeanSquareError, metrics.bias, metrics.meanItems, metrics.medianItems,
                    metrics.meanStandardError, metrics.exactLevelAgreement, metrics.withinOneLevelAgreement
                ))
        }
        #expect(srt.learners == 200)
        #expect(srt.meanItems <= 16)
        #expect(srt.rootMeanSquareError <= 0.31)
        #expect(abs(srt.bias) < 0.1)
        #expect(srt.withinOneLevelAgreement >= 0.95)
        #expect(srt.meanItems < accuracy.meanItems, "time scoring should need fewer items")
        // A well-specified posterior knows its own error: RMSE close to the mean posterior SD.
        #expect(abs(srt.rootMeanSquareError - srt.meanStandardError) < 0.05)
        #expect(abs(accuracy.rootMeanSquareError - accuracy.meanStandardError) < 0.05)
    }
}

@Suite struct CalibrationTests {
    func simulatedBank(count: Int, seed: UInt64) -> [PlacementItem] {
        var generator = SimulationRandom(seed: seed)
        return (0..<count).map { index in
            PlacementItem(
                id: "c\(index)", skill: Skill.allCases[index % 5], level: .b1, discrimination: 0.7 + 1.3 * generator.nextUnit(),
                difficulty: -2 + 4 * generator.nextUnit(), timeLimitSeconds: 20, optionCount: 4
            )
        }
    }

    @Test func emRecoversTheItemsOfASimulatedBank() {
        let truth = simulatedBank(count: 20, seed: 3)
        var responses = PlacementSimulation.calibrationResponses(items: truth, respondentCount: 2_000, seed: 11)
        // A new item seen by only 20 respondents keeps its initial parameters.
        let newcomer = PlacementItem.initial(id: "new", skill: .reading, level: .c1, timeLimitSeconds: 40, optionCount: 4)
        responses += PlacementSimulation.calibrationResponses(items: [newcomer], respondentCount: 20, seed: 12)
        let initial =
            truth.map { item in
                PlacementItem.initial(id: item.id, skill: item.skill, level: .b1, timeLimitSeconds: 20, optionCount: 4)
            } + [newcomer]

        let result = ItemCalibration.calibrate(items: initial, responses: responses)
        #expect(result.converged)
        #expect(result.recalibratedItemIds == truth.map(\.id))
        #expect(result.items.last == newcomer)
        for (estimate, actual) in zip(result.items, truth) {
            #expect(abs(estimate.difficulty - actual.difficulty) <= 0.25, "\(actual.id) b")
            #expect(abs(estimate.discrimination - actual.discrimination) <= 0.3, "\(actual.id) a")
        }
        // EM never lowers the marginal likelihood: the fitted items explain the data better than the initial ones.
        var frozen = CalibrationOptions()
        frozen.minimumResponses = .max
        #expect(result.logLikelihood > ItemCalibration.calibrate(items: initial, responses: responses, options: frozen).logLikelihood)
    }

    @Test func emCalibratesTheSignedResidualTimeModelToo() throws {
        let truth = simulatedBank(count: 12, seed: 4)
        let responses = PlacementSimulation.calibrationResponses(items: truth, respondentCount: 1_000, seed: 21)
        var options = CalibrationOptions()
        options.scoring = .signedResidualTime
        let initial = try PlacementBank(
            items: truth.map { item in
                PlacementItem.initial(id: item.id, skill: item.skill, level: .b1, timeLimitSeconds: 20, optionCount: 4)
            })
        let (bank, result) = initial.calibrated(responses: responses, options: options)
        #expect(result.converged)
        for (estimate, actual) in zip(bank.items, truth) {
            #expect(abs(estimate.difficulty - actual.difficulty) <= 0.25, "\(actual.id) b")
            #expect(abs(estimate.discrimination - actual.discrimination) <= 0.3, "\(actual.id) a")
        }
    }

    @Test func linkingPutsNewParametersOnTheOldScale() {
        let old = simulatedBank(count: 8, seed: 5)
        // The same items measured on a scale stretched by 1.5 and shifted by -0.4.
        let stretched = old.map { item in
            var moved = item
            moved.difficulty = 1.5 * item.difficulty - 0.4
            moved.discrimination = item.discrimination / 1.5
            return moved
        }
        for (linked, original) in zip(ItemCalibration.linkedMeanSigma(stretched, to: old), old) {
            #expect(abs(linked.difficulty - original.difficulty) < 1e-9)
            #expect(abs(linked.discrimination - original.discrimination) < 1e-9)
        }
    }
}

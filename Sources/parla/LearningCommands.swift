import ArgumentParser
import Foundation
import ParlaLearning

struct Learning: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the learning model: simulated placement tests, the memory model on a review log.",
        subcommands: [SimulatePlacement.self, EvaluateMemory.self])

    struct SimulatePlacement: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "simulate-placement",
            abstract: "Simulated learners (theta ~ N(0,1)) take the placement test on a synthetic 2PL bank: SRT vs accuracy-only scoring.")

        @Option(help: "Simulated learners.") var learners = 1000
        @Option(help: "Items in the synthetic bank.") var items = 300
        @Option(help: "Seed of the bank and the learners.") var seed: UInt64 = 2026

        func run() async throws {
            var specification = SyntheticBankSpecification()
            specification.itemCount = items
            let bank = PlacementSimulation.syntheticBank(specification, seed: seed)
            print("| scoring | learners | RMSE | bias | mean items | median items | SD < 0.3 reached | level exact | within one |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
            for scoring in [PlacementScoring.signedResidualTime, .accuracyOnly] {
                let metrics = PlacementSimulation.evaluate(bank: bank, configuration: PlacementConfiguration(scoring: scoring),
                                                           learnerCount: learners, seed: seed &+ 1)
                print(String(format: "| %@ | %d | %.3f | %+.3f | %.1f | %.1f | %.0f%% | %.0f%% | %.0f%% |",
                             scoring == .signedResidualTime ? "signed residual time" : "accuracy only", metrics.learners,
                             metrics.rootMeanSquareError, metrics.bias, metrics.meanItems, metrics.medianItems,
                             100 * metrics.reachedTargetShare, 100 * metrics.exactLevelAgreement, 100 * metrics.withinOneLevelAgreement))
            }
        }
    }

    struct EvaluateMemory: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "evaluate-memory",
            abstract: "FSRS-6 with default parameters on a review log, srs-benchmark protocol: log loss, RMSE(bins), AUC.")

        @Argument(help: "A CSV review log: card_id,review_rating,review_time[,review_duration].") var log: String

        func run() async throws {
            guard let reviews = ReviewLog.parse(try String(contentsOfFile: log, encoding: .utf8)) else {
                throw ValidationError("\(log) is not a review log (card_id,review_rating,review_time)")
            }
            let result = MemoryEvaluation().evaluate(reviews)
            print(String(format: "reviews %d  scored %d  log loss %.4f  RMSE(bins) %.4f  AUC %.4f", reviews.count, result.predictions.count,
                         result.logLoss, result.rmseBins, result.auc))
        }
    }
}

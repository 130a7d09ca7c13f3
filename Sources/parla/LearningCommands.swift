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
        @Option(help: "Also write the bank, the learners and every answer (CSV) here, and compare fixed-length tests on them.")
        var export: String?

        func run() async throws {
            var specification = SyntheticBankSpecification()
            specification.itemCount = items
            let bank = PlacementSimulation.syntheticBank(specification, seed: seed)
            print("| scoring | learners | RMSE | bias | mean items | median items | SD < 0.3 reached | level exact | within one |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
            for scoring in [PlacementScoring.signedResidualTime, .accuracyOnly] {
                let metrics = PlacementSimulation.evaluate(
                    bank: bank, configuration: PlacementConfiguration(scoring: scoring),
                    learnerCount: learners, seed: seed &+ 1)
                print(
                    String(
                        format: "| %@ | %d | %.3f | %+.3f | %.1f | %.1f | %.0f%% | %.0f%% | %.0f%% |",
                        scoring == .signedResidualTime ? "signed residual time" : "accuracy only", metrics.learners,
                        metrics.rootMeanSquareError, metrics.bias, metrics.meanItems, metrics.medianItems,
                        100 * metrics.reachedTargetShare, 100 * metrics.exactLevelAgreement, 100 * metrics.withinOneLevelAgreement))
            }
            guard let export else { return }
            try write(ResponseMatrix(bank: bank, learnerCount: learners, seed: seed &+ 2), bank: bank, to: export)
        }

        /// The same answers for every test: ours at 10, 20 and 30 items here,
        /// catsim's from the files (Benchmarks/catsim_compare.py).
        func write(_ matrix: ResponseMatrix, bank: PlacementBank, to directory: String) throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let items = bank.items.map { "\($0.id),\($0.discrimination),\($0.difficulty)" }.joined(separator: "\n")
            try ("id,a,b\n" + items + "\n").write(toFile: directory + "/bank.csv", atomically: true, encoding: .utf8)
            var answers = "learner,theta," + bank.items.indices.map { "i\($0)" }.joined(separator: ",") + "\n"
            for (learner, theta) in matrix.thetas.enumerated() {
                answers += "\(learner),\(theta)," + matrix.answers[learner].map { $0.correct ? "1" : "0" }.joined(separator: ",") + "\n"
            }
            try answers.write(toFile: directory + "/answers.csv", atomically: true, encoding: .utf8)
            print("\n| fixed length | ours, SRT: RMSE | ours, accuracy only: RMSE |")
            print("|---:|---:|---:|")
            for length in [10, 20, 30] {
                let srt = matrix.fixedLength(length, bank: bank, scoring: .signedResidualTime, seed: seed &+ 3)
                let accuracy = matrix.fixedLength(length, bank: bank, scoring: .accuracyOnly, seed: seed &+ 3)
                print(String(format: "| %d | %.3f | %.3f |", length, srt.rmse, accuracy.rmse))
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
            print(
                String(
                    format: "reviews %d  scored %d  log loss %.4f  RMSE(bins) %.4f  AUC %.4f", reviews.count, result.predictions.count,
                    result.logLoss, result.rmseBins, result.auc))
        }
    }
}

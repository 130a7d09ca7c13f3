import ArgumentParser
import Foundation
import ParlaCore
import ParlaOperations
import ParlaServer

struct Placement: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The placement test's item banks.",
        subcommands: [Calibrate.self])

    struct Calibrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Re-estimate a language's item parameters (2PL, marginal maximum likelihood by EM) from the stored answers.",
            discussion:
                "Items with fewer answers than --minimum-responses keep their parameters. The server uses the new ones from its next test.")

        @Option(help: "en, fr, it, de or es.") var language: String
        @Option(help: "Answers an item needs before it is re-estimated.") var minimumResponses = 30
        @OptionGroup var options: ConfigurationOptions

        func run() async throws {
            guard let language = Language(rawValue: language) else { throw ValidationError("--language must be one of en, fr, it, de, es") }
            let settings = ServerSettings(config: try await options.reader())
            let logger = LogSetup.bootstrap(settings)
            let result = try await calibratePlacement(settings, language: language, minimumResponses: minimumResponses, logger: logger)
            print(
                "\(language.code): \(result.recalibrated) of \(result.items) items re-estimated"
                    + (result.recalibrated > 0 ? " (EM \(result.converged ? "converged" : "stopped") after \(result.cycles) cycles)" : ""))
        }
    }
}

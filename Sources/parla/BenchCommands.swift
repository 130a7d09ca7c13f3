import ArgumentParser
import Foundation
import ParlaServer

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmarks that call the stores directly (make bench runs them).",
        subcommands: [Leaderboards.self, Lessons.self])

    struct Lessons: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write pgbench scripts of what a lesson answer asks of PostgreSQL (Benchmarks/course.sh runs them).",
            discussion: """
                For an open lesson picked at random from lesson_bench_open (n, id, learner_id, state), which the caller \
                makes and numbers from 1 to pgbench's `count` variable: read.sql, write.sql (a wrong answer's), answer.sql \
                (the two, as an answer runs them) and one.sql (SELECT 1, the floor).
                """)

        @Option(help: "The folder to write the scripts to.") var pgbenchScripts: String

        func run() throws { try LessonBenchmark.writePgbenchScripts(to: pgbenchScripts) }
    }

    struct Leaderboards: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Fill a leaderboard with --learners learners (once), then measure reading a page with a learner's rank and submitting results.",
            discussion: "Prints a Markdown table: calls per second and latency (ms) with --callers concurrent callers for --seconds each.")

        @Option(help: "Learners on the board.") var learners = 1_000_000
        @Option(help: "Concurrent callers.") var callers = 64
        @Option(help: "Seconds per operation.") var seconds = 20.0
        @Option(help: "Only write pgbench scripts of the page and standing statements to this folder (after a run has filled the board).")
        var pgbenchScripts: String?
        @OptionGroup var options: ConfigurationOptions

        func run() async throws {
            let settings = ServerSettings(config: try await options.reader())
            let logger = LogSetup.bootstrap(settings)
            if let pgbenchScripts {
                try await LeaderboardBenchmark.writePgbenchScripts(settings, learners: learners, to: pgbenchScripts, logger: logger)
                return
            }
            let (seeded, loaded, figures) = try await LeaderboardBenchmark.run(
                settings, learners: learners, callers: callers, seconds: seconds,
                logger: logger)
            if let seeded { print("Seeded \(learners) learners in \(String(format: "%.0f", seeded)) s.\n") }
            print("Ranks loaded into memory in \(String(format: "%.1f", loaded)) s.\n")
            print("| operation (store level, \(callers) callers, \(learners) learners) | calls | calls/s | p50 ms | p99 ms | max ms |")
            print("|---|---:|---:|---:|---:|---:|")
            for row in figures {
                print(
                    "| \(row.operation) | \(row.calls) | "
                        + String(format: "%.0f | %.3f | %.3f | %.1f |", row.perSecond, row.p50, row.p99, row.max))
            }
        }
    }
}

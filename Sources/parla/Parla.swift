import ArgumentParser
import Configuration
import Foundation
import Logging
import ParlaCommerce
import ParlaCore
import ParlaOperations
import ParlaServer
import ParlaServices
import ParlaStore
import ServiceLifecycle
import SystemPackage

/// `parla`: parses the command line and configuration, then hands over to
/// ParlaServer or ParlaStore. Nothing else lives here.
@main
struct Parla: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parla",
        abstract: "Parla: language learning for English, French, Italian, German and Spanish.",
        subcommands: [
            Serve.self, Migrate.self, Content.self, Speech.self, Placement.self, Learning.self, Grant.self, Purchases.self, Role.self,
            Backup.self, Restore.self, Worker.self, Bench.self,
        ],
        defaultSubcommand: Serve.self)
}

/// Options every command shares: where configuration comes from.
struct ConfigurationOptions: ParsableArguments {
    @Option(name: .long, help: "JSON file of defaults (missing is fine).")
    var config: String = "Config/parla.json"

    @Option(name: .long, help: "Listen address (http.host).")
    var host: String?

    @Option(name: .long, help: "Listen port (http.port).")
    var port: Int?

    @Option(name: .long, help: "PostgreSQL URL (database.url); empty runs the embedded cluster.")
    var databaseURL: String?

    @Option(name: .long, help: "Embedded cluster directory (database.dataDirectory).")
    var dataDirectory: String?

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical (log.level).")
    var logLevel: String?

    @Argument(parsing: .allUnrecognized, help: "Any other setting as --section-key value, e.g. --limits-json-body-bytes 65536.")
    var other: [String] = []

    /// Command line first, then PARLA_* environment, then the JSON file.
    func reader() async throws -> ConfigReader {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        if let host { values["http.host"] = .init(.string(host), isSecret: false) }
        if let port { values["http.port"] = .init(.int(port), isSecret: false) }
        if let databaseURL { values["database.url"] = .init(.string(databaseURL), isSecret: true) }
        if let dataDirectory { values["database.dataDirectory"] = .init(.string(dataDirectory), isSecret: false) }
        if let logLevel { values["log.level"] = .init(.string(logLevel), isSecret: false) }
        return ConfigReader(providers: [
            InMemoryProvider(name: "options", values: values),
            CommandLineArgumentsProvider(arguments: ["parla"] + other),
            EnvironmentVariablesProvider(
                secretsSpecifier: .specific([
                    "PARLA_DATABASE_URL", "PARLA_SECURITY_DATA_KEY", "PARLA_PURCHASES_GOOGLE_PLAY_NOTIFICATION_SECRET",
                ])
            )
            .prefixKeys(with: "parla"),
            try await FileProvider<JSONSnapshot>(filePath: FilePath(config), allowMissing: true),
        ])
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP server (with its embedded PostgreSQL unless database.url is set).")

    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        let settings = ServerSettings(config: try await options.reader())
        let logger = LogSetup.bootstrap(settings)
        let app = try await buildApplication(settings, logger: logger)
        // SIGTERM stops the server gracefully, within bounds: a service
        // still running 30 s later is cancelled, and a process still up 10 s
        // after that ends (`StoppingWatch` names the service in the log).
        var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = .seconds(30)
        group.maximumCancellationDuration = .seconds(10)
        try await ServiceGroup(configuration: group).run()
    }
}

struct Worker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a worker role apart from the API servers.", subcommands: [Speech.self])

    struct Speech: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Score the recordings API servers queue, until SIGTERM (servers score in-process while no worker runs).")

        @OptionGroup var options: ConfigurationOptions
        @Option(help: "Recordings scored at once (default: speech.threads, one per core).") var threads: Int?
        @Option(help: "This worker's name in the register (default: speech.workerName, host-pid).") var name: String?

        func run() async throws {
            var settings = ServerSettings(config: try await options.reader())
            if let threads { settings.speech.scorer.threads = max(1, threads) }
            if let name { settings.speech.workerName = name }
            let logger = LogSetup.bootstrap(settings)
            try await runSpeechWorker(settings, logger: logger)
        }
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply pending database migrations and exit.")

    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        let settings = ServerSettings(config: try await options.reader())
        let logger = LogSetup.bootstrap(settings)
        let applied = try await migrateDatabase(settings, logger: logger)
        print("migrations applied: \(applied)")
    }
}

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the database to a file (pg_dump, custom format); servers may keep running.",
        discussion:
            "Keep the personal-data key (security.keyFile) beside the backup, somewhere else: without it the backup's names and emails cannot be read."
    )

    @Option(help: "The file to write.") var to: String
    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        let settings = ServerSettings(config: try await options.reader())
        let logger = LogSetup.bootstrap(settings)
        try await backUpDatabase(settings, to: to, logger: logger)
        let size = (try? FileManager.default.attributesOfItem(atPath: to)[.size] as? Int) ?? 0
        print("backed up to \(to) (\(size) bytes)")
    }
}

struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replace everything the database holds with a backup (pg_restore, one transaction). Stop the servers first.")

    @Option(help: "The backup to restore (from parla backup).") var from: String
    @Flag(help: "Confirms that what the database holds now may be replaced.") var replace = false
    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        guard replace else { throw ValidationError("restoring replaces everything the database holds: add --replace to confirm") }
        let settings = ServerSettings(config: try await options.reader())
        let logger = LogSetup.bootstrap(settings)
        try await restoreDatabase(settings, from: from, logger: logger)
        print("restored \(from); start the server to apply any newer migration")
    }
}

enum LogSetup {
    static func bootstrap(_ settings: ServerSettings) -> Logger {
        let level = settings.log.level
        switch settings.log.format {
        case .json:
            LoggingSystem.bootstrap { label in
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        case .text:
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        }
        var logger = Logger(label: "parla")
        logger.logLevel = level
        return logger
    }
}

struct Content: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Work with the EFIGS content in Corpora/.",
        subcommands: [Import.self, Build.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a Corpora directory and import it in one transaction.",
            discussion: """
                Every problem is listed with its file and line, and nothing is written unless there are none. \
                Assets are named, not made: `parla content build` (or `parla serve`) makes the missing ones.
                """)

        @Argument(help: "The Corpora directory.")
        var directory: String = "Corpora"

        @OptionGroup var options: ConfigurationOptions

        func run() async throws { try await runImport(directory: directory, build: false, options: options) }
    }

    struct Build: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a Corpora directory, make its missing assets, and import it.",
            discussion: """
                Words, definitions and phrases without a recording in Corpora/audio are spoken by espeak-ng and \
                encoded as Opus; pictures are copied from Corpora/pictures and OpenMoji. Assets are kept by content \
                hash in content.assetDirectory (.parla/assets), so only what changed is made again.
                """)

        @Argument(help: "The Corpora directory.")
        var directory: String = "Corpora"

        @OptionGroup var options: ConfigurationOptions

        func run() async throws { try await runImport(directory: directory, build: true, options: options) }
    }

    static func runImport(directory: String, build: Bool, options: ConfigurationOptions) async throws {
        let settings = ServerSettings(config: try await options.reader())
        let logger = LogSetup.bootstrap(settings)
        let progress = TerminalProgress()
        let report: ContentImporter.Report
        do {
            report = try await importContent(settings, directory: directory, build: build, logger: logger, progress: progress.show)
        } catch let invalid as ContentImporter.Invalid {
            FileHandle.standardError.write(Data((invalid.description + "\n\(invalid.problems.count) problem(s); nothing imported.\n").utf8))
            throw ExitCode(1)
        }
        progress.finish()
        print(
            "content \(report.version): \(report.wordLists) word lists, \(report.concepts) words, \(report.phrases) phrases, "
                + "\(report.grammarNotes) grammar notes, \(report.packs) course packs of \(report.lessons) lessons, \(report.stories) stories, "
                + "\(report.assets) assets"
                + (build ? " (\(report.built) made now)" : "") + (report.imported ? "; imported" : "; already imported"))
    }
}

/// A progress line on a terminal (redrawn in place), nothing otherwise.
final class TerminalProgress: Sendable {
    let isTerminal = isatty(STDERR_FILENO) != 0

    func show(_ stage: String, _ done: Int, _ total: Int) {
        guard isTerminal, total > 0 else { return }
        let width = 30, filled = width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r\u{1B}[K\(stage) [\(bar)] \(done)/\(total)".utf8))
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}

struct Grant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Give an account a product from Corpora/products.yaml (support), recorded as a grant.")

    @Option(help: "The account: its id, one of its learners' ids, or its email.") var account: String
    @Option(help: "A product id from Corpora/products.yaml (a word list's id sells that list).") var product: String
    @Option(help: "Until when (ISO 8601, 2027-01-31); for good when left out.") var until: String?
    @Option(help: "Why, for the record.") var note: String?
    @Flag(help: "Take back the account's grants of the product instead.") var revoke = false
    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        let settings = ServerSettings(config: try await options.reader())
        let logger = LogSetup.bootstrap(settings)
        let ends = try until.map { text in
            guard let date = CatalogueReader.date(text) else {
                throw ValidationError("--until must be a date (2027-01-31) or an ISO 8601 time")
            }
            return date
        }
        let (account, product, note, revoke) = (account, product, note, revoke)
        print(
            try await SupportDesk.with(settings, logger: logger) {
                try await $0.grant(product, to: account, until: ends, note: note, revoke: revoke)
            })
    }
}

struct Role: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Give an account a staff role: support (bug reports) or admin (reports, and all support does).")

    @Option(help: "The account: its id, one of its learners' ids, or its email.") var account: String
    @Option(help: "support or admin.") var role: String
    @Flag(help: "Take the role back instead.") var revoke = false
    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        guard let staffRole = StaffRole(rawValue: role) else { throw ValidationError("--role must be support or admin") }
        let settings = ServerSettings(config: try await options.reader())
        let logger = LogSetup.bootstrap(settings)
        let (account, revoke) = (account, revoke)
        print(try await SupportDesk.with(settings, logger: logger) { try await $0.role(staffRole, for: account, revoke: revoke) })
    }
}

struct Purchases: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "An account's entitlements and purchases.", subcommands: [Show.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List an account's entitlements and purchase history.")

        @Option(help: "The account: its id, one of its learners' ids, or its email.") var account: String
        @OptionGroup var options: ConfigurationOptions

        func run() async throws {
            let settings = ServerSettings(config: try await options.reader())
            let logger = LogSetup.bootstrap(settings)
            let account = account
            print(try await SupportDesk.with(settings, logger: logger) { try await $0.purchases(of: account) })
        }
    }
}

import Crypto
import Foundation
import Logging
import NIOPosix
import ParlaContent
import ParlaCore
import ParlaStore
import ServiceLifecycle

/// How one asset is made.
enum AssetRecipe: Sendable, Hashable {
    /// Spoken by espeak-ng with `voice`, then encoded as Opus.
    case speak(text: String, voice: String)
    /// A recording (WAV or FLAC) encoded as Opus.
    case encode(path: String)
    /// A file delivered as it is (an SVG drawing, an Ogg Opus recording).
    case copy(path: String)
}

/// An asset a slot of the content needs: its name in the store and how to
/// make it when the store does not have it.
struct PlannedAsset: Sendable, Hashable {
    var name: String
    var recipe: AssetRecipe
}

/// Names every asset of a corpus and says how to make it. Names are hashes
/// of the recipe (the synthetic voice, its settings and the text; or a
/// file's bytes), so they are known before anything is synthesized and a
/// changed text gets a new name.
struct AssetPlanner {
    let corpusDirectory: String
    let openMojiDirectory: String

    /// espeak-ng's voice for each language: British English, as the
    /// Corpora's English is British.
    static let voices: [Language: String] = [.english: "en-gb", .french: "fr", .italian: "it", .german: "de", .spanish: "es"]
    /// Words per minute: a little slower than espeak-ng's 175, for learners.
    static let speechRate = 150
    static let opusBitrate = 24
    /// Changes whenever the way audio is made changes, renaming every clip.
    static let speechRecipe = "espeak-ng;rate=\(speechRate);opus=\(opusBitrate)k;v1"

    var isOpenMojiInstalled: Bool { FileManager.default.fileExists(atPath: openMojiDirectory + "/svg") }

    /// OpenMoji's file for an emoji: its code points in upper case, with or
    /// without the variation selector FE0F, which OpenMoji often drops.
    func emojiFile(_ codePoints: String) -> String? {
        let upper = codePoints.uppercased()
        let bare = upper.split(separator: "-").filter { $0 != "FE0F" }.joined(separator: "-")
        return [upper, bare].map { "\(openMojiDirectory)/svg/\($0).svg" }.first { FileManager.default.fileExists(atPath: $0) }
    }

    func drawingFile(_ reference: AssetReference) -> String? {
        switch reference {
        case .emoji(let points): emojiFile(points)
        case .svg(let name): "\(corpusDirectory)/pictures/\(name).svg"
        }
    }

    func assets(for plan: AssetPlan) throws -> [AssetSlot: PlannedAsset] {
        var assets: [AssetSlot: PlannedAsset] = [:]
        for (slot, source) in plan.sources {
            switch source {
            case .synthetic(let text, let language):
                let voice = Self.voices[language] ?? language.code
                assets[slot] = PlannedAsset(name: Self.name(of: Data("\(Self.speechRecipe);\(voice);\(text)".utf8), kind: .opus),
                                            recipe: .speak(text: text, voice: voice))
            case .recorded(let relative):
                let path = "\(corpusDirectory)/\(relative)"
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                if Self.isOggOpus(bytes) {
                    assets[slot] = PlannedAsset(name: Self.name(of: bytes, kind: .opus), recipe: .copy(path: path))
                } else {
                    assets[slot] = PlannedAsset(name: Self.name(of: Data("\(Self.speechRecipe);recorded;".utf8) + bytes, kind: .opus),
                                                recipe: .encode(path: path))
                }
            case .drawing(let reference):
                guard let path = drawingFile(reference) else { continue }
                assets[slot] = PlannedAsset(name: Self.name(of: try Data(contentsOf: URL(fileURLWithPath: path)), kind: .svg),
                                            recipe: .copy(path: path))
            }
        }
        return assets
    }

    static func name(of bytes: Data, kind: AssetStore.Kind) -> String {
        SHA256.hash(data: bytes).prefix(16).map { String(format: "%02x", $0) }.joined() + "." + kind.rawValue
    }

    /// An Ogg stream whose first packet is an Opus header.
    static func isOggOpus(_ bytes: Data) -> Bool {
        bytes.count > 36 && bytes.prefix(4) == Data("OggS".utf8) && bytes.dropFirst(28).prefix(8) == Data("OpusHead".utf8)
    }
}

/// Makes the assets the store lacks: espeak-ng speaks, opusenc encodes,
/// several at once on their own threads (they block in child processes).
struct AssetBuilder {
    struct Failure: Error, CustomStringConvertible {
        var name: String
        var reason: String
        var description: String { "\(name): \(reason)" }
    }

    let store: AssetStore
    var concurrency = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Builds what is missing; `progress` hears (done, total) after each.
    /// Returns how many were made.
    @discardableResult
    func build(_ assets: some Collection<PlannedAsset>, logger: Logger,
               progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> Int {
        let missing = Array(Set(assets).filter { !store.contains($0.name) }).sorted { $0.name < $1.name }
        guard !missing.isEmpty else { return 0 }
        try Self.checkTools()
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        let pool = NIOThreadPool(numberOfThreads: concurrency)
        pool.start()
        defer { pool.shutdownGracefully { _ in } }
        var done = 0
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = missing.makeIterator()
            func addNext() -> Bool {
                guard let asset = next.next() else { return false }
                group.addTask { try await pool.runIfActive { try make(asset) } }
                return true
            }
            for _ in 0..<concurrency where !addNext() { break }
            while try await group.next() != nil {
                done += 1
                progress?(done, missing.count)
                _ = addNext()
            }
        }
        logger.info("assets built", metadata: ["count": "\(missing.count)", "store": "\(store.directory)"])
        return missing.count
    }

    static func checkTools() throws {
        for tool in ["espeak-ng", "opusenc"] where executable(tool) == nil {
            throw Failure(name: tool, reason: "not installed: run `make install-deps`")
        }
    }

    static func executable(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Makes one asset in a scratch folder of the store, then moves it in.
    private func make(_ asset: PlannedAsset) throws {
        let scratch = store.directory + "/.building-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let output = scratch + "/" + asset.name
        switch asset.recipe {
        case .speak(let text, let voice):
            // The text goes through a file, never the command line.
            let textFile = scratch + "/text.txt", wave = scratch + "/speech.wav"
            try Data(text.utf8).write(to: URL(fileURLWithPath: textFile))
            try run(asset, ["espeak-ng", "-v", voice, "-s", String(AssetPlanner.speechRate), "-f", textFile, "-w", wave], scratch)
            try encode(asset, wave, to: output, scratch)
        case .encode(let path):
            try encode(asset, path, to: output, scratch)
        case .copy(let path):
            try FileManager.default.copyItem(atPath: path, toPath: output)
        }
        try store.add(asset.name, from: output)
    }

    private func encode(_ asset: PlannedAsset, _ input: String, to output: String, _ scratch: String) throws {
        // A fixed serial number: the same input always gives the same bytes.
        try run(asset, ["opusenc", "--quiet", "--bitrate", String(AssetPlanner.opusBitrate), "--serial", "1", input, output], scratch)
    }

    private func run(_ asset: PlannedAsset, _ command: [String], _ scratch: String) throws {
        guard let executable = Self.executable(command[0]) else {
            throw Failure(name: asset.name, reason: "\(command[0]) is not installed: run `make install-deps`")
        }
        let log = scratch + "/output.log"
        let status = try ChildProcess.run([executable] + command.dropFirst(), outputPath: log)
        guard status == 0 else {
            let printed = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure(name: asset.name, reason: "\(command[0]) exited with \(status): \(printed.prefix(500))")
        }
    }
}

/// `parla serve`'s background build: makes the assets the bundled content
/// lacks (the first start synthesizes every clip, a few minutes on two
/// cores; later starts only what changed), while the server already serves.
/// The assets come from the import at start, which has just read Corpora:
/// it hands them over with `build(_:)` (or `nothing()`), so Corpora is read
/// once.
struct AssetBuildService: Service {
    let store: AssetStore
    let logger: Logger
    private let planned: AsyncStream<[PlannedAsset]>
    private let handOver: AsyncStream<[PlannedAsset]>.Continuation

    init(store: AssetStore, logger: Logger) {
        (self.store, self.logger) = (store, logger)
        (planned, handOver) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func build(_ assets: [PlannedAsset]) {
        handOver.yield(assets)
        handOver.finish()
    }

    func nothing() { handOver.finish() }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var iterator = planned.makeAsyncIterator()
            guard let assets = await iterator.next() else { return }
            do {
                let logger = logger
                try await AssetBuilder(store: store).build(assets, logger: logger) { done, total in
                    if done % 500 == 0 || done == total {
                        logger.info("building assets", metadata: ["done": "\(done)", "total": "\(total)"])
                    }
                }
            } catch is CancellationError {
                return
            } catch {
                logger.error("assets not built", metadata: ["error": "\(error)"])
            }
        }
        // A service that returns would stop the server: wait for shutdown.
        try? await gracefulShutdown()
    }
}

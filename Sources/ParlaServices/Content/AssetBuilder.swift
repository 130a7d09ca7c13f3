import Crypto
import Foundation
import Logging
import NIOPosix
import ParlaContent
import ParlaCore
import ParlaDatabase
import ParlaSpeech
import ParlaStore
import ServiceLifecycle
import Synchronization

/// How one asset is made.
package enum AssetRecipe: Sendable, Hashable {
    /// Spoken by espeak-ng with `voice`, then encoded as Opus.
    case speak(text: String, voice: String)
    /// A recording (WAV or FLAC) encoded as Opus.
    case encode(path: String)
    /// A file delivered as it is (an SVG drawing, an Ogg Opus recording).
    case copy(path: String)
    /// The word timings of `text` as espeak-ng speaks it with `voice`: the
    /// synthesizer's own word events (JSON, kept for the word card, not
    /// served by name).
    case narrate(text: String, voice: String)
    /// The word timings of `text` in the recorded audio asset `audio`, by
    /// the speech aligner.
    case align(audio: String, text: String, language: Language)

    package var isAlignment: Bool { if case .align = self { true } else { false } }
}

/// An asset a slot of the content needs: its name in the store and how to
/// make it when the store does not have it.
package struct PlannedAsset: Sendable, Hashable {
    package var name: String
    package var recipe: AssetRecipe

    package init(name: String, recipe: AssetRecipe) {
        self.name = name
        self.recipe = recipe
    }
}

/// Names every asset of a corpus and says how to make it. Names are hashes
/// of the recipe (the synthetic voice, its settings and the text; or a
/// file's bytes), so they are known before anything is synthesized and a
/// changed text gets a new name.
package struct AssetPlanner {
    package let corpusDirectory: String
    package let openMojiDirectory: String
    /// The speech model that aligns recorded narrations in each language (its
    /// name is part of the timings' recipe); without one, a recorded
    /// definition gets no timings.
    package var narrators: [Language: String] = [:]

    /// espeak-ng's voice for each language: British English, as the
    /// Corpora's English is British.
    package static let voices: [Language: String] = [.english: "en-gb", .french: "fr", .italian: "it", .german: "de", .spanish: "es"]
    /// Words per minute: a little slower than espeak-ng's 175, for learners.
    package static let speechRate = 150
    package static let opusBitrate = 24
    /// Changes whenever the way audio is made changes, renaming every clip.
    package static let speechRecipe = "espeak-ng;rate=\(speechRate);opus=\(opusBitrate)k;v1"
    /// Changes whenever narration alignment changes, renaming every timing.
    package static let narrationRecipe = "narration;v1"

    package var isOpenMojiInstalled: Bool { FileManager.default.fileExists(atPath: openMojiDirectory + "/svg") }

    /// OpenMoji's file for an emoji: its code points in upper case, with or
    /// without the variation selector FE0F, which OpenMoji often drops.
    package func emojiFile(_ codePoints: String) -> String? {
        let upper = codePoints.uppercased()
        let bare = upper.split(separator: "-").filter { $0 != "FE0F" }.joined(separator: "-")
        return [upper, bare].map { "\(openMojiDirectory)/svg/\($0).svg" }.first { FileManager.default.fileExists(atPath: $0) }
    }

    package func drawingFile(_ reference: AssetReference) -> String? {
        switch reference {
        case .emoji(let points): emojiFile(points)
        case .svg(let name): "\(corpusDirectory)/pictures/\(name).svg"
        }
    }

    package func assets(for plan: AssetPlan) throws -> [AssetSlot: PlannedAsset] {
        var assets: [AssetSlot: PlannedAsset] = [:]
        for (slot, source) in plan.sources {
            switch source {
            case .synthetic(let text, let language):
                assets[slot] = Self.spoken(text, voice: Self.voices[language] ?? language.code)
            case .voiced(let text, let voice):
                assets[slot] = Self.spoken(text, voice: voice)
            case .recorded(let relative):
                let path = "\(corpusDirectory)/\(relative)"
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                if Self.isOggOpus(bytes) {
                    assets[slot] = PlannedAsset(name: Self.name(of: bytes, kind: .opus), recipe: .copy(path: path))
                } else {
                    assets[slot] = PlannedAsset(
                        name: Self.name(of: Data("\(Self.speechRecipe);recorded;".utf8) + bytes, kind: .opus),
                        recipe: .encode(path: path))
                }
            case .drawing(let reference):
                guard let path = drawingFile(reference) else { continue }
                assets[slot] = try Self.copied(path, kind: .svg)
            case .image(let relative):
                assets[slot] = try Self.copied("\(corpusDirectory)/\(relative)", kind: relative.hasSuffix(".png") ? .png : .svg)
            case .narration:
                continue  // below, once the audio it times has a name
            }
        }
        for (slot, source) in plan.sources {
            guard case .narration(let audioSlot, let text, let language) = source, let audio = assets[audioSlot] else { continue }
            switch audio.recipe {
            case .speak(let spoken, let voice):
                // The synthesizer knows where it put each word.
                assets[slot] = PlannedAsset(
                    name: Self.name(
                        of: Data("\(Self.narrationRecipe);\(Self.speechRecipe);\(voice);\(spoken)".utf8),
                        kind: .json),
                    recipe: .narrate(text: spoken, voice: voice))
            default:
                guard let narrator = narrators[language] else { continue }
                assets[slot] = PlannedAsset(
                    name: Self.name(
                        of: Data("\(Self.narrationRecipe);\(narrator);\(audio.name);\(text)".utf8),
                        kind: .json),
                    recipe: .align(audio: audio.name, text: text, language: language))
            }
        }
        return assets
    }

    /// A file served as it is, named by its bytes.
    static func copied(_ path: String, kind: AssetStore.Kind) throws -> PlannedAsset {
        PlannedAsset(name: name(of: try Data(contentsOf: URL(fileURLWithPath: path)), kind: kind), recipe: .copy(path: path))
    }

    /// `text` said by espeak-ng's `voice`, named by what makes it.
    static func spoken(_ text: String, voice: String) -> PlannedAsset {
        PlannedAsset(name: name(of: Data("\(speechRecipe);\(voice);\(text)".utf8), kind: .opus), recipe: .speak(text: text, voice: voice))
    }

    package static func name(of bytes: Data, kind: AssetStore.Kind) -> String {
        SHA256.hash(data: bytes).prefix(16).hexadecimal + "." + kind.rawValue
    }

    /// An Ogg stream whose first packet is an Opus header.
    package static func isOggOpus(_ bytes: Data) -> Bool {
        bytes.count > 36 && bytes.prefix(4) == Data("OggS".utf8) && bytes.dropFirst(28).prefix(8) == Data("OpusHead".utf8)
    }
}

/// Makes the assets the store lacks: espeak-ng speaks, opusenc encodes,
/// several at once on their own threads (they block in child processes);
/// then the speech aligner times the words of every definition's audio.
package struct AssetBuilder {
    package struct Failure: Error, CustomStringConvertible {
        package var name: String
        package var reason: String
        package var description: String { "\(name): \(reason)" }
    }

    package let store: AssetStore
    /// Aligns narrations; without it, timings are not made.
    package var aligner: SpeechScorer?
    package var concurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Builds what is missing; `progress` hears (done, total) after each.
    /// Returns how many were made. A narration that cannot be aligned (a
    /// silent recording, a language without a model) is logged and left
    /// without timings: it must not stop the rest.
    @discardableResult
    package func build(
        _ assets: some Collection<PlannedAsset>, logger: Logger,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> Int {
        var missing = Array(Set(assets).filter { !store.contains($0.name) }).sorted { $0.name < $1.name }
        if aligner == nil { missing.removeAll { $0.recipe.isAlignment } }
        guard !missing.isEmpty else { return 0 }
        let (files, alignments) = (missing.filter { !$0.recipe.isAlignment }, missing.filter(\.recipe.isAlignment))
        if !files.isEmpty { try Self.checkTools() }
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        let pool = NIOThreadPool(numberOfThreads: concurrency)
        pool.start()
        defer { pool.shutdownGracefully { _ in } }
        var done = 0
        func step() {
            done += 1
            progress?(done, missing.count)
        }
        try await forEach(files, after: step) { asset in
            try await pool.runIfActive { try make(asset) }
            return true
        }
        // The audio they time is in the store by now.
        let aligned = try await forEach(alignments, after: step) { asset in
            do {
                try await align(asset)
                return true
            } catch let error as ParlaError {
                logger.warning("narration not aligned", metadata: ["asset": "\(asset.name)", "error": "\(error.code.rawValue)"])
                return false
            }
        }
        let made = files.count + aligned
        logger.info("assets built", metadata: ["count": "\(made)", "store": "\(store.directory)"])
        return made
    }

    /// Runs `work` on every asset, `concurrency` at a time, calling `after`
    /// as each finishes; returns how many succeeded.
    @discardableResult
    private func forEach(
        _ assets: [PlannedAsset], after: () -> Void,
        _ work: @escaping @Sendable (PlannedAsset) async throws -> Bool
    ) async throws -> Int {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            var next = assets.makeIterator()
            func addNext() -> Bool {
                guard let asset = next.next() else { return false }
                group.addTask { try await work(asset) }
                return true
            }
            for _ in 0..<concurrency where !addNext() { break }
            var succeeded = 0
            while let success = try await group.next() {
                if success { succeeded += 1 }
                after()
                _ = addNext()
            }
            return succeeded
        }
    }

    /// Times the words of a narration and keeps them as JSON.
    private func align(_ asset: PlannedAsset) async throws {
        guard case .align(let audio, let text, let language) = asset.recipe, let aligner else { return }
        guard let bytes = try await store.bytes(of: audio) else {
            throw Failure(name: asset.name, reason: "its audio \(audio) was not made")
        }
        let alignment = try await aligner.align(bytes, text: text, language: language, limits: .narration)
        let scratch = store.directory + "/.building-" + UUID().uuidString + ".json"
        try Self.write(alignment, to: scratch)
        try store.add(asset.name, from: scratch)
    }

    package static func write(_ narration: NarrationAlignment, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try encoder.encode(narration).write(to: URL(fileURLWithPath: path))
    }

    package static func checkTools() throws {
        for tool in ["espeak-ng", "opusenc"] where executable(tool) == nil {
            throw Failure(name: tool, reason: "not installed: run `make install-deps`")
        }
    }

    package static func executable(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Makes one asset now, on the shared thread pool (its tools block).
    package func makeNow(_ asset: PlannedAsset) async throws {
        if case .speak = asset.recipe { try Self.checkTools() }
        if case .encode = asset.recipe { try Self.checkTools() }
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        try await NIOThreadPool.singleton.runIfActive { try make(asset) }
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
        case .narrate(let text, let voice):
            guard let narration = Espeak.narration(text, voice: voice, rate: AssetPlanner.speechRate) else {
                throw Failure(name: asset.name, reason: "espeak-ng could not speak with voice \(voice)")
            }
            try Self.write(narration, to: output)
        case .align:
            return
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

    package init(store: AssetStore, aligner: SpeechScorer? = nil, concurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)) {
        self.store = store
        self.aligner = aligner
        self.concurrency = concurrency
    }
}

/// Assets the content plans but the store lacks yet, made at once for the
/// first client that asks (issue 32, item 17): a first start's background
/// build takes minutes, and a word card names its picture and audio from
/// the start, so a request for one of them never meets a 404 meanwhile.
/// Two requests for one asset wait for one making. Only what a client can
/// fetch by name is made here (timings come with the card).
package final class AssetsOnDemand: Sendable {
    package let store: AssetStore
    private let planned = Mutex<[String: PlannedAsset]>([:])
    private let making = Mutex<[String: Task<Void, any Error>]>([:])

    package init(store: AssetStore) { self.store = store }

    package func plan(_ assets: some Collection<PlannedAsset>) {
        planned.withLock { planned in
            for asset in assets where !asset.recipe.isAlignment { planned[asset.name] = asset }
        }
    }

    /// Makes `name` if the content plans it and the store lacks it; false
    /// when no content plans it (a name nobody made: 404).
    package func make(_ name: String) async throws -> Bool {
        guard let asset = planned.withLock({ $0[name] }) else { return false }
        guard !store.contains(name) else { return true }
        let store = store
        let task = making.withLock { making in
            if let running = making[name] { return running }
            let task = Task { try await AssetBuilder(store: store).makeNow(asset) }
            making[name] = task
            return task
        }
        defer { _ = making.withLock { $0.removeValue(forKey: name) } }
        try await task.value
        return true
    }
}

/// `parla serve`'s background build: makes the assets the bundled content
/// lacks (the first start synthesizes every clip, a few minutes on two
/// cores; later starts only what changed), while the server already serves.
/// The assets come from the import at start, which has just read Corpora:
/// it hands them over with `build(_:)` (or `nothing()`), so Corpora is read
/// once.
package struct AssetBuildService: Service {
    package let store: AssetStore
    package let aligner: SpeechScorer
    package let catalog: ContentCatalog
    /// Meanwhile, what a client asks for is made at once.
    package let onDemand: AssetsOnDemand
    package let logger: Logger
    private let planned: AsyncStream<[PlannedAsset]>
    private let handOver: AsyncStream<[PlannedAsset]>.Continuation

    package init(store: AssetStore, aligner: SpeechScorer, catalog: ContentCatalog, onDemand: AssetsOnDemand, logger: Logger) {
        (self.store, self.aligner, self.catalog, self.onDemand, self.logger) = (store, aligner, catalog, onDemand, logger)
        (planned, handOver) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Hands over what the content needs; until it is built, content
    /// answers are not kept (see `ContentCatalog.isBuildingAssets`), and an
    /// asset asked for is made at once (`AssetsOnDemand`).
    package func build(_ assets: [PlannedAsset]) {
        onDemand.plan(assets)
        if assets.contains(where: { !store.contains($0.name) }) { catalog.isBuildingAssets = true }
        handOver.yield(assets)
        handOver.finish()
    }

    package func nothing() { handOver.finish() }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            var iterator = planned.makeAsyncIterator()
            guard let assets = await iterator.next() else { return }
            defer { catalog.isBuildingAssets = false }
            do {
                let logger = logger
                try await AssetBuilder(store: store, aligner: aligner).build(assets, logger: logger) { done, total in
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

import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import ParlaAPI
import ParlaCommerce
import ParlaContent
import ParlaCore
import ParlaServices
import ParlaSpeech
import ParlaTestSupport
import Synchronization
import Testing

@testable import ParlaServer

/// Pictures and voices: named at import, made by espeak-ng and opusenc
/// (real ones: `make install-deps` installs them), served by name.
@Suite("content assets")
struct AssetTests {
    typealias Word = Components.Schemas.Word

    func build(_ slots: Set<String>, in app: TestApp, corpora: String = TestApp.corporaDirectory) async throws -> [String: PlannedAsset] {
        try await app.buildAssets(corpora: corpora) { slots.contains($0.key.description) }
    }

    @Test("a word card's voices and picture are served whole, by range, and cached for good")
    func wordCard() async throws {
        let app = try await TestApp.make()
        let built = try await build(["word:fr:elephant", "definition:fr:elephant", "timings:fr:elephant", "picture:emoji:1f418"], in: app)
        try await app.run { client in
            // A word of a list the learner's account owns: Animals is the starter set's.
            let parent = try await client.signUp()
            let card = try await client.get("/v1/languages/fr/words/elephant?learnerId=\(parent.learnerID)", token: parent.token)
                .decoded(Word.self)
            let audio = try #require(card.audio)
            #expect(audio.word == "/v1/assets/" + built["word:fr:elephant"]!.name)
            #expect(audio.definition == "/v1/assets/" + built["definition:fr:elephant"]!.name)
            #expect(card.picture == "/v1/assets/" + built["picture:emoji:1f418"]!.name)
            // Each word of the definition, in order, timed inside its audio.
            let timings = try #require(card.definitionTimings)
            #expect(timings.map(\.word) == PhraseText.words(card.definition))
            let starts = timings.map(\.start), ends = timings.map(\.end)
            #expect(starts.count == timings.count && ends.count == timings.count)
            #expect(zip(starts, ends).allSatisfy { $0 < $1 } && zip(ends, starts.dropFirst()).allSatisfy { $0 <= $1 })

            let word = try await client.get(try #require(audio.word))
            #expect(word.status == 200)
            #expect(word.header("Content-Type") == "audio/ogg")
            #expect(word.header("Cache-Control") == "public, max-age=31536000, immutable")
            #expect(word.header("Accept-Ranges") == "bytes")
            #expect(Audio.isOggOpus(word.bytes))
            // "l'éléphant" is under two seconds; its definition is longer.
            let wordSeconds = try #require(Audio.opusDuration(word.bytes))
            #expect(wordSeconds > 0.4 && wordSeconds < 2)
            let definition = try await client.get(try #require(audio.definition))
            let definitionSeconds = try #require(Audio.opusDuration(definition.bytes))
            #expect(definitionSeconds > wordSeconds + 1)
            #expect(try #require(ends.last) <= definitionSeconds + 0.05)

            let tag = try #require(word.header("ETag"))
            #expect(try await client.get(try #require(audio.word), headers: ["If-None-Match": tag]).status == 304)

            let picture = try await client.get(card.picture)
            #expect(picture.header("Content-Type") == "image/svg+xml")
            #expect(picture.text.contains("<svg"))
        }
    }

    @Test("byte ranges: a slice, a suffix, and past the end is a 416")
    func ranges() async throws {
        let app = try await TestApp.make()
        let built = try await build(["phrase:de:greetings-see-you-tomorrow"], in: app)
        try await app.run { client in
            let phrase = try await client.get("/v1/languages/de/phrases/greetings-see-you-tomorrow")
                .decoded(Components.Schemas.Phrase.self)
            let path = "/v1/assets/" + built["phrase:de:greetings-see-you-tomorrow"]!.name
            #expect(phrase.audio == path)
            let whole = try await client.get(path).bytes

            let head = try await client.get(path, headers: ["Range": "bytes=0-99"])
            #expect(head.status == 206)
            #expect(head.header("Content-Range") == "bytes 0-99/\(whole.count)")
            #expect(head.bytes == Array(whole[0..<100]))
            let tail = try await client.get(path, headers: ["Range": "bytes=-10"])
            #expect(tail.bytes == Array(whole.suffix(10)))

            let beyond = try await client.get(path, headers: ["Range": "bytes=\(whole.count)-"])
            #expect(beyond.status == 416)
            #expect(beyond.code == "range_not_satisfiable")
            #expect(beyond.header("Content-Range") == "bytes */\(whole.count)")
            // Several ranges: the whole file, which HTTP allows.
            #expect(try await client.get(path, headers: ["Range": "bytes=0-1,5-9"]).bytes == whole)
        }
    }

    @Test("names that are not assets are 404s, never paths")
    func unknownNames() async throws {
        try await TestApp.make().run { client in
            let missing = try await client.get("/v1/assets/0123456789abcdef0123456789abcdef.opus")
            #expect(missing.code == "asset_not_found")
            #expect(try await client.get("/v1/assets/0123456789ABCDEF0123456789ABCDEF.svg").status == 404)
            #expect(try await client.get("/v1/assets/..%2F..%2Fpersonal-data.key").status == 404)
            #expect(try await client.get("/v1/assets/personal-data.key").status == 404)
        }
    }

    @Test("a recording placed in Corpora replaces the synthetic voice")
    func recordingReplacesSynthesis() async throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("parla-corpora-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: TestApp.corporaDirectory, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.createDirectory(atPath: copy + "/audio/fr", withIntermediateDirectories: true)
        try Data(Audio.tone(seconds: 1.5)).write(to: URL(fileURLWithPath: copy + "/audio/fr/elephant.wav"))

        let app = try await TestApp.make()
        let original = try ContentImporter(directory: TestApp.corporaDirectory, openMojiDirectory: TestApp.openMojiDirectory).read()
        let built = try await build(["word:fr:elephant", "definition:fr:elephant"], in: app, corpora: copy)
        let recorded = try #require(built["word:fr:elephant"])
        #expect(recorded.recipe == .encode(path: copy + "/audio/fr/elephant.wav"))
        #expect(recorded.name != original.assets[.word(concept: "elephant", .french)]?.name)
        // The definition has no recording: still the synthetic voice, same name.
        #expect(built["definition:fr:elephant"]?.name == original.assets[.definition(concept: "elephant", .french)]?.name)

        let store = AssetStore(directory: app.settings.content.assetDirectory)
        let bytes = try #require(try await store.bytes(of: recorded.name))
        #expect(Audio.isOggOpus(bytes))
        #expect(abs(try #require(Audio.opusDuration(bytes)) - 1.5) < 0.05)
        let changed = try ContentImporter(directory: copy, openMojiDirectory: TestApp.openMojiDirectory).read()
        #expect(changed.version != original.version)
    }

    @Test("a recorded narration is encoded, then timed by the speech aligner")
    func recordedNarrationTimings() async throws {
        let app = try await TestApp.make()
        let clip = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav"
        let text = "He was not an ill-disposed young man."
        let audio = PlannedAsset(name: AssetPlanner.name(of: Data("test-narration".utf8), kind: .opus), recipe: .encode(path: clip))
        let timings = PlannedAsset(
            name: AssetPlanner.name(of: Data("test-timings".utf8), kind: .json),
            recipe: .align(audio: audio.name, text: text, language: .english))
        let aligner = SpeechScorer(settings: app.settings.speech.scorer)
        let store = AssetStore(directory: app.settings.content.assetDirectory)
        // Both at once: the audio is made before it is timed.
        let made = try await AssetBuilder(store: store, aligner: aligner).build([timings, audio], logger: Logger(label: "test"))
        try await aligner.shutdown()
        #expect(made == 2)
        let narration = try JSONDecoder().decode(NarrationAlignment.self, from: Data(try #require(try await store.bytes(of: timings.name))))
        #expect(narration.complete)
        #expect(narration.words.map(\.word) == PhraseText.words(text))
        #expect(zip(narration.words, narration.words.dropFirst()).allSatisfy { $0.start < $0.end && $0.end <= $1.start })
        // Served by name too, as JSON (a story's and a sentence's are fetched so, and kept offline).
        let served = try await app.run { client in try await client.get("/v1/assets/" + timings.name) }
        #expect(served.status == 200 && served.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(try served.decoded(Components.Schemas.SpeechAlignment.self).words.map(\.word) == narration.words.map(\.word))
    }
}

/// While `parla serve` builds assets in the background, content answers may
/// still gain timings: they are not kept, and their tags say so.
@Suite("content answers during an asset build")
struct BuildingAnswerTests {
    /// Issue 32, item 17: on a first start the background build takes
    /// minutes; a card names its picture and audio at once, and each is
    /// made when asked for rather than refused.
    @Test("a first start: a word card's picture and voice, asked for before the background build made them, are made at once")
    func madeWhenAskedFor() async throws {
        let app = try await TestApp.make {
            $0.content.directory = TestApp.corporaDirectory
            $0.content.buildAssets = true
        }
        try await app.run { client in
            let card = try await client.get("/v1/languages/de/words/elephant").decoded(Components.Schemas.Word.self)
            let picture = card.picture
            let audio = try #require(card.audio)
            let word = try #require(audio.word), definition = try #require(audio.definition)
            let drawn = try await client.get(picture)
            #expect(drawn.status == 200 && drawn.header("Content-Type") == "image/svg+xml" && drawn.text.contains("<svg"))
            // Both voices at once: each is made once, for whoever asked first.
            async let said = client.get(word)
            async let again = client.get(word)
            let (first, second) = try await (said, again)
            #expect(first.status == 200 && Audio.isOggOpus(first.bytes) && first.bytes == second.bytes, "\(first.text)")
            #expect(try await client.get(definition).status == 200)
            // A name no content plans is still a 404.
            #expect(try await client.get("/v1/assets/" + String(repeating: "0", count: 32) + ".opus").code == "asset_not_found")
        }
    }

    @Test("answers are kept only once the build is done")
    func notKeptWhileBuilding() async throws {
        let catalog = ContentCatalog()
        catalog.replace(
            with: .init(version: "v1", corpus: Corpus(), assets: [:], catalogue: Catalogue(products: [], plans: [:], starterLists: [])))
        let cache = ContentAnswerCache(catalog: catalog)
        let handled = Mutex(0)
        func ask() async throws -> String {
            let request = HTTPRequest(method: .get, scheme: "http", authority: "test", path: "/v1/languages/fr/words/elephant")
            let (_, body) = try await cache.intercept(request, body: nil, metadata: .init(), operationID: "getWord") { _, _, _ in
                let count = handled.withLock {
                    $0 += 1
                    return $0
                }
                return (HTTPResponse(status: .ok), HTTPBody("answer \(count)"))
            }
            return try await String(collecting: try #require(body), upTo: 1024)
        }
        catalog.isBuildingAssets = true
        #expect(try await ask() == "answer 1")
        #expect(try await ask() == "answer 2")
        catalog.isBuildingAssets = false
        #expect(try await ask() == "answer 3")
        #expect(try await ask() == "answer 3")
    }
}

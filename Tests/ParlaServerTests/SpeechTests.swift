import Foundation
import ParlaAPI
import ParlaCore
import ParlaSpeech
import ParlaTestSupport
import PostgresNIO
import Testing

/// Speech attempts through HTTP: real recordings, the real scorer, real
/// PostgreSQL.
@Suite("speech attempts")
struct SpeechTests {
    typealias SpeechAttempt = Components.Schemas.SpeechAttempt
    /// The body of `GET /v1/learners/{id}/speech/attempts` (an inline schema: no `Components.Schemas` type).
    typealias SpeechAttempts = Operations.ListSpeechAttempts.Output.Ok.Body.JsonPayload
    static let librivox = "/usr/share/pocketsphinx/test/data/librivox"
    static let sharedClips =
        ProcessInfo.processInfo.environment["PARLA_SPEECH_TESTDATA"]
        ?? TestApp.projectDirectory + "/../shared/speech-testdata"

    func clip(_ id: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.librivox)/sense_and_sensibility_01_austen_64kb-\(id).wav")))
    }

    func path(_ learner: String, _ query: String) -> String {
        "/v1/learners/\(learner)/speech/attempts?" + query
    }

    static func query(_ text: String) -> String {
        "language=en&text=" + text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test("a repetition is scored word by word, stored, and its feedback is in the learner's language")
    func scoredAndStored() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let parent = try await client.signUp()
            let reply = try await client.send(
                .post, path(parent.learnerID, Self.query("He was not an ill-disposed young man.")),
                token: parent.token, body: try clip("0880"),
                headers: ["Content-Type": "audio/wav", "Accept-Language": "fr"])
            #expect(reply.status == 201, "\(reply.text)")
            let attempt = try reply.decoded(SpeechAttempt.self)
            let result = attempt.result
            #expect(result.passed)
            #expect(result.feedback == .great || result.feedback == .good)
            #expect(result.message.contains("!"))
            #expect(result.message != "Excellent! You said it just right.")
            let words = result.words
            #expect(words.map(\.text) == ["He", "was", "not", "an", "ill-disposed", "young", "man"])
            #expect(words.allSatisfy { ($0.start ?? -1) >= 0 && !$0.phones.isEmpty })
            // English is judged as raters judge: fluency, prosody and each word's stress.
            #expect((result.prosody ?? 0) >= 60 && result.fluency >= 60, "prosody \(result.prosody ?? -1), fluency \(result.fluency)")
            #expect(words.allSatisfy { ($0.stress ?? 0) >= 60 }, "\(words.map { $0.stress ?? -1 })")
            #expect(!attempt.recordingKept)

            let attemptID = attempt.id
            let audio = try await client.get("/v1/learners/\(parent.learnerID)/speech/attempts/\(attemptID)/audio", token: parent.token)
            #expect(audio.code == "recording_not_kept")
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                "SELECT audio IS NULL, passed, feedback FROM speech_attempts WHERE id = \(UUID(uuidString: attemptID)!)")
            let (noAudio, _, _) = try #require(rows.first).decode((Bool, Bool, String).self)
            #expect(noAudio)
        }
    }

    @Test(
        "a word said wrong gets a hint in the learner's language: its worst phone, the letters that spell it and what it sounded like, in IPA"
    )
    func hint() async throws {
        try await TestApp.make().run { client in
            let learner = try await client.signUp()
            // The recording says "young man"; the text asks for "old man".
            let reply = try await client.send(
                .post, path(learner.learnerID, Self.query("He was not an ill-disposed old man.")), token: learner.token,
                body: try clip("0880"), headers: ["Content-Type": "audio/wav", "Accept-Language": "fr"])
            #expect(reply.status == 201, "\(reply.text)")
            let words = try reply.decoded(SpeechAttempt.self).result.words
            let old = try #require(words.first { $0.text == "old" })
            #expect(old.error == .mispronounced)
            let hint = try #require(old.hint)
            #expect(hint.phone == "oʊ" && hint.heardAs == "ʌ")
            #expect(hint.letters == "o")
            #expect(hint.message == "Le « o » (/oʊ/) de « old » ressemblait à /ʌ/.")
            #expect(old.phones.first?.ipa == "oʊ")
            // The words said right have no hint; every phone is named in IPA.
            #expect(words.filter { $0.hint != nil }.count == 1)
            #expect(words.allSatisfy { $0.phones.allSatisfy { $0.ipa != nil && $0.heardAs != nil } })
        }
    }

    @Test("a learner who keeps recordings gets them back; they are encrypted at rest")
    func keptRecording() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let parent = try await client.signUp()
            let update = try await client.patch("/v1/learners/\(parent.learnerID)", token: parent.token, json: ["keepRecordings": true])
            #expect(try update.decoded(Components.Schemas.Learner.self).keepRecordings)
            let recording = try clip("0930")
            let reply = try await client.send(
                .post, path(parent.learnerID, Self.query("he might even have been made amiable himself")),
                token: parent.token, body: recording, headers: ["Content-Type": "audio/wav"])
            #expect(reply.status == 201)
            let attempt = try reply.decoded(SpeechAttempt.self)
            #expect(attempt.recordingKept)
            let id = attempt.id
            let audio = try await client.get("/v1/learners/\(parent.learnerID)/speech/attempts/\(id)/audio", token: parent.token)
            #expect(audio.status == 200)
            #expect(audio.header("Content-Type") == "audio/wav")
            #expect(audio.bytes == recording)
            let stored = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                "SELECT audio FROM speech_attempts WHERE id = \(UUID(uuidString: id)!)")
            let sealed = try #require(try stored.first?.decode(ByteBuffer.self))
            #expect(Array(sealed.readableBytesView.prefix(4)) != Array("RIFF".utf8))

            // Nobody else's account reaches it.
            let other = try await client.signUp(email: "other@example.com")
            #expect(try await client.get("/v1/learners/\(parent.learnerID)/speech/attempts/\(id)/audio", token: other.token).status == 404)
            #expect(try await client.get("/v1/learners/\(parent.learnerID)/speech/attempts", token: other.token).status == 404)
        }
    }

    @Test("attempts are listed newest first, page by page")
    func listed() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let parent = try await client.signUp()
            for (id, text) in [("0880", "he was not an ill disposed young man"), ("0930", "he might even have been made amiable himself")] {
                let reply = try await client.send(
                    .post, path(parent.learnerID, Self.query(text)), token: parent.token, body: try clip(id),
                    headers: ["Content-Type": "audio/wav"])
                #expect(reply.status == 201)
            }
            let first = try await client.get("/v1/learners/\(parent.learnerID)/speech/attempts?limit=1", token: parent.token)
                .decoded(SpeechAttempts.self)
            #expect(first.attempts.first?.text == "he might even have been made amiable himself")
            let next = try #require(first.next)
            let second = try await client.get(
                "/v1/learners/\(parent.learnerID)/speech/attempts?limit=1&before=\(next)", token: parent.token
            ).decoded(SpeechAttempts.self)
            #expect(second.attempts.first?.text == "he was not an ill disposed young man")
            let all = try await client.get("/v1/learners/\(parent.learnerID)/speech/attempts", token: parent.token)
                .decoded(SpeechAttempts.self)
            #expect(all.attempts.count == 2)
            #expect(all.next == nil)
            // Kept as scored: prosody and stress come back with the attempt.
            #expect(all.attempts.allSatisfy { $0.result.prosody != nil && $0.result.words.allSatisfy { $0.stress != nil } })
        }
    }

    @Test("narration alignment: a recording and its text give each word's times; bad requests get their codes")
    func alignment() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let parent = try await client.signUp()
            let text = "He was not an ill-disposed young man, unless to be rather cold hearted and rather selfish is to be ill-disposed."
            let path = "/v1/speech/alignments?language=en&text=" + text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            // Two readings joined by a second of silence: 60 s is allowed here,
            // where an attempt stops at 15.
            let first = try AudioDecoder.decode(try clip("0880"), sampleRate: 16_000)
            let second = try AudioDecoder.decode(try clip("0890"), sampleRate: 16_000)
            let joined = Audio.wav(first.samples + [Int16](repeating: 0, count: 16_000) + second.samples)
            let wav = ["Content-Type": "audio/wav"]
            #expect(try await client.send(.post, path, body: joined, headers: wav).status == 401)

            let reply = try await client.send(.post, path, token: parent.token, body: joined, headers: wav)
            #expect(reply.status == 200, "\(reply.text)")
            let alignment = try reply.decoded(Components.Schemas.SpeechAlignment.self)
            let words = alignment.words
            #expect(words.map(\.word) == PhraseText.words(text))
            #expect(alignment.complete)
            let starts = words.map(\.start), ends = words.map(\.end)
            #expect(zip(starts, ends).allSatisfy { $0 < $1 } && zip(ends, starts.dropFirst()).allSatisfy { $0 <= $1 })
            // "unless" starts after the pause, "man" ends before it.
            #expect(starts[7] >= first.duration + 0.95)
            #expect(ends[6] <= first.duration + 0.05)

            func code(_ query: String, _ body: [UInt8]) async throws -> String? {
                try await client.send(.post, "/v1/speech/alignments?" + query, token: parent.token, body: body, headers: wav).code
            }
            #expect(try await code("language=en&text=%20", joined) == "empty_text")
            #expect(try await code("language=xx&text=hello", joined) != nil)
            #expect(try await code("language=en&text=hello", Array("not audio".utf8)) == "unsupported_audio")
            #expect(try await code("language=en&text=hello", Audio.wav([Int16](repeating: 0, count: 16_000))) == "no_speech")
            #expect(try await code("language=en&text=hello", Audio.tone(seconds: 61)) == "audio_too_long")
        }
    }

    @Test("a content phrase by its id; bad requests get their codes")
    func phrasesAndErrors() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let parent = try await client.signUp()
            let base = "/v1/learners/\(parent.learnerID)/speech/attempts"
            let wav = ["Content-Type": "audio/wav"]
            let byPhrase = try await client.send(
                .post, base + "?language=en&phraseId=greetings-see-you-tomorrow", token: parent.token,
                body: try clip("0880"), headers: wav)
            #expect(byPhrase.status == 201)
            let attempt = try byPhrase.decoded(SpeechAttempt.self)
            #expect(attempt.phraseId == "greetings-see-you-tomorrow")
            #expect(!attempt.result.passed)

            func code(_ query: String, _ body: [UInt8], _ headers: [String: String] = wav) async throws -> String? {
                try await client.send(.post, base + "?" + query, token: parent.token, body: body, headers: headers).code
            }
            let speech = try clip("0880")
            #expect(try await code("language=en", speech) == "text_or_phrase_required")
            #expect(try await code("language=en&phraseId=no-such-phrase", speech) == "phrase_not_found")
            #expect(try await code("language=en&text=hello", Array("not audio at all, only words".utf8)) == "unsupported_audio")
            #expect(try await code("language=en&text=hello", Audio.wav([Int16](repeating: 0, count: 16_000))) == "no_speech")
            #expect(try await code("language=en&text=hello", [UInt8](repeating: 7, count: 3 * 1024 * 1024)) == "audio_too_large")
            #expect(try await code("language=en&text=hello", speech, ["Content-Type": "image/png"]) == "unsupported_media_type")
            let tooLong = try await client.send(
                .post, base + "?language=en&text=hello", token: parent.token,
                body: Audio.tone(seconds: 16), headers: wav)
            #expect(tooLong.status == 422)
            #expect(tooLong.code == "audio_too_long")
            let other = try await client.signUp(email: "other@example.com")
            #expect(
                try await client.send(.post, base + "?language=en&text=hello", token: other.token, body: speech, headers: wav).code
                    == "learner_not_found")
        }
    }

    @Test(
        "every language scores through the API: a clip's own text beats another's",
        .enabled(if: FileManager.default.fileExists(atPath: sharedClips), "no shared speech-testdata on this machine"),
        arguments: ["fr", "it", "de", "es"])
    func everyLanguage(_ code: String) async throws {
        let directory = "\(Self.sharedClips)/voxforge-\(code)"
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".wav") }.sorted()
        let own = try String(contentsOfFile: "\(directory)/\(names[1].dropLast(4)).txt", encoding: .utf8)
        let other = try String(contentsOfFile: "\(directory)/\(names[2].dropLast(4)).txt", encoding: .utf8)
        let audio = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(names[1])")))
        let app = try await TestApp.make()
        try await app.run { client in
            let parent = try await client.signUp()
            var overall: [Double] = []
            for text in [own, other] {
                let query =
                    "language=\(code)&text=" + text.trimmingCharacters(in: .whitespacesAndNewlines)
                    .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let reply = try await client.send(
                    .post, path(parent.learnerID, query), token: parent.token, body: audio,
                    headers: ["Content-Type": "audio/wav"])
                #expect(reply.status == 201, "\(reply.text)")
                overall.append(try reply.decoded(SpeechAttempt.self).result.overall)
            }
            #expect(overall[0] > overall[1], "\(code): \(overall)")
        }
    }
}

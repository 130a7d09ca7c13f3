import Foundation
import ParlaAPI
import ParlaDatabase
import ParlaTestSupport
import PostgresNIO
import Testing

/// Issue 35, item 4: the Art Space over HTTP against real PostgreSQL:
/// drawings with a title and a recording, seen by the learner's family,
/// by its teachers only when shared, sealed at rest, in backups, erased
/// with the learner.
@Suite("the Art Space")
struct ArtSpaceTests {
    typealias Drawing = Components.Schemas.Drawing
    typealias Drawings = Operations.ListDrawings.Output.Ok.Body.JsonPayload

    static func save(_ client: Client, _ learner: String, token: String, title: String, picture: [UInt8], type: String = "image/png")
        async throws -> Client.Reply
    {
        let title = title.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? title
        return try await client.send(
            .post, "/v1/learners/\(learner)/drawings?title=\(title)", token: token, body: picture, headers: ["Content-Type": type])
    }

    static func record(_ client: Client, _ learner: String, _ drawing: String, token: String, audio: [UInt8]) async throws -> Client.Reply {
        try await client.send(
            .put, "/v1/learners/\(learner)/drawings/\(drawing)/recording", token: token, body: audio, headers: ["Content-Type": "audio/wav"]
        )
    }

    @Test(
        "a drawing saved with a title and a recording; its family sees it all, its teacher only once it is shared; sealed, backed up, erased"
    )
    func drawings() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let (teacher, _, code) = try await client.teacherWithClass()
            let parent = try await client.signUp(email: "parent@example.com")
            let child = try await client.post(
                "/v1/learners", token: parent.token, json: ["displayName": "Léa", "age": 6]
            ).decoded(Components.Schemas.Learner.self).id
            let joined = try await client.post(
                "/v1/learners/\(child)/classes", token: parent.token, json: ["joinCode": code, "password": parent.password])
            #expect(joined.status == 201, "\(joined.text)")

            // Saved: its type read from the bytes (a PNG sent as JPEG is a PNG), its size from its header.
            let picture = Images.png(width: 120, height: 90, rgb: (30, 144, 255))
            let saved = try await Self.save(
                client, child, token: parent.token, title: "Mon chat bleu", picture: picture, type: "image/jpeg")
            #expect(saved.status == 201, "\(saved.text)")
            let drawing = try saved.decoded(Drawing.self)
            #expect(drawing.title == "Mon chat bleu" && drawing.pictureType == .imagePng && drawing.width == 120 && drawing.height == 90)
            #expect(!drawing.shared && drawing.recording == nil)
            let fetched = try await client.get(drawing.picture, token: parent.token)
            #expect(fetched.status == 200 && fetched.header("Content-Type") == "image/png" && fetched.bytes == picture)
            #expect(fetched.header("Cache-Control") == "no-store")

            // What the child said about it: a recording bounded as speech attempts are.
            let voice = [UInt8](try Data(contentsOf: URL(fileURLWithPath: DashboardTests.clip)))
            let recorded = try await Self.record(client, child, drawing.id, token: parent.token, audio: voice)
            #expect(recorded.status == 200, "\(recorded.text)")
            let withVoice = try recorded.decoded(Drawing.self)
            #expect(withVoice.recording?.mediaType == "audio/wav" && (1...15).contains(withVoice.recording?.seconds ?? 0))
            let heard = try await client.get(try #require(withVoice.recording?.path), token: parent.token)
            #expect(heard.status == 200 && heard.bytes == voice && heard.header("Content-Type") == "audio/wav")

            // Refused, each with its code; nothing is stored.
            let refusals: [(Client.Reply, Int, String)] = [
                (
                    try await Self.save(client, child, token: parent.token, title: "x", picture: Array("not a picture".utf8)), 415,
                    "unsupported_image"
                ),
                (
                    try await Self.save(client, child, token: parent.token, title: "x", picture: Images.png(width: 8, height: 8)), 422,
                    "invalid_image_dimensions"
                ),
                (try await Self.save(client, child, token: parent.token, title: "  ", picture: picture), 422, "invalid_title"),
                (
                    try await Self.save(client, child, token: parent.token, title: String(repeating: "a", count: 61), picture: picture),
                    422, "invalid_title"
                ),
                (
                    try await Self.save(client, child, token: parent.token, title: "big", picture: [UInt8](repeating: 0, count: 3_000_000)),
                    413, "payload_too_large"
                ),
                (
                    try await Self.record(client, child, drawing.id, token: parent.token, audio: Audio.tone(seconds: 20)), 422,
                    "audio_too_long"
                ),
                (
                    try await Self.record(client, child, drawing.id, token: parent.token, audio: Array(repeating: 7, count: 4000)), 415,
                    "unsupported_audio"
                ),
                (
                    try await Self.record(
                        client, child, drawing.id, token: parent.token, audio: Audio.wav([Int16](repeating: 0, count: 32_000))), 422,
                    "no_speech"
                ),
            ]
            for (reply, status, code) in refusals { #expect(reply.status == status && reply.code == code, "\(code): \(reply.text)") }
            let kept = try await client.get("/v1/learners/\(child)/drawings", token: parent.token).decoded(Drawings.self)
            #expect(kept.drawings.map(\.id) == [drawing.id] && kept.drawings.first?.recording != nil)

            // Its teacher: nothing until the drawing is shared, then that drawing, read only.
            #expect(try await client.get("/v1/learners/\(child)/drawings", token: teacher.token).decoded(Drawings.self).drawings.isEmpty)
            #expect(try await client.get(drawing.picture, token: teacher.token).code == "drawing_not_found")
            let shared = try await client.patch(
                "/v1/learners/\(child)/drawings/\(drawing.id)", token: parent.token, json: ["shared": true, "title": "Mon chat"])
            #expect(try shared.decoded(Drawing.self).shared && (try shared.decoded(Drawing.self).title) == "Mon chat")
            let seen = try await client.get("/v1/learners/\(child)/drawings", token: teacher.token).decoded(Drawings.self)
            #expect(seen.drawings.map(\.title) == ["Mon chat"])
            // The child did not share its recordings with the class: its voice stays with its family.
            #expect(seen.drawings.first?.recording == nil)
            let voicePath = "/v1/learners/\(child)/drawings/\(drawing.id)/recording"
            #expect(try await client.get(voicePath, token: teacher.token).code == "drawing_not_found")
            #expect(try await client.get(drawing.picture, token: teacher.token).bytes == picture)
            #expect(
                try await client.patch("/v1/learners/\(child)/drawings/\(drawing.id)", token: teacher.token, json: ["shared": false]).status
                    >= 400)
            #expect(try await client.delete("/v1/learners/\(child)/drawings/\(drawing.id)", token: teacher.token).status >= 400)
            // Anyone else: no such learner.
            let stranger = try await client.signUp(email: "stranger@example.com")
            #expect(try await client.get("/v1/learners/\(child)/drawings", token: stranger.token).code == "learner_not_found")
            #expect(try await client.get(drawing.picture).status == 401)

            // Sealed at rest: neither the title, nor the picture, nor the voice in clear.
            let rows = try await TestDatabase.shared.rows(
                in: app.databaseURL, "SELECT title, picture, recording FROM drawings WHERE id = \(UUID(uuidString: drawing.id)!)")
            let sealed = try #require(rows.first).decode((ByteBuffer, ByteBuffer, ByteBuffer).self)
            let (title, stored, voiceStored) = (
                Array(sealed.0.readableBytesView), Array(sealed.1.readableBytesView), Array(sealed.2.readableBytesView)
            )
            #expect(title.count > 8 && !Data(title).contains(Data("Mon chat".utf8)))
            #expect(!Data(stored).starts(with: [0x89, 0x50, 0x4E, 0x47]) && stored.count > picture.count)
            #expect(!Data(voiceStored).starts(with: Array("RIFF".utf8)))

            // In a backup: restored elsewhere, the same sealed rows.
            let backup = FileManager.default.temporaryDirectory.appendingPathComponent("parla-art-\(UUID().uuidString).backup").path
            defer { try? FileManager.default.removeItem(atPath: backup) }
            try await DatabaseBackup.dump(.url(app.databaseURL), to: backup)
            let elsewhere = try await TestDatabase.shared.newDatabase()
            try await DatabaseBackup.restore(.url(elsewhere), from: backup)
            let restored = try await TestDatabase.shared.rows(
                in: elsewhere, "SELECT title, picture, recording FROM drawings WHERE id = \(UUID(uuidString: drawing.id)!)")
            let copy = try #require(restored.first).decode((ByteBuffer, ByteBuffer, ByteBuffer).self)
            #expect(Array(copy.0.readableBytesView) == title && Array(copy.1.readableBytesView) == stored)
            #expect(Array(copy.2.readableBytesView) == voiceStored)
            try await TestDatabase.shared.dropDatabase(url: elsewhere)

            // Deleted: the drawing and its voice go; the learner deleted, its Art Space goes with it.
            let second = try await Self.save(client, child, token: parent.token, title: "Maison", picture: picture).decoded(Drawing.self)
            #expect(try await client.delete("/v1/learners/\(child)/drawings/\(second.id)", token: parent.token).status == 204)
            #expect(try await client.get("/v1/learners/\(child)/drawings/\(second.id)", token: parent.token).code == "drawing_not_found")
            #expect(try await client.delete("/v1/learners/\(child)/drawings/\(drawing.id)/recording", token: parent.token).status == 200)
            #expect(
                try await client.get("/v1/learners/\(child)/drawings/\(drawing.id)/recording", token: parent.token).code
                    == "drawing_not_found")
            #expect(try await client.delete("/v1/learners/\(child)", token: parent.token).status == 204)
            let left = try await TestDatabase.shared.rows(in: app.databaseURL, "SELECT count(*)::int FROM drawings")
            #expect(try left.first?.decode(Int.self) == 0)
        }
    }

    @Test("a parent sees its child's Art Space on its page in a browser: the drawing, its title and what the child said")
    func parentPage() async throws {
        try #require(Browser.isInstalled, "chromium and chromium-driver are not installed: run make install-deps")
        try await TestApp.make().runLive { client, port in
            let parent = try await client.signUp(email: "parent@example.com", language: "fr")
            let child = try await client.post(
                "/v1/learners", token: parent.token, json: ["displayName": "Zoé", "age": 5, "targetLanguages": ["en"]]
            ).decoded(Components.Schemas.Learner.self).id
            let picture = Images.png(width: 160, height: 120, rgb: (250, 180, 40))
            let drawing = try await Self.save(client, child, token: parent.token, title: "Le soleil", picture: picture).decoded(
                Drawing.self)
            let voice = [UInt8](try Data(contentsOf: URL(fileURLWithPath: DashboardTests.clip)))
            #expect(try await Self.record(client, child, drawing.id, token: parent.token, audio: voice).status == 200)
            let browser = try await Browser.start()
            do {
                try await DashboardTests.signInFamily(browser, port: port, email: "parent@example.com", password: parent.password)
                try await browser.open("http://localhost:\(port)/teach/learners/\(child)")
                try await browser.wait(for: "#drawings img")
                #expect(try await browser.text("main").contains("Espace Art"))
                #expect(try await browser.text("#drawing-\(drawing.id) figcaption").contains("Le soleil"))
                // The picture is drawn (decoded by the browser at its own size), the recording is there to play.
                let drawn = """
                    const image = document.querySelector('#drawings img');
                    return image.complete ? image.naturalWidth : -1;
                    """
                var width = try await browser.evaluate(drawn) as? Int ?? -1
                for _ in 0..<50 where width <= 0 {
                    try await Task.sleep(for: .milliseconds(100))
                    width = try await browser.evaluate(drawn) as? Int ?? -1
                }
                #expect(width == 160)
                let audio = try await browser.evaluate("return document.querySelector('#drawings audio').getAttribute('src')") as? String
                #expect(audio == "/teach/learners/\(child)/drawings/\(drawing.id)/recording")
                let recording = try await browser.evaluate(
                    "return fetch(document.querySelector('#drawings audio').src).then(r => r.status + ' ' + r.headers.get('content-type'))")
                #expect(recording as? String == "200 audio/wav")
                #expect(try await DashboardTests().accessibilityProblems(browser) == [])
                _ = try await browser.evaluate("document.querySelector('h2:has(+ #drawings)').scrollIntoView(); return true")
                let shot = try await browser.screenshot()
                let path = (try? DashboardTests.save(shot, "art-space")) ?? ""
                #expect(DashboardTests.isNotBlank(shot), "\(path)")
            } catch {
                await browser.quit()
                throw error
            }
            await browser.quit()
        }
    }
}

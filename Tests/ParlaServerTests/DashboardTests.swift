import Foundation
import ParlaCore
import ParlaTestSupport
import Testing

/// The teachers' dashboard in a real headless Chromium (Debian's chromium
/// and chromium-driver, installed by `make install-deps`).
@Suite("teachers' dashboard in a browser", .serialized)
struct DashboardTests {
    typealias JSON = [String: any Sendable]
    static let clip = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav"

    /// A screenshot with something on it: a blank window compresses to a
    /// few kilobytes, a page of text, tables and charts to far more.
    static func isNotBlank(_ png: [UInt8]) -> Bool {
        png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 20_000
    }

    static func save(_ png: [UInt8], _ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parla-dashboard-\(name).png").path
        try Data(png).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a teacher signs in, opens a class and sees a learner's lesson and recording; another teacher sees nothing")
    func teacherSeesItAll() async throws {
        try #require(Browser.isInstalled, "chromium and chromium-driver are not installed: run make install-deps")
        try await TestApp.make().runLive { client, port in
            let site = "http://localhost:\(port)"
            // The teacher (French UI) and a class; a learner joins, answers and records.
            let teacher = try await client.signUp(email: "prof@example.fr", language: "fr")
            _ = try await client.send(.put, "/v1/me/teacher", token: teacher.token, json: ["displayName": "Mme Dupont"])
            let created = try await client.post(
                "/v1/classes", token: teacher.token, json: ["name": "4e B", "language": "fr", "level": "A2"])
            let classID = try #require(created.json["id"] as? String)
            let code = try #require(created.json["joinCode"] as? String)
            let learner = try await client.signUp(firstName: "Léo", email: "leo@example.com")
            _ = try await client.patch(
                "/v1/learners/\(learner.learnerID)", token: learner.token, json: ["keepRecordings": true, "targetLanguages": ["fr"]])
            #expect(
                try await client.post(
                    "/v1/learners/\(learner.learnerID)/classes", token: learner.token,
                    json: ["joinCode": code, "password": learner.password, "shareRecordings": true]
                ).status == 201)
            let lesson = try await client.post(
                "/v1/learners/\(learner.learnerID)/lessons", token: learner.token,
                json: ["language": "fr", "length": 3, "types": ["translationFromTarget"]]
            ).json
            let question = try #require(lesson["question"] as? JSON)
            _ = try await client.post(
                "/v1/learners/\(learner.learnerID)/lessons/\(lesson["id"] as! String)/answers", token: learner.token,
                json: [
                    "questionId": question["id"] as! String, "optionId": try TeacherModeTests.rightOption(question), "responseTimeMs": 1500,
                ])
            let attempt = try await client.send(
                .post,
                "/v1/learners/\(learner.learnerID)/speech/attempts?language=en&text=He%20was%20not%20an%20ill-disposed%20young%20man.",
                token: learner.token, body: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.clip))),
                headers: ["Content-Type": "audio/wav"])
            #expect(attempt.status == 201)

            let browser = try await Browser.start()
            do {
                try await browser.open(site + "/teach")
                #expect(try await browser.evaluate("return document.querySelector('label[for=email]') !== null") as? Bool == true)
                try await browser.type("prof@example.fr", into: "#email")
                try await browser.type(teacher.password, into: "#password")
                try await browser.click("#sign-in")
                try await browser.wait(for: "a.class-link")
                // The class list, in French (the teacher's language).
                #expect(try await browser.evaluate("return document.documentElement.lang") as? String == "fr")
                #expect(try await browser.text("h1") == "Vos classes")
                let cookie = try await browser.evaluate("return document.cookie") as? String
                #expect(cookie?.contains("parla_teach=") == false)  // HttpOnly: no script reads it
                try await browser.click("a.class-link")
                try await browser.wait(for: "#class-name")
                #expect(try await browser.url == site + "/teach/classes/\(classID)")
                #expect(try await browser.text("#class-name") == "4e B")
                #expect(try await browser.text("#join-code") == code)
                #expect(try await browser.evaluate("return document.querySelectorAll('svg.chart rect.bar').length") as? Int == 6)
                #expect(try await browser.text("#learners").contains("Léo"))
                let classShot = try await browser.screenshot()
                let classShotPath = (try? Self.save(classShot, "class")) ?? ""
                #expect(Self.isNotBlank(classShot), "\(classShotPath)")

                // The learner's page: the history chart, the recording's words coloured, playable.
                try await browser.click("a.learner-link")
                try await browser.wait(for: "#learner-name")
                #expect(try await browser.text("#learner-name") == "Léo")
                #expect(try await browser.evaluate("return document.querySelectorAll('#attempts .word').length") as? Int == 7)
                let audio = try #require(
                    try await browser.evaluate("return document.querySelector('#attempts audio')?.src ?? null") as? String)
                let fetched =
                    try await browser.evaluate(
                        "return fetch(\(Browser.quoted(audio))).then(r => r.status + ' ' + r.headers.get('content-type'))") as? String
                #expect(fetched == "200 audio/wav")
                let learnerShot = try await browser.screenshot()
                let learnerShotPath = (try? Self.save(learnerShot, "learner")) ?? ""
                #expect(Self.isNotBlank(learnerShot), "\(learnerShotPath)")

                // A form without its CSRF token changes nothing; the real one rotates the code.
                _ = try await browser.evaluate(
                    """
                    return fetch('/teach/classes/\(classID)/join-code', {method: 'POST', redirect: 'manual',
                      headers: {'Content-Type': 'application/x-www-form-urlencoded'}, body: 'action=close'}).then(r => r.type)
                    """)
                try await browser.open(site + "/teach/classes/\(classID)")
                #expect(try await browser.text("#join-code") == code)
                try await browser.click("button[value=rotate]")
                for _ in 0..<50 where try await browser.text("#join-code") == code { try await Task.sleep(for: .milliseconds(100)) }
                let rotated = try await browser.text("#join-code")
                #expect(rotated != code && rotated.count == 9)

                // Sign out: the dashboard asks to sign in again.
                try await browser.click("header button")
                try await browser.wait(for: "#email")

                // Another teacher sees nothing of the class or the learner.
                let other = try await client.signUp(email: "other@example.com")
                _ = try await client.send(.put, "/v1/me/teacher", token: other.token, json: ["displayName": "M. Martin"])
                try await browser.type("other@example.com", into: "#email")
                try await browser.type(other.password, into: "#password")
                try await browser.click("#sign-in")
                try await browser.wait(for: "input[name=name]")  // the new-class form: signed in as the other teacher
                try await browser.open(site + "/teach/classes/\(classID)")
                #expect(try await browser.text("h1") == "There is nothing here for you.")
                #expect(try await browser.evaluate("return document.querySelector('#class-name') === null") as? Bool == true)
                try await browser.open(site + "/teach/learners/\(learner.learnerID)")
                #expect(try await browser.text("h1") == "There is nothing here for you.")
                #expect(try await browser.evaluate("return document.querySelector('#learner-name') === null") as? Bool == true)
            } catch {
                await browser.quit()
                throw error
            }
            await browser.quit()
        }
    }

    @Test("a parent sees its own child's page; the pages are readable on a phone")
    func parentOnPhone() async throws {
        try #require(Browser.isInstalled, "chromium and chromium-driver are not installed: run make install-deps")
        try await TestApp.make().runLive { client, port in
            let parent = try await client.signUp(email: "parent@example.com", language: "de")
            let child = try #require(
                try await client.post(
                    "/v1/learners", token: parent.token, json: ["displayName": "Mia", "age": 8, "targetLanguages": ["es"]]
                )
                .json["id"] as? String)
            let browser = try await Browser.start(width: 390, height: 844)
            do {
                try await browser.open("http://localhost:\(port)/teach")
                try await browser.type("parent@example.com", into: "#email")
                try await browser.type(parent.password, into: "#password")
                try await browser.click("#sign-in")
                try await browser.wait(for: "a[href^='/teach/learners/']")
                #expect(try await browser.text("main").contains("Mia"))
                try await browser.open("http://localhost:\(port)/teach/learners/\(child)")
                #expect(try await browser.text("#learner-name") == "Mia")
                // Nothing wider than the phone's screen.
                #expect(try await browser.evaluate("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool == true)
                let shot = try await browser.screenshot()
                let shotPath = (try? Self.save(shot, "phone")) ?? ""
                #expect(Self.isNotBlank(shot) || shot.count > 8_000, "\(shotPath)")
            } catch {
                await browser.quit()
                throw error
            }
            await browser.quit()
        }
    }
}

import Foundation
import ParlaAPI
import ParlaCore
import ParlaTestSupport
import Testing

/// The teachers' dashboard in a real headless Chromium (Debian's chromium
/// and chromium-driver, installed by `make install-deps`).
@Suite("teachers' dashboard in a browser", .serialized)
struct DashboardTests {
    /// Untyped JSON, for AccountPagesTests (an extension of this suite); this file's API bodies are decoded typed.
    typealias JSON = [String: any Sendable]
    typealias SchoolClass = Components.Schemas.SchoolClass
    static let clip = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav"

    /// The learner records `clip`, an English sentence.
    static func record(_ client: Client, _ learner: Client.SignedUp) async throws -> Client.Reply {
        try await client.send(
            .post, "/v1/learners/\(learner.learnerID)/speech/attempts?language=en&text=He%20was%20not%20an%20ill-disposed%20young%20man.",
            token: learner.token, body: [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip))), headers: ["Content-Type": "audio/wav"])
    }

    /// A screenshot with something on it: a blank window compresses to a
    /// few kilobytes, a page of text, tables and charts to far more.
    static func isNotBlank(_ png: [UInt8]) -> Bool {
        png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 20_000
    }

    /// Signs a family in at `/teach`, as a parent does: its learners are listed.
    static func signInFamily(_ browser: Browser, port: Int, email: String, password: String) async throws {
        try await browser.open("http://localhost:\(port)/teach")
        try await browser.type(email, into: "#email")
        try await browser.type(password, into: "#password")
        try await browser.click("#sign-in")
        try await browser.wait(for: "a[href^='/teach/learners/']")
    }

    static func save(_ png: [UInt8], _ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parla-dashboard-\(name).png").path
        try Data(png).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What a page gets wrong for people using assistive technology or
    /// a keyboard, or with low vision: form fields without a label, buttons
    /// and links without a name, charts without a text alternative, a first
    /// stop that is not the skip link, and text under WCAG AA contrast
    /// (4.5:1) against the background it is drawn on.
    static let accessibilityProblems = """
        const problems = [];
        for (const field of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
          if (field.labels.length === 0 && !field.getAttribute('aria-label')) problems.push('unlabelled ' + field.outerHTML.slice(0, 80));
        }
        for (const control of document.querySelectorAll('button, a[href]')) {
          if (!(control.getAttribute('aria-label') || control.textContent).trim()) problems.push('unnamed ' + control.outerHTML.slice(0, 80));
        }
        for (const chart of document.querySelectorAll('svg')) {
          if (chart.getAttribute('role') !== 'img' || !chart.getAttribute('aria-label')) problems.push('chart without text');
        }
        const first = document.querySelector('a[href], button, input:not([type=hidden]), select');
        if (!first || !first.classList.contains('skip')) problems.push('the first stop is not the skip link');
        const channel = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
        const luminance = rgb => { const [r, g, b] = rgb.match(/[\\d.]+/g).map(Number); return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b); };
        const background = element => {
          for (let e = element; e; e = e.parentElement) {
            const color = getComputedStyle(e).backgroundColor;
            if (color !== 'rgba(0, 0, 0, 0)' && color !== 'transparent') return color;
          }
          return 'rgb(255, 255, 255)';
        };
        for (const element of document.querySelectorAll('body *')) {
          if (element.closest('svg, .sr, .skip') || ![...element.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
          const [a, b] = [luminance(getComputedStyle(element).color), luminance(background(element))];
          const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
          if (ratio < 4.5) problems.push('contrast ' + ratio.toFixed(2) + ' ' + element.tagName + ' ' + element.textContent.trim().slice(0, 30));
        }
        return problems;
        """

    func accessibilityProblems(_ browser: Browser) async throws -> [String] {
        (try await browser.evaluate(Self.accessibilityProblems) as? [Any])?.map { "\($0)" } ?? ["the check did not run"]
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
            let schoolClass = try created.decoded(SchoolClass.self)
            let classID = schoolClass.id
            let code = try #require(schoolClass.joinCode)
            let learner = try await client.signUp(firstName: "Léo", email: "leo@example.com")
            _ = try await client.patch(
                "/v1/learners/\(learner.learnerID)", token: learner.token, json: ["keepRecordings": true, "targetLanguages": ["fr", "en"]])
            #expect(
                try await client.post(
                    "/v1/learners/\(learner.learnerID)/classes", token: learner.token,
                    json: ["joinCode": code, "password": learner.password, "shareRecordings": true]
                ).status == 201)
            let lesson = try await client.post(
                "/v1/learners/\(learner.learnerID)/lessons", token: learner.token,
                json: ["language": "fr", "length": 3, "types": ["translationFromTarget"]]
            ).decoded(Components.Schemas.Lesson.self)
            let question = try #require(lesson.question)
            _ = try await client.post(
                "/v1/learners/\(learner.learnerID)/lessons/\(lesson.id)/answers", token: learner.token,
                json: [
                    "questionId": question.id, "optionId": try TeacherModeTests.rightOption(question), "responseTimeMs": 1500,
                ])
            #expect(try await Self.record(client, learner).status == 201)
            #expect(try await GameTests.playPerfectly(client, learner: learner.learnerID, token: learner.token).status == 200)
            // And a spelling game, played offline: the teacher sees both kinds of game.
            let spelling = try await SpellingHTTPTests().deal(client, learner, ["language": "fr", "words": 2, "offline": true])
            #expect(
                try await client.post(
                    "/v1/learners/\(learner.learnerID)/spellings/\(spelling.id)/log", token: learner.token,
                    json: ["moves": SpellingHTTPTests.log(spelling)]
                ).status == 200)

            let browser = try await Browser.start()
            do {
                try await browser.open(site + "/teach")
                #expect(try await browser.evaluate("return document.querySelector('label[for=email]') !== null") as? Bool == true)
                #expect(try await accessibilityProblems(browser) == [])
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
                // The class's progress: one week's point so far (today's).
                #expect(try await browser.evaluate("return document.querySelectorAll('svg.chart').length") as? Int == 2)
                #expect(try await browser.evaluate("return document.querySelectorAll('svg.chart circle.point').length") as? Int == 1)
                #expect(try await accessibilityProblems(browser) == [])

                // Assignments from the forms: a word list, then two phrases; each listed with its completion.
                _ = try await browser.evaluate("document.querySelector('#word-list').value = 'home'; return null")
                try await browser.click("#assign-word-list button[type=submit]")
                try await browser.wait(for: "a.assignment-link")
                #expect(try await browser.text("#assignment-list").contains("Liste de mots"))
                _ = try await browser.evaluate(
                    "const o = document.querySelectorAll('#phrases option'); o[0].selected = true; o[1].selected = true; return null")
                try await browser.click("#assign-phrases button[type=submit]")
                for _ in 0..<50
                where try await browser.evaluate("return document.querySelectorAll('a.assignment-link').length") as? Int != 2 {
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(try await browser.text("#assignment-list").contains("Phrases: 2"))
                // A pack of the course (issue 34), named as the pack is in French.
                _ = try await browser.evaluate("document.querySelector('#course-pack').value = 'fr-discover-home'; return null")
                try await browser.click("#assign-course-pack button[type=submit]")
                for _ in 0..<50
                where try await browser.evaluate("return document.querySelectorAll('a.assignment-link').length") as? Int != 3 {
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(try await browser.text("#assignment-list").contains("Pack du cours"))
                #expect(try await browser.evaluate("return document.querySelectorAll('#course-lessons option').length") as? Int ?? 0 >= 48)
                // A due date in the past is refused, and the page says why, in French.
                let refused =
                    try await browser.evaluate(
                        """
                        const csrf = document.querySelector('#assign-phrases input[name=csrf]').value;
                        return fetch('/teach/classes/\(classID)/assignments', {method: 'POST',
                          headers: {'Content-Type': 'application/x-www-form-urlencoded'},
                          body: 'kind=wordList&target=home&due=2020-01-01&csrf=' + csrf})
                          .then(r => r.text().then(t => r.status + ' ' + (t.includes('été enregistré') && t.includes('role="alert"'))))
                        """) as? String
                #expect(refused == "422 true")
                try await browser.click("a.assignment-link")
                try await browser.wait(for: "#assignment-name")
                #expect(try await browser.text("#assignment-learners").contains("Léo"))
                #expect(try await accessibilityProblems(browser) == [])
                try await browser.open(site + "/teach/classes/\(classID)")
                let classShot = try await browser.screenshot()
                let classShotPath = (try? Self.save(classShot, "class")) ?? ""
                #expect(Self.isNotBlank(classShot), "\(classShotPath)")

                // The learner's page in French (its first language): its lesson and its game, as tables.
                try await browser.click("a.learner-link")
                try await browser.wait(for: "#learner-name")
                #expect(try await browser.text("#learner-name") == "Léo")
                #expect(try await browser.evaluate("return document.querySelectorAll('#lessons tbody tr').length") as? Int == 1)
                #expect(try await browser.text("#games").contains("295"))
                #expect(try await browser.evaluate("return document.querySelectorAll('#games tbody tr').length") as? Int == 2)
                #expect(try await browser.text("#games").contains("Orthographe"))
                #expect(try await browser.text("#games").contains("Paires de cartes"))
                #expect(try await accessibilityProblems(browser) == [])
                _ = try await browser.evaluate("document.querySelector('#games').scrollIntoView(); return null")
                let gamesShot = try await browser.screenshot()
                let gamesShotPath = (try? Self.save(gamesShot, "learner-games")) ?? ""
                #expect(Self.isNotBlank(gamesShot), "\(gamesShotPath)")
                // In English: the recording's words coloured, playable.
                try await browser.click("nav.languages a[href$='language=en']")
                try await browser.wait(for: "#attempts .word")
                #expect(try await browser.evaluate("return document.querySelectorAll('#attempts .word').length") as? Int == 7)
                #expect(try await browser.evaluate("return document.querySelectorAll('#lessons tbody tr').length") as? Int == 0)
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

                // The teacher removes the learner from the class.
                try await browser.click("#learners button.quiet")
                for _ in 0..<50 where try await browser.evaluate("return document.querySelector('#learners') !== null") as? Bool == true {
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(try await browser.evaluate("return document.querySelector('#learners') === null") as? Bool == true)

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

    /// Issue 32, item 19, tried as a new teacher would: three learners join
    /// a French class, each with a course from the beginning (A1).
    @Test("three beginners: the class page counts them at A1, as their own pages say, with the bar they see; no empty chart")
    func classOfBeginners() async throws {
        try #require(Browser.isInstalled, "chromium and chromium-driver are not installed: run make install-deps")
        try await TestApp.make().runLive { client, port in
            let site = "http://localhost:\(port)"
            let teacher = try await client.signUp(email: "prof@example.fr", language: "fr")
            _ = try await client.send(.put, "/v1/me/teacher", token: teacher.token, json: ["displayName": "Mme Dupont"])
            let created = try await client.post(
                "/v1/classes", token: teacher.token, json: ["name": "6e A", "language": "fr", "level": "A1"])
            let schoolClass = try created.decoded(SchoolClass.self)
            let classID = schoolClass.id
            let code = try #require(schoolClass.joinCode)
            var learners: [Client.SignedUp] = []
            for name in ["Ana", "Bao", "Chloé"] {
                let learner = try await client.signUp(firstName: name, email: "\(name.lowercased())@example.com")
                #expect(
                    try await client.post(
                        "/v1/learners/\(learner.learnerID)/classes", token: learner.token,
                        json: ["joinCode": code, "password": learner.password]
                    ).status == 201)
                learners.append(learner)
            }
            func startCourse(_ learner: Client.SignedUp) async throws {
                #expect(try await client.startCourse("fr", for: learner).level == .a1)
            }
            func page() async throws -> String {
                try await client.get("/teach/classes/\(classID)", headers: ["Cookie": "parla_teach=\(teacher.token)"]).text
            }
            // Members who have not begun French yet: the level chart says so instead of six empty bars.
            let unstarted = try await page()
            #expect(unstarted.contains("id=\"levels-empty\"") && !unstarted.contains("class=\"chart"), "\(unstarted)")
            for learner in learners.prefix(2) { try await startCourse(learner) }
            // Seen (and kept) before the third starts its course: the course then drops the kept page.
            #expect(try await page().contains("<td class=\"level\">–</td>"))
            try await startCourse(learners[2])
            for _ in 0..<50 where try await page().contains("<td class=\"level\">–</td>") { try await Task.sleep(for: .milliseconds(100)) }

            for (width, height, name) in [(1280, 1800, "class-desktop"), (390, 2600, "class-phone")] {
                let browser = try await Browser.start(width: width, height: height)
                do {
                    try await browser.open(site + "/teach")
                    try await browser.type("prof@example.fr", into: "#email")
                    try await browser.type(teacher.password, into: "#password")
                    try await browser.click("#sign-in")
                    try await browser.wait(for: "a.class-link")
                    try await browser.open(site + "/teach/classes/\(classID)")
                    try await browser.wait(for: "#learners")
                    // Three learners at A1 in the chart and in the table, each with the bar its app shows.
                    let levels =
                        try await browser.evaluate("return document.querySelector('svg.chart').getAttribute('aria-label')") as? String
                    #expect(levels == "Apprenants par niveau: A1 3, A2 0, B1 0, B2 0, C1 0, C2 0")
                    let cells =
                        try await browser.evaluate(
                            "return [...document.querySelectorAll('#learners td.level')].map(c => c.innerText.trim())")
                        as? [String]
                    #expect(cells == ["A1", "A1", "A1"])
                    let bars =
                        try await browser.evaluate(
                            "return [...document.querySelectorAll('#learners td.level svg.meter')].map(s => s.getAttribute('aria-label'))")
                        as? [String]
                    #expect(bars == Array(repeating: "A1, 50 % du chemin vers A2", count: 3))
                    // No answer yet: the progress chart says so, in the teacher's language, instead of bare gridlines.
                    #expect(try await browser.text("#progress-empty") == "Pas encore de réponses.")
                    #expect(try await browser.evaluate("return document.querySelectorAll('svg.chart').length") as? Int == 1)
                    #expect(try await browser.text("main").contains("-2.00") == false)
                    #expect(try await accessibilityProblems(browser) == [])
                    // Nothing wider than the screen: a wide table scrolls in its own box.
                    #expect(try await browser.evaluate("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool == true)
                    let shot = try await browser.screenshot()
                    let shotPath = (try? Self.save(shot, name)) ?? ""
                    #expect(Self.isNotBlank(shot), "\(shotPath)")

                    // A learner's own page, in the class's language: A1, each skill as its level and bar, no raw ability.
                    try await browser.click("a.learner-link")
                    try await browser.wait(for: "#learner-name")
                    #expect(try await browser.text("#learner-name") == "Ana")
                    #expect(try await browser.text("main").contains("français · Niveau A1"))
                    #expect(try await browser.text("#learner-level") == "A1")
                    let skills =
                        try await browser.evaluate("return [...document.querySelectorAll('#skills td.level')].map(c => c.innerText.trim())")
                        as? [String]
                    #expect(skills == Array(repeating: "A1", count: 5))
                    #expect(try await browser.evaluate("return document.querySelectorAll('#skills svg.meter').length") as? Int == 5)
                    #expect(try await browser.text("main").contains("-2.00") == false)
                    #expect(try await browser.text("#history-empty") == "Pas encore de réponses.")
                    // The course's packs, in the teacher's language: none begun, the sold ones locked.
                    let packs =
                        try await browser.evaluate(
                            "return [...document.querySelectorAll('#packs tbody tr')].map(r => r.innerText.replace(/\\s+/g, ' ').trim())")
                        as? [String] ?? []
                    #expect(packs.count == 9 && packs.allSatisfy { $0.contains("0 / 6") }, "\(packs)")
                    #expect(packs.first?.hasPrefix("Les mots-outils") == true, "\(packs)")
                    #expect(packs.filter { $0.contains("Verrouillé") }.count == 5, "\(packs)")
                    #expect(try await accessibilityProblems(browser) == [])
                    if width == 390 {
                        let learnerShot = try await browser.screenshot()
                        let learnerShotPath = (try? Self.save(learnerShot, "learner-phone")) ?? ""
                        #expect(Self.isNotBlank(learnerShot) || learnerShot.count > 8_000, "\(learnerShotPath)")
                    }
                } catch {
                    await browser.quit()
                    throw error
                }
                await browser.quit()
            }
        }
    }

    @Test("a class page kept in memory carries each visitor's own CSRF token, and shows the teacher's changes at once")
    func keptClassPage() async throws {
        try await TestApp.make().run { client in
            let (teacher, classID, _) = try await client.teacherWithClass()
            let signedIn = try await client.post("/v1/sessions", json: ["email": teacher.email, "password": teacher.password])
            let laptop = try signedIn.decoded(Components.Schemas.SignedIn.self).session.token
            func page(_ token: String) async throws -> String {
                let reply = try await client.get("/teach/classes/\(classID)", headers: ["Cookie": "parla_teach=\(token)"])
                #expect(reply.status == 200)
                return reply.text
            }
            func tokens(_ page: String) -> Set<String> {
                Set(page.matches(of: /name="csrf" value="([0-9a-f]+)"/).map { String($0.output.1) })
            }
            let first = try await page(teacher.token)
            let again = try await page(teacher.token)
            let other = try await page(laptop)
            #expect(first == again)
            // One token a page, the visitor's own: another session's page differs only by it.
            let (mine, theirs) = (tokens(first), tokens(other))
            #expect(mine.count == 1 && theirs.count == 1 && mine != theirs)
            #expect(other == first.replacingOccurrences(of: mine.first!, with: theirs.first!))
            #expect(first.matches(of: /csrf[0-9A-F]{32}/).isEmpty)
            // The page's token is the one its forms need.
            let closed = try await client.send(
                .post, "/teach/classes/\(classID)/join-code", body: Array("action=close&csrf=\(theirs.first!)".utf8),
                headers: ["Cookie": "parla_teach=\(laptop)", "Content-Type": "application/x-www-form-urlencoded"])
            #expect(closed.status == 303 && closed.headers[.location] == "/teach/classes/\(classID)", "\(closed.headers)")
            // The teacher's change shows at once, in every session's page.
            let closedPage = try await page(teacher.token)
            #expect(
                closedPage.contains(#"<em id="join-code">"#),
                "\(closedPage.components(separatedBy: "join-code").dropFirst().first?.prefix(120) ?? "")")
            #expect(try await page(laptop) != other)
        }
    }

    @Test("a recording not shared with the class is listed without its audio")
    func recordingNotShared() async throws {
        try await TestApp.make().run { client in
            let (teacher, _, code) = try await client.teacherWithClass()
            let learner = try await client.signUp(email: "leo@example.com")
            _ = try await client.patch("/v1/learners/\(learner.learnerID)", token: learner.token, json: ["keepRecordings": true])
            _ = try await client.post(
                "/v1/learners/\(learner.learnerID)/classes", token: learner.token, json: ["joinCode": code, "password": learner.password])
            #expect(try await Self.record(client, learner).status == 201)
            let page = try await client.get(
                "/teach/learners/\(learner.learnerID)?language=en", headers: ["Cookie": "parla_teach=\(teacher.token)"]
            ).text
            #expect(page.contains("class=\"word"))
            #expect(!page.contains("<audio") && !page.contains("nil"))
        }
    }

    @Test("a parent sees its own child's page; the pages are readable on a phone")
    func parentOnPhone() async throws {
        try #require(Browser.isInstalled, "chromium and chromium-driver are not installed: run make install-deps")
        try await TestApp.make().runLive { client, port in
            let parent = try await client.signUp(email: "parent@example.com", language: "de")
            let child = try await client.post(
                "/v1/learners", token: parent.token, json: ["displayName": "Mia", "age": 8, "targetLanguages": ["es"]]
            ).decoded(Components.Schemas.Learner.self).id
            let browser = try await Browser.start(width: 390, height: 844)
            do {
                try await Self.signInFamily(browser, port: port, email: "parent@example.com", password: parent.password)
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

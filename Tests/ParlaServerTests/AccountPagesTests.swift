import Foundation
import ParlaTestSupport
import Testing

/// The pages emailed links open (issue 19, item 1), in headless Chromium.
extension DashboardTests {
    @Test("an emailed link opens a page that confirms the email or sets a new password, once, and says why not otherwise")
    func emailedLinks() async throws {
        try #require(Browser.isInstalled, "chromium and chromium-driver are not installed: run make install-deps")
        let app = try await TestApp.make()
        try await app.runLive { client, port in
            let site = "http://localhost:\(port)"
            let zoe = try await client.signUp(email: "zoe@example.com")
            #expect(try await client.post("/v1/password-resets", json: ["email": "zoe@example.com"]).status == 202)
            let folder = app.settings.mail.outboxDirectory
            var files: [String] = []
            #expect(
                try await eventually {
                    files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".eml") }
                    return files.count == 2
                })
            func link(_ kind: String) throws -> String {
                let file = try #require(files.first { $0.contains("-\(kind)-") })
                let link = try #require(try TestMail(file: folder + "/" + file).link)
                return link.replacingOccurrences(of: "http://127.0.0.1:8080", with: site)
            }
            let (verify, reset) = (try link("email_verification"), try link("password_reset"))
            let browser = try await Browser.start()
            do {
                // Opening the link changes nothing; the button does.
                try await browser.open(verify)
                #expect(try await browser.text("h1") == "Confirm your email address")
                #expect(try await accessibilityProblems(browser) == [])
                #expect(
                    try await client.get("/v1/me", token: zoe.token).json["account"].flatMap { ($0 as? JSON)?["emailVerified"] as? Bool }
                        == false)
                try await browser.click("#confirm")
                try await browser.wait(for: "#done")
                #expect(
                    try await client.get("/v1/me", token: zoe.token).json["account"].flatMap { ($0 as? JSON)?["emailVerified"] as? Bool }
                        == true)
                // The same link again: refused, and the page says so.
                try await browser.open(verify)
                try await browser.click("#confirm")
                try await browser.wait(for: "#problems")
                #expect(try await browser.text("#problems").contains("already used"))

                try await browser.open(reset)
                #expect(try await browser.text("h1") == "Choose a new password")
                #expect(try await accessibilityProblems(browser) == [])
                try await browser.type("short", into: "#newPassword")
                try await browser.click("#save")
                try await browser.wait(for: "#problems")
                try await browser.type("a stable new horse", into: "#newPassword")
                try await browser.click("#save")
                try await browser.wait(for: "#done")
                #expect(try await client.get("/v1/me", token: zoe.token).status == 401)
                let signedIn = try await client.post("/v1/sessions", json: ["email": "zoe@example.com", "password": "a stable new horse"])
                #expect(signedIn.status == 201)
            } catch {
                await browser.quit()
                throw error
            }
            await browser.quit()
        }
    }

    /// Issue 32, item 11: the old address's link opens a page whose button
    /// puts the address back and signs every device out.
    @Test("the \"your email was changed\" link opens a page that puts the old address back and signs everyone out")
    func undoEmailChangePage() async throws {
        try #require(Browser.isInstalled, "chromium and chromium-driver are not installed: run make install-deps")
        let app = try await TestApp.make()
        try await app.runLive { client, port in
            let zoe = try await client.signUp(email: "zoe@example.com", language: "fr")
            let folder = app.settings.mail.outboxDirectory
            func token(of kind: String) async throws -> String? {
                var found: String?
                _ = try await eventually {
                    let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.contains("-\(kind)-") }
                    found = try files.first.flatMap { try TestMail(file: folder + "/" + $0).token }
                    return found != nil
                }
                return found
            }
            // A confirmed address (an unconfirmed one gets no way back: it may be a stranger's typo).
            let verification = try #require(try await token(of: "email_verification"))
            #expect(try await client.post("/v1/email-verifications", json: ["token": verification]).status == 204)
            let changed = try await client.patch(
                "/v1/me", token: zoe.token, json: ["email": "thief@example.net", "currentPassword": zoe.password])
            #expect(changed.status == 200)
            var undo: String?
            #expect(
                try await eventually {
                    let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
                        $0.contains("-email_changed-")
                    }
                    undo = try files.first.flatMap { try TestMail(file: folder + "/" + $0).link }
                    return undo != nil
                })
            let link = try #require(undo).replacingOccurrences(of: "http://127.0.0.1:8080", with: "http://localhost:\(port)")
            let browser = try await Browser.start()
            do {
                // Opening the link changes nothing; the button does.
                try await browser.open(link)
                #expect(try await browser.text("h1") == "Put your email address back")
                #expect(try await accessibilityProblems(browser) == [])
                #expect(try await client.get("/v1/me", token: zoe.token).status == 200)
                try await browser.click("#undo")
                try await browser.wait(for: "#done")
                #expect(try await eventually { try await client.get("/v1/me", token: zoe.token).status == 401 })
                let back = try await client.post("/v1/sessions", json: ["email": "zoe@example.com", "password": zoe.password])
                #expect(back.status == 201)
                try await browser.open(link)
                try await browser.click("#undo")
                try await browser.wait(for: "#problems")
            } catch {
                await browser.quit()
                throw error
            }
            await browser.quit()
        }
    }

    /// Issue 32, item 13: an account with two-factor sign-in signs in to
    /// the dashboard with its code too.
    @Test("the dashboard's sign-in asks an account with two-factor sign-in for its code")
    func dashboardSignInWithCode() async throws {
        try #require(Browser.isInstalled, "chromium and chromium-driver are not installed: run make install-deps")
        try await TestApp.make().runLive { client, port in
            let zoe = try await client.signUp(email: "zoe@example.com")
            let codes = try await client.turnOnTwoFactor(token: zoe.token).recoveryCodes
            let browser = try await Browser.start()
            do {
                try await browser.open("http://localhost:\(port)/teach")
                #expect(try await accessibilityProblems(browser) == [])
                try await browser.type("zoe@example.com", into: "#email")
                try await browser.type(zoe.password, into: "#password")
                try await browser.click("#sign-in")
                try await browser.wait(for: "p.error")
                #expect(try await browser.text("p.error").contains("six-digit code"))
                try await browser.type(zoe.password, into: "#password")
                try await browser.type(codes[0], into: "#oneTimeCode")
                try await browser.click("#sign-in")
                // Home: the family's learners, no sign-in form.
                try await browser.wait(for: "a[href^='/teach/learners/']")
                #expect(try await browser.evaluate("return document.querySelector('#oneTimeCode') === null") as? Bool == true)
            } catch {
                await browser.quit()
                throw error
            }
            await browser.quit()
        }
    }
}

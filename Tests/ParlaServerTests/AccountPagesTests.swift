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
}

import Foundation
import Logging
import ParlaAPI
import ParlaCore
import ParlaMail
import ParlaOperations
import ParlaServer
import ParlaTestSupport
import Testing

/// Issue 19, item 6 (seed 004, BF 3): bug reports and support.
@Suite("support: bug reports")
struct SupportTests {
    typealias Report = Components.Schemas.SupportReport
    typealias Reports = Components.Schemas.SupportReports

    static let reportText = "The game froze after the third pair.\nI had to restart the app."
    static let report: [String: any Sendable] = [
        "text": reportText, "appVersion": "2.4.1", "platform": "ios", "device": "iPhone 15, iOS 18.1",
    ]

    @Test(
        "a report gets a reference and an acknowledgment by SMTP; a screenshot; support lists, filters and sets its status, the reporter sees it"
    )
    func reports() async throws {
        let smtp = try await TestSMTPServer()
        defer { Task { await smtp.stop() } }
        let app = try await TestApp.make {
            $0.mail.smtp = SMTPSettings(
                host: "localhost", port: smtp.port, security: .startTLS, username: smtp.options.username,
                password: smtp.options.password, rootCertificates: smtp.certificates.map { [$0.caFile] } ?? [], timeout: .seconds(10))
            $0.mail.pollSeconds = 0.2
        }
        let (zoe, agent) = try await app.run { client in
            (try await client.signUp(language: "fr"), try await client.signUp(email: "agent@example.com"))
        }
        _ = try await SupportDesk.with(app.settings, logger: Logger(label: "parla.test.support")) {
            try await $0.role(.support, for: agent.email, revoke: false)
        }
        try await app.run { client in
            // Staff sign in with a second factor (issue 32, item 13).
            #expect(try await client.get("/v1/support/queue", token: agent.token).code == "two_factor_setup_required")
            try await client.turnOnTwoFactor(token: agent.token)
            var report = Self.report
            report["learnerId"] = zoe.learnerID
            let filed = try await client.post("/v1/support/reports", token: zoe.token, json: report)
            #expect(filed.status == 201, "\(filed.text)")
            let filedReport = try filed.decoded(Report.self)
            let id = filedReport.id
            let reference = filedReport.reference
            #expect(reference.hasPrefix("PR-") && reference.count == 9 && filedReport.status == .open)
            #expect(filedReport.text == Self.reportText)
            // Raw JSON: the reporter's email is for support only, and a typed decode cannot tell a key left out from a null.
            #expect(filed.json["reporterEmail"] == nil)
            // The acknowledgment, in the reporter's language, quoting the reference.
            let mails = try await smtp.waitFor(3)
            let acknowledgment = try #require(mails.first { $0.mail.header("Subject")?.contains(reference) == true })
            #expect(acknowledgment.recipients == ["zoe@example.com"])
            #expect(acknowledgment.mail.header("Subject") == "Nous avons reçu votre signalement \(reference)")
            #expect(acknowledgment.mail.text.contains(reference))

            // A screenshot, checked from its bytes.
            let shot = Images.png(width: 390, height: 844)
            let attached = try await client.send(
                .put, "/v1/support/reports/\(id)/screenshot", token: zoe.token, body: shot, headers: ["Content-Type": "image/png"])
            #expect(attached.status == 200, "\(attached.text)")
            #expect(try attached.decoded(Report.self).hasScreenshot, "\(attached.text)")
            let notImage = try await client.send(
                .put, "/v1/support/reports/\(id)/screenshot", token: zoe.token, body: Array("not a picture".utf8),
                headers: ["Content-Type": "image/png"])
            #expect(notImage.status == 415 && notImage.code == "unsupported_image")
            let huge = try await client.send(
                .put, "/v1/support/reports/\(id)/screenshot", token: zoe.token, body: [UInt8](repeating: 0, count: 3 * 1024 * 1024),
                headers: ["Content-Type": "image/png"])
            #expect(huge.status == 413)

            // Support sees the queue, filters it, reads the report and its screenshot, and sets the status.
            let queue = try await client.get("/v1/support/queue?status=open&platform=ios", token: agent.token)
            let listed = try queue.decoded(Reports.self).reports
            #expect(listed.count == 1 && listed.first?.reporterEmail == "zoe@example.com", "\(queue.text)")
            #expect(try await client.get("/v1/support/queue?platform=android", token: agent.token).decoded(Reports.self).reports.isEmpty)
            #expect(try await client.get("/v1/support/reports/\(id)/screenshot", token: agent.token).bytes == shot)
            let changed = try await client.patch(
                "/v1/support/reports/\(id)", token: agent.token, json: ["status": "in_progress", "note": "Reproduced on iOS 18."]
            ).decoded(Report.self)
            #expect(changed.status == .inProgress && changed.note == "Reproduced on iOS 18.")
            #expect(
                try await client.patch("/v1/support/reports/\(id)", token: agent.token, json: ["status": "lost"]).fieldErrors
                    == ["status:invalid_report_status"])
            #expect(try await client.get("/v1/support/queue?status=open", token: agent.token).decoded(Reports.self).reports.isEmpty)

            // The reporter sees the status, not support's note; only support changes it.
            let mine = try await client.get("/v1/support/reports", token: zoe.token)
            let own = try #require(try mine.decoded(Reports.self).reports.first)
            #expect(own.status == .inProgress && own.reference == reference)
            // Raw JSON: support's note is for support only, and a typed decode cannot tell a key left out from a null.
            let ownRaw = try #require((mine.json["reports"] as? [[String: any Sendable]])?.first)
            #expect(ownRaw["note"] == nil)
            #expect(try await client.get("/v1/support/reports/\(id)", token: zoe.token).decoded(Report.self).status == .inProgress)
            let refused = try await client.patch("/v1/support/reports/\(id)", token: zoe.token, json: ["status": "closed"])
            #expect(refused.status == 403 && refused.code == "staff_role_required")
            #expect(try await client.get("/v1/support/queue", token: zoe.token).code == "staff_role_required")

            // Another account sees no such report, nor its screenshot.
            let max = try await client.signUp(email: "max@example.com")
            #expect(try await client.get("/v1/support/reports/\(id)", token: max.token).code == "report_not_found")
            #expect(try await client.get("/v1/support/reports/\(id)/screenshot", token: max.token).status == 404)
            #expect(try await client.get("/v1/support/reports", token: max.token).decoded(Reports.self).reports.isEmpty)
        }
    }

    @Test("a bad report names every problem; another's learner is refused; a day's reports are bounded")
    func badReports() async throws {
        try await TestApp.make().run { client in
            let zoe = try await client.signUp()
            let bad = try await client.post(
                "/v1/support/reports", token: zoe.token,
                json: ["text": "short", "appVersion": "two", "platform": "symbian", "device": ""])
            #expect(
                bad.fieldErrors == [
                    "text:invalid_report_text", "appVersion:invalid_app_version", "platform:validation_failed", "device:validation_failed",
                ])
            #expect(
                try await client.post("/v1/support/reports", token: zoe.token, json: [:]).fieldErrors == [
                    "text:required", "appVersion:required", "platform:required", "device:required",
                ])
            // Line breaks are text in a report, but other control characters are not.
            var bell = Self.report
            bell["text"] = "It rang \u{7} twice, then crashed."
            #expect(try await client.post("/v1/support/reports", token: zoe.token, json: bell).fieldErrors == ["text:control_character"])
            var foreign = Self.report
            foreign["learnerId"] = try await client.signUp(email: "max@example.com").learnerID
            #expect(try await client.post("/v1/support/reports", token: zoe.token, json: foreign).code == "learner_not_found")
            #expect(try await client.post("/v1/support/reports", json: Self.report).status == 401)
            for _ in 1...SupportReport.dailyLimit {
                #expect(try await client.post("/v1/support/reports", token: zoe.token, json: Self.report).status == 201)
            }
            let over = try await client.post("/v1/support/reports", token: zoe.token, json: Self.report)
            #expect(over.status == 429 && over.code == "too_many_reports" && over.header("Retry-After") != nil)
            // Reports page by reference.
            let first = try await client.get("/v1/support/reports?limit=15", token: zoe.token).decoded(Reports.self).reports
            let last = try #require(first.last?.reference)
            let rest = try await client.get("/v1/support/reports?limit=15&before=\(last)", token: zoe.token).decoded(Reports.self).reports
            #expect(first.count == 15 && rest.count == 5)
        }
    }
}

import Foundation
import ParlaAPI
import ParlaMail
import ParlaServer
import ParlaTestSupport
import PostgresNIO
import Testing

/// Issue 19, item 1: password reset and email verification, through an
/// outbox delivered to a real SMTP server on loopback.
@Suite("email: verification, password reset, delivery")
struct EmailTests {
    typealias SignedIn = Components.Schemas.SignedIn

    /// A server whose email goes to `smtp`, retrying fast.
    func app(_ smtp: TestSMTPServer, security: SMTPSettings.Security = .startTLS) async throws -> TestApp {
        try await TestApp.make {
            $0.mail.smtp = SMTPSettings(
                host: "localhost", port: smtp.port, security: security, username: smtp.options.username,
                password: smtp.options.password, rootCertificates: smtp.certificates.map { [$0.caFile] } ?? [], timeout: .seconds(10))
            $0.mail.retrySeconds = 0.2
            $0.mail.pollSeconds = 0.2
        }
    }

    func account(_ client: Client, _ token: String) async throws -> Components.Schemas.Account {
        try await client.get("/v1/me", token: token).decoded(Components.Schemas.Me.self).account
    }

    func outbox(_ app: TestApp) async throws -> (waiting: Int, sent: Int, failed: Int, errors: [String]) {
        let rows = try await TestDatabase.shared.rows(
            in: app.databaseURL,
            """
            SELECT count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL)::int, count(sent_at)::int, count(failed_at)::int,
                   COALESCE(array_agg(last_error) FILTER (WHERE last_error IS NOT NULL), '{}')
            FROM outbox
            """)
        let (waiting, sent, failed, errors) = try rows[0].decode((Int, Int, Int, [String]).self)
        return (waiting, sent, failed, errors)
    }

    @Test("sign-up sends a verification email over STARTTLS with AUTH, in the account's language; its link confirms the email once")
    func verification() async throws {
        let smtp = try await TestSMTPServer()
        defer { Task { await smtp.stop() } }
        let app = try await app(smtp)
        try await app.run { client in
            let signedUp = try await client.signUp(email: "Zoe@Example.com", language: "fr")
            #expect(try await account(client, signedUp.token).emailVerified == false)
            let delivered = try #require(try await smtp.waitFor(1).first)
            #expect(delivered.tls && delivered.authenticatedAs == "parla")
            #expect(delivered.recipients == ["Zoe@Example.com"] && delivered.mailFrom == "no-reply@parla.app")
            let mail = delivered.mail
            #expect(mail.header("Subject") == "Confirmez votre adresse e-mail pour Parla")
            #expect(mail.header("Content-Language") == "fr" && mail.text.contains("Bonjour Zoë"))
            #expect(mail.link?.hasPrefix("http://127.0.0.1:8080/verify-email?token=") == true)
            let token = try #require(mail.token)
            #expect(try await client.post("/v1/email-verifications", json: ["token": token]).status == 204)
            #expect(try await account(client, signedUp.token).emailVerified == true)
            let again = try await client.post("/v1/email-verifications", json: ["token": token])
            #expect(again.status == 400 && again.code == "invalid_token")
            #expect(try await client.post("/v1/email-verifications", json: ["token": "made-up"]).code == "invalid_token")
            #expect(try await client.post("/v1/email-verifications", json: [:]).fieldErrors == ["token:required"])
            let resend = try await client.post("/v1/me/email-verification", token: signedUp.token, json: [:])
            #expect(resend.status == 409 && resend.code == "email_already_verified")
            #expect(try await outbox(app).sent == 1)
        }
    }

    @Test("a password reset: the email arrives, its token sets a new password once and signs out every device")
    func reset() async throws {
        let smtp = try await TestSMTPServer()
        defer { Task { await smtp.stop() } }
        let app = try await app(smtp)
        try await app.run { client in
            let signedUp = try await client.signUp(email: "zoe@example.com")
            let other = try await client.post("/v1/sessions", json: ["email": signedUp.email, "password": signedUp.password])
            let otherToken = try other.decoded(SignedIn.self).session.token
            // Nobody has this email: the same answer, and no email.
            let unknown = try await client.post("/v1/password-resets", json: ["email": "nobody@example.com"])
            #expect(unknown.status == 202)
            #expect(try await client.post("/v1/password-resets", json: ["email": "  ZOE@example.com"]).status == 202)
            #expect(try await client.post("/v1/password-resets", json: ["email": "zoe@"]).fieldErrors == ["email:invalid_email"])
            // Two emails: sign-up's verification and the reset, in whichever order the outbox delivered them.
            let messages = try await smtp.waitFor(2)
            let delivered = try #require(messages.first { $0.mail.link?.contains("/reset-password?") == true })
            #expect(delivered.recipients == ["zoe@example.com"])
            let mail = delivered.mail
            #expect(mail.header("Subject") == "Reset your Parla password" && mail.text.contains("within an hour"))
            let token = try #require(mail.token)
            #expect(mail.link == "http://127.0.0.1:8080/reset-password?token=\(token)")
            // The policy holds, and a refused password does not use the token.
            let weak = try await client.post("/v1/password-resets/confirm", json: ["token": token, "newPassword": "short"])
            #expect(weak.status == 422 && weak.fieldErrors.contains { $0.hasPrefix("newPassword:") })
            let reset = try await client.post("/v1/password-resets/confirm", json: ["token": token, "newPassword": "a new stable horse"])
            #expect(reset.status == 204, "\(reset.text)")
            for old in [signedUp.token, otherToken] { #expect(try await client.get("/v1/me", token: old).status == 401) }
            let oldPassword = try await client.post("/v1/sessions", json: ["email": signedUp.email, "password": signedUp.password])
            #expect(oldPassword.status == 401)
            let signedIn = try await client.post("/v1/sessions", json: ["email": signedUp.email, "password": "a new stable horse"])
            #expect(signedIn.status == 201)
            let newToken = try signedIn.decoded(SignedIn.self).session.token
            // The link reached the address: it counts as confirmed.
            #expect(try await account(client, newToken).emailVerified == true)
            let reused = try await client.post("/v1/password-resets/confirm", json: ["token": token, "newPassword": "yet another horse"])
            #expect(reused.status == 400 && reused.code == "invalid_token")
            #expect(
                try await client.post("/v1/password-resets/confirm", json: [:]).fieldErrors == ["token:required", "newPassword:required"])
            // No token in the logs.
            #expect(!app.logs.all.contains { $0.contains(token) })
        }
    }

    @Test("a token works for an hour: an expired one is refused")
    func expiry() async throws {
        let smtp = try await TestSMTPServer()
        defer { Task { await smtp.stop() } }
        let app = try await app(smtp)
        try await app.run { client in
            let signedUp = try await client.signUp()
            #expect(try await client.post("/v1/password-resets", json: ["email": signedUp.email]).status == 202)
            let messages = try await smtp.waitFor(2)
            try await TestDatabase.shared.execute(
                in: app.databaseURL, "UPDATE account_tokens SET expires_at = now() - interval '1 second'")
            for message in messages {
                let path = message.mail.link?.contains("reset-password") == true ? "/v1/password-resets/confirm" : "/v1/email-verifications"
                let reply = try await client.post(path, json: ["token": message.mail.token ?? "", "newPassword": "a new stable horse"])
                #expect(reply.code == "invalid_token", "\(path)")
            }
            // Stored as hashes: the tokens themselves are nowhere in the table.
            let stored = try await TestDatabase.shared.rows(in: app.databaseURL, "SELECT token_hash FROM account_tokens")
            #expect(stored.count == 2)
            for row in stored {
                let hash = try row.decode(ByteBuffer.self)
                #expect(hash.readableBytes == 32)
                #expect(!messages.contains { String(decoding: hash.readableBytesView, as: UTF8.self) == $0.mail.token })
            }
        }
    }

    @Test("an email change needs the password, sends a link to the new address, tells the old one and ends other sessions")
    func emailChange() async throws {
        let smtp = try await TestSMTPServer()
        defer { Task { await smtp.stop() } }
        let app = try await app(smtp)
        try await app.run { client in
            let signedUp = try await client.signUp(email: "zoe@example.com", language: "de")
            let first = try await smtp.waitFor(1)[0]
            // The address is confirmed: only a confirmed address gets the way back.
            #expect(try await client.post("/v1/email-verifications", json: ["token": first.mail.token ?? ""]).status == 204)
            let elsewhere = try await client.post("/v1/sessions", json: ["email": signedUp.email, "password": signedUp.password])
                .decoded(SignedIn.self).session.token
            // Issue 32, item 11: a stolen session cannot take the address without the password.
            let bare = try await client.patch("/v1/me", token: signedUp.token, json: ["email": "zoe@example.org"])
            #expect(bare.status == 422 && bare.fieldErrors == ["currentPassword:required"])
            let wrong = try await client.patch(
                "/v1/me", token: signedUp.token, json: ["email": "zoe@example.org", "currentPassword": "not the password"])
            #expect(wrong.code == "wrong_current_password")
            #expect(try await account(client, signedUp.token).email == "zoe@example.com")
            let changed = try await client.patch(
                "/v1/me", token: signedUp.token, json: ["email": "zoe@example.org", "currentPassword": signedUp.password])
            #expect(changed.status == 200)
            #expect(try changed.decoded(Components.Schemas.Me.self).account.emailVerified == false)
            // Every other session ends; this one goes on.
            #expect(try await eventually { try await client.get("/v1/me", token: elsewhere).status == 401 })
            #expect(try await client.get("/v1/me", token: signedUp.token).status == 200)
            // The old address is told, masked, in the account's language, with a link that undoes it for 7 days.
            let delivered = try await smtp.waitFor(3)
            let told = try #require(delivered.dropFirst().first { $0.recipients == ["zoe@example.com"] })
            #expect(told.mail.header("Subject") == "Die E-Mail-Adresse Ihres Parla-Kontos wurde geändert")
            #expect(told.mail.text.contains("z***@example.org") && !told.mail.text.contains("zoe@example.org"))
            #expect(told.mail.link?.hasPrefix("http://127.0.0.1:8080/undo-email-change?token=") == true)
            let second = try #require(delivered.dropFirst().first { $0.recipients == ["zoe@example.org"] })
            #expect(second.recipients == ["zoe@example.org"] && second.mail.header("Content-Language") == "de")
            #expect(second.mail.header("Subject") == "Bestätigen Sie Ihre E-Mail-Adresse für Parla")
            let stale = try await client.post("/v1/email-verifications", json: ["token": first.mail.token ?? ""])
            #expect(stale.code == "invalid_token")
            #expect(try await client.post("/v1/email-verifications", json: ["token": second.mail.token ?? ""]).status == 204)
            #expect(try await account(client, signedUp.token).emailVerified == true)
            // Changing only the name sends nothing and keeps the confirmation.
            _ = try await client.patch("/v1/me", token: signedUp.token, json: ["firstName": "Zoé"])
            #expect(try await account(client, signedUp.token).emailVerified == true)
            let tokenRows = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                "SELECT extract(epoch FROM expires_at - created_at)::int FROM account_tokens WHERE purpose = 'email_change_undo'")
            #expect(try tokenRows[0].decode(Int.self) == 7 * 86400)

            // The old owner takes the address back: every session ends, the link works once.
            let undoToken = try #require(told.mail.token)
            #expect(try await client.post("/v1/email-changes/undo", json: ["token": undoToken]).status == 204)
            #expect(try await eventually { try await client.get("/v1/me", token: signedUp.token).status == 401 })
            let back = try await client.post("/v1/sessions", json: ["email": "zoe@example.com", "password": signedUp.password])
            #expect(back.status == 201)
            let restored = try back.decoded(SignedIn.self).account
            #expect(restored.email == "zoe@example.com" && restored.emailVerified == true)
            #expect(try await client.post("/v1/email-changes/undo", json: ["token": undoToken]).code == "invalid_token")
            #expect(try await client.post("/v1/email-changes/undo", json: [:]).fieldErrors == ["token:required"])
            // Resending is limited: 3 verification emails an hour.
            let unverified = try await client.signUp(email: "max@example.com")
            var statuses: [Int] = []
            for _ in 0..<3 {
                statuses.append(try await client.post("/v1/me/email-verification", token: unverified.token, json: [:]).status)
            }
            #expect(statuses == [202, 202, 429])
            _ = try await smtp.waitFor(6)
        }
    }

    @Test("a relay that says try later gets the message in the end; a refused recipient is given up, and neither log nor table names it")
    func retries() async throws {
        var options = TestSMTPServer.Options()
        options.failFirst = 2
        options.rejected = ["gone@example.com"]
        let smtp = try await TestSMTPServer(options)
        defer { Task { await smtp.stop() } }
        let app = try await app(smtp)
        try await app.run { client in
            _ = try await client.signUp(email: "zoe@example.com")
            #expect(try await smtp.waitFor(1)[0].recipients == ["zoe@example.com"])
            #expect(app.logs.all.filter { $0.contains("email not sent, will retry") }.count == 2)
            _ = try await client.signUp(email: "gone@example.com")
            #expect(try await eventually { try await outbox(app).failed == 1 })
            let state = try await outbox(app)
            #expect(state.sent == 1 && state.waiting == 0)
            #expect(state.errors.contains { $0.contains("550") } && !state.errors.contains { $0.contains("gone@example.com") })
            #expect(app.logs.all.contains { $0.contains("email given up") })
            #expect(!app.logs.all.contains { $0.contains("gone@example.com") })
            // A sent or given-up message keeps no content.
            let contents = try await TestDatabase.shared.rows(in: app.databaseURL, "SELECT count(message)::int FROM outbox")
            #expect(try contents[0].decode(Int.self) == 0)
        }
    }

    @Test("TLS from the first byte (port 465's way) works too")
    func implicitTLS() async throws {
        var options = TestSMTPServer.Options()
        options.tls = .implicit
        let smtp = try await TestSMTPServer(options)
        defer { Task { await smtp.stop() } }
        try await app(smtp, security: .tls).run { client in
            _ = try await client.signUp()
            let delivered = try await smtp.waitFor(1)[0]
            #expect(delivered.tls && delivered.authenticatedAs == "parla")
        }
    }

    @Test("an SMTP server whose certificate is not trusted gets nothing: the message waits")
    func untrusted() async throws {
        let smtp = try await TestSMTPServer()
        defer { Task { await smtp.stop() } }
        let app = try await TestApp.make {
            $0.mail.smtp = SMTPSettings(
                host: "localhost", port: smtp.port, security: .startTLS, username: "parla", password: "s3cret-relay", timeout: .seconds(5))
            $0.mail.retrySeconds = 60
        }
        try await app.run { client in
            _ = try await client.signUp()
            #expect(try await eventually { app.logs.all.contains { $0.contains("email not sent, will retry") } })
            #expect(try smtp.delivered().isEmpty)
            let state = try await outbox(app)
            #expect(state.waiting == 1 && state.sent == 0)
        }
    }

    @Test("with no SMTP server, each email is an .eml file in the outbox folder, logged without its token")
    func files() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let signedUp = try await client.signUp(language: "it")
            let folder = app.settings.mail.outboxDirectory
            var files: [String] = []
            #expect(
                try await eventually {
                    files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                    return files.contains { $0.hasSuffix(".eml") }
                })
            let file = try #require(files.first { $0.contains("-email_verification-") && $0.hasSuffix(".eml") })
            let mail = try TestMail(file: folder + "/" + file)
            #expect(mail.header("To") == "zoe@example.com" && mail.header("Subject") == "Conferma il tuo indirizzo email per Parla")
            let token = try #require(mail.token)
            #expect(app.logs.all.contains { $0.contains("email written") })
            #expect(!app.logs.all.contains { $0.contains(token) })
            #expect(try await client.post("/v1/email-verifications", json: ["token": token]).status == 204)
            #expect(try await account(client, signedUp.token).emailVerified == true)
        }
    }
}

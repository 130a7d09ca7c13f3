import Foundation
import Logging
import ParlaAPI
import ParlaIdentity
import ParlaOperations
import ParlaServer
import ParlaTestSupport
import Testing

/// Issue 32, item 13: two-factor sign-in (TOTP, RFC 6238) with recovery
/// codes, required of staff before any staff route answers.
@Suite("two-factor sign-in")
struct TwoFactorTests {
    typealias TwoFactorStatus = Components.Schemas.TwoFactorStatus
    typealias SignedIn = Components.Schemas.SignedIn

    /// RFC 6238's appendix B, SHA-1: the eight-digit codes of its secret.
    @Test("codes are RFC 6238's test vectors; a code counts once, within a step of now; base32 and URIs as apps read them")
    func oneTimeCodes() throws {
        let secret = Array("12345678901234567890".utf8)
        for (seconds, code) in [
            (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
            (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
        ] {
            #expect(OneTimeCode.code(secret, step: OneTimeCode.step(at: Date(timeIntervalSince1970: Double(seconds))), digits: 8) == code)
        }
        #expect(OneTimeCode.base32(secret) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(OneTimeCode.secret(base32: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") == secret)
        let now = Date(timeIntervalSince1970: 1_111_111_109)
        let step = OneTimeCode.step(at: now)
        let code = OneTimeCode.code(secret, step: step)
        #expect(code == "081804")
        #expect(OneTimeCode.matchingStep("081 804", secret: secret, at: now, after: 0) == step)
        #expect(OneTimeCode.matchingStep(code, secret: secret, at: now, after: step) == nil)  // used once
        #expect(OneTimeCode.matchingStep(code, secret: secret, at: now + 15, after: 0) == step)  // a step late
        #expect(OneTimeCode.matchingStep(code, secret: secret, at: now + 45, after: 0) == nil)  // two steps late
        #expect(OneTimeCode.matchingStep("12345", secret: secret, at: now, after: 0) == nil)
        let uri = OneTimeCode.uri(secret: secret, label: "zoe@example.com")
        #expect(
            uri
                == "otpauth://totp/Parla:zoe@example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Parla&algorithm=SHA1&digits=6&period=30"
        )
        let codes = OneTimeCode.newRecoveryCodes()
        #expect(codes.count == 10 && Set(codes).count == 10 && codes.allSatisfy { $0.count == 14 })
        #expect(OneTimeCode.normalizedRecoveryCode(codes[0].uppercased().replacingOccurrences(of: "-", with: " ")) == codes[0])
    }

    @Test("staff routes answer only a session signed in with the second factor; sign-in asks for it; recovery codes work once")
    func staff() async throws {
        let app = try await TestApp.make()
        let agent = try await app.run { client in try await client.signUp(email: "agent@example.com") }
        _ = try await SupportDesk.with(app.settings, logger: Logger(label: "parla.test.two-factor")) {
            try await $0.role(.support, for: agent.email, revoke: false)
        }
        try await app.run { client in
            let before = try await client.get("/v1/support/queue", token: agent.token)
            #expect(before.status == 403 && before.code == "two_factor_setup_required")
            #expect(try await client.get("/v1/me/two-factor", token: agent.token).decoded(TwoFactorStatus.self).required == true)
            // Another device, signed in before the factor was on.
            let olderSession = try await client.post("/v1/sessions", json: ["email": agent.email, "password": agent.password])
            let older = try olderSession.decoded(SignedIn.self).session.token

            // Enrolment needs the password (a stolen session must not lock the owner out):
            // the secret, the URI an app scans, ten codes; on with a first code.
            #expect(try await client.post("/v1/me/two-factor", token: agent.token, json: [:]).fieldErrors == ["currentPassword:required"])
            #expect(
                try await client.post("/v1/me/two-factor", token: agent.token, json: ["currentPassword": "nope nope nope"]).code
                    == "wrong_current_password")
            let enrolled = try await client.post("/v1/me/two-factor", token: agent.token, json: ["currentPassword": agent.password])
            #expect(enrolled.status == 201)
            let enrolment = try enrolled.decoded(Components.Schemas.TwoFactorEnrolment.self)
            #expect(enrolment.otpauthUri.hasPrefix("otpauth://totp/Parla:agent@example.com?secret="))
            let secret = try #require(OneTimeCode.secret(base32: enrolment.secret))
            let codes = enrolment.recoveryCodes
            #expect(codes.count == 10)
            #expect(
                try await client.post("/v1/me/two-factor/confirm", token: agent.token, json: ["code": "000000"]).code
                    == "invalid_one_time_code")
            let step = OneTimeCode.step(at: Date())
            let first = OneTimeCode.code(secret, step: step)
            let confirmed = try await client.post("/v1/me/two-factor/confirm", token: agent.token, json: ["code": first])
            let confirmedStatus = try #require(try? confirmed.decoded(TwoFactorStatus.self), "\(confirmed.text)")
            #expect(confirmed.status == 200 && confirmedStatus.enabled == true, "\(confirmed.text)")
            #expect(
                try await client.post("/v1/me/two-factor", token: agent.token, json: ["currentPassword": agent.password]).code
                    == "two_factor_already_enabled")
            // This session passed it; the older one, signed in without it, is signed out.
            #expect(try await client.get("/v1/support/queue", token: agent.token).status == 200)
            #expect(try await eventually { try await client.get("/v1/support/queue", token: older).status == 401 })
            // A session that did not pass it (as before the factor was on) reads no staff route, reports included.
            try await TestDatabase.shared.execute(in: app.databaseURL, "UPDATE sessions SET second_factor_at = NULL")
            #expect(try await client.get("/v1/support/queue", token: agent.token).code == "two_factor_session_required")
            let report = try await client.post("/v1/support/reports", token: agent.token, json: SupportTests.report)
            #expect(report.status == 201, "\(report.text)")
            let reportID = try report.decoded(Components.Schemas.SupportReport.self).id
            #expect(
                try await client.get("/v1/support/reports/\(reportID)", token: agent.token).code == "two_factor_session_required")

            // Signing in now asks for a code; a used or wrong one is refused.
            func signIn(_ code: String?) async throws -> Client.Reply {
                var json: [String: any Sendable] = ["email": agent.email, "password": agent.password]
                if let code { json["oneTimeCode"] = code }
                return try await client.post("/v1/sessions", json: json)
            }
            let bare = try await signIn(nil)
            #expect(bare.status == 401 && bare.code == "two_factor_required")
            #expect(try await signIn(first).code == "invalid_one_time_code")  // used already
            #expect(try await signIn("123456").code == "invalid_one_time_code" || OneTimeCode.code(secret, step: step + 1) == "123456")
            let next = try await signIn(OneTimeCode.code(secret, step: step + 1))
            #expect(next.status == 201, "\(next.text)")
            let fresh = try next.decoded(SignedIn.self).session.token
            #expect(try await client.get("/v1/support/queue", token: fresh).status == 200)
            #expect(try await client.get("/v1/support/queue", token: agent.token).code == "two_factor_session_required")
            // A recovery code, once.
            let recovered = try await signIn(codes[3].uppercased())
            #expect(recovered.status == 201)
            #expect(try await signIn(codes[3]).code == "invalid_one_time_code")
            #expect(try await client.get("/v1/me/two-factor", token: fresh).decoded(TwoFactorStatus.self).recoveryCodesLeft == 9)

            // Off with a code: staff routes refuse again.
            #expect(try await client.delete("/v1/me/two-factor", token: fresh, json: ["code": "000000"]).code == "invalid_one_time_code")
            #expect(try await client.delete("/v1/me/two-factor", token: fresh, json: ["code": codes[0]]).status == 204)
            #expect(try await client.get("/v1/support/queue", token: fresh).code == "two_factor_setup_required")
            #expect(try await signIn(nil).status == 201)
        }
    }

    /// Guesses at codes count as failed sign-ins: a right password does not
    /// reset them, so the tenth wrong code locks the email for a while.
    @Test("with the password known, guessing codes is stopped after ten tries")
    func guessing() async throws {
        try await TestApp.make { $0.rateLimits.enabled = false }.run { client in
            let zoe = try await client.signUp()
            try await client.turnOnTwoFactor(token: zoe.token)
            var statuses: [Int] = []
            for guess in 0..<11 {
                let reply = try await client.post(
                    "/v1/sessions",
                    json: ["email": zoe.email, "password": zoe.password, "oneTimeCode": String(format: "%06d", 100_000 + guess)])
                statuses.append(reply.status)
            }
            #expect(statuses.prefix(10).allSatisfy { $0 == 401 } && statuses.last == 429, "\(statuses)")
        }
    }
}

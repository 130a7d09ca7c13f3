import Foundation
import ParlaAPI
import ParlaTestSupport
import Testing

/// T1: creating an account.
@Suite("T1 sign-up")
struct AccountSignUpTests {
    typealias SignedIn = Components.Schemas.SignedIn
    static let valid: [String: any Sendable] = [
        "firstName": "Zoë", "lastName": "O'Brien", "email": "zoe@example.com",
        "password": "correct horse battery", "acceptTerms": true,
    ]

    func form(_ changes: [String: (any Sendable)?]) -> [String: any Sendable] {
        var form = Self.valid
        for (key, value) in changes { form[key] = value }
        return form
    }

    @Test("T1.1 the server is up and ready")
    func serverUp() async throws {
        try await TestApp.make().run { client in
            #expect(try await client.get("/health").status == 200)
            let ready = try await client.get("/ready")
            #expect(ready.status == 200)
            #expect((try ready.decoded(Components.Schemas.Health.self).migrations ?? 0) >= 1)
        }
    }

    @Test(
        "T1.2 a valid first name is accepted as written",
        arguments: ["Zoë", "Weiß", "Iñaki", "Jean-Luc", "D'Arcy", "Anne Marie", "김민준", "  Léa  "])
    func validFirstName(_ name: String) async throws {
        try await TestApp.make().run { client in
            let reply = try await client.post("/v1/accounts", json: form(["firstName": name]))
            #expect(reply.status == 201, "\(reply.text)")
            let account = try reply.decoded(SignedIn.self).account
            #expect(account.firstName == name.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test(
        "T1.3 a first name with digits or symbols is refused",
        arguments: ["J0hn", "Anna!", "Ann  Marie", "-Ann", "Ann-", "", "   ", "Bob_", "X Æ A-12"])
    func invalidFirstName(_ name: String) async throws {
        try await TestApp.make().run { client in
            let reply = try await client.post("/v1/accounts", json: form(["firstName": name]))
            #expect(reply.status == 422)
            #expect(reply.code == "validation_failed")
            #expect(reply.fieldErrors == ["firstName:invalid_first_name"])
        }
    }

    @Test("T1.3 a first name with a control character is refused before its own rule (TextInput)")
    func controlCharacterInFirstName() async throws {
        try await TestApp.make().run { client in
            let reply = try await client.post("/v1/accounts", json: form(["firstName": "Ann\u{0}"]))
            #expect(reply.status == 422 && reply.fieldErrors == ["firstName:control_character"], "\(reply.text)")
        }
    }

    @Test("T1.4 a valid last name is accepted", arguments: ["O'Brien", "García Márquez", "Müller-Lüdenscheidt", "N’Diaye"])
    func validLastName(_ name: String) async throws {
        try await TestApp.make().run { client in
            let reply = try await client.post("/v1/accounts", json: form(["lastName": name]))
            #expect(reply.status == 201, "\(reply.text)")
            #expect(try reply.decoded(SignedIn.self).account.lastName == name)
        }
    }

    @Test("T1.5 a last name with digits or symbols is refused", arguments: ["Smith2", "Sm@th", "O''Brien", "Doe."])
    func invalidLastName(_ name: String) async throws {
        try await TestApp.make().run { client in
            let reply = try await client.post("/v1/accounts", json: form(["lastName": name]))
            #expect(reply.status == 422)
            #expect(reply.fieldErrors == ["lastName:invalid_last_name"])
        }
    }

    @Test("T1.6 the email must be a valid address, unique whatever its case")
    func email() async throws {
        try await TestApp.make().run { client in
            for bad in [
                "zoe", "zoe@", "@example.com", "zoe@example", "zoe@@example.com", "zo e@example.com", "zoe@exa_mple.com",
                "zoe..x@example.com",
            ] {
                let reply = try await client.post("/v1/accounts", json: form(["email": bad]))
                #expect(reply.status == 422, "\(bad)")
                #expect(reply.fieldErrors == ["email:invalid_email"], "\(bad)")
            }
            let created = try await client.post("/v1/accounts", json: form(["email": "  Zoe.Smith+fr@Example.COM "]))
            #expect(created.status == 201)
            #expect(try created.decoded(SignedIn.self).account.email == "Zoe.Smith+fr@Example.COM")
            let again = try await client.post("/v1/accounts", json: form(["email": "zoe.smith+fr@example.com"]))
            #expect(again.status == 409)
            #expect(again.code == "email_taken")
        }
    }

    @Test("T1.7 a complete sign-up signs the user in, with its first learner and the terms version")
    func completeSignUp() async throws {
        try await TestApp.make().run { client in
            let reply = try await client.post("/v1/accounts", json: form(["uiLanguage": "fr", "deviceName": "Zoë's phone"]))
            #expect(reply.status == 201)
            let signedIn = try reply.decoded(SignedIn.self)
            let account = signedIn.account
            #expect(account.uiLanguage == .fr)
            #expect(account.termsVersion == "2026-11-01")
            #expect(account.termsAcceptedAt != nil)
            let learners = signedIn.learners
            #expect(learners.count == 1)
            #expect(learners[0].displayName == "Zoë")
            #expect(learners[0].nativeLanguage == .fr)
            let token = signedIn.session.token
            #expect(token.count >= 43)  // 256 bits, base64url
            let me = try await client.get("/v1/me", token: token)
            #expect(me.status == 200)
            #expect(try me.decoded(Components.Schemas.Me.self).account.email == "zoe@example.com")
        }
    }

    @Test("T1.8 with fields missing or wrong, nothing is created and every problem is reported at once")
    func incompleteSignUp() async throws {
        try await TestApp.make().run { client in
            let reply = try await client.post(
                "/v1/accounts",
                json: [
                    "lastName": "Sm1th", "email": "not-an-email", "password": "short", "acceptTerms": false, "uiLanguage": "xx",
                ])
            #expect(reply.status == 422)
            #expect(
                reply.fieldErrors == [
                    "firstName:required", "lastName:invalid_last_name", "email:invalid_email",
                    "password:invalid_password", "acceptTerms:terms_not_accepted", "uiLanguage:invalid_language",
                ])
            let missingAll = try await client.post("/v1/accounts", json: [:])
            #expect(
                missingAll.fieldErrors == [
                    "firstName:required", "lastName:required", "email:required",
                    "password:required", "acceptTerms:required",
                ])
            let samePassword = try await client.post("/v1/accounts", json: form(["password": "Zoe@Example.com"]))
            #expect(samePassword.fieldErrors == ["password:password_is_email"])
            // Nothing was created: the address is still free.
            #expect(try await client.post("/v1/accounts", json: Self.valid).status == 201)
        }
    }

    @Test("the interface language defaults to the best match of Accept-Language")
    func languageFromHeader() async throws {
        try await TestApp.make().run { client in
            var form = Self.valid
            form.removeValue(forKey: "uiLanguage")
            let reply = try await client.post("/v1/accounts", json: form, headers: ["Accept-Language": "ja, de-AT;q=0.9, en;q=0.5"])
            #expect(try reply.decoded(SignedIn.self).account.uiLanguage == .de)
        }
    }
}

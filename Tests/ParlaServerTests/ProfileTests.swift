import Foundation
import ParlaAPI
import ParlaTestSupport
import Testing

/// T7: the profile: name, email, picture, proficiency at a glance.
@Suite("T7 profile")
struct ProfileTests {
    typealias Me = Components.Schemas.Me
    typealias Picture = Components.Schemas.Picture

    /// The account of a `GET` or `PATCH /v1/me` reply.
    func account(_ reply: Client.Reply) throws -> Components.Schemas.Account { try reply.decoded(Me.self).account }

    @Test("T7.1 the profile is shown: account and learner profiles")
    func viewProfile() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp()
            let reply = try await client.get("/v1/me", token: signedUp.token)
            #expect(reply.status == 200)
            let me = try reply.decoded(Me.self)
            #expect(me.account.id == signedUp.accountID)
            #expect(me.learners.map(\.id) == [signedUp.learnerID])
        }
    }

    @Test("T7.2 proficiency shows on the profile, one entry per language being learnt")
    func proficiencyOnProfile() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp()
            _ = try await client.patch(
                "/v1/learners/\(signedUp.learnerID)", token: signedUp.token, json: ["targetLanguages": ["it", "de"]])
            let me = try await client.get("/v1/me", token: signedUp.token).decoded(Me.self)
            let learner = try #require(me.learners.first)
            #expect(learner.progress.map(\.language) == [.it, .de])
            #expect(learner.progress.allSatisfy { $0.status == .notStarted })
        }
    }

    @Test("T7.3 the profile picture can be viewed: a built-in default until one is chosen")
    func viewPicture() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp()
            let picture = try await client.get("/v1/learners/\(signedUp.learnerID)/picture", token: signedUp.token)
            #expect(picture.status == 200)
            #expect(picture.header("Content-Type") == "image/png")
            #expect(Array(picture.bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            let learner = try await client.get("/v1/learners/\(signedUp.learnerID)", token: signedUp.token)
                .decoded(Components.Schemas.Learner.self)
            #expect(learner.picture.isDefault)
        }
    }

    @Test("T7.4 the picture can be changed to a photo (PNG or JPEG)")
    func changePicture() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp()
            let path = "/v1/learners/\(signedUp.learnerID)/picture"
            let png = Images.png(width: 64, height: 48)
            let stored = try await client.send(.put, path, token: signedUp.token, body: png, headers: ["Content-Type": "image/png"])
            #expect(stored.status == 200, "\(stored.text)")
            let picture = try stored.decoded(Picture.self)
            #expect(!picture.isDefault)
            #expect(picture.width == 64)
            #expect(picture.height == 48)
            #expect(try await client.get(path, token: signedUp.token).bytes == png)

            let jpeg = Images.jpeg(width: 640, height: 480)
            let replaced = try await client.send(.put, path, token: signedUp.token, body: jpeg, headers: ["Content-Type": "image/jpeg"])
            #expect(try replaced.decoded(Picture.self).mediaType == "image/jpeg")
            let fetched = try await client.get(path, token: signedUp.token)
            #expect(fetched.header("Content-Type") == "image/jpeg")
            #expect(fetched.bytes == jpeg)
        }
    }

    @Test("T7.5 removing the picture brings back the same built-in default")
    func removePicture() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp()
            let path = "/v1/learners/\(signedUp.learnerID)/picture"
            let original = try await client.get(path, token: signedUp.token).bytes
            _ = try await client.send(
                .put, path, token: signedUp.token, body: Images.png(width: 100, height: 100), headers: ["Content-Type": "image/png"])
            let removed = try await client.delete(path, token: signedUp.token)
            #expect(removed.status == 200)
            #expect(try removed.decoded(Picture.self).isDefault)
            #expect(try await client.get(path, token: signedUp.token).bytes == original)
        }
    }

    @Test("T7.6 the profile shows the account's name")
    func viewName() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp(firstName: "Jean-Luc", lastName: "Müller")
            let me = try await account(client.get("/v1/me", token: signedUp.token))
            #expect(me.firstName == "Jean-Luc")
            #expect(me.lastName == "Müller")
        }
    }

    @Test("T7.7 the name can be edited")
    func editName() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp()
            let reply = try await client.patch("/v1/me", token: signedUp.token, json: ["firstName": "Åsa", "lastName": "Núñez"])
            #expect(reply.status == 200)
            let me = try await account(client.get("/v1/me", token: signedUp.token))
            #expect(me.firstName == "Åsa")
            #expect(me.lastName == "Núñez")
        }
    }

    @Test("T7.8 only letters are accepted in a name; a refused edit keeps the original")
    func invalidNameEdit() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp(firstName: "Zoë")
            for bad in ["Z0ë", "Zoë!", "", "   "] {
                let reply = try await client.patch("/v1/me", token: signedUp.token, json: ["firstName": bad])
                #expect(reply.status == 422)
                #expect(reply.fieldErrors == ["firstName:invalid_first_name"])
            }
            // A valid change beside an invalid one is not applied either.
            let mixed = try await client.patch("/v1/me", token: signedUp.token, json: ["lastName": "Smith", "firstName": "3"])
            #expect(mixed.status == 422)
            let me = try await account(client.get("/v1/me", token: signedUp.token))
            #expect(me.firstName == "Zoë")
            #expect(me.lastName == "O'Brien")
        }
    }

    @Test("T7.9 the profile shows the email address")
    func viewEmail() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp(email: "Zoe@Example.org")
            #expect(try await account(client.get("/v1/me", token: signedUp.token)).email == "Zoe@Example.org")
        }
    }

    @Test("T7.10 the email can be changed, and is the one to sign in with")
    func editEmail() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp()
            let reply = try await client.patch(
                "/v1/me", token: signedUp.token, json: ["email": "zoe.new@example.com", "currentPassword": signedUp.password])
            #expect(reply.status == 200)
            #expect(try account(reply).email == "zoe.new@example.com")
            #expect(
                try await client.post("/v1/sessions", json: ["email": "zoe.new@example.com", "password": signedUp.password]).status == 201)
            #expect(try await client.post("/v1/sessions", json: ["email": signedUp.email, "password": signedUp.password]).status == 401)
            // The old address is free again; a taken one is refused.
            let other = try await client.signUp(email: signedUp.email)
            let taken = try await client.patch(
                "/v1/me", token: other.token, json: ["email": "ZOE.NEW@example.com", "currentPassword": other.password])
            #expect(taken.status == 409)
            #expect(taken.code == "email_taken")
        }
    }

    @Test("T7.11 only a valid email can replace the current one; a refused edit keeps the original")
    func invalidEmailEdit() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp()
            for bad in ["zoe", "zoe@localhost", "zoe@example..com", "@"] {
                let reply = try await client.patch("/v1/me", token: signedUp.token, json: ["email": bad])
                #expect(reply.status == 422)
                #expect(reply.fieldErrors == ["email:invalid_email"])
            }
            #expect(try await account(client.get("/v1/me", token: signedUp.token)).email == signedUp.email)
        }
    }

    @Test("a password change needs the current password and signs other devices out")
    func changePassword() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp()
            let tablet = try await client.post("/v1/sessions", json: ["email": signedUp.email, "password": signedUp.password])
            let tabletToken = try tablet.decoded(Components.Schemas.SignedIn.self).session.token

            let missing = try await client.patch("/v1/me", token: signedUp.token, json: ["newPassword": "a brand new secret"])
            #expect(missing.fieldErrors == ["currentPassword:required"])
            let wrong = try await client.patch(
                "/v1/me", token: signedUp.token, json: ["newPassword": "a brand new secret", "currentPassword": "not it at all"])
            #expect(wrong.status == 403)
            #expect(wrong.code == "wrong_current_password")
            let short = try await client.patch(
                "/v1/me", token: signedUp.token, json: ["newPassword": "short", "currentPassword": signedUp.password])
            #expect(short.fieldErrors == ["newPassword:invalid_password"])

            let changed = try await client.patch(
                "/v1/me", token: signedUp.token, json: ["newPassword": "a brand new secret", "currentPassword": signedUp.password])
            #expect(changed.status == 200)
            #expect(try await client.get("/v1/me", token: signedUp.token).status == 200)
            #expect(try await client.get("/v1/me", token: tabletToken).status == 401)
            #expect(try await client.post("/v1/sessions", json: ["email": signedUp.email, "password": signedUp.password]).status == 401)
            #expect(try await client.post("/v1/sessions", json: ["email": signedUp.email, "password": "a brand new secret"]).status == 201)
        }
    }

    @Test("the interface language can be changed; an empty edit is refused")
    func editLanguage() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp()
            #expect(try await account(client.patch("/v1/me", token: signedUp.token, json: ["uiLanguage": "it"])).uiLanguage == .it)
            #expect(
                try await client.patch("/v1/me", token: signedUp.token, json: ["uiLanguage": "klingon"]).fieldErrors == [
                    "uiLanguage:invalid_language"
                ])
            #expect(try await client.patch("/v1/me", token: signedUp.token, json: [:]).code == "nothing_to_update")
        }
    }

    @Test("deleting the account needs the password and erases everything")
    func deleteAccount() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let signedUp = try await client.signUp()
            _ = try await client.post("/v1/learners", token: signedUp.token, json: ["displayName": "Léo"])
            _ = try await client.send(
                .put, "/v1/learners/\(signedUp.learnerID)/picture", token: signedUp.token,
                body: Images.png(width: 40, height: 40), headers: ["Content-Type": "image/png"])
            _ = try await client.post("/v1/sessions", json: ["email": signedUp.email, "password": "wrong password"])
            #expect(try await client.delete("/v1/me", token: signedUp.token, json: ["password": "wrong password"]).status == 403)
            #expect(try await client.delete("/v1/me", token: signedUp.token, json: [:]).fieldErrors == ["password:required"])
            #expect(try await client.delete("/v1/me", token: signedUp.token, json: ["password": signedUp.password]).status == 204)
            #expect(try await client.get("/v1/me", token: signedUp.token).status == 401)
            #expect(try await client.post("/v1/sessions", json: ["email": signedUp.email, "password": signedUp.password]).status == 401)
        }
        for table in ["accounts", "sessions", "learners", "learner_pictures", "login_failures"] {
            let rows = try await TestDatabase.shared.rows(in: app.databaseURL, "SELECT count(*)::int FROM \(unescaped: table)")
            #expect(try rows[0].decode(Int.self) == (table == "login_failures" ? 1 : 0), "\(table)")
        }
    }
}

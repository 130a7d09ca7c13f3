import Foundation
import ParlaAPI
import ParlaTestSupport
import Testing

/// Several learner profiles under one account (a family), each with its
/// own picture, kept apart from every other account.
@Suite("learner profiles")
struct LearnerTests {
    typealias Learner = Components.Schemas.Learner
    /// The body of `GET /v1/learners` (an inline schema: no `Components.Schemas` type).
    typealias Learners = Operations.ListLearners.Output.Ok.Body.JsonPayload
    /// The body of `GET /v1/avatars` (an inline schema).
    typealias Avatars = Operations.ListAvatars.Output.Ok.Body.JsonPayload

    @Test("a family: profiles are added, listed, edited and removed; the last one stays")
    func family() async throws {
        try await TestApp.make().run { client in
            let parent = try await client.signUp(language: "fr")
            let child = try await client.post(
                "/v1/learners", token: parent.token,
                json: [
                    "displayName": "Léo", "age": 7, "avatarId": "cap-pirate", "nativeLanguage": "fr",
                    "targetLanguages": ["en", "es", "en"],
                ])
            #expect(child.status == 201, "\(child.text)")
            let childLearner = try child.decoded(Learner.self)
            #expect(childLearner.age == 7)
            #expect(childLearner.targetLanguages == [.en, .es])
            let childID = childLearner.id

            // Unnamed profiles get a default name in the account's language.
            let unnamed = try await client.post("/v1/learners", token: parent.token, json: [:]).decoded(Learner.self)
            #expect(unnamed.displayName == "Apprenant 3")
            #expect(unnamed.avatarId == "cap-explorer")
            #expect(unnamed.nativeLanguage == .fr)

            let list = try await client.get("/v1/learners", token: parent.token).decoded(Learners.self)
            #expect(list.learners.map(\.displayName) == ["Zoë", "Léo", "Apprenant 3"])

            let edited = try await client.patch(
                "/v1/learners/\(childID)", token: parent.token, json: ["displayName": "Léo B.", "removeAge": true]
            ).decoded(Learner.self)
            #expect(edited.displayName == "Léo B.")
            #expect(edited.age == nil)

            // T7.7: the name removed, the profile shows its default one (its place in the account).
            let unnamedAgain = try await client.patch("/v1/learners/\(childID)", token: parent.token, json: ["removeDisplayName": true])
            #expect(unnamedAgain.status == 200, "\(unnamedAgain.text)")
            #expect(try unnamedAgain.decoded(Learner.self).displayName == "Apprenant 2")
            let both = try await client.patch(
                "/v1/learners/\(childID)", token: parent.token, json: ["removeDisplayName": true, "displayName": "Léo"])
            #expect(both.status == 422 && both.fieldErrors == ["removeDisplayName:invalid_display_name"])
            // An account holder's names stay required.
            #expect(
                try await client.patch("/v1/me", token: parent.token, json: ["firstName": ""]).fieldErrors == [
                    "firstName:invalid_first_name"
                ])

            #expect(try await client.delete("/v1/learners/\(childID)", token: parent.token).status == 204)
            #expect(try await client.get("/v1/learners/\(childID)", token: parent.token).status == 404)
            let third = unnamed.id
            #expect(try await client.delete("/v1/learners/\(third)", token: parent.token).status == 204)
            let last = try await client.delete("/v1/learners/\(parent.learnerID)", token: parent.token)
            #expect(last.status == 409)
            #expect(last.code == "last_learner")
        }
    }

    @Test("invalid profile fields are all reported, and nothing changes")
    func validation() async throws {
        try await TestApp.make().run { client in
            let parent = try await client.signUp()
            let reply = try await client.post(
                "/v1/learners", token: parent.token,
                json: [
                    "displayName": String(repeating: "x", count: 41), "age": 2, "avatarId": "cap-unknown",
                    "nativeLanguage": "pt", "targetLanguages": ["fr", "zz"],
                ])
            #expect(reply.status == 422)
            #expect(
                reply.fieldErrors == [
                    "displayName:invalid_display_name", "age:invalid_age", "avatarId:invalid_avatar",
                    "nativeLanguage:invalid_language", "targetLanguages:invalid_language",
                ])
            let update = try await client.patch(
                "/v1/learners/\(parent.learnerID)", token: parent.token, json: ["age": 121, "displayName": "Ok"])
            #expect(update.fieldErrors == ["age:invalid_age"])
            let learner = try await client.get("/v1/learners/\(parent.learnerID)", token: parent.token).decoded(Learner.self)
            #expect(learner.displayName == "Zoë")
            #expect(try await client.get("/v1/learners", token: parent.token).decoded(Learners.self).learners.count == 1)
        }
    }

    @Test("an account holds at most 8 learner profiles")
    func limit() async throws {
        try await TestApp.make().run { client in
            let parent = try await client.signUp()
            for _ in 2...8 { #expect(try await client.post("/v1/learners", token: parent.token, json: [:]).status == 201) }
            let ninth = try await client.post("/v1/learners", token: parent.token, json: [:])
            #expect(ninth.status == 409)
            #expect(ninth.code == "learner_limit_reached")
        }
    }

    @Test("another account's learner is not found, whatever is asked of it")
    func isolation() async throws {
        try await TestApp.make().run { client in
            let anna = try await client.signUp(email: "anna@example.com")
            let ben = try await client.signUp(firstName: "Ben", email: "ben@example.com")
            let path = "/v1/learners/\(anna.learnerID)"
            let png = Images.png(width: 64, height: 64)
            let replies = [
                try await client.get(path, token: ben.token),
                try await client.patch(path, token: ben.token, json: ["displayName": "Hacked"]),
                try await client.delete(path, token: ben.token),
                try await client.get(path + "/picture", token: ben.token),
                try await client.send(.put, path + "/picture", token: ben.token, body: png, headers: ["Content-Type": "image/png"]),
                try await client.delete(path + "/picture", token: ben.token),
                try await client.get("/v1/learners/not-a-uuid", token: ben.token),
            ]
            for reply in replies {
                #expect(reply.status == 404)
                #expect(reply.code == "learner_not_found")
                #expect(!reply.text.contains("Zoë"))
            }
            let learners = try await client.get("/v1/learners", token: ben.token).decoded(Learners.self)
            #expect(learners.learners.map(\.displayName) == ["Ben"])
            let annas = try await client.get(path, token: anna.token).decoded(Learner.self)
            #expect(annas.displayName == "Zoë")
            #expect(annas.picture.isDefault)
        }
    }

    @Test("pictures: the bytes decide the type; other formats, odd sizes and big files are refused")
    func pictureChecks() async throws {
        try await TestApp.make().run { client in
            let parent = try await client.signUp()
            let path = "/v1/learners/\(parent.learnerID)/picture"
            func put(_ bytes: [UInt8], _ type: String) async throws -> Client.Reply {
                try await client.send(.put, path, token: parent.token, body: bytes, headers: ["Content-Type": type])
            }
            let mislabelled = try await put(Images.png(width: 50, height: 50), "image/jpeg")
            #expect(mislabelled.status == 200)
            #expect(try mislabelled.decoded(Components.Schemas.Picture.self).mediaType == "image/png")
            #expect(try await put(Images.gif(width: 50, height: 50), "image/png").code == "unsupported_image")
            #expect(try await put(Images.gif(width: 50, height: 50), "image/gif").code == "unsupported_media_type")
            #expect(try await put(Array("hello".utf8), "image/jpeg").code == "unsupported_image")
            #expect(try await put([], "image/png").status >= 400)
            #expect(try await put(Images.png(width: 10, height: 10), "image/png").code == "invalid_image_dimensions")
            #expect(try await put(Images.jpeg(width: 5000, height: 100), "image/jpeg").code == "invalid_image_dimensions")
            let big = try await put(Images.png(width: 1000, height: 1000), "image/png")  // 3 MB of pixels
            #expect(big.status == 413)
            #expect(big.code == "payload_too_large")
            // The accepted picture is still the one stored.
            #expect(try await client.get(path, token: parent.token).bytes == Images.png(width: 50, height: 50))
        }
    }

    @Test("default pictures: at least six, the same for a learner every time, spread across learners")
    func defaultPictures() async throws {
        try await TestApp.make().run { client in
            let parent = try await client.signUp()
            var seen = Set<[UInt8]>()
            for _ in 2...8 {
                let id = try await client.post("/v1/learners", token: parent.token, json: [:]).decoded(Learner.self).id
                let first = try await client.get("/v1/learners/\(id)/picture", token: parent.token).bytes
                let second = try await client.get("/v1/learners/\(id)/picture", token: parent.token).bytes
                #expect(first == second)
                seen.insert(first)
            }
            #expect(seen.count >= 2)
        }
    }

    @Test("the avatar catalogue is named in the caller's language")
    func avatars() async throws {
        try await TestApp.make().run { client in
            let german = try await client.get("/v1/avatars", headers: ["Accept-Language": "de"])
            let avatars = try german.decoded(Avatars.self).avatars
            #expect(avatars.count >= 6)
            #expect(avatars.first { $0.id == "cap-wizard" }?.name == "Zauberhut")
            #expect(german.header("Content-Language") == "de")
        }
    }
}

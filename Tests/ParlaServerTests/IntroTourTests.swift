import Foundation
import ParlaCore
import ParlaTestSupport
import Testing

/// Issue 19, item 7 (seed 004, IF 6): the guided tour of a first launch.
@Suite("intro tour")
struct IntroTourTests {
    @Test("the tour's steps come in the language asked for, each pointing at a feature")
    func steps() async throws {
        try await TestApp.make().run { client in
            let english = try await client.get("/v1/intro-tour")
            let german = try await client.get("/v1/intro-tour", headers: ["Accept-Language": "de"])
            let steps = try #require(english.json["steps"] as? [[String: any Sendable]])
            let germanSteps = try #require(german.json["steps"] as? [[String: any Sendable]])
            #expect(steps.count == IntroTour.steps.count && english.json["version"] as? Int == IntroTour.version)
            #expect(
                steps.first?["title"] as? String == "Welcome to Parla" && germanSteps.first?["title"] as? String == "Willkommen bei Parla")
            #expect(Set(steps.compactMap { $0["feature"] as? String }).isSuperset(of: ["placement", "speech", "games", "teacherMode"]))
            #expect(german.header("Content-Language") == "de")
        }
    }

    @Test("each learner's progress: shown until completed or skipped, kept per learner, and only its account may change it")
    func progress() async throws {
        try await TestApp.make().run { client in
            let zoe = try await client.signUp()
            let path = "/v1/learners/\(zoe.learnerID)/intro-tour"
            let fresh = try await client.get(path, token: zoe.token)
            #expect(fresh.json["status"] as? String == "not_started" && fresh.json["show"] as? Bool == true)
            let moving = try await client.send(.put, path, token: zoe.token, json: ["status": "in_progress", "step": "speech"])
            #expect(moving.json["step"] as? String == "speech" && moving.json["show"] as? Bool == true)
            let skipped = try await client.send(.put, path, token: zoe.token, json: ["status": "skipped"])
            #expect(skipped.json["status"] as? String == "skipped" && skipped.json["show"] as? Bool == false)
            #expect(skipped.json["step"] as? String == "speech" && skipped.json["seenVersion"] as? Int == IntroTour.version)
            #expect(try await client.get(path, token: zoe.token).json["status"] as? String == "skipped")
            // A second learner of the family starts afresh.
            let second = try await client.post("/v1/learners", token: zoe.token, json: ["displayName": "Léo", "nativeLanguage": "fr"])
            let secondID = try #require(second.json["id"] as? String)
            #expect(
                try await client.get("/v1/learners/\(secondID)/intro-tour", token: zoe.token).json["status"] as? String == "not_started")
            let bad = try await client.send(.put, path, token: zoe.token, json: ["status": "not_started", "step": "nowhere"])
            #expect(bad.status == 422 && bad.fieldErrors == ["status:invalid_tour_status", "step:invalid_tour_step"])
            #expect(try await client.send(.put, path, token: zoe.token, json: [:]).fieldErrors == ["status:required"])
            // Another account sees no such learner.
            let max = try await client.signUp(email: "max@example.com")
            #expect(try await client.get(path, token: max.token).status == 404)
            #expect(try await client.send(.put, path, token: max.token, json: ["status": "completed"]).status == 404)
        }
    }

    @Test("a newer tour is shown again to those who finished an older one")
    func newerVersion() {
        #expect(!IntroTour.shouldShow(status: .completed, seenVersion: IntroTour.version))
        #expect(IntroTour.shouldShow(status: .completed, seenVersion: IntroTour.version - 1))
        #expect(IntroTour.shouldShow(status: .inProgress, seenVersion: IntroTour.version))
        for step in IntroTour.steps {
            for language in Language.allCases { #expect(!step.title.text(in: language).isEmpty && !step.text.text(in: language).isEmpty) }
        }
    }
}

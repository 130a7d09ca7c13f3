import Foundation
import ParlaAPI
import ParlaCore
import ParlaTestSupport
import Testing

/// Issue 19, item 7 (seed 004, IF 6): the guided tour of a first launch.
@Suite("intro tour")
struct IntroTourTests {
    typealias Tour = Components.Schemas.IntroTour
    typealias Progress = Components.Schemas.IntroTourProgress

    @Test("the tour's steps come in the language asked for, each pointing at a feature")
    func steps() async throws {
        try await TestApp.make().run { client in
            let english = try await client.get("/v1/intro-tour")
            let german = try await client.get("/v1/intro-tour", headers: ["Accept-Language": "de"])
            let tour = try english.decoded(Tour.self)
            let germanTour = try german.decoded(Tour.self)
            #expect(tour.steps.count == IntroTour.steps.count && tour.version == IntroTour.version)
            #expect(tour.steps.first?.title == "Welcome to Parla" && germanTour.steps.first?.title == "Willkommen bei Parla")
            #expect(Set(tour.steps.map(\.feature)).isSuperset(of: ["placement", "speech", "games", "teacherMode"]))
            #expect(german.header("Content-Language") == "de")
        }
    }

    @Test("each learner's progress: shown until completed or skipped, kept per learner, and only its account may change it")
    func progress() async throws {
        try await TestApp.make().run { client in
            let zoe = try await client.signUp()
            let path = "/v1/learners/\(zoe.learnerID)/intro-tour"
            let fresh = try await client.get(path, token: zoe.token).decoded(Progress.self)
            #expect(fresh.status == .notStarted && fresh.show == true)
            let moving = try await client.send(.put, path, token: zoe.token, json: ["status": "in_progress", "step": "speech"])
                .decoded(Progress.self)
            #expect(moving.step == "speech" && moving.show == true)
            let skipped = try await client.send(.put, path, token: zoe.token, json: ["status": "skipped"]).decoded(Progress.self)
            #expect(skipped.status == .skipped && skipped.show == false)
            #expect(skipped.step == "speech" && skipped.seenVersion == IntroTour.version)
            #expect(try await client.get(path, token: zoe.token).decoded(Progress.self).status == .skipped)
            // A second learner of the family starts afresh.
            let second = try await client.post("/v1/learners", token: zoe.token, json: ["displayName": "Léo", "nativeLanguage": "fr"])
            let secondID = try second.decoded(Components.Schemas.Learner.self).id
            #expect(
                try await client.get("/v1/learners/\(secondID)/intro-tour", token: zoe.token).decoded(Progress.self).status == .notStarted)
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

import Foundation
import Logging
import ParlaAPI
import ParlaContent
import ParlaOperations
import ParlaServer
import ParlaServices
import ParlaSpeech
import ParlaTestSupport
import Testing

/// What many suites set up the same way, in one place: a product granted as
/// support grants it, a teacher with a class, a course started.
extension TestApp {
    /// Gives `user`'s account a product the way support does (`parla grant`,
    /// another process on the same database), then waits until this server
    /// has heard of it. A grant reaches a running server by the change feed
    /// a few milliseconds after its commit; a test that asked at once could
    /// be answered from before it (and did fail so, now and then).
    func grant(_ product: String, to user: Client.SignedUp, client: Client) async throws {
        _ = try await SupportDesk.with(settings, logger: Logger(label: "parla.test.support")) { desk in
            try await desk.grant(product, to: user.accountID, until: nil, note: "test", revoke: false)
        }
        let heard = try await eventually(10) {
            let plan = try await client.get("/v1/me/plan", token: user.token).decoded(Components.Schemas.PlanInfo.self)
            return plan.entitlements.contains { $0.product == product }
        }
        guard heard else { throw TestFailure("the server never heard of the grant of \(product)") }
    }
}

extension TestApp {
    /// Makes the assets the content plans that `wanted` picks into the
    /// app's store, as `parla content build` would (only these: all of them
    /// takes minutes); by slot name.
    @discardableResult
    func buildAssets(
        corpora: String = TestApp.corporaDirectory, _ wanted: (Dictionary<AssetSlot, PlannedAsset>.Element) -> Bool
    ) async throws -> [String: PlannedAsset] {
        let content = try ContentImporter(directory: corpora, openMojiDirectory: TestApp.openMojiDirectory).read()
        let picked = content.assets.filter(wanted)
        #expect(!picked.isEmpty)
        let aligner = SpeechScorer(settings: settings.speech.scorer)
        try await AssetBuilder(store: AssetStore(directory: settings.content.assetDirectory), aligner: aligner)
            .build(picked.values, logger: Logger(label: "test"))
        try await aligner.shutdown()
        return Dictionary(uniqueKeysWithValues: picked.map { ($0.key.description, $0.value) })
    }

    /// Makes the assets a client was sent the paths of (`/v1/assets/<name>`).
    func buildAssets(paths: [String]) async throws {
        let names = Set(paths.map { String($0.dropFirst("/v1/assets/".count)) })
        try await buildAssets { names.contains($0.value.name) }
    }
}

extension Client {
    /// A teacher (Mme Dupont) with one French class, 4e B at A2: the
    /// teacher, the class's id and its join code as handed out.
    func teacherWithClass(email: String = "teacher@example.com") async throws -> (
        teacher: SignedUp, classID: String, joinCode: String
    ) {
        let teacher = try await signUp(email: email)
        let profile = try await send(
            .put, "/v1/me/teacher", token: teacher.token, json: ["displayName": "Mme Dupont", "school": "École Jean Moulin"])
        #expect(profile.status == 200, "\(profile.text)")
        let created = try await post("/v1/classes", token: teacher.token, json: ["name": "4e B", "language": "fr", "level": "A2"])
        #expect(created.status == 201, "\(created.text)")
        let schoolClass = try created.decoded(Components.Schemas.SchoolClass.self)
        return (teacher, schoolClass.id, try #require(schoolClass.joinCode))
    }

    /// Starts `learner` on a course from the beginning (what most lessons,
    /// games and dashboards need first).
    @discardableResult
    func startCourse(_ language: String, for learner: SignedUp) async throws -> Components.Schemas.Course {
        let started = try await post(
            "/v1/learners/\(learner.learnerID)/courses", token: learner.token, json: ["language": language, "start": "beginning"])
        #expect(started.status == 201, "\(started.text)")
        return try started.decoded(Components.Schemas.Course.self)
    }
}

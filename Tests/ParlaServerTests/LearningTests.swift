import Foundation
import ParlaCore
import ParlaTestSupport
import Testing

/// Courses, placement and proficiency through HTTP against real PostgreSQL
/// (main seed T3.1-T3.5).
@Suite("learning: courses")
struct CourseTests {
    typealias JSON = [String: any Sendable]

    @Test("T3.1-T3.3: a learner picks languages to learn, from the beginning or by placement, and finds them listed")
    func startAndList() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let parent = try await client.signUp()
            let path = "/v1/learners/\(parent.learnerID)/courses"
            #expect((try await client.get(path, token: parent.token).json["courses"] as? [JSON])?.isEmpty == true)

            let french = try await client.post(path, token: parent.token, json: ["language": "fr", "start": "beginning"])
            #expect(french.status == 201, "\(french.text)")
            #expect(french.json["language"] as? String == "fr")
            #expect(french.json["level"] as? String == "A1")
            let german = try await client.post(path, token: parent.token, json: ["language": "de", "start": "placement"])
            #expect(german.status == 201)
            #expect(german.json["level"] == nil)  // until the placement test says

            let listed = try #require(try await client.get(path, token: parent.token).json["courses"] as? [JSON])
            #expect(listed.compactMap { $0["language"] as? String } == ["fr", "de"])
            #expect(listed.compactMap { $0["start"] as? String } == ["beginning", "placement"])

            let again = try await client.post(path, token: parent.token, json: ["language": "fr", "start": "placement"])
            #expect(again.status == 409 && again.code == "course_exists")
            #expect(try await client.post(path, token: parent.token, json: ["language": "xx", "start": "beginning"]).status == 400)
            #expect(try await client.post(path, token: parent.token, json: ["language": "es", "start": "middle"]).status == 400)
            #expect(try await client.get(path).status == 401)

            // Another account's learner is not found, for reading and for writing.
            let other = try await client.signUp(email: "other@example.com")
            #expect(try await client.get(path, token: other.token).code == "learner_not_found")
            #expect(try await client.post(path, token: other.token, json: ["language": "it", "start": "beginning"]).code == "learner_not_found")
            // Courses belong to a learner: a sibling starts with none.
            let sibling = try await client.post("/v1/learners", token: parent.token, json: ["displayName": "Tom"])
            let siblingID = try #require(sibling.json["id"] as? String)
            #expect((try await client.get("/v1/learners/\(siblingID)/courses", token: parent.token).json["courses"] as? [JSON])?.isEmpty == true)
        }
    }
}

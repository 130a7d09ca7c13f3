import Foundation
import ParlaCore
import ParlaTestSupport
import Testing

@testable import ParlaServer

/// The HTTP contract: problem documents, localization, limits, operations.
@Suite("HTTP protocol")
struct ProtocolTests {
    @Test("every error code is served with a client or server error status")
    func everyCodeHasAStatus() {
        for code in ErrorCode.allCases { #expect((400...599).contains(code.status), "\(code)") }
        #expect(ErrorCode.learnerNotFound.status == 404 && ErrorCode.controlCharacter.status == 422)
    }

    @Test("errors are RFC 9457 problems with a code and a message in the request's language")
    func localizedProblems() async throws {
        try await TestApp.make().run { client in
            let expectations: [(header: String, language: Language)] = [
                ("fr-CH, fr;q=0.9, en;q=0.8", .french), ("it", .italian), ("de-DE", .german), ("es-MX,es;q=0.9", .spanish),
                ("ja", .english), ("en;q=0.1, es;q=0.5", .spanish), ("fr;q=0", .english),
            ]
            for (header, language) in expectations {
                let reply = try await client.post("/v1/accounts", json: ["firstName": "4"], headers: ["Accept-Language": header])
                #expect(reply.status == 422)
                #expect(reply.header("Content-Type") == "application/problem+json")
                #expect(reply.header("Content-Language") == language.code, "\(header)")
                // Raw JSON on purpose: the point is the problem document's wire format (RFC 9457 members by name).
                #expect(reply.json["detail"] as? String == ErrorCode.validationFailed.message.text(in: language))
                #expect(reply.json["status"] as? Int == 422)
                #expect(reply.json["type"] as? String == "https://parla.dev/problems/validation_failed")
                let errors = reply.json["errors"] as? [[String: any Sendable]] ?? []
                let firstName = errors.first { $0["field"] as? String == "firstName" }
                #expect(firstName?["message"] as? String == ErrorCode.invalidFirstName.message.text(in: language))
            }
        }
    }

    @Test("malformed JSON, wrong types and wrong content types are 4xx, never 500")
    func malformedInput() async throws {
        try await TestApp.make().run { client in
            let signedUp = try await client.signUp()
            let cases: [(String, [UInt8], String, Int, String)] = [
                ("/v1/accounts", Array("{not json".utf8), "application/json", 400, "malformed_request"),
                ("/v1/accounts", Array("{\"firstName\": 42}".utf8), "application/json", 400, "malformed_request"),
                ("/v1/accounts", Array("[]".utf8), "application/json", 400, "malformed_request"),
                ("/v1/accounts", Array("".utf8), "application/json", 400, "malformed_request"),
                ("/v1/accounts", Array("firstName=Zoe".utf8), "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
                ("/v1/sessions", Array("<xml/>".utf8), "text/xml", 415, "unsupported_media_type"),
                ("/v1/sessions", [0xFF, 0xFE, 0x00], "application/json", 400, "malformed_request"),
            ]
            for (path, body, type, status, code) in cases {
                let reply = try await client.send(.post, path, body: body, headers: ["Content-Type": type])
                #expect(reply.status == status, "\(path) \(type) \(String(decoding: body, as: UTF8.self))")
                #expect(reply.code == code)
            }
            let learner = try await client.send(
                .patch, "/v1/learners/\(signedUp.learnerID)", token: signedUp.token,
                body: Array("{\"age\": \"seven\"}".utf8), headers: ["Content-Type": "application/json"])
            #expect(learner.status == 400)
            let wrongMethod = try await client.send(.put, "/v1/me", token: signedUp.token, json: [:])
            #expect((400..<500).contains(wrongMethod.status))
            let unknown = try await client.get("/v1/nowhere")
            #expect(unknown.status == 404)
            #expect(unknown.code == "not_found")
        }
    }

    @Test("bodies over the limit are refused with 413 before they are read")
    func oversizedBodies() async throws {
        try await TestApp.make().run { client in
            let huge = "{\"firstName\": \"" + String(repeating: "a", count: 70_000) + "\"}"
            let reply = try await client.send(.post, "/v1/accounts", body: Array(huge.utf8), headers: ["Content-Type": "application/json"])
            #expect(reply.status == 413)
            #expect(reply.code == "payload_too_large")
            let declared = try await client.send(
                .post, "/v1/sessions", body: Array("{}".utf8),
                headers: ["Content-Type": "application/json", "Content-Length": "99999999"])
            #expect((400..<500).contains(declared.status))
        }
    }

    @Test("every response carries a request id: the client's when it is sane, a new one otherwise")
    func requestIDs() async throws {
        try await TestApp.make().run { client in
            let given = try await client.get("/health", headers: ["X-Request-Id": "abc-123"])
            #expect(given.header("X-Request-Id") == "abc-123")
            let made = try await client.get("/health")
            let id = try #require(made.header("X-Request-Id"))
            #expect(UUID(uuidString: id) != nil)
            let problem = try await client.get("/v1/me", headers: ["X-Request-Id": "trace-7"])
            // Raw JSON on purpose: an error reply, read as the member a client sees on the wire.
            #expect(problem.json["requestId"] as? String == "trace-7")
            let hostile = try await client.get("/health", headers: ["X-Request-Id": String(repeating: "x", count: 500)])
            #expect(hostile.header("X-Request-Id")?.count == 36)
        }
    }

    @Test("the OpenAPI document and Prometheus metrics are served")
    func operations() async throws {
        try await TestApp.make().run { client in
            let spec = try await client.get("/openapi.yaml")
            #expect(spec.status == 200)
            #expect(spec.text.hasPrefix("openapi: 3.1"))
            #expect(spec.text.contains("/v1/learners/{learnerId}/picture"))
            let signedUp = try await client.signUp()
            _ = try await client.get("/v1/me", token: signedUp.token)
            _ = try await client.get("/v1/me")
            let metrics = try await client.get("/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.text.contains("hb_requests"))
            #expect(metrics.text.contains("/v1/me"))
            #expect(metrics.text.contains("401"))
            #expect(metrics.text.contains("http_server_request_duration"))
            #expect(metrics.text.contains("parla_db_connections_in_use"))
            #expect(metrics.text.contains("parla_db_connections_max"))
        }
    }

    @Test("readiness fails with 503 when the database goes away, the process keeps serving, and is ready again when it is back")
    func readiness() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            #expect(try await client.get("/ready").status == 200)
            try await TestDatabase.shared.setReachable(false, url: app.databaseURL)
            let ready = try await client.get("/ready")
            #expect(ready.status == 503)
            #expect(ready.code == "not_ready")
            #expect(try await client.get("/health").status == 200)
            try await TestDatabase.shared.setReachable(true, url: app.databaseURL)
            #expect(try await eventually { try await client.get("/ready").status == 200 })
        }
    }
}

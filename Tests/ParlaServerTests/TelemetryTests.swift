import Foundation
import ParlaDatabase
import ParlaLearningStore
import ParlaTestSupport
import Testing

/// Traces over OTLP (issue 20, item 7): the real `parla` binary exports to
/// a local collector speaking OTLP/HTTP.
@Suite("traces")
struct TelemetryTests {
    @Test("each request is a server span; its SQL and its scoring are spans of the same trace; secrets stay out")
    func exported() async throws {
        try await TestCollector().run { collector in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-traces-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let server = try ServerProcess(
                arguments: [], directory: directory,
                environment: [
                    "PARLA_TELEMETRY_OTLP_ENDPOINT": collector.tracesURL, "PARLA_TELEMETRY_OTLP_PROTOCOL": "http/json",
                    "PARLA_TELEMETRY_EXPORT_DELAY_SECONDS": "0.2", "PARLA_SPEECH_MODELS_DIRECTORY": TestApp.projectDirectory + "/Models",
                ])
            do {
                try await server.waitUntilUp()
                let secret = "a-reset-token-nobody-may-see-\(UUID().uuidString)"
                try await Client.connected(to: server.port) { client in
                    let learner = try await client.signUp(email: "traced@example.com")
                    let clip = "\(SpeechTests.librivox)/sense_and_sensibility_01_austen_64kb-0880.wav"
                    let attempt = try await client.send(
                        .post,
                        "/v1/learners/\(learner.learnerID)/speech/attempts?" + SpeechTests.query("He was not an ill-disposed young man."),
                        token: learner.token, body: [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip))),
                        headers: ["Content-Type": "audio/wav"])
                    #expect(attempt.status == 201, "\(attempt.text)")
                    _ = try await client.get("/account/reset-password?token=\(secret)")
                }
                func serverSpan(_ route: String) -> TestCollector.Span? {
                    collector.spans.first { $0.kind == 2 && $0.attributes["http.route"] == route }
                }
                let attemptRoute = "/v1/learners/{learnerId}/speech/attempts"
                #expect(
                    try await eventually(30) {
                        serverSpan("/v1/accounts") != nil && serverSpan(attemptRoute) != nil
                            && collector.spans.contains { $0.attributes["url.path"] == "/account/reset-password" }
                    }, "spans: \(collector.spans.map(\.name))")
                let spans = collector.spans
                #expect(spans.allSatisfy { $0.service == "parla" })

                // A sign-up: the server span, 201, and its SQL as client spans of its trace.
                let signUp = try #require(serverSpan("/v1/accounts"))
                #expect(signUp.attributes["http.request.method"] == "POST" && signUp.attributes["http.response.status_code"] == "201")
                let signUpSQL = spans.filter { $0.traceID == signUp.traceID && $0.name.hasPrefix("SQL ") }
                #expect(signUpSQL.contains { $0.name.hasPrefix("SQL AccountStore.") && $0.kind == 3 }, "\(signUpSQL.map(\.name))")
                #expect(signUpSQL.allSatisfy { $0.attributes["db.system.name"] == "postgresql" })

                // A recording: scored in-process, under the request's span, beside its SQL.
                let recorded = try #require(serverSpan(attemptRoute))
                let scoring = try #require(spans.first { $0.traceID == recorded.traceID && $0.name == "speech.score" })
                #expect(scoring.parentSpanID == recorded.spanID)
                #expect(scoring.attributes["parla.speech.scored_by"] == "server" && scoring.attributes["parla.language"] == "en")
                #expect(spans.contains { $0.traceID == recorded.traceID && $0.name.hasPrefix("SQL SpeechAttemptStore.") })

                // Secrets in a query string are redacted; learners' words are not recorded.
                let page = try #require(spans.first { $0.attributes["url.path"] == "/account/reset-password" })
                #expect(page.attributes["url.query"] == "token=REDACTED")
                #expect(!spans.contains { $0.attributes.values.contains { $0.contains(secret) || $0.contains("ill-disposed") } })
            } catch {
                _ = try? await server.terminate()
                throw error
            }
            #expect(try await server.terminate() == 0)
        }
    }
}

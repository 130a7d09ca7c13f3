import Foundation
import Logging
import ParlaCore
import ParlaLearningStore
import ParlaStore
import ParlaTestSupport
import PostgresNIO
import Testing

/// Speech scoring as a worker role (issue 20, item 6): real `parla worker
/// speech` processes on the server's database, real recordings.
@Suite("speech worker")
struct SpeechWorkerTests {
    typealias JSON = [String: any Sendable]
    let text = "He was not an ill-disposed young man."

    func clip(_ id: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(SpeechTests.librivox)/sense_and_sensibility_01_austen_64kb-\(id).wav")))
    }

    /// A `parla worker speech` on the database at `url`.
    func worker(_ url: String, name: String) throws -> ServerProcess {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-worker-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return try ServerProcess(
            command: ["worker", "speech"], arguments: ["--name", name, "--threads", "1"], directory: directory,
            environment: [
                "PARLA_DATABASE_URL": url, "PARLA_SECURITY_DATA_KEY": TestApp.dataKey,
                "PARLA_SPEECH_MODELS_DIRECTORY": TestApp.projectDirectory + "/Models",
            ])
    }

    func registered(_ url: String, _ name: String) async throws -> Bool {
        let rows = try await TestDatabase.shared.rows(in: url, "SELECT count(*)::int FROM speech_workers WHERE name = \(name)")
        return try rows[0].decode(Int.self) == 1
    }

    /// Who took each job so far, oldest first.
    func jobs(_ url: String) async throws -> [String?] {
        try await TestDatabase.shared.rows(in: url, "SELECT taken_by FROM speech_jobs ORDER BY queued_at").map {
            try $0.decode(String?.self)
        }
    }

    func attempt(_ client: Client, _ learner: Client.SignedUp, _ audio: [UInt8]) async throws -> Client.Reply {
        try await client.send(
            .post, "/v1/learners/\(learner.learnerID)/speech/attempts?" + SpeechTests.query(text), token: learner.token, body: audio,
            headers: ["Content-Type": "audio/wav"])
    }

    static func canonical(_ value: Any?) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value ?? [:], options: .sortedKeys), as: UTF8.self)
    }

    @Test("with a worker running, recordings are scored by it (the same score as in-process, errors with their codes); without one, here")
    func scoredByWorker() async throws {
        let app = try await TestApp.make { $0.speech.queueWaitSeconds = 20 }
        try await app.run { client in
            let learner = try await client.signUp()
            // No worker: the server scores, nothing is queued.
            let here = try await attempt(client, learner, try clip("0880"))
            #expect(here.status == 201, "\(here.text)")
            #expect(try await jobs(app.databaseURL).isEmpty)

            let worker = try worker(app.databaseURL, name: "worker-one")
            do {
                #expect(try await eventually(60) { try await registered(app.databaseURL, "worker-one") }, "\(worker.log)")
                let there = try await attempt(client, learner, try clip("0880"))
                #expect(there.status == 201, "\(there.text)")
                #expect(try Self.canonical(there.json["result"]) == Self.canonical(here.json["result"]))
                #expect(try await jobs(app.databaseURL) == ["worker-one"])
                // A worker's error comes back with its code.
                #expect(try await attempt(client, learner, Array("not audio, not at all".utf8)).code == "unsupported_audio")
                // Alignments go to the worker too.
                let alignment = try await client.send(
                    .post, "/v1/speech/alignments?" + SpeechTests.query(text), token: learner.token, body: try clip("0880"),
                    headers: ["Content-Type": "audio/wav"])
                #expect(alignment.status == 200, "\(alignment.text)")
                #expect((alignment.json["words"] as? [JSON])?.count == 7)
                #expect(try await jobs(app.databaseURL) == ["worker-one", "worker-one", "worker-one"])
                // The recordings are gone from finished jobs.
                let kept = try await TestDatabase.shared.rows(
                    in: app.databaseURL, "SELECT count(*)::int FROM speech_jobs WHERE audio IS NOT NULL")
                #expect(try kept[0].decode(Int.self) == 0)

                // Stopped (SIGTERM), it leaves the register: the server scores itself again.
                #expect(try await worker.terminate() == 0, "\(worker.log)")
                #expect(try await !registered(app.databaseURL, "worker-one"))
                try await Task.sleep(for: .milliseconds(1100))
                #expect(try await attempt(client, learner, try clip("0880")).status == 201)
                #expect(try await jobs(app.databaseURL).count == 3)
            } catch {
                try? await worker.kill()
                throw error
            }
        }
    }

    @Test("a worker killed: what no one took is withdrawn and scored by the server; what it held is taken by another worker, once")
    func deadWorker() async throws {
        let app = try await TestApp.make { $0.speech.queueWaitSeconds = 3 }
        try await app.run { client in
            let learner = try await client.signUp()
            let worker = try worker(app.databaseURL, name: "doomed")
            #expect(try await eventually(60) { try await registered(app.databaseURL, "doomed") }, "\(worker.log)")
            try await worker.kill()
            // It still looks alive (seen within 10 s): the job is queued, no one
            // takes it, and after the wait the server withdraws it and scores it.
            let started = ContinuousClock.now
            let reply = try await attempt(client, learner, try clip("0880"))
            #expect(reply.status == 201, "\(reply.text)")
            #expect(ContinuousClock.now - started >= .seconds(3))
            #expect(try await jobs(app.databaseURL).isEmpty)
        }
        // A job held by a worker that died is taken again after `staleAfter`,
        // and only its new holder records the outcome.
        try await TestDatabase.withPool(app.databaseURL, connections: 2, logger: Logger(label: "parla.tests.speech-jobs")) { database in
            let store = SpeechJobStore(database: database, cipher: try TestApp.cipher())
            let job = SpeechJobStore.Job(kind: .score, language: "en", text: text, maxSeconds: 15, audio: [1, 2, 3])
            try await store.enqueue(job)
            #expect(try await store.take(for: "first", limit: 4, staleAfter: 60).map(\.id) == [job.id])
            #expect(try await store.take(for: "second", limit: 4, staleAfter: 60).isEmpty)
            try await TestDatabase.shared.execute(
                in: app.databaseURL, "UPDATE speech_jobs SET taken_at = now() - interval '2 minutes' WHERE id = \(job.id)")
            let retaken = try await store.take(for: "second", limit: 4, staleAfter: 60)
            #expect(retaken.map(\.id) == [job.id] && retaken.first?.audio == [1, 2, 3])
            #expect(try await !store.finish(job.id, by: "first", .result(Array("{}".utf8))))
            #expect(try await store.finish(job.id, by: "second", .failed(code: "no_speech", retryAfter: nil)))
            #expect(try await store.outcome(of: job.id) == .failed(code: "no_speech", retryAfter: nil))
            // A job tried three times is not taken again.
            try await TestDatabase.shared.execute(
                in: app.databaseURL, "UPDATE speech_jobs SET finished_at = NULL, tries = 3, taken_at = NULL WHERE id = \(job.id)")
            #expect(try await store.take(for: "third", limit: 4, staleAfter: 60).isEmpty)
        }
    }
}

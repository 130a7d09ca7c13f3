import Foundation
import Logging
import ParlaCore
import ParlaKept
import ParlaLearningStore
import ParlaSpeech
import ParlaStore
import ServiceLifecycle
import Synchronization
import Tracing

// Design note: speech scoring as a worker role (issue 20, item 6).
//
// Scoring takes a core for a fraction of a second a recording; the API's
// other work takes milliseconds. So scoring can run in workers of its own
// (`parla worker speech`), scaled apart from the API servers. A server
// that has seen a worker lately (the `speech_workers` register, every two
// seconds) queues the recording in `speech_jobs` and waits: a worker takes
// it with FOR UPDATE SKIP LOCKED, scores it with the same `SpeechScorer`,
// and announces the result on the change feed. With no worker running (the
// embedded default) the server scores in-process, as before. Nothing is
// lost when a worker dies: a job it held is taken again by another after
// `staleAfter`, and a job no one took within the wait is withdrawn and
// scored by the server itself.

/// Where a recording is scored: by a worker through the queue while one
/// runs, else here.
package final class ScoringRoute: Sendable {
    package let scorer: SpeechScorer
    package let jobs: SpeechJobStore
    package let waiters: SpeechJobWaiters
    /// How long a server waits for a worker to take a job, and again for it
    /// to finish one it took.
    package let wait: Duration
    package let logger: Logger
    /// Workers seen, and when this server last asked.
    private let workers = Mutex<(count: Int, asked: ContinuousClock.Instant)?>(nil)

    /// A worker seen within this is running.
    package static let workerSeenWithin = 10.0

    package init(scorer: SpeechScorer, jobs: SpeechJobStore, waiters: SpeechJobWaiters, wait: Duration, logger: Logger) {
        (self.scorer, self.jobs, self.waiters, self.wait, self.logger) = (scorer, jobs, waiters, wait, logger)
    }

    /// The limits uploads are held to.
    package var limits: AudioLimits { scorer.settings.limits }

    package func score(_ audio: [UInt8], text: String, language: Language) async throws -> AttemptScore {
        try await routed(.score, audio, text: text, language: language, maxSeconds: limits.maxSeconds) {
            try await scorer.score(audio, text: text, language: language)
        }
    }

    package func align(_ audio: [UInt8], text: String, language: Language, limits: AudioLimits) async throws -> NarrationAlignment {
        try await routed(.align, audio, text: text, language: language, maxSeconds: limits.maxSeconds) {
            try await scorer.align(audio, text: text, language: language, limits: limits)
        }
    }

    /// A job's result from a worker, or `here` when this server does the
    /// job itself; one span either way ("speech.score", "speech.align").
    private func routed<Result: Decodable & Sendable>(
        _ kind: SpeechJobStore.Kind, _ audio: [UInt8], text: String, language: Language, maxSeconds: Double,
        here: () async throws -> Result
    ) async throws -> Result {
        try await withSpan("speech.\(kind.rawValue)") { span in
            span.attributes["parla.language"] = language.code
            span.attributes["parla.audio.bytes"] = audio.count
            let job = SpeechJobStore.Job(kind: kind, language: language.code, text: text, maxSeconds: maxSeconds, audio: audio)
            if let result = try await queued(job) {
                span.attributes["parla.speech.scored_by"] = "worker"
                return try JSONDecoder().decode(Result.self, from: Data(result))
            }
            span.attributes["parla.speech.scored_by"] = "server"
            return try await here()
        }
    }

    /// The worker's result, or nil when this server scores the job itself
    /// (no worker runs, or none took it within the wait).
    private func queued(_ job: SpeechJobStore.Job) async throws -> [UInt8]? {
        guard try await workerRunning() else { return nil }
        return try await waiters.waiting(for: job.id) { bell in
            try await jobs.enqueue(job)
            if let outcome = try await outcome(of: job.id, bell: bell) { return try Self.result(outcome) }
            if try await jobs.withdraw(job.id) {
                logger.warning("no speech worker took a recording in time: scored here", metadata: ["job": "\(job.id)"])
                return nil
            }
            // A worker holds it: as long again for it to finish.
            if let outcome = try await outcome(of: job.id, bell: bell) { return try Self.result(outcome) }
            try? await jobs.abandon(job.id)
            throw ParlaError(.speechBusy, retryAfter: 1)
        }
    }

    /// How the job ended, read when its end is announced (or every second,
    /// should an announcement be missed); nil when `wait` passes first.
    private func outcome(of id: UUID, bell: Doorbell) async throws -> SpeechJobStore.Outcome? {
        let deadline = ContinuousClock.now + wait
        while ContinuousClock.now < deadline {
            if let outcome = try await jobs.outcome(of: id) { return outcome }
            try Task.checkCancellation()
            await bell.wait(upTo: min(.seconds(1), deadline - .now))
        }
        return try await jobs.outcome(of: id)
    }

    private static func result(_ outcome: SpeechJobStore.Outcome) throws -> [UInt8] {
        switch outcome {
        case .result(let bytes): return bytes
        case .failed(let code, let retryAfter):
            throw ParlaError(ErrorCode(rawValue: code) ?? .speechUnavailable, retryAfter: retryAfter)
        }
    }

    /// Whether a worker was seen lately; asked of the database at most once a second.
    private func workerRunning() async throws -> Bool {
        if let known = workers.withLock({ $0 }), ContinuousClock.now - known.asked < .seconds(1) { return known.count > 0 }
        let count = try await jobs.liveWorkers(seenWithin: Self.workerSeenWithin)
        workers.withLock { $0 = (count, .now) }
        return count > 0
    }
}

/// The servers' side of the change feed for speech jobs: rings the bell of
/// the request waiting for a job when the job's end is announced.
package final class SpeechJobWaiters: ChangeSubscriber {
    package let changeKind = SpeechJobStore.finishedKind
    private let bells = Mutex<[UUID: Doorbell]>([:])

    /// Runs `body` with a bell that rings when job `id` is announced finished.
    package func waiting<Result: Sendable>(for id: UUID, _ body: (Doorbell) async throws -> Result) async throws -> Result {
        let bell = Doorbell()
        bells.withLock { $0[id] = bell }
        defer { _ = bells.withLock { $0.removeValue(forKey: id) } }
        return try await body(bell)
    }

    package func received(_ fields: [Substring]) -> Bool {
        guard let id = fields.first.flatMap({ UUID(uuidString: String($0)) }) else { return false }
        bells.withLock { $0[id] }?.ring()
        return true
    }

    package func startedListening() {}

    /// Announcements may be missed: every waiter reads its job now.
    package func stoppedListening() {
        for bell in bells.withLock({ Array($0.values) }) { bell.ring() }
    }

    package init() {}
}

/// One waiter waits at a time, until the bell rings or a timeout passes.
/// A ring while no one waits is kept for the next wait.
package final class Doorbell: Sendable {
    private struct State {
        package var rung = false
        package var timedOut = false
        package var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())

    package func ring() {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil as CheckedContinuation<Void, Never>?
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when rung (now or since the last wait), after `timeout`, or
    /// when the task is cancelled.
    package func wait(upTo timeout: Duration) async {
        state.withLock { $0.timedOut = false }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await Task.sleep(for: timeout)
                self.timeOut()
            }
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.rung || state.timedOut {
                        state.rung = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
            group.cancelAll()
        }
    }

    /// Ends the current wait, without keeping a ring for the next.
    private func timeOut() {
        let waiter = state.withLock { state in
            defer { state.waiter = nil }
            if state.waiter == nil { state.timedOut = true }
            return state.waiter
        }
        waiter?.resume()
    }
}

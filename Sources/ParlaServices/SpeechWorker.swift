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

/// `parla worker speech`: takes recordings from the queue, as many at once
/// as the scorer has threads, scores them and records the outcome (see the
/// design note in SpeechQueue.swift). Woken by the change feed when a job
/// is queued, and looks every second besides. On SIGTERM it takes nothing
/// more, finishes what it holds and leaves the register.
package final class SpeechWorker: Service, ChangeSubscriber {
    package let name: String
    package let jobs: SpeechJobStore
    package let scorer: SpeechScorer
    package let logger: Logger
    package let changeKind = SpeechJobStore.queuedKind
    private let bell = Doorbell()
    private let stopping = Atomic<Bool>(false)
    private let running = Atomic<Int>(0)

    /// A job held longer than this without an outcome was lost with its worker.
    package static let staleAfter = 60.0
    package static let heartbeat = Duration.seconds(2)
    /// Finished jobs are kept this long (seconds), for operators to look at.
    package static let keepFinished = 600.0

    package init(name: String, jobs: SpeechJobStore, scorer: SpeechScorer, logger: Logger) {
        (self.name, self.jobs, self.scorer, self.logger) = (name, jobs, scorer, logger)
    }

    package var slots: Int { scorer.settings.threads }

    package func run() async throws {
        logger.info("speech worker started", metadata: ["worker": "\(name)", "threads": "\(slots)"])
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.beat() }
                await self.takeJobs(into: &group)
                // Stopping: what is held is finished (each rings), then the heartbeat stops.
                while running.load(ordering: .relaxed) > 0 { await bell.wait(upTo: .seconds(1)) }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.stopping.store(true, ordering: .relaxed)
            self.bell.ring()
        }
        try? await jobs.leave(worker: name)
        logger.info("speech worker stopped", metadata: ["worker": "\(name)"])
    }

    /// Takes jobs while slots are free, each scored in a task of its own.
    private func takeJobs(into group: inout TaskGroup<Void>) async {
        while !stopping.load(ordering: .relaxed) {
            let free = slots - running.load(ordering: .relaxed)
            var taken: [SpeechJobStore.Job] = []
            if free > 0 {
                do {
                    taken = try await jobs.take(for: name, limit: free, staleAfter: Self.staleAfter)
                } catch {
                    logger.warning("speech jobs could not be taken", metadata: ["error": "\(error)"])
                }
            }
            for job in taken {
                running.wrappingAdd(1, ordering: .relaxed)
                group.addTask {
                    await self.score(job)
                    self.running.wrappingSubtract(1, ordering: .relaxed)
                    self.bell.ring()
                }
            }
            if taken.isEmpty { await bell.wait(upTo: .seconds(1)) }
        }
    }

    /// Scores one job and records its outcome (tried again while the
    /// database is away: the server waiting for it reads it once it is).
    private func score(_ job: SpeechJobStore.Job) async {
        await withSpan("speech.worker.\(job.kind.rawValue)") { span in
            span.attributes["parla.language"] = job.language
            span.attributes["parla.speech.job"] = job.id.uuidString
            await scoreAndRecord(job)
        }
    }

    private func scoreAndRecord(_ job: SpeechJobStore.Job) async {
        let outcome: SpeechJobStore.Outcome
        do {
            guard let language = Language(rawValue: job.language) else { throw ParlaError(.languageNotFound) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            switch job.kind {
            case .score:
                outcome = .result(Array(try encoder.encode(try await scorer.score(job.audio, text: job.text, language: language))))
            case .align:
                var limits = scorer.settings.limits
                limits.maxSeconds = job.maxSeconds
                let alignment = try await scorer.align(job.audio, text: job.text, language: language, limits: limits)
                outcome = .result(Array(try encoder.encode(alignment)))
            }
        } catch let error as ParlaError {
            outcome = .failed(code: error.code.rawValue, retryAfter: error.retryAfter)
        } catch {
            logger.error("a speech job failed", metadata: ["job": "\(job.id)", "error": "\(error)"])
            outcome = .failed(code: ErrorCode.speechUnavailable.rawValue, retryAfter: nil)
        }
        for attempt in 1...5 {
            do {
                if try await !jobs.finish(job.id, by: name, outcome) {
                    logger.notice("a speech job was no longer this worker's", metadata: ["job": "\(job.id)"])
                }
                return
            } catch {
                logger.warning("a speech job's outcome could not be recorded", metadata: ["job": "\(job.id)", "error": "\(error)"])
                try? await Task.sleep(for: .seconds(attempt))
            }
        }
    }

    /// Says this worker runs, every two seconds; sweeps old jobs now and then.
    private func beat() async {
        var beats = 0
        while !Task.isCancelled {
            do {
                try await jobs.heartbeat(worker: name, threads: slots)
                if beats % 30 == 0 { try await jobs.sweep(finishedBefore: Self.keepFinished) }
            } catch {
                logger.warning("speech worker heartbeat failed", metadata: ["error": "\(error)"])
            }
            beats += 1
            try? await Task.sleep(for: Self.heartbeat)
        }
    }

    package func received(_ fields: [Substring]) -> Bool {
        bell.ring()
        return true
    }

    package func startedListening() { bell.ring() }
    package func stoppedListening() {}
}

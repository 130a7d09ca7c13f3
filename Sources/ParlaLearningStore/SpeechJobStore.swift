import Foundation
import NIOCore
import ParlaDatabase
import PostgresNIO

/// The queue between API servers and speech workers (migration 0040), and
/// the register of running workers.
public struct SpeechJobStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    public init(database: Database, cipher: PersonalDataCipher) { (self.database, self.cipher) = (database, cipher) }

    public enum Kind: String, Sendable { case score, align }

    /// What a worker is asked to do.
    public struct Job: Sendable {
        public var id: UUID
        public var kind: Kind
        public var language: String
        public var text: String
        /// The longest recording accepted (an alignment may run longer).
        public var maxSeconds: Double
        public var audio: [UInt8]

        public init(id: UUID = UUID(), kind: Kind, language: String, text: String, maxSeconds: Double, audio: [UInt8]) {
            (self.id, self.kind, self.language, self.text, self.maxSeconds, self.audio) = (id, kind, language, text, maxSeconds, audio)
        }
    }

    /// How a job ended: the result's JSON, or an error's code.
    public enum Outcome: Sendable, Equatable {
        case result([UInt8])
        case failed(code: String, retryAfter: Int?)
    }

    /// The notification kinds on the change feed: a job queued (workers
    /// wake), a job finished (the server waiting for it reads it).
    public static let queuedKind = "speech_queued"
    public static let finishedKind = "speech_finished"

    /// Queues a job and wakes the workers, in one statement.
    public func enqueue(_ job: Job) async throws {
        let sealed = ByteBuffer(bytes: try cipher.seal(job.audio, as: .speechJobRecording))
        try await database.withConnection { connection in
            _ = try await connection.query(
                """
                WITH queued AS (
                    INSERT INTO speech_jobs (id, kind, language, text, max_seconds, audio)
                    VALUES (\(job.id), \(job.kind.rawValue), \(job.language), \(job.text), \(job.maxSeconds), \(sealed))
                    RETURNING id
                )
                SELECT pg_notify('parla_changes', \(Self.queuedKind)) FROM queued
                """, logger: database.logger
            ).collect()
        }
    }

    /// Takes up to `limit` waiting jobs for `worker`, oldest first: jobs no
    /// one holds, and jobs taken more than `staleAfter` seconds ago and not
    /// finished (their worker died), each at most `maxTries` times. Two
    /// workers never take the same job: rows another transaction has
    /// locked are skipped, not waited for.
    public func take(for worker: String, limit: Int, staleAfter: Double, maxTries: Int = 3) async throws -> [Job] {
        let rows = try await database.withConnection { connection in
            try await connection.query(
                """
                UPDATE speech_jobs j SET taken_by = \(worker), taken_at = now(), tries = j.tries + 1
                FROM (
                    SELECT id FROM speech_jobs
                    WHERE finished_at IS NULL AND tries < \(maxTries)
                      AND (taken_at IS NULL OR taken_at < now() - make_interval(secs => \(staleAfter)))
                    ORDER BY queued_at
                    LIMIT \(limit)
                    FOR UPDATE SKIP LOCKED
                ) waiting
                WHERE j.id = waiting.id
                RETURNING j.id, j.kind, j.language, j.text, j.max_seconds, j.audio
                """, logger: database.logger
            ).collect()
        }
        return try rows.map { row in
            let (id, kind, language, text, maxSeconds, audio) = try row.decode((UUID, String, String, String, Double, ByteBuffer).self)
            let recording = try cipher.open(Array(audio.readableBytesView), as: .speechJobRecording)
            return Job(
                id: id, kind: Kind(rawValue: kind) ?? .score, language: language, text: text, maxSeconds: maxSeconds, audio: recording)
        }
    }

    /// Records how a job ended, drops its recording and tells the servers.
    /// Only the worker holding the job may finish it (one that was presumed
    /// dead and replaced finishes nothing); false when it no longer held it.
    @discardableResult
    public func finish(_ id: UUID, by worker: String, _ outcome: Outcome) async throws -> Bool {
        let (result, error, retryAfter): (ByteBuffer?, String?, Int?) =
            switch outcome {
            case .result(let bytes): (ByteBuffer(bytes: bytes), nil, nil)
            case .failed(let code, let retryAfter): (nil, code, retryAfter)
            }
        let rows = try await database.withConnection { connection in
            try await connection.query(
                """
                WITH done AS (
                    UPDATE speech_jobs SET finished_at = now(), audio = NULL, result = \(result), error = \(error),
                        retry_after = \(retryAfter)
                    WHERE id = \(id) AND taken_by = \(worker) AND finished_at IS NULL
                    RETURNING id
                )
                SELECT pg_notify('parla_changes', \(Self.finishedKind) || E'\\t' || id::text) FROM done
                """, logger: database.logger
            ).collect()
        }
        return !rows.isEmpty
    }

    /// How the job ended, or nil while it has not.
    public func outcome(of id: UUID) async throws -> Outcome? {
        let rows = try await database.withConnection { connection in
            try await connection.query(
                "SELECT result, error, retry_after FROM speech_jobs WHERE id = \(id) AND finished_at IS NOT NULL",
                logger: database.logger
            ).collect()
        }
        guard let row = rows.first else { return nil }
        let (result, error, retryAfter) = try row.decode((ByteBuffer?, String?, Int?).self)
        if let result { return .result(Array(result.readableBytesView)) }
        return .failed(code: error ?? "speech_unavailable", retryAfter: retryAfter)
    }

    /// Takes back a job no worker has taken yet: true when it was withdrawn
    /// (the caller scores it itself), false when a worker holds it.
    public func withdraw(_ id: UUID) async throws -> Bool {
        let rows = try await database.withConnection { connection in
            try await connection.query(
                "DELETE FROM speech_jobs WHERE id = \(id) AND taken_at IS NULL RETURNING id", logger: database.logger
            ).collect()
        }
        return !rows.isEmpty
    }

    /// Forgets a job whatever its state (its server stopped waiting).
    public func abandon(_ id: UUID) async throws {
        try await database.withConnection { connection in
            _ = try await connection.query("DELETE FROM speech_jobs WHERE id = \(id)", logger: database.logger).collect()
        }
    }

    /// Forgets jobs finished more than `seconds` ago; how many went.
    @discardableResult
    public func sweep(finishedBefore seconds: Double) async throws -> Int {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                WITH gone AS (
                    DELETE FROM speech_jobs WHERE finished_at < now() - make_interval(secs => \(seconds)) RETURNING 1
                ) SELECT count(*)::int FROM gone
                """, logger: database.logger
            ).collect()
            return try rows.first?.decode(Int.self) ?? 0
        }
    }

    /// A worker says it is running, with how many recordings it scores at once.
    public func heartbeat(worker: String, threads: Int) async throws {
        try await database.withConnection { connection in
            _ = try await connection.query(
                """
                INSERT INTO speech_workers (name, threads) VALUES (\(worker), \(threads))
                ON CONFLICT (name) DO UPDATE SET seen_at = now(), threads = EXCLUDED.threads
                """, logger: database.logger
            ).collect()
        }
    }

    /// A worker that stops cleanly leaves the register at once.
    public func leave(worker: String) async throws {
        try await database.withConnection { connection in
            _ = try await connection.query("DELETE FROM speech_workers WHERE name = \(worker)", logger: database.logger).collect()
        }
    }

    /// How many workers were seen within `seconds`.
    public func liveWorkers(seenWithin seconds: Double) async throws -> Int {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                "SELECT count(*)::int FROM speech_workers WHERE seen_at > now() - make_interval(secs => \(seconds))",
                logger: database.logger
            ).collect()
            return try rows.first?.decode(Int.self) ?? 0
        }
    }
}

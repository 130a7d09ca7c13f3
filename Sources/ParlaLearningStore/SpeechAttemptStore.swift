import Foundation
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// Scored attempts at phrases, per learner; recordings only when the
/// learner keeps them, sealed like every personal field. Queries take an
/// `AuthorizedLearner`.
public struct SpeechAttemptStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    public init(database: Database, cipher: PersonalDataCipher) {
        self.database = database
        self.cipher = cipher
    }

    public struct NewAttempt: Sendable {
        public var language: Language
        public var phraseID: String?
        public var text: String
        public var overall: Double
        public var passed: Bool
        public var feedback: String
        public var duration: Double
        /// The whole result, as JSON.
        public var result: Data
        /// The recording and its media type, when the learner keeps them.
        public var recording: (bytes: [UInt8], mediaType: String)?

        public init(
            language: Language, phraseID: String?, text: String, overall: Double, passed: Bool, feedback: String,
            duration: Double, result: Data, recording: (bytes: [UInt8], mediaType: String)?
        ) {
            (self.language, self.phraseID, self.text, self.overall, self.passed) = (language, phraseID, text, overall, passed)
            (self.feedback, self.duration, self.result, self.recording) = (feedback, duration, result, recording)
        }
    }

    public struct Attempt: Sendable {
        public var id: SpeechAttemptID
        public var language: Language
        public var phraseID: String?
        public var text: String
        public var result: Data
        public var hasRecording: Bool
        public var createdAt: Date
    }

    /// Stores an attempt of the learner; `learner_not_found` if it was deleted meanwhile.
    public func insert(_ new: NewAttempt, learner: AuthorizedLearner) async throws -> Attempt {
        let id = SpeechAttemptID.generate()
        let audio = try new.recording.map { ByteBuffer(bytes: try cipher.seal($0.bytes, as: .speechRecording)) }
        let rows = try await database.withConnection { connection in
            try await connection.query(
                """
                INSERT INTO speech_attempts (id, learner_id, language, phrase_id, text, overall, passed, feedback, duration,
                                             result, audio, audio_type)
                SELECT \(id.uuid), l.id, \(new.language.code), \(new.phraseID), \(new.text), \(Float(new.overall)), \(new.passed),
                       \(new.feedback), \(Float(new.duration)), \(String(decoding: new.result, as: UTF8.self))::jsonb, \(audio),
                       \(new.recording?.mediaType)
                FROM learners l WHERE l.id = \(learner.uuid)
                RETURNING created_at
                """, logger: database.logger
            ).collect()
        }
        guard let row = rows.first else { throw ParlaError(.learnerNotFound) }
        return Attempt(
            id: id, language: new.language, phraseID: new.phraseID, text: new.text, result: new.result,
            hasRecording: new.recording != nil, createdAt: try row.decode(Date.self))
    }

    /// A learner's attempts, newest first, `limit` after the cursor (an
    /// attempt id: the ids are time-ordered).
    public func list(
        learner: AuthorizedLearner, language: Language?, limit: Int,
        before: SpeechAttemptID?
    ) async throws -> [Attempt] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT id, language, phrase_id, text, result::text, audio IS NOT NULL, created_at FROM speech_attempts
                WHERE learner_id = \(learner.uuid) AND (\(language?.code)::text IS NULL OR language = \(language?.code))
                  AND (\(before?.uuid)::uuid IS NULL OR id < \(before?.uuid))
                ORDER BY id DESC LIMIT \(limit)
                """, logger: database.logger
            ).collect().map { row in
                let (id, language, phrase, text, result, kept, created) =
                    try row.decode((UUID, String, String?, String, String, Bool, Date).self)
                return Attempt(
                    id: SpeechAttemptID(id), language: Language(rawValue: language) ?? .english, phraseID: phrase,
                    text: text, result: Data(result.utf8), hasRecording: kept, createdAt: created)
            }
        }
    }

    /// A kept recording; nil when the attempt exists but kept none.
    public func recording(_ attempt: SpeechAttemptID, learner: AuthorizedLearner)
        async throws -> (bytes: [UInt8], mediaType: String)?
    {
        let row = try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT a.audio, a.audio_type FROM speech_attempts a
                WHERE a.id = \(attempt.uuid) AND a.learner_id = \(learner.uuid)
                """, logger: database.logger
            ).collect().first
        }
        guard let row else { throw ParlaError(.attemptNotFound) }
        let (audio, type) = try row.decode((ByteBuffer?, String?).self)
        guard let audio, let type else { return nil }
        return (try cipher.open(audio.bytes, as: .speechRecording), type)
    }
}

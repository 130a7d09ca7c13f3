import Foundation
import ParlaContent
import ParlaCore
import ParlaLearningStore
import ParlaSpeech
import ParlaStore
import ServiceLifecycle

/// Scores a learner's attempts at phrases and keeps them.
package struct SpeechService: Sendable {
    /// A speech worker, or this server's own scorer.
    package let scorer: ScoringRoute
    package let attempts: SpeechAttemptStore
    package let learners: LearnerStore
    package let content: ContentService
    package let plans: EntitlementService
    /// Recordings per client address and per account, counted before scoring.
    package let limits: RateLimiter

    package static let maxTextLength = 300
    package static let maxNarrationLength = 1000
    /// A narration may run longer than an attempt at a phrase.
    package static let maxNarrationSeconds = 60.0

    package func attempt(
        _ authorized: AuthorizedLearner, language code: String, text: String?, phraseID: String?,
        audio: [UInt8], mediaType: String
    ) async throws -> (SpeechAttemptStore.Attempt, AttemptScore) {
        try await admit(authorized)
        let language = try content.language(code)
        let phrase: String
        switch (text?.trimmingCharacters(in: .whitespacesAndNewlines), phraseID) {
        case (_, let phraseID?):
            guard let found = try content.phrase(phraseID, in: language).texts[language] else { throw ParlaError(.phraseNotFound) }
            phrase = found
        case (let text?, nil) where !text.isEmpty && text.count <= Self.maxTextLength:
            phrase = text
        case (let text?, nil) where !text.isEmpty:
            throw ParlaError.validation([FieldError("text", .malformedRequest)])
        default:
            throw ParlaError(.textOrPhraseRequired)
        }
        return try await scoreAndKeep(authorized, phrase, phraseID: phraseID, in: language, audio: audio, mediaType: mediaType)
    }

    /// Every scored recording, a practice attempt or a lesson's, counts
    /// first: against the recording rate limits of the account and the
    /// address (429), then the plan's daily speech attempts (402).
    package func admit(_ authorized: AuthorizedLearner) async throws {
        try await limits.admit(.recording, account: authorized.account)
        try await plans.checkDailyLimit(.speechAttemptsPerDay, for: authorized)
    }

    /// Scores `audio` as `phrase` and keeps it as one of the learner's
    /// attempts (with the audio if the learner keeps recordings): what the
    /// daily limit counts. Call `admit` first.
    package func scoreAndKeep(
        _ authorized: AuthorizedLearner, _ phrase: String, phraseID: String?, in language: Language, audio: [UInt8],
        mediaType: String
    ) async throws -> (SpeechAttemptStore.Attempt, AttemptScore) {
        let learner = try await learners.learner(authorized)
        let score = try await scorer.score(audio, text: phrase, language: language)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let stored = try await attempts.insert(
            .init(
                language: language, phraseID: phraseID, text: phrase, overall: score.overall, passed: score.passed,
                feedback: score.feedback.rawValue, duration: score.duration, result: try encoder.encode(score),
                recording: learner.keepRecordings ? (audio, mediaType) : nil),
            learner: authorized)
        return (stored, score)
    }

    /// When each word of `text` is spoken in `audio`.
    package func align(_ audio: [UInt8], language code: String, text: String, by account: AccountID) async throws -> NarrationAlignment {
        try await limits.admit(.recording, account: account)
        let language = try content.language(code)
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= Self.maxNarrationLength else { throw ParlaError.validation([FieldError("text", .malformedRequest)]) }
        guard !text.isEmpty else { throw ParlaError(.emptyText) }
        var limits = scorer.limits
        limits.maxSeconds = max(limits.maxSeconds, Self.maxNarrationSeconds)
        return try await scorer.align(audio, text: text, language: language, limits: limits)
    }

    package func list(_ learner: AuthorizedLearner, language: String?, limit: Int, before: String?)
        async throws -> [(SpeechAttemptStore.Attempt, AttemptScore)]
    {
        guard (1...100).contains(limit) else { throw ParlaError.validation([FieldError("limit", .malformedRequest)]) }
        let cursor = try before.map { raw -> SpeechAttemptID in
            guard let id = SpeechAttemptID(raw) else { throw ParlaError.validation([FieldError("before", .malformedRequest)]) }
            return id
        }
        let found = try await attempts.list(
            learner: learner, language: try language.map(content.language),
            limit: limit, before: cursor)
        return try found.map { ($0, try JSONDecoder().decode(AttemptScore.self, from: $0.result)) }
    }

    package func recording(_ learner: AuthorizedLearner, attempt: String) async throws -> (bytes: [UInt8], mediaType: String) {
        guard let id = SpeechAttemptID(attempt) else { throw ParlaError(.attemptNotFound) }
        // A teacher hears it only if the learner shares its recordings with the class.
        guard learner.mayHearRecordings, let recording = try await attempts.recording(id, learner: learner) else {
            throw ParlaError(.recordingNotKept)
        }
        return recording
    }

    package init(
        scorer: ScoringRoute, attempts: SpeechAttemptStore, learners: LearnerStore, content: ContentService, plans: EntitlementService,
        limits: RateLimiter
    ) {
        self.scorer = scorer
        self.attempts = attempts
        self.learners = learners
        self.content = content
        self.plans = plans
        self.limits = limits
    }
}

/// Stops the scorer's threads once the server has drained.
package struct SpeechScorerService: Service {
    package let scorer: SpeechScorer

    package func run() async throws {
        try? await gracefulShutdown()
        try await scorer.shutdown()
    }

    package init(scorer: SpeechScorer) {
        self.scorer = scorer
    }
}

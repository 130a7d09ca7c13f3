import Foundation
import OpenAPIRuntime
import ParlaAPI
import ParlaCore
import ParlaLearningStore
import ParlaSpeech
import ParlaStore

extension APIHandler {
    func createSpeechAttempt(_ input: Operations.CreateSpeechAttempt.Input) async throws -> Operations.CreateSpeechAttempt.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let (body, mediaType): (HTTPBody, String) =
            switch input.body {
            case .audioWav(let body): (body, "audio/wav")
            case .audioXWav(let body): (body, "audio/wav")
            case .audioFlac(let body): (body, "audio/flac")
            case .audioOgg(let body): (body, "audio/ogg")
            case .audioOpus(let body): (body, "audio/ogg")
            case .audioMpeg(let body): (body, "audio/mpeg")
            case .binary(let body): (body, "application/octet-stream")
            }
        let audio = try await Self.collect(body)
        let (attempt, score) = try await speech.attempt(
            learner, language: input.query.language.rawValue,
            text: input.query.text, phraseID: input.query.phraseId,
            audio: audio, mediaType: mediaType)
        return .created(.init(body: .json(.init(attempt, score, language: language))))
    }

    // The body middleware has already bounded the size.
    static func collect(_ body: HTTPBody) async throws -> [UInt8] { try await [UInt8](collecting: body, upTo: .max) }

    func createSpeechAlignment(_ input: Operations.CreateSpeechAlignment.Input) async throws -> Operations.CreateSpeechAlignment.Output {
        let caller = try await caller()
        let body: HTTPBody =
            switch input.body {
            case .audioWav(let body), .audioXWav(let body), .audioFlac(let body), .audioOgg(let body), .audioOpus(let body),
                .audioMpeg(let body), .binary(let body):
                body
            }
        let alignment = try await speech.align(
            try await Self.collect(body), language: input.query.language.rawValue, text: input.query.text, by: caller.accountID)
        return .ok(
            .init(
                body: .json(
                    .init(
                        words: alignment.words.map { .init(word: $0.word, start: $0.start, end: $0.end) },
                        complete: alignment.complete, duration: alignment.duration))))
    }

    func listSpeechAttempts(_ input: Operations.ListSpeechAttempts.Input) async throws -> Operations.ListSpeechAttempts.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let limit = input.query.limit ?? 20
        let page = try await speech.list(
            learner, language: input.query.language?.rawValue, limit: limit,
            before: input.query.before)
        let next = page.count == limit ? page.last?.0.id.description : nil
        return .ok(.init(body: .json(.init(attempts: page.map { .init($0.0, $0.1, language: language) }, next: next))))
    }

    func getSpeechAttemptAudio(_ input: Operations.GetSpeechAttemptAudio.Input) async throws -> Operations.GetSpeechAttemptAudio.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let recording = try await speech.recording(learner, attempt: input.path.attemptId)
        return .ok(.init(body: .recording(recording.bytes, mediaType: recording.mediaType)))
    }
}

/// A recording answered as what it is: a learner's attempt, or what it
/// said about a drawing (enum cases witness the requirements, SE-0280).
protocol RecordingBody {
    static func audioWav(_ body: HTTPBody) -> Self
    static func audioFlac(_ body: HTTPBody) -> Self
    static func audioOgg(_ body: HTTPBody) -> Self
    static func audioMpeg(_ body: HTTPBody) -> Self
    static func binary(_ body: HTTPBody) -> Self
}

extension RecordingBody {
    static func recording(_ bytes: [UInt8], mediaType: String) -> Self {
        let body = HTTPBody(bytes)
        return switch mediaType {
        case "audio/wav": .audioWav(body)
        case "audio/flac": .audioFlac(body)
        case "audio/ogg": .audioOgg(body)
        case "audio/mpeg": .audioMpeg(body)
        default: .binary(body)
        }
    }
}

extension Operations.GetSpeechAttemptAudio.Output.Ok.Body: RecordingBody {}
extension Operations.GetDrawingRecording.Output.Ok.Body: RecordingBody {}

extension Components.Schemas.SpeechAttempt {
    init(_ attempt: ParlaLearningStore.SpeechAttemptStore.Attempt, _ score: AttemptScore, language: Language) {
        self.init(
            id: attempt.id.description, language: attempt.language.code, text: attempt.text, phraseId: attempt.phraseID,
            createdAt: attempt.createdAt, recordingKept: attempt.hasRecording, result: .init(score, language: language))
    }
}

extension Components.Schemas.SpeechResult {
    init(_ score: AttemptScore, language: Language) {
        self.init(
            overall: score.overall, accuracy: score.accuracy, completeness: score.completeness, fluency: score.fluency,
            prosody: score.prosody, passed: score.passed, feedback: .init(rawValue: score.feedback.rawValue) ?? .noSpeech,
            message: Wording.speechFeedback(score.feedback.rawValue).text(in: language),
            words: score.words.map { word in
                Components.Schemas.SpeechWord(
                    text: word.text, start: word.start, end: word.end, score: word.score, stress: word.stress,
                    error: .init(rawValue: word.error.rawValue) ?? .none,
                    phones: word.phones.map {
                        .init(
                            phone: $0.phone, ipa: $0.ipa, heardAs: $0.heardAs, substituted: $0.substituted, start: $0.start, end: $0.end,
                            score: $0.score)
                    },
                    hint: word.hint.map { hint in
                        .init(
                            phoneIndex: hint.phoneIndex, phone: hint.phone, heardAs: hint.heardAs, heardAsWord: hint.heardAsWord,
                            letters: hint.letters, message: hint.message(word: word.text).text(in: language))
                    })
            },
            insertions: score.insertions, recognizedText: score.recognizedText, speechRate: score.speechRate, duration: score.duration,
            warnings: score.warnings)
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OpenAPIRuntime
import ParlaCore
import ParlaDatabase
import ParlaServices
import ParlaStore

/// The one place errors become HTTP responses: RFC 9457 problem documents
/// with a stable code and a message in the request's language.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let scope = RequestScope.here
            let problem = Self.problem(for: error)
            if problem.code == .internalError {
                scope.logger.error("request failed", metadata: ["error": .string(Self.describe(error))])
            }
            return Problem.response(problem, language: scope.language, requestID: scope.requestID, instance: request.uri.path)
        }
    }

    /// Domain errors as they are; framework errors by their HTTP meaning;
    /// anything else is ours to fix and becomes a 500.
    /// A database that cannot be reached is a 503 the client may retry
    /// (`Database.isOutage`), not a bug.
    static func problem(for error: any Error) -> ParlaError {
        switch error {
        case let error as ParlaError:
            return error
        case let error where Database.isOutage(error):
            return ParlaError(.databaseUnavailable, retryAfter: 2)
        case let error as ServerError:
            // A handler's own error, wrapped by the generated code: mapped as itself.
            let cause = error.underlyingError
            if cause is ParlaError || Database.isOutage(cause) { return problem(for: cause) }
            if cause is DecodingError { return ParlaError(.malformedRequest) }
            return problem(status: error.httpStatus.code)
        case let error as any HTTPResponseError:
            return problem(status: error.status.code)
        default:
            return ParlaError(.internalError)
        }
    }

    private static func problem(status: Int) -> ParlaError {
        switch status {
        case 400: ParlaError(.malformedRequest)
        case 404: ParlaError(.routeNotFound)
        case 405: ParlaError(.methodNotAllowed)
        case 406: ParlaError(.notAcceptable)
        case 413: ParlaError(.payloadTooLarge)
        case 415: ParlaError(.unsupportedMediaType)
        case 400..<500: ParlaError(.malformedRequest)
        default: ParlaError(.internalError)
        }
    }

    /// The error's type and cause without the request it came with: a
    /// `ServerError` description would carry the request body.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? ServerError {
            return "\(error.operationID): \(type(of: error.underlyingError)): \(error.underlyingError)"
        }
        return "\(type(of: error)): \(error)"
    }
}

enum Problem {
    static func document(_ error: ParlaError, language: Language, requestID: String, instance: String?) -> [String: Any] {
        var body: [String: Any] = [
            "type": "https://parla.dev/problems/\(error.code.rawValue)",
            "title": error.code.title,
            "status": error.status,
            "code": error.code.rawValue,
            "detail": error.code.message.text(in: language),
            "requestId": requestID,
        ]
        if let instance { body["instance"] = instance }
        if let storeURL = error.storeURL { body["storeUrl"] = storeURL }
        if let items = error.savedItems { body["items"] = items.map { ["kind": $0.kind, "id": $0.id, "text": $0.text] } }
        if !error.fieldErrors.isEmpty {
            body["errors"] = error.fieldErrors.map {
                ["field": $0.field, "code": $0.code.rawValue, "message": $0.code.message.text(in: language)]
            }
        }
        return body
    }

    static func response(_ error: ParlaError, language: Language, requestID: String, instance: String?) -> Response {
        let body = document(error, language: language, requestID: requestID, instance: instance)
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        var headers: HTTPFields = [
            .contentType: "application/problem+json",
            .contentLanguage: language.code,
        ]
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        if let length = error.resourceLength { headers[.contentRange] = "bytes */\(length)" }
        if error.code == .authenticationRequired { headers[.wwwAuthenticate] = "Bearer" }
        return Response(
            status: HTTPResponse.Status(code: error.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension ParlaError {
    var status: Int { code.status }
}

extension ErrorCode {
    /// The HTTP status the code is served with.
    var status: Int {
        switch self {
        case .malformedRequest, .invalidToken: 400
        case .invalidCredentials, .authenticationRequired, .invalidIdToken, .twoFactorRequired, .invalidOneTimeCode: 401
        case .planLimitReached: 402
        case .twoFactorSetupRequired, .twoFactorSessionRequired: 403
        case .twoFactorAlreadyEnabled, .twoFactorNotEnabled, .identityLinkedElsewhere, .lastWayIn: 409
        case .wrongCurrentPassword, .wordListLocked, .wordLocked, .packLocked, .legacyNotEligible, .teacherRequired, .staffRoleRequired,
            .signUpRequired:
            403
        case .routeNotFound, .learnerNotFound, .sessionNotFound, .languageNotFound, .wordListNotFound, .pageNotFound,
            .wordNotFound, .phraseNotFound, .storyNotFound, .alphabetNotFound, .grammarNoteNotFound, .assetNotFound, .attemptNotFound,
            .recordingNotKept,
            .placementNotFound, .lessonNotFound, .courseLessonNotFound, .packNotFound, .gameNotFound, .courseNotFound,
            .drawingNotFound,
            .friendCodeNotFound, .friendRequestNotFound, .friendNotFound, .profileNotFound, .productNotFound,
            .classNotFound, .joinCodeNotFound, .assignmentNotFound, .savedItemNotFound, .reportNotFound,
            .identityNotFound:
            404
        case .methodNotAllowed: 405
        case .notAcceptable: 406
        case .emailTaken, .learnerLimitReached, .lastLearner, .courseExists, .placementFinished, .notCurrentItem,
            .lessonFinished, .notCurrentQuestion, .optionAlreadyTried, .gameFinished, .gameBusy, .cardAlreadyUp,
            .tileAlreadyPlaced, .targetAlreadyFilled, .artSpaceFull,
            .alreadyFriends, .trialAlreadyUsed, .trialNotAvailable, .purchaseForeign, .classLimitReached, .classFull,
            .alreadyInClass, .emailAlreadyVerified, .linkRequired, .savedListFull:
            409
        case .lessonExpired: 410
        case .payloadTooLarge, .audioTooLarge: 413
        case .unsupportedMediaType, .unsupportedImage, .unsupportedAudio: 415
        case .rangeNotSatisfiable: 416
        case .updateRequired: 426
        case .tooManyAttempts, .tooManyRequests, .tooManyEmails, .tooManyReports: 429
        case .notReady, .databaseUnavailable, .contentUnavailable, .speechBusy, .speechUnavailable, .placementUnavailable,
            .storeUnavailable,
            .identityProviderUnavailable:
            503
        case .internalError: 500
        // The server was set up without it: saying so, with no retry advice (never 503).
        case .storeNotConfigured, .identityProviderNotConfigured: 501
        case .validationFailed, .required, .controlCharacter, .invalidFirstName, .invalidLastName, .invalidEmail,
            .invalidPassword, .passwordIsEmail, .termsNotAccepted, .invalidLanguage, .nothingToUpdate,
            .invalidDeviceName, .invalidDisplayName, .invalidAge, .invalidAvatar, .invalidImageDimensions,
            .audioTooLong, .audioTooShort, .noSpeech, .emptyText, .textOrPhraseRequired, .optionNotFound, .targetNotFound,
            .answerKindMismatch, .lessonUnavailable, .cardNotFound, .gameRejected, .lessonLogRejected, .gameUnavailable,
            .flipTooFast, .flipOutOfOrder, .gameUnfinished, .tileNotFound, .moveTooFast, .moveOutOfOrder, .variantNotFound, .invalidTitle,
            .cannotBefriendSelf, .purchaseInvalid, .invalidAppVersion,
            .invalidCurrency, .invalidClassName, .invalidLevel, .invalidSchool, .invalidProvider,
            .invalidTourStatus, .invalidTourStep, .invalidItemKind, .tooManyEvents,
            .invalidReportText, .invalidReportStatus:
            422
        }
    }
}

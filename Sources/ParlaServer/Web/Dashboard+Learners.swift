import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import ParlaContent
import ParlaCore
import ParlaKept
import ParlaLearning
import ParlaServices
import ParlaSpeech
import ParlaStore
import ParlaTeaching
import ParlaWeb

/// A learner's page, as its teacher or its family sees it, and its recordings.
extension Dashboard {
    func learnerPage(_ request: Request, _ raw: String) async throws -> Response {
        guard let visitor = try await visitor(request) else { return redirect("/teach") }
        guard let id = LearnerID(raw),
            let learner = try await unlessMissing({ try await services.access.learner(id, caller: visitor.caller.accountID, for: .read) })
        else {
            return missing(visitor)
        }
        let profile = try await services.learners.get(learner)
        // The language asked for among the learner's (a class's link asks for the class's), else its first.
        let asked = request.uri.queryParameters.get("language").flatMap(Language.init(rawValue:))
        let language = asked.flatMap { profile.targetLanguages.contains($0) ? $0 : nil } ?? profile.targetLanguages.first ?? .english
        let proficiency = try await services.proficiency.proficiency(learner, language: language.code)
        let attempts = try await services.speech.list(learner, language: language.code, limit: 10, before: nil)
        let lessons = try await services.lessons.history(learner, language: language, limit: 10, before: nil)
        let games = try await services.games.recentGames(learner, language: language, limit: 10)
        let course = try await services.packs.course(learner, language: language.code, currency: "USD", sized: false)
        let drawings = try await services.artSpace.list(learner)
        let words = visitor.language
        let dates = visitor.dates
        let overall = proficiency.history.filter { $0.skill == nil }.map { (day: $0.day, value: $0.theta) }
        func minutes(_ seconds: Double) -> String { String(format: "%d:%02d", Int(seconds) / 60, Int(seconds) % 60) }
        let page = LearnerPage(
            frame: visitor.frame(profile.displayName), name: profile.displayName, language: language.nativeName,
            languages: profile.targetLanguages.count < 2
                ? [] : profile.targetLanguages.map { .init(code: $0.code, name: $0.nativeName, current: $0 == language) },
            learnerID: learner.id.description, level: proficiency.report.overall.level.rawValue,
            levelBar: Self.levelBar(proficiency.report.overall, words: words),
            historyChart: overall.isEmpty ? nil : Charts.line(overall, guides: Self.levelGuides, title: WebText.text(.progress, in: words)),
            skills: proficiency.report.skills.map { status in
                .init(
                    name: status.skill.map { WebText.text(WebText.skill($0), in: words) } ?? "", level: status.level.rawValue,
                    levelBar: Self.levelBar(status, words: words), answers: status.responses)
            },
            gaps: proficiency.gaps.prefix(5).map { gap in gap.skill.map { WebText.text(WebText.skill($0), in: words) } ?? gap.id },
            lessons: lessons.map { lesson in
                .init(
                    when: dates.string(from: lesson.startedAt), answers: lesson.answers,
                    accuracy: lesson.answers == 0 ? "–" : Self.percent(Double(lesson.right) / Double(lesson.answers)),
                    time: minutes(Double(lesson.milliseconds) / 1000))
            },
            games: games.map { game in
                .init(
                    when: dates.string(from: game.finishedAt),
                    kind: WebText.text(game.kind == SpellingService.kind ? .spelling : .cardMatching, in: words), items: game.result.items,
                    score: game.result.score,
                    time: minutes(game.result.seconds), mismatches: game.result.mistakes)
            },
            attempts: attempts.map { attempt, score in
                .init(
                    words: score.words.map { word in
                        // Poor where the scorer found the word wrong (its own threshold).
                        .init(
                            text: word.text, score: Int(word.score.rounded()),
                            grade: word.error != .none ? "poor" : word.score >= AttemptScore.greatAt ? "good" : "fair")
                    },
                    overall: Int(score.overall.rounded()), when: dates.string(from: attempt.createdAt),
                    audio: attempt.hasRecording && learner.mayHearRecordings
                        ? "/teach/learners/\(learner.id)/attempts/\(attempt.id)/audio" : nil)
            },
            packs: course.progress.packs.map { progress in
                let pack = progress.pack
                return .init(
                    id: pack.id, title: pack.titles[words] ?? pack.id, level: pack.level.rawValue, completed: progress.completed,
                    lessons: pack.lessons.count, percent: pack.lessons.isEmpty ? 0 : 100 * progress.completed / pack.lessons.count,
                    lastAccessed: progress.lastAccessed.map(dates.string(from:)), locked: progress.locked)
            },
            drawings: drawings.map { drawing in
                let path = "/teach/learners/\(learner.id)/drawings/\(drawing.id)"
                return .init(
                    id: drawing.id.description, title: drawing.title, when: dates.string(from: drawing.createdAt),
                    picture: path + "/picture",
                    width: drawing.picture.width, height: drawing.picture.height,
                    audio: drawing.recording == nil ? nil : path + "/recording", shared: drawing.isShared)
            })
        return html(page, language: visitor.language)
    }

    /// A drawing's picture or recording, for the learner's page: as the API
    /// gives them, to whom it gives them (a teacher: shared drawings only).
    func drawing(_ request: Request, _ rawLearner: String, _ rawDrawing: String, _ part: String) async throws -> Response {
        guard let visitor = try await visitor(request), let id = LearnerID(rawLearner), let drawing = DrawingID(rawDrawing),
            let learner = try await unlessMissing({ try await services.access.learner(id, caller: visitor.caller.accountID, for: .read) })
        else { return Response(status: .notFound) }
        let found: (mediaType: String, bytes: [UInt8])?
        switch part {
        case "picture":
            found = try await unlessMissing { try await services.artSpace.picture(learner, drawing) }.map { ($0.0.mediaType, $0.1) }
        case "recording":
            found = try await unlessMissing { try await services.artSpace.recording(learner, drawing) }
        default:
            found = nil
        }
        guard let found else { return Response(status: .notFound) }
        // A child's drawing and voice are personal data: never kept by a browser or a proxy.
        return Response(
            status: .ok, headers: [.contentType: found.mediaType, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: found.bytes)))
    }

    func audio(_ request: Request, _ rawLearner: String, _ attempt: String) async throws -> Response {
        guard let visitor = try await visitor(request), let id = LearnerID(rawLearner),
            let learner = try await unlessMissing({ try await services.access.learner(id, caller: visitor.caller.accountID, for: .read) }),
            let recording = try await unlessMissing({ try await services.speech.recording(learner, attempt: attempt) })
        else { return Response(status: .notFound) }
        return Response(
            // A learner's voice is personal data: never kept by a browser or a proxy.
            status: .ok, headers: [.contentType: recording.mediaType, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: recording.bytes)))
    }
}

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

/// The class pages: a class's overview, its assignments, its members, its
/// export and its join code.
extension Dashboard {
    /// The class a page names, as the visitor may reach it (`ClassAccess`):
    /// nil when it is not the visitor's, or no class.
    func authorizedClass(_ raw: String, _ visitor: Visitor) async throws -> AuthorizedClass? {
        guard let id = ClassID(raw) else { return nil }
        return try await unlessMissing { try await services.classAccess.schoolClass(id, caller: visitor.caller.accountID) }
    }

    func classPage(_ request: Request, _ raw: String) async throws -> Response {
        guard let visitor = try await visitor(request) else { return redirect("/teach") }
        guard let authorized = try await authorizedClass(raw, visitor) else { return missing(visitor) }
        return try await classPage(visitor, authorized)
    }

    /// The class overview with its assignments and their form; `problems`:
    /// why the last form was refused.
    ///
    /// A plain visit is answered from the page kept with the class's
    /// overview (`ClassOverviews`) for the visitor's language (and the
    /// content's version): rendered once with a mark where each form's CSRF
    /// token goes, and the visitor's own token put in.
    func classPage(_ visitor: Visitor, _ authorized: AuthorizedClass, problems: [String] = [], status: HTTPResponse.Status = .ok)
        async throws
        -> Response
    {
        let plain = problems.isEmpty && status == .ok
        let name = "page \(visitor.language.code)"
        if plain, let kept = services.classes.keptAnswer(name, authorized) { return page(kept, visitor, status: status) }
        var found = true
        let answer = try await services.classes.keepAnswer(plain ? name : nil, authorized) { () async throws -> ClassOverviews.Answer? in
            guard let (schoolClass, report) = try await unlessMissing({ try await services.classes.overview(authorized) }) else {
                found = false
                return nil
            }
            let page = try await classPage(
                visitor, authorized, schoolClass, report, csrf: plain ? Self.tokenMark : visitor.csrf, problems: problems)
            let html = pages.render(page, language: visitor.language)
            return ClassOverviews.Answer(
                fields: Self.htmlFields(visitor.language),
                parts: plain
                    ? html.split(separator: Self.tokenMark, omittingEmptySubsequences: false).map { Array($0.utf8) } : [Array(html.utf8)])
        }
        guard found, let answer else { return missing(visitor) }
        return page(answer, visitor, status: status)
    }

    /// Where a kept page's CSRF tokens go: random, so no content can forge it.
    static let tokenMark = "csrf" + UUID().uuidString.replacingOccurrences(of: "-", with: "")

    /// A kept page with the visitor's CSRF token put in.
    func page(_ answer: ClassOverviews.Answer, _ visitor: Visitor, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: answer.fields, body: .init(byteBuffer: ByteBuffer(bytes: answer.body(token: visitor.csrf))))
    }

    /// What the class page shows.
    func classPage(
        _ visitor: Visitor, _ authorized: AuthorizedClass, _ schoolClass: ClassStore.SchoolClass, _ report: ClassReport, csrf: String,
        problems: [String]
    ) async throws -> ClassPage {
        let assignments = try await services.classes.assignments(of: authorized)
        let words = visitor.language
        let (dates, days) = (visitor.dates, visitor.days)
        let snapshot = try services.content.snapshot()
        let language = schoolClass.language
        func signed(_ value: Double?) -> String { value.map { String(format: "%+.2f", $0) } ?? "–" }
        let choices = assignmentChoices(snapshot.corpus, for: language, in: visitor.language)
        return ClassPage(
            frame: visitor.frame(schoolClass.name, csrf: csrf, problems: problems), id: schoolClass.id.description,
            classID: schoolClass.id.description, name: schoolClass.name, language: language.nativeName, languageCode: language.code,
            level: schoolClass.level.rawValue, joinCode: schoolClass.joinCode.map(JoinCode.display),
            // Nobody counted yet (no member has begun the class's language): said, not drawn.
            levelsChart: report.levels.values.allSatisfy { $0 == 0 }
                ? nil
                : Charts.bars(CEFRLevel.allCases.map { ($0.rawValue, report.levels[$0] ?? 0) }, title: WebText.text(.levels, in: words)),
            progressChart: report.progress.isEmpty
                ? nil
                : Charts.line(
                    report.progress.map { (day: $0.day, value: $0.theta) }, guides: Self.levelGuides,
                    title: WebText.text(.classProgress, in: words)),
            learners: report.learners.map { learner in
                .init(
                    id: learner.id.description, name: learner.displayName, lastActive: learner.lastActive.map(dates.string(from:)) ?? "–",
                    level: learner.level?.rawValue ?? "–", levelBar: learner.overall.map { Self.levelBar($0, words: words) } ?? "",
                    trend7: signed(learner.trend7), trend30: signed(learner.trend30),
                    weakest: learner.weakestSkill.map { WebText.text(WebText.skill($0), in: words) } ?? "–",
                    completion: learner.assignmentCompletion.map(Self.percent) ?? "–")
            },
            assignments: assignments.map { assignment in
                .init(
                    id: assignment.id.description, what: describe(assignment, in: language, words: words, content: snapshot),
                    due: days.string(from: assignment.due), completion: Self.percent(report.assignments[assignment.id] ?? 0))
            },
            missed: report.mostMissed.map {
                .init(text: services.classes.text(of: $0.item, in: language), misses: $0.misses, answers: $0.answers)
            },
            wordLists: choices.wordLists, grammarNotes: choices.grammarNotes, phraseTopics: choices.phraseTopics,
            coursePacks: choices.coursePacks, packLessons: choices.packLessons,
            firstDue: choices.firstDue, lastDue: choices.lastDue, defaultDue: choices.defaultDue)
    }

    /// What the assignment forms offer for a class in `language`: word lists
    /// (named in the teacher's `words`), grammar notes with exercises,
    /// phrases by topic, and the due dates allowed.
    func assignmentChoices(_ corpus: Corpus, for language: Language, in words: Language) -> AssignmentChoices {
        let notes = corpus.grammarNotes.filter { $0.language == language && !$0.exercises.isEmpty }
        let topics = Dictionary(grouping: corpus.phrases.filter { $0.texts[language] != nil }, by: \.topic).sorted { $0.key < $1.key }
        let now = Date()
        let packs = corpus.path(of: language)
        func title(_ pack: CoursePack) -> String { "\(pack.titles[words] ?? pack.id) (\(pack.level.rawValue))" }
        return AssignmentChoices(
            wordLists: corpus.wordLists.map { .init(id: $0.id, name: $0.names[words] ?? $0.names[.english] ?? $0.id) },
            grammarNotes: notes.map { .init(id: $0.id, name: "\($0.explanation(in: words).title) (\($0.level.rawValue))") },
            phraseTopics: topics.map { topic, phrases in
                .init(topic: topic, phrases: phrases.map { .init(id: $0.id, text: "\($0.texts[language] ?? "") (\($0.level.rawValue))") })
            },
            coursePacks: packs.map { .init(id: $0.id, name: title($0)) },
            packLessons: packs.map { pack in
                .init(name: title(pack), lessons: pack.lessons.map { .init(id: $0.id, name: "\($0.number). \($0.titles[words] ?? $0.id)") })
            },
            firstDue: calendarDay(now.addingTimeInterval(86400)),
            lastDue: calendarDay(now.addingTimeInterval(AssignmentRules.longestNotice - 86400)),
            defaultDue: calendarDay(now.addingTimeInterval(7 * 86400)))
    }

    /// The level bands' lower bounds, drawn as guides on ability charts.
    static let levelGuides = zip(CEFRLevel.allCases.dropFirst(), CEFRCutScores.standard.lowerBounds).map {
        (label: $0.rawValue, value: $1)
    }

    /// The proficiency bar the learner sees in the app (`ProficiencyBar`):
    /// its level's share done, said in the teacher's `words`.
    static func levelBar(_ status: ProficiencyStatus, words: Language) -> String {
        let done = "\(status.level.rawValue), \(percent(status.progress))"
        let label = status.nextLevel.map { "\(done) \(WebText.text(.towards, in: words)) \($0.rawValue)" } ?? done
        return Charts.proficiency(status.progress, label: label)
    }

    static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }

    /// What an assignment asks, in the teacher's words: the list's name, the note's title, or the phrases counted.
    func describe(_ assignment: AssignmentStore.Assignment, in language: Language, words: Language, content: ContentCatalog.Snapshot)
        -> String
    {
        let corpus = content.corpus
        let target = assignment.targets.first ?? ""
        switch AssignmentKind(rawValue: assignment.kind) {
        case .wordList:
            let list = corpus.wordLists.first { $0.id == target }
            return (WebText.text(.kindWordList, in: words)) + ": " + (list?.names[language] ?? target)
        case .grammarNote:
            return (WebText.text(.kindGrammarNote, in: words)) + ": "
                + (corpus.grammarNotes.first { $0.id == target }?.explanation(in: language).title ?? target)
        case .phrases, nil:
            return (WebText.text(.kindPhrases, in: words)) + ": \(assignment.targets.count)"
        case .coursePack:
            let pack = corpus.packs.first { $0.id == target }
            return (WebText.text(.kindCoursePack, in: words)) + ": " + (pack?.titles[words] ?? target)
        case .courseLessons:
            let titles = assignment.targets.prefix(3).map { id in content.courseLesson(id, in: language)?.lesson.titles[words] ?? id }
            let more = assignment.targets.count > 3 ? ", … (\(assignment.targets.count))" : ""
            return (WebText.text(.kindCourseLessons, in: words)) + ": " + titles.joined(separator: ", ") + more
        }
    }

    func assign(_ request: Request, _ raw: String) async throws -> Response {
        guard let visitor = try await visitor(request), let form = try await checkedForm(request, visitor) else {
            return redirect("/teach")
        }
        guard let authorized = try await authorizedClass(raw, visitor) else { return missing(visitor) }
        let targets = form.targets ?? form.target.map { [$0] } ?? []
        do {
            _ = try await services.classes.assign(authorized, kind: form.kind ?? "", targets: targets, due: Self.endOfDay(form.due))
            return redirect("/teach/classes/\(authorized)#assignments")
        } catch let error as ParlaError where error.code != .classNotFound {
            // The class page again, saying why.
            return try await classPage(visitor, authorized, problems: problems(error, visitor.language), status: status(error))
        }
    }

    /// The last second of a `yyyy-MM-dd` day (UTC): an assignment due that day may be done all of it.
    static func endOfDay(_ raw: String?) -> Date? {
        guard let raw, let day = try? Date(raw + "T23:59:59Z", strategy: .iso8601) else { return nil }
        return day
    }

    func assignmentPage(_ request: Request, _ rawClass: String, _ rawAssignment: String) async throws -> Response {
        guard let visitor = try await visitor(request) else { return redirect("/teach") }
        guard let id = AssignmentID(rawAssignment), let authorized = try await authorizedClass(rawClass, visitor),
            let (assignment, learners) = try await unlessMissing({ try await services.classes.assignment(id, of: authorized) }),
            let schoolClass = try await unlessMissing({ try await services.classes.schoolClass(authorized) })
        else { return missing(visitor) }
        let classID = authorized.id
        let words = visitor.language
        let dates = visitor.dates
        let what = describe(assignment, in: schoolClass.language, words: words, content: try services.content.snapshot())
        let page = AssignmentPage(
            frame: visitor.frame(what), what: what, classID: classID.description, className: schoolClass.name,
            due: visitor.days.string(from: assignment.due), items: assignment.items.count,
            learners: learners.map { learner in
                .init(
                    id: learner.learner.description, name: learner.displayName, answers: learner.progress.answers,
                    completion: learner.completion.map(Self.percent) ?? "–", locked: learner.lockedItems.count,
                    accuracy: learner.progress.accuracy.map(Self.percent) ?? "–",
                    last: learner.progress.lastAnswer.map(dates.string(from:)) ?? "–")
            })
        return html(page, language: visitor.language)
    }

    func withdraw(_ request: Request, _ rawClass: String, _ rawAssignment: String) async throws -> Response {
        guard let visitor = try await visitor(request), try await checkedForm(request, visitor) != nil else { return redirect("/teach") }
        guard let id = AssignmentID(rawAssignment), let authorized = try await authorizedClass(rawClass, visitor),
            try await unlessMissing({ try await services.classes.withdraw(id, of: authorized) }) != nil
        else { return missing(visitor) }
        return redirect("/teach/classes/\(authorized)#assignments")
    }

    func removeMember(_ request: Request, _ rawClass: String, _ rawLearner: String) async throws -> Response {
        guard let visitor = try await visitor(request), try await checkedForm(request, visitor) != nil else { return redirect("/teach") }
        guard let learner = LearnerID(rawLearner), let authorized = try await authorizedClass(rawClass, visitor),
            try await unlessMissing({ try await services.classes.remove(learner, from: authorized) }) != nil
        else { return missing(visitor) }
        return redirect("/teach/classes/\(authorized)")
    }

    func export(_ request: Request, _ raw: String) async throws -> Response {
        guard let visitor = try await visitor(request) else { return redirect("/teach") }
        guard let authorized = try await authorizedClass(raw, visitor),
            let (schoolClass, report) = try await unlessMissing({ try await services.classes.overview(authorized) })
        else {
            return missing(visitor)
        }
        let name = schoolClass.name.filter { $0.isLetter || $0.isNumber }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8", .cacheControl: "no-store",
                .contentDisposition: "attachment; filename=\"class-\(name.isEmpty ? "export" : name).csv\"",
            ],
            body: .init(byteBuffer: ByteBuffer(string: report.csv())))
    }

    func joinCode(_ request: Request, _ raw: String) async throws -> Response {
        guard let visitor = try await visitor(request), let form = try await checkedForm(request, visitor) else {
            return redirect("/teach")
        }
        guard let authorized = try await authorizedClass(raw, visitor) else { return missing(visitor) }
        _ = try await services.classes.rotateCode(authorized, close: form.action == "close")
        return redirect("/teach/classes/\(authorized)")
    }
}

import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import ParlaContent
import ParlaCore
import ParlaKept
import ParlaLearning
import ParlaSpeech
import ParlaStore
import ParlaTeaching
import ParlaWeb

/// The teachers' web dashboard at `/teach` (issue 17): server-rendered
/// pages over the same services, access rule and accounts as the JSON API.
///
/// Design note, sessions and forms: signing in makes an ordinary device
/// session ("Web dashboard"); its token travels in a cookie that is
/// HttpOnly, SameSite=Strict, Secure when served over TLS, scoped to
/// `/teach`. Every form carries a CSRF token: HMAC-SHA256 of the session
/// token (stateless, so any server checks it); the sign-in form, before any
/// session, pairs a random cookie with the same value in the form.
struct Dashboard: Sendable {
    /// The services behind the pages: the API's own, so that a page and an
    /// API call decide alike, held here rather than through the API's handler.
    struct Services: Sendable {
        let authenticator: Authenticator
        let accounts: AccountService
        let learners: LearnerService
        let access: LearnerAccess
        let classes: ClassService
        let classAccess: ClassAccess
        let content: ContentService
        let proficiency: ProficiencyService
        let speech: SpeechService
        let lessons: LessonService
        let games: GameService

        /// The same services the API's handler was made with.
        init(of api: APIHandler) {
            (authenticator, accounts, learners, access) = (api.authenticator, api.accounts, api.learners, api.access)
            (classes, classAccess, content, proficiency) = (api.classes, api.classAccess, api.content, api.proficiency)
            (speech, lessons, games) = (api.speech, api.lessons, api.games)
        }
    }

    let services: Services
    let pages: DashboardPages
    /// Whether the dashboard is served over TLS (cookies are then Secure).
    let secure: Bool
    /// Sign-in with Apple or Google for accounts made with them (`WebSignIn.swift`).
    let webSignIn: WebSignInService

    static let sessionCookie = "parla_teach"
    static let signInCookie = "parla_teach_signin"

    func register(on router: Router<ParlaRequestContext>) {
        registerAccountPages(on: router)
        registerWebSignIn(on: router)
        router.get("/teach") { request, _ in try await self.home(request) }
        router.post("/teach/sign-in") { request, _ in try await self.signIn(request) }
        router.post("/teach/sign-out") { request, _ in try await self.signOut(request) }
        router.post("/teach/classes") { request, _ in try await self.createClass(request) }
        router.get("/teach/classes/:id") { request, context in try await self.classPage(request, context.parameters.get("id") ?? "") }
        router.get("/teach/classes/:id/export.csv") { request, context in
            try await self.export(request, context.parameters.get("id") ?? "")
        }
        router.post("/teach/classes/:id/join-code") { request, context in
            try await self.joinCode(request, context.parameters.get("id") ?? "")
        }
        router.post("/teach/classes/:id/assignments") { request, context in
            try await self.assign(request, context.parameters.get("id") ?? "")
        }
        router.get("/teach/classes/:id/assignments/:assignment") { request, context in
            try await self.assignmentPage(request, context.parameters.get("id") ?? "", context.parameters.get("assignment") ?? "")
        }
        router.post("/teach/classes/:id/assignments/:assignment/withdraw") { request, context in
            try await self.withdraw(request, context.parameters.get("id") ?? "", context.parameters.get("assignment") ?? "")
        }
        router.post("/teach/classes/:id/members/:learner/remove") { request, context in
            try await self.removeMember(request, context.parameters.get("id") ?? "", context.parameters.get("learner") ?? "")
        }
        router.get("/teach/learners/:id") { request, context in try await self.learnerPage(request, context.parameters.get("id") ?? "") }
        router.get("/teach/learners/:id/attempts/:attempt/audio") { request, context in
            try await self.audio(request, context.parameters.get("id") ?? "", context.parameters.get("attempt") ?? "")
        }
    }

    // MARK: Sessions

    struct Visitor {
        var caller: Caller
        var token: String
        var account: Account
        var language: Language { account.uiLanguage }
        var csrf: String { Dashboard.csrf(for: token) }

        /// Dates and times as the visitor's language writes them.
        var dates: DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: language.code)
            formatter.dateStyle = .medium
            formatter.timeStyle = .short
            return formatter
        }

        /// Days (due dates) as the visitor's language writes them.
        var days: DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: language.code)
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateStyle = .medium
            return formatter
        }
    }

    static func csrf(for token: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("csrf".utf8), using: SymmetricKey(data: Data(token.utf8)))
        return Data(code).map { String(format: "%02x", $0) }.joined()
    }

    /// The signed-in visitor: its session and account as kept in memory
    /// (`SessionCache`, `AccountProfiles`), so a page asks no query for them.
    func visitor(_ request: Request) async throws -> Visitor? {
        guard let token = request.cookies[Self.sessionCookie]?.value,
            let session = try await services.authenticator.sessions.session(tokenHash: SessionToken.hash(token)),
            let (account, _) = try await services.authenticator.profiles.profile(session.accountID)
        else { return nil }
        return Visitor(caller: Caller(accountID: session.accountID, sessionID: session.id), token: token, account: account)
    }

    /// What the dashboard's forms send; each carries its CSRF token.
    struct Form: Decodable {
        var csrf: String?
        var email: String?
        var password: String?
        var name: String?
        var language: String?
        var level: String?
        var action: String?
        var kind: String?
        /// One target (a word list, a grammar note) or several (`targets[]`: phrases).
        var target: String?
        var targets: [String]?
        /// The due day, `yyyy-MM-dd` as a date input sends it.
        var due: String?
        /// An emailed link's token and the new password (account pages).
        var token: String?
        var newPassword: String?
        var oneTimeCode: String?
    }

    /// A posted form; an unreadable one has no fields (and so no token).
    func form(_ request: Request) async throws -> Form {
        let body = String(buffer: try await request.body.collect(upTo: 16 * 1024))
        return (try? URLEncodedFormDecoder().decode(Form.self, from: body)) ?? Form()
    }

    /// The form, once its CSRF token matches the visitor's session; nil otherwise.
    func checkedForm(_ request: Request, _ visitor: Visitor) async throws -> Form? {
        let form = try await form(request)
        guard let sent = form.csrf, secretsMatch(sent, visitor.csrf) else { return nil }
        return form
    }

    /// Secure when the dashboard is served over TLS (by this server's
    /// configuration, or a proxy in front that says so).
    func cookie(_ name: String, _ value: String, maxAge: Int?, for request: Request) -> Cookie {
        let tls = secure || request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
        return Cookie(name: name, value: value, maxAge: maxAge, path: "/teach", secure: tls, httpOnly: true, sameSite: .strict)
    }

    // MARK: Pages

    func html(_ page: String, _ values: [String: Any], language: Language, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: Self.htmlFields(language),
            body: .init(byteBuffer: ByteBuffer(string: pages.render(page, values, language: language))))
    }

    /// A page's header fields in `language`.
    static func htmlFields(_ language: Language) -> HTTPFields {
        [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            HTTPField.Name("Content-Security-Policy")!:
                "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self'; frame-ancestors 'none'; form-action 'self'",
            HTTPField.Name("X-Content-Type-Options")!: "nosniff", HTTPField.Name("Referrer-Policy")!: "same-origin",
            .contentLanguage: language.code,
        ]
    }

    func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// The sign-in page, in the browser's language; `failed`: after wrong credentials.
    /// `problem`: why the last try was refused, when not the credentials
    /// (a one-time code missing or wrong); `message`: said instead (a
    /// provider's sign-in refused). The providers set up for the web are
    /// offered as links.
    func signInPage(_ request: Request, failed: Bool = false, email: String = "", problem: ErrorCode? = nil, message: String? = nil)
        -> Response
    {
        let nonce = SessionToken.generate().value
        let language = LanguagePreference.negotiate(request.headers[.acceptLanguage])
        let words = WebText.texts(language)
        var values: [String: Any] = ["title": words["signIn"] ?? "", "csrf": nonce, "email": email]
        if failed { values["error"] = message ?? problem.map { $0.message.text(in: language) } ?? words["badCredentials"] }
        values["hasProviders"] = !webSignIn.offered.isEmpty
        values["providers"] = webSignIn.offered.map { ["id": $0.rawValue, "label": words["signInWith." + $0.rawValue] ?? $0.rawValue] }
        var response = html("signin", values, language: language, status: failed ? .unauthorized : .ok)
        response.setCookie(cookie(Self.signInCookie, nonce, maxAge: 3600, for: request))
        return response
    }

    func home(_ request: Request) async throws -> Response {
        guard let visitor = try await visitor(request) else { return signInPage(request) }
        return try await home(visitor)
    }

    /// The visitor's classes and family; `problems`: why the last form was refused.
    func home(_ visitor: Visitor, problems: [String] = [], status: HTTPResponse.Status = .ok) async throws -> Response {
        let teaching = try await services.classes.teaching(visitor.caller)
        let classes = teaching?.1 ?? []
        let family = try await services.accounts.me(visitor.caller.accountID).1
        return html(
            "classes",
            [
                "title": WebText.texts(visitor.language)["classes"] ?? "", "signedIn": true, "csrf": visitor.csrf,
                "isTeacher": teaching != nil, "hasClasses": !classes.isEmpty,
                "classes": classes.map { item in
                    [
                        "id": item.id.description, "name": item.name, "language": item.language.nativeName, "level": item.level.rawValue,
                        "members": item.members, "joinCode": item.joinCode.map(JoinCode.display) ?? "",
                    ] as [String: Any]
                },
                "languages": Language.allCases.map { ["code": $0.code, "name": $0.nativeName] },
                "levelChoices": CEFRLevel.allCases.map(\.rawValue),
                "hasFamily": !family.isEmpty,
                "family": family.map { ["id": $0.id.description, "name": $0.displayName] },
                "problems": problems,
            ], language: visitor.language, status: status)
    }

    /// Why a form was refused, in the visitor's words: each field's problem, or the whole request's.
    func problems(_ error: ParlaError, _ language: Language) -> [String] {
        let words = WebText.texts(language)
        guard !error.fieldErrors.isEmpty else { return [error.code.message.text(in: language)] }
        return error.fieldErrors.map { field in
            (words["field." + field.field].map { $0 + ": " } ?? "") + field.code.message.text(in: language)
        }
    }

    /// The status a refused form's page is served with.
    func status(_ error: ParlaError) -> HTTPResponse.Status { HTTPResponse.Status(code: error.status) }

    func signIn(_ request: Request) async throws -> Response {
        let form = try await form(request)
        guard let sent = form.csrf, let expected = request.cookies[Self.signInCookie]?.value, secretsMatch(sent, expected) else {
            return signInPage(request, failed: true)
        }
        do {
            let signedIn = try await services.accounts.signIn(
                email: form.email, password: form.password, oneTimeCode: form.oneTimeCode.flatMap { $0.isEmpty ? nil : $0 },
                deviceName: "Web dashboard")
            var response = redirect("/teach")
            response.setCookie(cookie(Self.sessionCookie, signedIn.token, maxAge: nil, for: request))
            response.setCookie(cookie(Self.signInCookie, "", maxAge: 0, for: request))
            return response
        } catch let error as ParlaError where error.code == .invalidCredentials || error.code == .validationFailed {
            return signInPage(request, failed: true, email: form.email ?? "")
        } catch let error as ParlaError where error.code == .twoFactorRequired || error.code == .invalidOneTimeCode {
            return signInPage(request, failed: true, email: form.email ?? "", problem: error.code)
        }
    }

    func signOut(_ request: Request) async throws -> Response {
        guard let visitor = try await visitor(request), try await checkedForm(request, visitor) != nil else { return redirect("/teach") }
        do {
            try await services.accounts.signOut(visitor.caller)
        } catch let error as ParlaError where error.code == .sessionNotFound {
            // Signed out already (elsewhere, or by a double click): the cookie goes all the same.
        }
        var response = redirect("/teach")
        response.setCookie(cookie(Self.sessionCookie, "", maxAge: 0, for: request))
        return response
    }

    func createClass(_ request: Request) async throws -> Response {
        guard let visitor = try await visitor(request), let form = try await checkedForm(request, visitor) else {
            return redirect("/teach")
        }
        do {
            let created = try await services.classes.create(
                visitor.caller, ClassForm(name: form.name, language: form.language, level: form.level))
            return redirect("/teach/classes/\(created.id)")
        } catch let error as ParlaError {
            return try await home(visitor, problems: problems(error, visitor.language), status: status(error))
        }
    }

    func missing(_ visitor: Visitor) -> Response {
        html(
            "missing", ["title": WebText.texts(visitor.language)["notFound"] ?? "", "signedIn": true, "csrf": visitor.csrf],
            language: visitor.language, status: .notFound)
    }

    /// What `body` finds, or nil when it is not the visitor's to see (any
    /// 404 of the API: a foreign class or learner looks like a missing one);
    /// other failures (the database down) stay failures.
    func unlessMissing<T>(_ body: () async throws -> T) async throws -> T? {
        do {
            return try await body()
        } catch let error as ParlaError where error.status == 404 {
            return nil
        }
    }

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
            let values = try await classValues(
                visitor, authorized, schoolClass, report, csrf: plain ? Self.tokenMark : visitor.csrf, problems: problems)
            let html = pages.render("class", values, language: visitor.language)
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
    func classValues(
        _ visitor: Visitor, _ authorized: AuthorizedClass, _ schoolClass: ClassStore.SchoolClass, _ report: ClassReport, csrf: String,
        problems: [String]
    ) async throws -> [String: Any] {
        let assignments = try await services.classes.assignments(of: authorized)
        let words = WebText.texts(visitor.language)
        let (dates, days) = (visitor.dates, visitor.days)
        let corpus = try services.content.snapshot().corpus
        let language = schoolClass.language
        func signed(_ value: Double?) -> String { value.map { String(format: "%+.2f", $0) } ?? "–" }
        return [
            "title": schoolClass.name, "signedIn": true, "csrf": csrf, "id": schoolClass.id.description,
            "classID": schoolClass.id.description, "name": schoolClass.name, "problems": problems,
            "language": language.nativeName, "languageCode": language.code, "level": schoolClass.level.rawValue,
            "joinCode": Self.shown(schoolClass.joinCode.map(JoinCode.display)),
            "levelsChart": Charts.bars(
                CEFRLevel.allCases.map { ($0.rawValue, report.levels[$0] ?? 0) }, title: words["levels"] ?? ""),
            "progressChart": Self.shown(
                report.progress.isEmpty
                    ? nil
                    : Charts.line(
                        report.progress.map { (day: $0.day, value: $0.theta) }, guides: Self.levelGuides,
                        title: words["classProgress"] ?? "")),
            "hasLearners": !report.learners.isEmpty,
            "learners": report.learners.map { learner in
                [
                    "id": learner.id.description, "name": learner.displayName,
                    "lastActive": learner.lastActive.map(dates.string(from:)) ?? "–", "level": learner.level?.rawValue ?? "–",
                    "levelBar": learner.overall.map { Self.levelBar($0, words: words) } ?? "",
                    "trend7": signed(learner.trend7), "trend30": signed(learner.trend30),
                    "weakest": learner.weakestSkill.flatMap { words["skill." + $0.rawValue] } ?? "–",
                    "completion": learner.assignmentCompletion.map(Self.percent) ?? "–",
                ] as [String: Any]
            },
            "hasAssignments": !assignments.isEmpty,
            "assignments": assignments.map { assignment in
                [
                    "id": assignment.id.description, "what": describe(assignment, in: language, words: words, corpus: corpus),
                    "due": days.string(from: assignment.due), "completion": Self.percent(report.assignments[assignment.id] ?? 0),
                ] as [String: Any]
            },
            "missed": report.mostMissed.map {
                ["text": services.classes.text(of: $0.item, in: language), "misses": $0.misses, "answers": $0.answers]
                    as [String: Any]
            },
        ].merging(assignmentChoices(corpus, for: language, in: visitor.language)) { first, _ in first }
    }

    /// What the assignment forms offer for a class in `language`: word lists
    /// (named in the teacher's `words`), grammar notes with exercises,
    /// phrases by topic, and the due dates allowed.
    func assignmentChoices(_ corpus: Corpus, for language: Language, in words: Language) -> [String: Any] {
        let notes = corpus.grammarNotes.filter { $0.language == language && !$0.exercises.isEmpty }
        let topics = Dictionary(grouping: corpus.phrases.filter { $0.texts[language] != nil }, by: \.topic).sorted { $0.key < $1.key }
        let now = Date()
        return [
            "wordLists": corpus.wordLists.map { ["id": $0.id, "name": $0.names[words] ?? $0.names[.english] ?? $0.id] },
            "grammarNotes": notes.map { ["id": $0.id, "name": "\($0.explanation(in: words).title) (\($0.level.rawValue))"] },
            "hasGrammarNotes": !notes.isEmpty,
            "phraseTopics": topics.map { topic, phrases -> [String: Any] in
                let options = phrases.map { ["id": $0.id, "text": "\($0.texts[language] ?? "") (\($0.level.rawValue))"] }
                return ["topic": topic, "phrases": options]
            },
            "firstDue": calendarDay(now.addingTimeInterval(86400)),
            "lastDue": calendarDay(now.addingTimeInterval(AssignmentRules.longestNotice - 86400)),
            "defaultDue": calendarDay(now.addingTimeInterval(7 * 86400)),
        ]
    }

    /// The level bands' lower bounds, drawn as guides on ability charts.
    static let levelGuides = zip(CEFRLevel.allCases.dropFirst(), CEFRCutScores.standard.lowerBounds).map {
        (label: $0.rawValue, value: $1)
    }

    /// The proficiency bar the learner sees in the app (`ProficiencyBar`):
    /// its level's share done, said in the teacher's `words`.
    static func levelBar(_ status: ProficiencyStatus, words: [String: String]) -> String {
        let done = "\(status.level.rawValue), \(percent(status.progress))"
        let label = status.nextLevel.map { "\(done) \(words["towards"] ?? "→") \($0.rawValue)" } ?? done
        return Charts.proficiency(status.progress, label: label)
    }

    /// A value a template shows in a section, or false when there is none
    /// (an absent optional in a template's values would be shown as "nil").
    static func shown(_ value: String?) -> Any { value.map { $0 as Any } ?? false }

    static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }

    /// What an assignment asks, in the teacher's words: the list's name, the note's title, or the phrases counted.
    func describe(_ assignment: AssignmentStore.Assignment, in language: Language, words: [String: String], corpus: Corpus) -> String {
        let target = assignment.targets.first ?? ""
        switch AssignmentKind(rawValue: assignment.kind) {
        case .wordList:
            let list = corpus.wordLists.first { $0.id == target }
            return (words["kindWordList"] ?? "") + ": " + (list?.names[language] ?? target)
        case .grammarNote:
            return (words["kindGrammarNote"] ?? "") + ": "
                + (corpus.grammarNotes.first { $0.id == target }?.explanation(in: language).title ?? target)
        case .phrases, nil:
            return (words["kindPhrases"] ?? "") + ": \(assignment.targets.count)"
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
        let words = WebText.texts(visitor.language)
        let dates = visitor.dates
        let what = describe(assignment, in: schoolClass.language, words: words, corpus: try services.content.snapshot().corpus)
        return html(
            "assignment",
            [
                "title": what, "signedIn": true, "csrf": visitor.csrf, "what": what, "classID": classID.description,
                "className": schoolClass.name, "due": visitor.days.string(from: assignment.due), "items": assignment.items.count,
                "hasLearners": !learners.isEmpty,
                "learners": learners.map { learner in
                    [
                        "id": learner.learner.description, "name": learner.displayName, "answers": learner.progress.answers,
                        "completion": learner.completion.map(Self.percent) ?? "–", "locked": learner.lockedItems.count,
                        "accuracy": learner.progress.accuracy.map(Self.percent) ?? "–",
                        "last": learner.progress.lastAnswer.map(dates.string(from:)) ?? "–",
                    ] as [String: Any]
                },
            ], language: visitor.language)
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
        let games = try await services.games.results(learner, language: language, limit: 10, before: nil)
        let words = WebText.texts(visitor.language)
        let dates = visitor.dates
        let overall = proficiency.history.filter { $0.skill == nil }.map { (day: $0.day, value: $0.theta) }
        func minutes(_ seconds: Double) -> String { String(format: "%d:%02d", Int(seconds) / 60, Int(seconds) % 60) }
        return html(
            "learner",
            [
                "title": profile.displayName, "signedIn": true, "csrf": visitor.csrf, "name": profile.displayName,
                "language": language.nativeName,
                "languages": profile.targetLanguages.count < 2
                    ? [] : profile.targetLanguages.map { ["code": $0.code, "name": $0.nativeName, "current": $0 == language] },
                "learnerID": learner.id.description,
                "hasLanguages": profile.targetLanguages.count > 1,
                "level": proficiency.report.overall.level.rawValue,
                "levelBar": Self.levelBar(proficiency.report.overall, words: words),
                "historyChart": Self.shown(
                    overall.isEmpty ? nil : Charts.line(overall, guides: Self.levelGuides, title: words["progress"] ?? "")),
                "skills": proficiency.report.skills.map { status in
                    [
                        "name": status.skill.flatMap { words["skill." + $0.rawValue] } ?? "", "level": status.level.rawValue,
                        "levelBar": Self.levelBar(status, words: words), "answers": status.responses,
                    ] as [String: Any]
                },
                "gaps": proficiency.gaps.prefix(5).map { gap in gap.skill.flatMap { words["skill." + $0.rawValue] } ?? gap.id },
                "lessons": lessons.map { lesson in
                    [
                        "when": dates.string(from: lesson.startedAt), "answers": lesson.answers,
                        "accuracy": lesson.answers == 0 ? "–" : Self.percent(Double(lesson.right) / Double(lesson.answers)),
                        "time": minutes(Double(lesson.milliseconds) / 1000),
                    ] as [String: Any]
                },
                "hasLessons": !lessons.isEmpty, "hasGames": !games.isEmpty,
                "games": games.map { game in
                    [
                        "when": dates.string(from: game.finishedAt), "pairs": game.result.pairs, "score": game.result.score,
                        "time": minutes(game.result.seconds), "mismatches": game.result.mismatches,
                    ] as [String: Any]
                },
                "attempts": attempts.map { attempt, score in
                    [
                        "words": score.words.map { word in
                            [
                                "text": word.text, "score": Int(word.score.rounded()),
                                "grade": word.score >= 80 ? "good" : word.score >= 50 ? "fair" : "poor",
                            ] as [String: Any]
                        },
                        "overall": Int(score.overall.rounded()), "when": dates.string(from: attempt.createdAt),
                        "audio": Self.shown(
                            attempt.hasRecording && learner.mayHearRecordings
                                ? "/teach/learners/\(learner.id)/attempts/\(attempt.id)/audio" : nil),
                    ] as [String: Any]
                },
            ], language: visitor.language)
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

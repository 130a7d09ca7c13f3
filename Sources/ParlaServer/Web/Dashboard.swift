import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import ParlaCore
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
    let api: APIHandler
    let accounts: AccountStore
    let pages: DashboardPages
    /// Whether the dashboard is served over TLS (cookies are then Secure).
    let secure: Bool

    static let sessionCookie = "parla_teach"
    static let signInCookie = "parla_teach_signin"

    func register(on router: Router<BasicRequestContext>) {
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
    }

    static func csrf(for token: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("csrf".utf8), using: SymmetricKey(data: Data(token.utf8)))
        return Data(code).map { String(format: "%02x", $0) }.joined()
    }

    func visitor(_ request: Request) async throws -> Visitor? {
        guard let token = request.cookies[Self.sessionCookie]?.value,
            let session = try await accounts.session(tokenHash: SessionToken.hash(token)),
            let account = try await accounts.account(session.accountID)
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
        var response = Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                HTTPField.Name("Content-Security-Policy")!:
                    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self'; frame-ancestors 'none'; form-action 'self'",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff", HTTPField.Name("Referrer-Policy")!: "same-origin",
            ],
            body: .init(byteBuffer: ByteBuffer(string: pages.render(page, values, language: language))))
        response.headers[.contentLanguage] = language.code
        return response
    }

    func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// The sign-in page, in the browser's language; `failed`: after wrong credentials.
    func signInPage(_ request: Request, failed: Bool = false, email: String = "") -> Response {
        let nonce = SessionToken.generate().value
        let language = LanguagePreference.negotiate(request.headers[.acceptLanguage])
        let words = WebText.texts(language)
        var values: [String: Any] = ["title": words["signIn"] ?? "", "csrf": nonce, "email": email]
        if failed { values["error"] = words["badCredentials"] }
        var response = html("signin", values, language: language, status: failed ? .unauthorized : .ok)
        response.setCookie(cookie(Self.signInCookie, nonce, maxAge: 3600, for: request))
        return response
    }

    func home(_ request: Request) async throws -> Response {
        guard let visitor = try await visitor(request) else { return signInPage(request) }
        let teaching = try await api.classes.teaching(visitor.caller)
        let classes = teaching?.1 ?? []
        let family = try await api.accounts.me(visitor.caller.accountID).1
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
            ], language: visitor.language)
    }

    func signIn(_ request: Request) async throws -> Response {
        let form = try await form(request)
        guard let sent = form.csrf, let expected = request.cookies[Self.signInCookie]?.value, secretsMatch(sent, expected) else {
            return signInPage(request, failed: true)
        }
        do {
            let signedIn = try await api.accounts.signIn(email: form.email, password: form.password, deviceName: "Web dashboard")
            var response = redirect("/teach")
            response.setCookie(cookie(Self.sessionCookie, signedIn.token, maxAge: nil, for: request))
            response.setCookie(cookie(Self.signInCookie, "", maxAge: 0, for: request))
            return response
        } catch let error as ParlaError where error.code == .invalidCredentials || error.code == .validationFailed {
            return signInPage(request, failed: true, email: form.email ?? "")
        }
    }

    func signOut(_ request: Request) async throws -> Response {
        guard let visitor = try await visitor(request), try await checkedForm(request, visitor) != nil else { return redirect("/teach") }
        _ = try await accounts.deleteSession(visitor.caller.sessionID, accountID: visitor.caller.accountID)
        var response = redirect("/teach")
        response.setCookie(cookie(Self.sessionCookie, "", maxAge: 0, for: request))
        return response
    }

    func createClass(_ request: Request) async throws -> Response {
        guard let visitor = try await visitor(request), let form = try await checkedForm(request, visitor) else {
            return redirect("/teach")
        }
        let created = try await api.classes.create(visitor.caller, ClassForm(name: form.name, language: form.language, level: form.level))
        return redirect("/teach/classes/\(created.id)")
    }

    func missing(_ visitor: Visitor) -> Response {
        html(
            "missing", ["title": WebText.texts(visitor.language)["notFound"] ?? "", "signedIn": true, "csrf": visitor.csrf],
            language: visitor.language, status: .notFound)
    }

    func classPage(_ request: Request, _ raw: String) async throws -> Response {
        guard let visitor = try await visitor(request) else { return redirect("/teach") }
        guard let id = ClassID(raw) else { return missing(visitor) }
        let (schoolClass, report): (ClassStore.SchoolClass, ClassReport)
        do {
            (schoolClass, report) = try await api.classes.overview(visitor.caller, id)
        } catch let error as ParlaError where error.code == .classNotFound {
            return missing(visitor)
        }
        let words = WebText.texts(visitor.language)
        let dates = visitor.dates
        func signed(_ value: Double?) -> String { value.map { String(format: "%+.2f", $0) } ?? "–" }
        return html(
            "class",
            [
                "title": schoolClass.name, "signedIn": true, "csrf": visitor.csrf, "id": schoolClass.id.description,
                "name": schoolClass.name,
                "language": schoolClass.language.nativeName, "level": schoolClass.level.rawValue,
                "joinCode": schoolClass.joinCode.map(JoinCode.display) as Any,
                "levelsChart": Charts.bars(
                    CEFRLevel.allCases.map { ($0.rawValue, report.levels[$0] ?? 0) }, title: words["levels"] ?? ""),
                "hasLearners": !report.learners.isEmpty,
                "learners": report.learners.map { learner in
                    [
                        "id": learner.id.description, "name": learner.displayName,
                        "lastActive": learner.lastActive.map(dates.string(from:)) ?? "–", "level": learner.level?.rawValue ?? "–",
                        "trend7": signed(learner.trend7), "trend30": signed(learner.trend30),
                        "weakest": learner.weakestSkill.flatMap { words["skill." + $0.rawValue] } ?? "–",
                        "completion": learner.assignmentCompletion.map { "\(Int(($0 * 100).rounded())) %" } ?? "–",
                    ] as [String: Any]
                },
                "missed": report.mostMissed.map {
                    ["text": api.classes.text(of: $0.item, in: schoolClass.language), "misses": $0.misses, "answers": $0.answers]
                        as [String: Any]
                },
            ], language: visitor.language)
    }

    func export(_ request: Request, _ raw: String) async throws -> Response {
        guard let visitor = try await visitor(request) else { return redirect("/teach") }
        guard let id = ClassID(raw), let (schoolClass, report) = try? await api.classes.overview(visitor.caller, id) else {
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
        guard let visitor = try await visitor(request), let form = try await checkedForm(request, visitor), let id = ClassID(raw) else {
            return redirect("/teach")
        }
        _ = try await api.classes.rotateCode(visitor.caller, id, close: form.action == "close")
        return redirect("/teach/classes/\(id)")
    }

    func learnerPage(_ request: Request, _ raw: String) async throws -> Response {
        guard let visitor = try await visitor(request) else { return redirect("/teach") }
        guard let id = LearnerID(raw), let learner = try? await api.access.learner(id, caller: visitor.caller.accountID, for: .read) else {
            return missing(visitor)
        }
        let profile = try await api.learners.get(learner)
        let language = profile.targetLanguages.first ?? .english
        let proficiency = try await api.proficiency.proficiency(learner, language: language.code)
        let attempts = try await api.speech.list(learner, language: nil, limit: 10, before: nil)
        let words = WebText.texts(visitor.language)
        let dates = visitor.dates
        let overall = proficiency.history.filter { $0.skill == nil }.map { (day: $0.day, value: $0.theta) }
        let cuts = zip(CEFRLevel.allCases.dropFirst(), CEFRCutScores.standard.lowerBounds).map { (label: $0.rawValue, value: $1) }
        return html(
            "learner",
            [
                "title": profile.displayName, "signedIn": true, "csrf": visitor.csrf, "name": profile.displayName,
                "language": language.nativeName,
                "level": proficiency.report.overall.level.rawValue,
                "historyChart": Charts.line(overall, guides: cuts, title: words["progress"] ?? ""),
                "gaps": proficiency.gaps.prefix(5).map { gap in gap.skill.flatMap { words["skill." + $0.rawValue] } ?? gap.id },
                "attempts": attempts.map { attempt, score in
                    [
                        "words": score.words.map { word in
                            [
                                "text": word.text, "score": Int(word.score.rounded()),
                                "grade": word.score >= 80 ? "good" : word.score >= 50 ? "fair" : "poor",
                            ] as [String: Any]
                        },
                        "overall": Int(score.overall.rounded()), "when": dates.string(from: attempt.createdAt),
                        "audio": attempt.hasRecording && learner.mayHearRecordings
                            ? "/teach/learners/\(learner.id)/attempts/\(attempt.id)/audio" as Any : nil as String? as Any,
                    ] as [String: Any]
                },
            ], language: visitor.language)
    }

    func audio(_ request: Request, _ rawLearner: String, _ attempt: String) async throws -> Response {
        guard let visitor = try await visitor(request), let id = LearnerID(rawLearner),
            let learner = try? await api.access.learner(id, caller: visitor.caller.accountID, for: .read),
            let recording = try? await api.speech.recording(learner, attempt: attempt)
        else { return Response(status: .notFound) }
        return Response(
            status: .ok, headers: [.contentType: recording.mediaType, .cacheControl: "private, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(bytes: recording.bytes)))
    }
}

import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import ParlaContent
import ParlaCore
import ParlaIdentity
import ParlaKept
import ParlaLearning
import ParlaServices
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
        let packs: PackService
        let artSpace: ArtSpaceService

        /// The same services the API's handler was made with.
        init(of api: APIHandler) {
            (authenticator, accounts, learners, access) = (api.authenticator, api.accounts, api.learners, api.access)
            (classes, classAccess, content, proficiency) = (api.classes, api.classAccess, api.content, api.proficiency)
            (speech, lessons, games, packs) = (api.speech, api.lessons, api.games, api.packs)
            artSpace = api.artSpace
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
        router.get("/teach/learners/:id/drawings/:drawing/:part") { request, context in
            try await self.drawing(
                request, context.parameters.get("id") ?? "", context.parameters.get("drawing") ?? "", context.parameters.get("part") ?? "")
        }
    }

    // MARK: Sessions

    struct Visitor {
        var caller: Caller
        var token: String
        var account: Account
        var language: Language { account.uiLanguage }
        var csrf: String { Dashboard.csrf(for: token) }

        /// A signed-in page's frame: `title`, the sign-out form, and why the last form was refused.
        func frame(_ title: String, csrf: String? = nil, problems: [String] = []) -> PageFrame {
            PageFrame(title: title, signedIn: true, csrf: csrf ?? self.csrf, problems: problems)
        }

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
        return Data(code).hexadecimal
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

    func html(_ page: some PageModel, language: Language, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: Self.htmlFields(language),
            body: .init(byteBuffer: ByteBuffer(string: pages.render(page, language: language))))
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

    /// The words of a provider's sign-in button.
    static func signInWith(_ provider: IdentityProvider) -> WebText.Key {
        switch provider {
        case .google: .signInWithGoogle
        case .apple: .signInWithApple
        case .facebook: .signInWithFacebook
        }
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
        let page = SignInPage(
            frame: PageFrame(title: WebText.text(.signIn, in: language), csrf: nonce), email: email,
            error: failed
                ? message ?? problem.map { $0.message.text(in: language) } ?? WebText.text(.badCredentials, in: language) : nil,
            providers: webSignIn.offered.map { .init(id: $0.rawValue, label: WebText.text(Self.signInWith($0), in: language)) })
        var response = html(page, language: language, status: failed ? .unauthorized : .ok)
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
        let page = ClassesPage(
            frame: visitor.frame(WebText.text(.classes, in: visitor.language), problems: problems), isTeacher: teaching != nil,
            classes: classes.map { item in
                .init(
                    id: item.id.description, name: item.name, language: item.language.nativeName, level: item.level.rawValue,
                    members: item.members, joinCode: item.joinCode.map(JoinCode.display) ?? "")
            },
            languages: Language.allCases.map { .init(code: $0.code, name: $0.nativeName) },
            levelChoices: CEFRLevel.allCases.map(\.rawValue),
            family: family.map { .init(id: $0.id.description, name: $0.displayName) })
        return html(page, language: visitor.language, status: status)
    }

    /// Why a form was refused, in the visitor's words: each field's problem, or the whole request's.
    func problems(_ error: ParlaError, _ language: Language) -> [String] {
        guard !error.fieldErrors.isEmpty else { return [error.code.message.text(in: language)] }
        return error.fieldErrors.map { field in
            (WebText.field(field.field).map { WebText.text($0, in: language) + ": " } ?? "") + field.code.message.text(in: language)
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
            MissingPage(frame: visitor.frame(WebText.text(.notFound, in: visitor.language))),
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
}

import HTTPTypes
import Hummingbird
import ParlaCore
import ParlaIdentity
import ParlaServices
import ParlaWeb

/// The dashboard's sign-in with Apple or Google (`WebSignInService`): the
/// link that starts it, the provider's callback (a redirect's query, or
/// Apple's cross-site form post), and the second factor's code after it.
///
/// The session cookie is SameSite=Strict, and a browser does not send such
/// a cookie on a navigation that a cross-site redirect led to: after the
/// provider's callback, a page of our own moves on to `/teach` (a refresh,
/// with a link), so the first dashboard page already sees the session.
extension Dashboard {
    /// The browser's secret for its attempts (`WebSignInService`).
    static let attemptCookie = "parla_teach_attempt"
    /// The wait for the second factor's code after a provider's sign-in.
    static let codeCookie = "parla_teach_code"

    func registerWebSignIn(on router: Router<ParlaRequestContext>) {
        router.get("/teach/sign-in/:provider") { request, context in
            try await self.startSignIn(request, context.parameters.get("provider") ?? "")
        }
        router.get("/teach/sign-in/:provider/callback") { request, context in
            let query = request.uri.queryParameters
            let callback = WebSignInService.Callback(
                state: query.get("state"), code: query.get("code"), error: query.get("error"))
            return try await self.finishSignIn(request, context.parameters.get("provider") ?? "", callback)
        }
        router.post("/teach/sign-in/:provider/callback") { request, context in
            let body = String(buffer: try await request.body.collect(upTo: 64 * 1024))
            let callback = (try? URLEncodedFormDecoder().decode(WebSignInService.Callback.self, from: body)) ?? .init()
            return try await self.finishSignIn(request, context.parameters.get("provider") ?? "", callback)
        }
        router.post("/teach/sign-in/code") { request, _ in try await self.enterCode(request) }
    }

    func startSignIn(_ request: Request, _ raw: String) async throws -> Response {
        guard let provider = IdentityProvider(rawValue: raw) else { return signInProblem(request, .notOffered) }
        do {
            let (location, browser) = try await webSignIn.begin(provider, browser: request.cookies[Self.attemptCookie]?.value)
            var response = Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
            response.setCookie(
                attemptCookie(browser, maxAge: Int(WebSignInService.attemptLifetime), formPost: webSignIn.isFormPost(provider), request))
            return response
        } catch {
            return signInProblem(request, error)
        }
    }

    func finishSignIn(_ request: Request, _ raw: String, _ callback: WebSignInService.Callback) async throws -> Response {
        guard let provider = IdentityProvider(rawValue: raw) else { return signInProblem(request, .notOffered) }
        let outcome: WebSignInService.Outcome
        do {
            outcome = try await webSignIn.finish(provider, callback, browser: request.cookies[Self.attemptCookie]?.value)
        } catch {
            return signInProblem(request, error)
        }
        let language = LanguagePreference.negotiate(request.headers[.acceptLanguage])
        var response: Response
        switch outcome {
        case .signedIn(let signedIn):
            let words = signedIn.account.uiLanguage
            response = html(
                SignedInPage(frame: PageFrame(title: WebText.text(.signedInTitle, in: words), refresh: "/teach")), language: words)
            response.setCookie(cookie(Self.sessionCookie, signedIn.token, maxAge: nil, for: request))
        case .needsCode(let token):
            response = codePage(language, token: token)
            response.setCookie(cookie(Self.codeCookie, token, maxAge: Int(WebSignInService.codeLifetime), for: request))
        }
        // The attempt is spent; its secret may serve the next one, but need not linger.
        response.setCookie(attemptCookie("", maxAge: 0, formPost: webSignIn.isFormPost(provider), request))
        return response
    }

    /// The second factor's form after a provider's sign-in; its CSRF token
    /// is derived from the wait's token as a session's is from the session's.
    /// `error`: why the last code was refused (its status: 401 for a wrong
    /// code, 429 once too many were).
    func codePage(_ language: Language, token: String, error: ParlaError? = nil) -> Response {
        let page = SignInCodePage(
            frame: PageFrame(title: WebText.text(.twoFactorTitle, in: language), csrf: Self.csrf(for: token)),
            error: error?.code.message.text(in: language))
        return html(page, language: language, status: error.map(status) ?? .ok)
    }

    func enterCode(_ request: Request) async throws -> Response {
        let language = LanguagePreference.negotiate(request.headers[.acceptLanguage])
        let form = try await form(request)
        guard let token = request.cookies[Self.codeCookie]?.value, let sent = form.csrf, secretsMatch(sent, Self.csrf(for: token)) else {
            return signInProblem(request, .attemptUnknown)
        }
        do {
            let signedIn = try await webSignIn.finish(waiting: token, code: form.oneTimeCode)
            var response = redirect("/teach")
            response.setCookie(cookie(Self.sessionCookie, signedIn.token, maxAge: nil, for: request))
            response.setCookie(cookie(Self.codeCookie, "", maxAge: 0, for: request))
            return response
        } catch let problem as WebSignInProblem {
            return signInProblem(request, problem)
        } catch let error as ParlaError
            where [.invalidOneTimeCode, .twoFactorRequired, .tooManyAttempts, .tooManyRequests].contains(error.code)
        {
            return codePage(language, token: token, error: error)
        }
    }

    /// Why a provider's sign-in did not open a session, said on the
    /// sign-in page in the browser's language: the one place the problems
    /// become words and statuses.
    func signInProblem(_ request: Request, _ problem: WebSignInProblem) -> Response {
        let language = LanguagePreference.negotiate(request.headers[.acceptLanguage])
        let (message, status): (String, HTTPResponse.Status) =
            switch problem {
            case .notOffered: (WebText.text(.webSignInNotOffered, in: language), .notFound)
            case .attemptUnknown: (WebText.text(.webSignInAttemptUnknown, in: language), .badRequest)
            case .cancelled: (WebText.text(.webSignInCancelled, in: language), .unauthorized)
            case .providerRefused: (WebText.text(.webSignInProviderRefused, in: language), .unauthorized)
            case .providerUnavailable: (WebText.text(.webSignInProviderUnavailable, in: language), .badGateway)
            case .notLinked: (WebText.text(.webSignInNotLinked, in: language), .unauthorized)
            case .refused(let error): (error.code.message.text(in: language), HTTPResponse.Status(code: error.status))
            }
        var response = signInPage(request, failed: true, message: message)
        response.status = status
        return response
    }

    /// The attempt's cookie: Lax where the provider comes back with a
    /// redirect, None (so Secure) where it posts back from its own site.
    func attemptCookie(_ value: String, maxAge: Int, formPost: Bool, _ request: Request) -> Cookie {
        let tls = formPost || secure || request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
        return Cookie(
            name: Self.attemptCookie, value: value, maxAge: maxAge, path: "/teach/sign-in", secure: tls, httpOnly: true,
            sameSite: formPost ? .none : .lax)
    }
}

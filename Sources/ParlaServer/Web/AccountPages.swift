import Hummingbird
import ParlaCore
import ParlaWeb

/// The pages an emailed link opens when no app takes it: choosing a new
/// password, confirming an email, putting back an email someone changed. They need no session and carry no CSRF
/// token: the form's secret is the link's token itself, which a forged
/// request from another site cannot know. A GET changes nothing (mail
/// scanners open links); the button's POST does.
extension Dashboard {
    func registerAccountPages(on router: Router<ParlaRequestContext>) {
        router.get("/reset-password") { request, _ in
            try await self.accountPage("reset-password", request, token: request.uri.queryParameters.get("token"))
        }
        router.post("/reset-password") { request, _ in
            let form = try await self.form(request)
            return try await self.accountPage("reset-password", request, token: form.token) {
                try await self.services.accounts.resetPassword(token: form.token, newPassword: form.newPassword)
            }
        }
        router.get("/verify-email") { request, _ in
            try await self.accountPage("verify-email", request, token: request.uri.queryParameters.get("token"))
        }
        router.post("/verify-email") { request, _ in
            let form = try await self.form(request)
            return try await self.accountPage("verify-email", request, token: form.token) {
                try await self.services.accounts.verifyEmail(token: form.token)
            }
        }
        router.get("/undo-email-change") { request, _ in
            try await self.accountPage("undo-email-change", request, token: request.uri.queryParameters.get("token"))
        }
        router.post("/undo-email-change") { request, _ in
            let form = try await self.form(request)
            return try await self.accountPage("undo-email-change", request, token: form.token) {
                try await self.services.accounts.undoEmailChange(token: form.token)
            }
        }
    }

    static let accountPageTitles: [String: WebText.Key] = [
        "reset-password": .newPasswordTitle, "verify-email": .confirmEmailTitle, "undo-email-change": .undoEmailTitle,
    ]

    /// The page, in the visitor's language: its form, or what `action` did
    /// (done, or why not).
    func accountPage(_ page: String, _ request: Request, token: String?, action: (() async throws -> Void)? = nil) async throws
        -> Response
    {
        let language = LanguagePreference.negotiate(request.headers[.acceptLanguage])
        var values = AccountPage(
            template: page, frame: PageFrame(title: WebText.text(Self.accountPageTitles[page] ?? .confirmEmailTitle, in: language)),
            token: token ?? "")
        guard let action else { return html(values, language: language) }
        do {
            try await action()
            values.done = true
            return html(values, language: language)
        } catch let error as ParlaError {
            values.frame.problems = problems(error, language)
            return html(values, language: language, status: HTTPResponse.Status(code: error.status))
        }
    }
}

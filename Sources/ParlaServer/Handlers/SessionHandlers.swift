import ParlaAPI
import ParlaCore

extension APIHandler {
    func createSession(_ input: Operations.CreateSession.Input) async throws -> Operations.CreateSession.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let signedIn = try await accounts.signIn(
            email: body.email, password: body.password, deviceName: body.deviceName, claiming: try await authenticator.guestCaller())
        return .created(.init(body: .json(.init(signedIn))))
    }

    func listSessions(_ input: Operations.ListSessions.Input) async throws -> Operations.ListSessions.Output {
        let caller = try await caller()
        let sessions = try await accounts.sessions(caller)
        return .ok(.init(body: .json(.init(sessions: sessions.map { .init($0, current: caller.sessionID) }))))
    }

    func deleteCurrentSession(_ input: Operations.DeleteCurrentSession.Input) async throws -> Operations.DeleteCurrentSession.Output {
        try await accounts.signOut(try await caller())
        return .noContent(.init())
    }

    func deleteSession(_ input: Operations.DeleteSession.Input) async throws -> Operations.DeleteSession.Output {
        let caller = try await caller()
        let id: SessionID = try parseID(input.path.sessionId, orElse: .sessionNotFound)
        try await accounts.signOut(caller, session: id)
        return .noContent(.init())
    }
}

extension APIHandler {
    func createSocialSession(_ input: Operations.CreateSocialSession.Input) async throws -> Operations.CreateSocialSession.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let form = AccountRules.SocialForm(
            provider: body.provider, idToken: body.idToken, nonce: body.nonce, deviceName: body.deviceName,
            firstName: body.firstName, lastName: body.lastName, acceptTerms: body.acceptTerms, uiLanguage: body.uiLanguage,
            password: body.password)
        let (signedIn, created) = try await accounts.signIn(with: form, language: language, claiming: try await authenticator.guestCaller())
        return created ? .created(.init(body: .json(.init(signedIn)))) : .ok(.init(body: .json(.init(signedIn))))
    }
}

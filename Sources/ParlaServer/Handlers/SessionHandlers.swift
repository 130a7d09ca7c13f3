import Foundation
import ParlaAPI
import ParlaCore
import ParlaServices
import ParlaStore

extension APIHandler {
    func createSession(_ input: Operations.CreateSession.Input) async throws -> Operations.CreateSession.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let signedIn = try await accounts.signIn(
            email: body.email, password: body.password, oneTimeCode: body.oneTimeCode, deviceName: body.deviceName,
            claiming: try await authenticator.guestCaller())
        return .created(.init(body: .json(.init(signedIn, currentTerms: accounts.termsVersion))))
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
    func getTwoFactor(_ input: Operations.GetTwoFactor.Input) async throws -> Operations.GetTwoFactor.Output {
        .ok(.init(body: .json(.init(try await twoFactor.status(try await caller())))))
    }

    func enrolTwoFactor(_ input: Operations.EnrolTwoFactor.Input) async throws -> Operations.EnrolTwoFactor.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let caller = try await caller()
        try await accounts.reauthenticate(
            caller.accountID, currentPassword: body.currentPassword,
            reauthentication: body.reauthentication.map(AccountRules.Reauthentication.init))
        let enrolment = try await twoFactor.enrol(caller)
        return .created(
            .init(body: .json(.init(secret: enrolment.secret, otpauthUri: enrolment.uri, recoveryCodes: enrolment.recoveryCodes))))
    }

    func confirmTwoFactor(_ input: Operations.ConfirmTwoFactor.Input) async throws -> Operations.ConfirmTwoFactor.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        return .ok(.init(body: .json(.init(try await twoFactor.confirm(try await caller(), code: body.code)))))
    }

    func disableTwoFactor(_ input: Operations.DisableTwoFactor.Input) async throws -> Operations.DisableTwoFactor.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        try await twoFactor.disable(try await caller(), code: body.code)
        return .noContent(.init())
    }
}

extension Components.Schemas.TwoFactorStatus {
    init(_ status: TwoFactorService.Status) {
        self.init(enabled: status.enabled, required: status.required, recoveryCodesLeft: status.recoveryCodesLeft)
    }
}

extension APIHandler {
    func createSocialSession(_ input: Operations.CreateSocialSession.Input) async throws -> Operations.CreateSocialSession.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let form = AccountRules.SocialForm(
            provider: body.provider, idToken: body.idToken, nonce: body.nonce, deviceName: body.deviceName,
            firstName: body.firstName, lastName: body.lastName, acceptTerms: body.acceptTerms, uiLanguage: body.uiLanguage,
            password: body.password, oneTimeCode: body.oneTimeCode, email: body.email)
        let (signedIn, created) = try await accounts.signIn(with: form, language: language, claiming: try await authenticator.guestCaller())
        return created
            ? .created(.init(body: .json(.init(signedIn, currentTerms: accounts.termsVersion))))
            : .ok(.init(body: .json(.init(signedIn, currentTerms: accounts.termsVersion))))
    }
}

extension APIHandler {
    func listIdentities(_ input: Operations.ListIdentities.Input) async throws -> Operations.ListIdentities.Output {
        let (hasPassword, identities) = try await accounts.waysIn(try await caller())
        return .ok(
            .init(body: .json(.init(hasPassword: hasPassword, identities: try identities.map(Components.Schemas.LinkedIdentity.init)))))
    }

    func linkIdentity(_ input: Operations.LinkIdentity.Input) async throws -> Operations.LinkIdentity.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let linked = try await accounts.linkIdentity(
            try await caller(), provider: body.provider.rawValue, idToken: body.idToken, nonce: body.nonce,
            currentPassword: body.currentPassword,
            reauthentication: body.reauthentication.map(AccountRules.Reauthentication.init))
        return .ok(.init(body: .json(try .init(linked))))
    }

    func unlinkIdentity(_ input: Operations.UnlinkIdentity.Input) async throws -> Operations.UnlinkIdentity.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let caller = try await caller()
        guard let id = UUID(uuidString: input.path.identityId) else { throw ParlaError(.identityNotFound) }
        try await accounts.unlinkIdentity(
            caller, id: id, currentPassword: body.currentPassword,
            reauthentication: body.reauthentication.map(AccountRules.Reauthentication.init))
        return .noContent(.init())
    }
}

extension Components.Schemas.LinkedIdentity {
    init(_ linked: ParlaStore.LinkedIdentity) throws {
        guard let provider = ProviderPayload(rawValue: linked.provider) else { throw ParlaError(.internalError) }
        self.init(id: linked.id.uuidString, provider: provider, linkedAt: linked.linkedAt, lastUsedAt: linked.lastUsedAt)
    }
}

extension AccountRules.Reauthentication {
    init(_ proof: Components.Schemas.Reauthentication) {
        self.init(provider: proof.provider.rawValue, idToken: proof.idToken, nonce: proof.nonce)
    }
}

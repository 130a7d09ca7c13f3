import ParlaAPI
import ParlaCore

extension APIHandler {
    func createAccount(_ input: Operations.CreateAccount.Input) async throws -> Operations.CreateAccount.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let form = RegistrationForm(
            firstName: body.firstName, lastName: body.lastName, email: body.email,
            password: body.password, acceptTerms: body.acceptTerms, uiLanguage: body.uiLanguage,
            deviceName: body.deviceName)
        let signedIn = try await accounts.signUp(form, language: language, claiming: try await authenticator.guestCaller())
        return .created(.init(body: .json(.init(signedIn, currentTerms: accounts.termsVersion))))
    }

    func createGuest(_ input: Operations.CreateGuest.Input) async throws -> Operations.CreateGuest.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let signedIn = try await accounts.startAsGuest(
            acceptTerms: body.acceptTerms, uiLanguage: body.uiLanguage, deviceName: body.deviceName, language: language)
        return .created(.init(body: .json(.init(signedIn, currentTerms: accounts.termsVersion))))
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let (_, account, learners) = try await authenticator.callerProfile()
        return .ok(
            .init(body: .json(.init(account: .init(account, currentTerms: accounts.termsVersion), learners: learners.map { .init($0) }))))
    }

    func updateMe(_ input: Operations.UpdateMe.Input) async throws -> Operations.UpdateMe.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let form = AccountRules.UpdateForm(
            firstName: body.firstName, lastName: body.lastName, email: body.email,
            uiLanguage: body.uiLanguage, newPassword: body.newPassword,
            currentPassword: body.currentPassword, acceptTerms: body.acceptTerms,
            reauthentication: body.reauthentication.map(AccountRules.Reauthentication.init))
        let (account, learners) = try await accounts.update(try await caller(), form)
        return .ok(
            .init(body: .json(.init(account: .init(account, currentTerms: accounts.termsVersion), learners: learners.map { .init($0) }))))
    }

    func deleteMe(_ input: Operations.DeleteMe.Input) async throws -> Operations.DeleteMe.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        try await accounts.delete(try await caller(), password: body.password)
        return .noContent(.init())
    }
}

extension APIHandler {
    func requestPasswordReset(_ input: Operations.RequestPasswordReset.Input) async throws -> Operations.RequestPasswordReset.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        try await accounts.requestPasswordReset(email: body.email)
        return .accepted(.init())
    }

    func resetPassword(_ input: Operations.ResetPassword.Input) async throws -> Operations.ResetPassword.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        try await accounts.resetPassword(token: body.token, newPassword: body.newPassword)
        return .noContent(.init())
    }

    func verifyEmail(_ input: Operations.VerifyEmail.Input) async throws -> Operations.VerifyEmail.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        try await accounts.verifyEmail(token: body.token)
        return .noContent(.init())
    }

    func undoEmailChange(_ input: Operations.UndoEmailChange.Input) async throws -> Operations.UndoEmailChange.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        try await accounts.undoEmailChange(token: body.token)
        return .noContent(.init())
    }

    func resendEmailVerification(_ input: Operations.ResendEmailVerification.Input) async throws
        -> Operations.ResendEmailVerification.Output
    {
        try await accounts.resendEmailVerification(try await caller())
        return .accepted(.init())
    }
}

import Foundation
import ParlaCore
import ParlaStore

/// Learner profiles of the calling account, and their pictures.
package struct LearnerService: Sendable {
    package let learners: LearnerStore
    package let accounts: AccountStore
    package let leaderboards: LeaderboardService

    package func list(_ caller: Caller) async throws -> [Learner] {
        try await learners.learners(of: caller.accountID)
    }

    package func get(_ learner: AuthorizedLearner) async throws -> Learner {
        try await learners.learner(learner)
    }

    /// A new profile; unnamed ones get "Learner N" in the account's language.
    package func create(_ caller: Caller, _ form: LearnerForm) async throws -> Learner {
        let fields = try LearnerRules.validate(form)
        guard let account = try await accounts.account(caller.accountID) else { throw ParlaError(.authenticationRequired) }
        var name = fields.displayName
        if name == nil {
            let number = try await learners.count(of: caller.accountID) + 1
            name = Wording.defaultLearnerName(number: number).text(in: account.uiLanguage)
        }
        return try await learners.create(
            LearnerStore.NewLearner(
                displayName: name!, age: fields.age, avatarID: fields.avatarID ?? Avatar.defaultID,
                nativeLanguage: fields.nativeLanguage ?? account.uiLanguage,
                targetLanguages: fields.targetLanguages ?? [], keepRecordings: fields.keepRecordings ?? false,
                publicProfile: fields.publicProfile ?? false, letterCase: fields.letterCase ?? .lower), accountID: caller.accountID)
    }

    /// An edit; a removed name becomes the default "Learner N" (N: the
    /// profile's place in the account) in the account's language.
    package func update(_ learner: AuthorizedLearner, _ form: LearnerForm) async throws -> Learner {
        var fields = try LearnerRules.validate(form)
        guard fields != LearnerFields() else { throw ParlaError(.nothingToUpdate) }
        if fields.removeDisplayName {
            guard let account = try await accounts.account(learner.account) else { throw ParlaError(.authenticationRequired) }
            let place = try await learners.learners(of: learner.account).firstIndex { $0.id == learner.id } ?? 0
            fields.displayName = Wording.defaultLearnerName(number: place + 1).text(in: account.uiLanguage)
        }
        return try await learners.update(learner, fields)
    }

    package func delete(_ learner: AuthorizedLearner) async throws {
        leaderboards.removed(try await learners.delete(learner))
    }

    /// The learner's picture, or its built-in default (the same one every time).
    package func picture(_ learner: AuthorizedLearner) async throws -> (ImageFormat, [UInt8]) {
        if let (info, bytes) = try await learners.picture(learner) { return (info.mediaType, bytes) }
        return (.png, try DefaultPictures.png(number: DefaultPicture.number(for: learner.id)))
    }

    /// The bytes decide the type, whatever the client called them.
    package func setPicture(_ learner: AuthorizedLearner, bytes: [UInt8]) async throws -> PictureInfo {
        let info = try ImageInspector.inspect(bytes)
        try await learners.setPicture(learner, info: info, bytes: bytes)
        return info
    }

    package func deletePicture(_ learner: AuthorizedLearner) async throws {
        try await learners.deletePicture(learner)
    }

    package init(learners: LearnerStore, accounts: AccountStore, leaderboards: LeaderboardService) {
        self.learners = learners
        self.accounts = accounts
        self.leaderboards = leaderboards
    }
}

/// The six pictures shipped with the server for profiles without their own.
package enum DefaultPictures {
    package static func png(number: Int) throws -> [UInt8] {
        try cache[number - 1].get()
    }

    private static let cache: [Result<[UInt8], any Error>] = (1...DefaultPicture.count).map { number in
        Result {
            guard let url = Bundle.module.url(forResource: "default-\(number)", withExtension: "png", subdirectory: "DefaultPictures")
            else { throw ParlaError(.internalError) }
            return Array(try Data(contentsOf: url))
        }
    }
}

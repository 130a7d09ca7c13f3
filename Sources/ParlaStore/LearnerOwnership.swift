import Logging
import ParlaCore
import PostgresNIO

extension PostgresConnection {
    /// Whether `learner` is one of the account's: every learner-scoped read
    /// and write is checked by it.
    func owns(_ learner: LearnerID, account accountID: AccountID, logger: Logger) async throws -> Bool {
        try await !query("SELECT 1 FROM learners WHERE id = \(learner.uuid) AND account_id = \(accountID.uuid)", logger: logger)
            .collect().isEmpty
    }

    /// `learner_not_found` unless `learner` is one of the account's.
    func requireLearner(_ learner: LearnerID, of accountID: AccountID, logger: Logger) async throws {
        guard try await owns(learner, account: accountID, logger: logger) else { throw ParlaError(.learnerNotFound) }
    }
}

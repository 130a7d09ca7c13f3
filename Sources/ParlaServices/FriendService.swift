import ParlaCore
import ParlaGames
import ParlaStore

/// A learner's friends: its circle, requests by friend code, answers to
/// requests, and removals. A code that cannot be anyone's is refused
/// before the database is asked (`FriendCode`).
package struct FriendService: Sendable {
    package let store: FriendStore

    package func circle(of learner: AuthorizedLearner) async throws -> FriendStore.Circle {
        try await store.circle(of: learner)
    }

    package func request(from learner: AuthorizedLearner, code typed: String) async throws -> FriendStore.RequestResult {
        guard let code = FriendCode(typed: typed) else { throw ParlaError(.friendCodeNotFound) }
        return try await store.request(from: learner, code: code.text)
    }

    package func respond(_ learner: AuthorizedLearner, to other: LearnerID, accept: Bool) async throws {
        try await store.respond(learner, to: other, accept: accept)
    }

    package func remove(_ learner: AuthorizedLearner, other: LearnerID) async throws {
        try await store.remove(learner, other: other)
    }

    package init(store: FriendStore) {
        self.store = store
    }
}

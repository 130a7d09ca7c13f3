import ParlaAPI
import ParlaCore

extension APIHandler {
    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: .ok))))
    }

    /// Ready when the database answers within five seconds and has every
    /// migration this build knows.
    func getReadiness(_ input: Operations.GetReadiness.Input) async throws -> Operations.GetReadiness.Output {
        let database = self.database
        let state = try? await withThrowingTaskGroup(of: (applied: Int, complete: Bool)?.self) { group in
            group.addTask { try await database.migrationState() }
            group.addTask {
                try await Task.sleep(for: .seconds(5))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let state, state.complete else { throw ParlaError(.notReady) }
        return .ok(.init(body: .json(.init(status: .ok, migrations: state.applied))))
    }
}

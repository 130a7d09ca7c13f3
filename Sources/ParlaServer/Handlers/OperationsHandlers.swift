import ParlaAPI
import ParlaCore
import ParlaDatabase
import ParlaStore
import Synchronization

extension APIHandler {
    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: .ok))))
    }

    /// Ready when the database answers within five seconds and has every
    /// migration this build knows.
    func getReadiness(_ input: Operations.GetReadiness.Input) async throws -> Operations.GetReadiness.Output {
        guard let state = await Self.migrationState(of: database, within: .seconds(5)), state.complete else {
            throw ParlaError(.notReady)
        }
        return .ok(.init(body: .json(.init(status: .ok, migrations: state.applied))))
    }

    /// The database's migration state, or nil when it does not answer
    /// within `limit`. The answer never waits for the query past the limit:
    /// PostgresNIO does not cancel a query in flight (on a connection whose
    /// server went silent it waits for TCP to give up), and a task group
    /// would wait for it.
    static func migrationState(of database: Database, within limit: Duration) async -> MigrationState? {
        let race = Race()
        return await withCheckedContinuation { continuation in
            race.answer.withLock { $0 = continuation }
            let timer = Task {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                race.query.withLock { $0 }?.cancel()
                race.answer.withLock { $0.take() }?.resume(returning: nil)
            }
            let query = Task {
                let state = try? await database.migrationState()
                timer.cancel()
                race.answer.withLock { $0.take() }?.resume(returning: state)
            }
            race.query.withLock { $0 = query }
        }
    }

    typealias MigrationState = (applied: Int, complete: Bool)

    /// Who answers first, the query or the clock.
    private final class Race: Sendable {
        let answer = Mutex<CheckedContinuation<MigrationState?, Never>?>(nil)
        let query = Mutex<Task<Void, Never>?>(nil)
    }

    func getClientConfig(_ input: Operations.GetClientConfig.Input) async throws -> Operations.GetClientConfig.Output {
        let platform = AppPlatform(rawValue: input.query.platform.rawValue) ?? .ios
        let release = clients[platform] ?? ClientRelease()
        let version = try input.headers.xAppVersion.map { text in
            guard let version = AppVersion(text) else { throw ParlaError(.invalidAppVersion) }
            return version
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        platform: .init(rawValue: platform.rawValue)!, minimumVersion: release.minimum?.description,
                        latestVersion: release.latest?.description, storeUrl: release.storeURL,
                        updateRequired: version.map(release.requiresUpdate), updateAvailable: version.map(release.offersUpdate)))))
    }
}

import Foundation
import Synchronization

/// Bounded waits for tests that look for hangs.
public enum TimeLimit {
    /// What `work` gave within `limit`, and how long that took; a nil
    /// outcome when it had not finished. Unfinished work is left running
    /// (a task group would wait for it, and a hang is what is looked for).
    public static func within<Value: Sendable>(
        _ limit: Duration, _ work: @escaping @Sendable () async throws -> Value
    ) async -> (outcome: Result<Value, any Error>?, seconds: Double) {
        let start = ContinuousClock.now
        let first = First<Value>()
        let outcome = await withCheckedContinuation { continuation in
            first.waiting.withLock { $0 = continuation }
            Task {
                let outcome: Result<Value, any Error>
                do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
                first.waiting.withLock { $0.take() }?.resume(returning: outcome)
            }
            Task {
                try? await Task.sleep(for: limit)
                first.waiting.withLock { $0.take() }?.resume(returning: nil)
            }
        }
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return (outcome, Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// Whoever of the work and the timer ends first answers.
    private final class First<Value: Sendable>: Sendable {
        let waiting = Mutex<CheckedContinuation<Result<Value, any Error>?, Never>?>(nil)
    }
}

/// How a lesson's answer and a game's flip are written: read, let Swift
/// decide without holding a lock, and write on the condition that nothing
/// read has moved since (the row's `version`, the reviews of a card the
/// write reviews). When something has, another answer or flip came first:
/// read again and decide again. Two round trips when nobody else writes,
/// and never a lock held while Swift thinks.
///
/// `attempt` reads, decides and writes; it returns nil when its condition
/// failed. A write that deadlocked (another write of the same learner took
/// the same rows in another order) is tried again as well. After `attempts`
/// tries that never landed, `exhausted` is thrown: the caller says what
/// that means to the learner.
public enum OptimisticWrite {
    /// Tries before giving up: enough for a burst of taps on one device
    /// and a second device at once.
    public static let attempts = 5

    public static func write<Written>(
        attempts: Int = attempts, exhausted: @autoclosure () -> any Error,
        isTransient: (any Error) -> Bool = isDeadlock, _ attempt: () async throws -> Written?
    ) async throws -> Written {
        for _ in 0..<attempts {
            do {
                if let written = try await attempt() { return written }
            } catch  where isTransient(error) {
                continue
            }
        }
        throw exhausted()
    }
}

import ParlaDatabase
import Testing

@testable import ParlaStore

@Suite("optimistic writes")
struct OptimisticWriteTests {
    struct Deadlock: Error {}
    struct Exhausted: Error, Equatable {}
    struct Refused: Error, Equatable {}

    /// Counts the tries an attempt is given.
    actor Tries {
        var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    @Test("a write that lands is returned at once")
    func lands() async throws {
        let tries = Tries()
        let written = try await OptimisticWrite.write(exhausted: Exhausted()) { () async -> String? in
            _ = await tries.next()
            return "written"
        }
        let count = await tries.count
        #expect(written == "written" && count == 1)
    }

    @Test("a write overtaken is read and decided again until it lands")
    func overtaken() async throws {
        let tries = Tries()
        let written = try await OptimisticWrite.write(exhausted: Exhausted()) { () async -> Int? in
            let count = await tries.next()
            return count < 3 ? nil : count
        }
        #expect(written == 3)
    }

    @Test("overtaken every time, it gives up after five tries with the caller's error")
    func exhausted() async throws {
        let tries = Tries()
        await #expect(throws: Exhausted()) {
            try await OptimisticWrite.write(exhausted: Exhausted()) { () async -> Int? in
                _ = await tries.next()
                return nil
            }
        }
        let count = await tries.count
        #expect(count == OptimisticWrite.attempts && OptimisticWrite.attempts == 5)
    }

    @Test("a deadlock is tried again; any other error ends it at once")
    func errors() async throws {
        let tries = Tries()
        let written = try await OptimisticWrite.write(exhausted: Exhausted(), isTransient: { $0 is Deadlock }) { () -> Int? in
            if await tries.next() == 1 { throw Deadlock() }
            return 2
        }
        #expect(written == 2)
        let refusals = Tries()
        await #expect(throws: Refused()) {
            try await OptimisticWrite.write(exhausted: Exhausted(), isTransient: { $0 is Deadlock }) { () -> Int? in
                _ = await refusals.next()
                throw Refused()
            }
        }
        let refused = await refusals.count
        #expect(refused == 1)
        // By default only PostgreSQL's deadlock (40P01) is tried again.
        await #expect(throws: Deadlock.self) {
            try await OptimisticWrite.write(exhausted: Exhausted()) { () -> Int? in throw Deadlock() }
        }
    }
}

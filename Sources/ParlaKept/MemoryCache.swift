import Foundation
import ParlaCore
import Synchronization

/// Rows a server keeps in memory, dropped when their table announces a
/// change to them (`ChangeFeed`, `announce` of migration 0049), and all
/// dropped when changes may have been missed. Kept only while
/// notifications flow. Every use is a row of the registry (`Kept`).
///
/// A row read from the database is kept only if it was not dropped since
/// the read began (`stamp`): a change committed after the read would
/// otherwise be announced before the row is kept, and the stale row kept
/// for good. Drops are remembered by key, so that a change to one row does
/// not stop another from being kept; a drop by tag or of everything stops
/// every read under way.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// When a read began: the listening generation and the drops so far.
    public struct Stamp: Equatable, Sendable {
        var generation: Int, drops: Int
    }

    private struct State {
        var listening = false
        var generation = 0
        var drops = 0
        /// `drops` when rows whose keys are not all known were last dropped
        /// (by tag, everything, too many keys remembered).
        var droppedAll = 0
        /// `drops` when each key was last dropped, since `droppedAll`.
        var dropped: [Key: Int] = [:]
        var values: [Key: Value] = [:]
        /// The keys under each tag (a session's id, its account's).
        var tagged: [UUID: Set<Key>] = [:]

        mutating func clear() {
            values.removeAll(keepingCapacity: true)
            tagged.removeAll(keepingCapacity: true)
        }

        /// Whether a row read since `stamp` may be kept under `key`.
        func mayKeep(_ key: Key, since stamp: Stamp?) -> Bool {
            guard let stamp, listening, stamp.generation == generation, droppedAll <= stamp.drops else { return false }
            return (dropped[key] ?? 0) <= stamp.drops
        }

        mutating func droppedEverything() {
            drops += 1
            droppedAll = drops
            dropped.removeAll(keepingCapacity: true)
        }
    }

    private let state = Mutex(State())
    /// Past this many rows, everything is dropped and kept afresh.
    let limit: Int
    /// The tags a row can be dropped by, besides its key.
    let tags: @Sendable (Value) -> [UUID]

    public init(limit: Int, tags: @escaping @Sendable (Value) -> [UUID] = { _ in [] }) {
        (self.limit, self.tags) = (limit, tags)
    }

    public func value(_ key: Key) -> Value? { state.withLock { $0.listening ? $0.values[key] : nil } }

    public func values(_ keys: some Sequence<Key>) -> [Key: Value] {
        state.withLock { state in
            guard state.listening else { return [:] }
            var found: [Key: Value] = [:]
            for key in keys { if let value = state.values[key] { found[key] = value } }
            return found
        }
    }

    /// Taken before reading rows to keep; nil when nothing may be kept.
    public var stamp: Stamp? { state.withLock { $0.listening ? Stamp(generation: $0.generation, drops: $0.drops) : nil } }

    /// Keeps rows read since `stamp`, but those dropped meanwhile.
    public func keep(_ rows: [Key: Value], since stamp: Stamp?) {
        state.withLock { state in
            let rows = rows.filter { state.mayKeep($0.key, since: stamp) }
            guard !rows.isEmpty else { return }
            // Rows that replace kept ones take no more room.
            let added = rows.keys.filter { state.values[$0] == nil }.count
            if state.values.count + added > limit { state.clear() }
            for (key, value) in rows {
                state.values[key] = value
                for tag in tags(value) { state.tagged[tag, default: []].insert(key) }
            }
        }
    }

    /// Replaces a row still kept (a session touched), never adding one; its tags stay.
    public func update(_ key: Key, _ change: (inout Value) -> Void) {
        state.withLock { state in
            if state.values[key] != nil { change(&state.values[key]!) }
        }
    }

    /// Adds to a row still kept what was made from it since `stamp`, unless
    /// it was dropped meanwhile; its tags stay.
    public func update(_ key: Key, since stamp: Stamp?, _ change: (inout Value) -> Void) {
        state.withLock { state in
            if state.values[key] != nil, state.mayKeep(key, since: stamp) { change(&state.values[key]!) }
        }
    }

    public func drop(_ key: Key) {
        state.withLock { state in
            state.drops += 1
            state.dropped[key] = state.drops
            if state.dropped.count > limit { state.droppedEverything() }
            if let value = state.values.removeValue(forKey: key) { Self.untag(key, value, in: &state, tags: tags) }
        }
    }

    /// Drops every row: which one changed is not known.
    public func dropAll() {
        state.withLock { state in
            state.droppedEverything()
            state.clear()
        }
    }

    /// Drops every row under `tag` (and stops every read under way: a row
    /// being read is not under its tags yet).
    public func drop(tagged tag: UUID) {
        state.withLock { state in
            state.droppedEverything()
            for key in state.tagged.removeValue(forKey: tag) ?? [] {
                if let value = state.values.removeValue(forKey: key) { Self.untag(key, value, in: &state, tags: tags) }
            }
        }
    }

    private static func untag(_ key: Key, _ value: Value, in state: inout State, tags: (Value) -> [UUID]) {
        for tag in tags(value) {
            state.tagged[tag]?.remove(key)
            if state.tagged[tag]?.isEmpty == true { state.tagged[tag] = nil }
        }
    }

    public func startedListening() {
        state.withLock { state in
            state.listening = true
            state.generation += 1
            state.dropped.removeAll(keepingCapacity: true)
            state.clear()
        }
    }

    public func stoppedListening() {
        state.withLock { state in
            state.listening = false
            state.clear()
        }
    }
}

extension MemoryCache where Key == UUID {
    /// Drops what a notification names: one row by its id, or every row
    /// ("*": a transaction changed too many to name). False when it cannot
    /// be read.
    public func drop(notified fields: [Substring]) -> Bool {
        guard fields.count == 1 else { return false }
        if fields[0] == "*" {
            dropAll()
            return true
        }
        guard let id = UUIDText.parse(String(fields[0])) else { return false }
        drop(id)
        return true
    }
}

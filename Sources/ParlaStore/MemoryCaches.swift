import Foundation
import ParlaCommerce
import ParlaCore
import PostgresNIO
import Synchronization

/// Rows a server keeps in memory, dropped when their table announces a
/// change to them (`ChangeFeed`), and all dropped when changes may have
/// been missed. Kept only while notifications flow.
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

/// The sessions this server has seen, by token hash, so that an
/// authenticated request needs no query. A session ended on this server is
/// dropped at once; one ended on another server (or in SQL) as soon as its
/// notification arrives, at that commit (migration 0019).
public final class SessionCache: ChangeSubscriber, Sendable {
    let cache: MemoryCache<[UInt8], DeviceSession>
    let feed: ChangeFeed

    public init(feed: ChangeFeed, limit: Int = 100_000) {
        self.feed = feed
        cache = MemoryCache(limit: limit) { [$0.id.uuid, $0.accountID.uuid] }
        feed.subscribe(self)
    }

    public var changeKind: String { "session" }
    public func startedListening() { cache.startedListening() }
    public func stoppedListening() { cache.stoppedListening() }

    /// The session kept for a token hash, only while the feed has heard
    /// from the database lately: a half-open connection must not keep a
    /// signed-out token alive until it is found deaf.
    func session(_ tokenHash: [UInt8]) -> DeviceSession? {
        feed.isHearing ? cache.value(tokenHash) : nil
    }

    /// "session id": that session ended.
    public func received(_ fields: [Substring]) -> Bool {
        guard fields.count == 1, let id = UUIDText.parse(String(fields[0])) else { return false }
        cache.drop(tagged: id)
        return true
    }

    /// Sessions ended here, dropped at once (their notifications follow).
    func ended(_ sessions: some Sequence<UUID>) {
        for session in sessions { cache.drop(tagged: session) }
    }

    /// Every session of the account, dropped at once (a password change, the account's deletion).
    func ended(account: AccountID) {
        cache.drop(tagged: account.uuid)
    }
}

/// An account with its learners, as `GET /v1/me` returns it.
public struct AccountProfile: Sendable {
    public var account: Account
    public var learners: [Learner]
}

/// The profiles this server has read, by account, so that the apps'
/// launch request needs no query. Dropped when the account, a learner of
/// it, a picture, a course or a course's level or start changes
/// (migration 0020), and at once when this server answers a request that
/// may have changed it (`AccountWritesMiddleware`), so that a client reads
/// its own change.
public final class AccountProfiles: ChangeSubscriber, Sendable {
    let cache: MemoryCache<UUID, AccountProfile>
    let feed: ChangeFeed

    public init(feed: ChangeFeed, limit: Int = 100_000) {
        self.feed = feed
        cache = MemoryCache(limit: limit)
        feed.subscribe(self)
    }

    public var changeKind: String { "account" }
    public func startedListening() { cache.startedListening() }
    public func stoppedListening() { cache.stoppedListening() }

    /// Only while the feed has heard from the database lately, as for sessions.
    func profile(_ account: AccountID) -> AccountProfile? {
        feed.isHearing ? cache.value(account.uuid) : nil
    }

    /// "account id": its profile changed; "account *": many did.
    public func received(_ fields: [Substring]) -> Bool { cache.drop(notified: fields) }

    func changed(_ account: AccountID) {
        cache.drop(account.uuid)
    }
}

/// What a leaderboard shows of a learner, and whose they are.
public struct LearnerCard: Sendable, Equatable {
    public var account: AccountID
    public var displayName: String
    public var avatarID: String
}

/// Learners' cards this server has read, so that a leaderboard page in
/// memory needs no query; dropped when a learner is renamed, changes
/// avatar or is deleted (migration 0019).
public final class LearnerDirectory: ChangeSubscriber, Sendable {
    let cache: MemoryCache<UUID, LearnerCard>
    let database: Database
    let cipher: PersonalDataCipher

    public init(database: Database, cipher: PersonalDataCipher, feed: ChangeFeed, limit: Int = 200_000) {
        (self.database, self.cipher) = (database, cipher)
        cache = MemoryCache(limit: limit)
        feed.subscribe(self)
    }

    public var changeKind: String { "learner" }
    public func startedListening() { cache.startedListening() }
    public func stoppedListening() { cache.stoppedListening() }

    /// "learner id": their card changed or they left.
    public func received(_ fields: [Substring]) -> Bool {
        guard fields.count == 1, let id = UUIDText.parse(String(fields[0])) else { return false }
        cache.drop(id)
        return true
    }

    /// The cards of `learners`, from memory where kept, the rest in one
    /// query (then kept). Learners that do not exist are missing.
    func cards(_ learners: Set<UUID>) async throws -> [UUID: LearnerCard] {
        var found = cache.values(learners)
        let missing = learners.subtracting(found.keys)
        guard !missing.isEmpty else { return found }
        let stamp = cache.stamp
        let rows = try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT id, account_id, display_name, avatar_id FROM learners WHERE id = ANY(\(Array(missing)))
                """, logger: self.database.logger
            ).collect()
        }
        var read: [UUID: LearnerCard] = [:]
        for row in rows {
            let (id, account, name, avatar) = try row.decode((UUID, UUID, ByteBuffer, String).self)
            read[id] = LearnerCard(
                account: AccountID(account), displayName: try cipher.openText(Array(buffer: name), as: .displayName),
                avatarID: avatar)
        }
        cache.keep(read, since: stamp)
        found.merge(read) { kept, _ in kept }
        return found
    }
}

/// Accounts' entitlements this server has read, so that a content page
/// needs no query for them. Dropped when the account's entitlements change
/// (migration 0021: a purchase, a renewal, a refund, a grant, on any
/// server or in SQL), and at once when this server writes them. Validity in
/// time needs no notification: the rule reads each entitlement's dates.
public final class AccountEntitlements: ChangeSubscriber, Sendable {
    let cache: MemoryCache<UUID, [Entitlement]>
    let feed: ChangeFeed

    public init(feed: ChangeFeed, limit: Int = 100_000) {
        self.feed = feed
        cache = MemoryCache(limit: limit)
        feed.subscribe(self)
    }

    public var changeKind: String { "entitlements" }
    public func startedListening() { cache.startedListening() }
    public func stoppedListening() { cache.stoppedListening() }

    /// Only while the feed has heard from the database lately: a refund
    /// must not be missed behind a half-open connection.
    func entitlements(_ account: AccountID) -> [Entitlement]? {
        feed.isHearing ? cache.value(account.uuid) : nil
    }

    /// "entitlements id": that account's changed; "entitlements *": many did.
    public func received(_ fields: [Substring]) -> Bool { cache.drop(notified: fields) }
}

import Foundation
import Logging
import ParlaDatabase
import ParlaStore
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// What a server keeps in memory in step with a table: told of each change
/// the table announces (`announce`, migration 0049), and when changes may
/// have been missed, so that it forgets what it holds.
public protocol ChangeSubscriber: AnyObject, Sendable {
    /// The first field of the notifications it reads ("entry", "session"):
    /// the topic of `announce`.
    var changeKind: String { get }
    /// Whether it is also told, at once, what this server's own
    /// transactions announce (`Database.withTransaction`), before their
    /// notifications arrive: what only drops rows, so that a client reads
    /// its own change on its next request.
    var hearsOwnWrites: Bool { get }
    /// Notifications flow from now on: what is read from the tables now is
    /// kept in step.
    func startedListening()
    /// One notification's fields after the kind; false when it cannot be
    /// read (then every subscriber starts again).
    func received(_ fields: [Substring]) -> Bool
    /// Notifications stopped: changes may be missed until `startedListening`.
    func stoppedListening()
}

/// The one listening connection of a server, on the channel `parla_changes`
/// where the tables announce their changes, delivered at commit in commit
/// order. Each payload is tab-separated, its first field saying whose it is.
///
/// Whenever notifications may have been missed (the connection is lost, a
/// heartbeat does not come back within three intervals, a notification
/// cannot be read), every subscriber is told to forget, and told again
/// when listening resumes.
extension ChangeSubscriber {
    public var hearsOwnWrites: Bool { false }
}

public final class ChangeFeed: Service, Sendable {
    static let channel = "parla_changes"
    /// What each server sends on the channel every `heartbeatInterval`: a
    /// listener that hears none for three intervals is deaf, and starts again.
    static let heartbeat = "heartbeat"

    let database: Database
    let logger: Logger
    let heartbeatInterval: Duration
    private let subscribers = Mutex<[String: any ChangeSubscriber]>([:])
    /// When the listener last heard anything; nil while not listening.
    private let lastHeard = Mutex<ContinuousClock.Instant?>(nil)

    public init(database: Database, logger: Logger, heartbeatInterval: Duration = .seconds(2)) {
        (self.database, self.logger, self.heartbeatInterval) = (database, logger, heartbeatInterval)
    }

    /// Whether notifications arrived lately (within two heartbeats): what
    /// a cache of sessions needs besides `startedListening`.
    public var isHearing: Bool {
        lastHeard.withLock { $0.map { ContinuousClock.now - $0 < heartbeatInterval * 2 } ?? false }
    }

    /// Adds a subscriber, before `run`.
    public func subscribe(_ subscriber: any ChangeSubscriber) {
        let hearing = subscribers.withLock { subscribers in
            subscribers[subscriber.changeKind] = subscriber
            return subscribers.values.filter(\.hearsOwnWrites).map(\.changeKind).sorted()
        }
        database.hearOwnAnnouncements(topics: hearing) { [weak self] topic, keys in self?.heardHere(topic, keys) }
    }

    /// What a transaction of this server announced, at its commit: told
    /// now as its notifications will tell it again (dropping twice is harmless).
    func heardHere(_ topic: String, _ keys: [Substring]) {
        guard let subscriber = subscribers.withLock({ $0[topic] }) else { return }
        for key in keys { _ = subscriber.received([key]) }
    }

    private var everyone: [any ChangeSubscriber] { subscribers.withLock { Array($0.values) } }

    /// Why listening starts again.
    struct Deaf: Error, CustomStringConvertible {
        var description: String
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown { await self.listen() }
    }

    /// Listens, again after each lost connection.
    private func listen() async {
        while !Task.isCancelled {
            do {
                try await database.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask { try await self.read(notifications) }
                            group.addTask { try await self.beat(on: connection) }
                            group.addTask { try await self.watch() }
                            try await group.next()
                        }
                    }
                }
            } catch {
                if !Task.isCancelled { logger.warning("change notifications lost", metadata: ["error": "\(error)"]) }
            }
            // Changes may have been missed: everything is read again.
            lastHeard.withLock { $0 = nil }
            for subscriber in everyone { subscriber.stoppedListening() }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Dispatches the notifications. Subscribers start once the first
    /// arrives (this server's first heartbeat, at the latest): a LISTEN that
    /// delivers nothing (a pooler in between, say) never lets them keep anything.
    private func read(_ notifications: PostgresNotificationSequence) async throws {
        let subscribers = self.subscribers.withLock { $0 }
        for try await notification in notifications {
            let first = lastHeard.withLock { heard in
                defer { heard = .now }
                return heard == nil
            }
            if first { for subscriber in subscribers.values { subscriber.startedListening() } }
            let fields = notification.payload.split(separator: "\t", omittingEmptySubsequences: false)
            guard let kind = fields.first, kind != Self.heartbeat else { continue }
            // Kinds nobody here keeps (a newer server's) are not ours to read.
            guard let subscriber = subscribers[String(kind)] else { continue }
            guard subscriber.received(Array(fields.dropFirst())) else {
                throw Deaf(description: "a notification could not be read: \(notification.payload.prefix(200))")
            }
        }
        throw Deaf(description: "the notifications ended")
    }

    /// Sends a heartbeat on the channel every interval, on the listening
    /// connection itself (no wait for the pool): it comes back to every
    /// listener, this one too.
    private func beat(on connection: PostgresConnection) async throws {
        while true {
            _ = try? await connection.query("SELECT pg_notify(\(Self.channel), \(Self.heartbeat))", logger: logger).collect()
            try await Task.sleep(for: heartbeatInterval)
        }
    }

    /// Gives up on a listener that heard nothing for three heartbeats,
    /// apart from sending them (which may hang on a dead connection).
    private func watch() async throws {
        let started = ContinuousClock.now
        while true {
            try await Task.sleep(for: heartbeatInterval)
            if ContinuousClock.now - (lastHeard.withLock { $0 } ?? started) > heartbeatInterval * 3 {
                throw Deaf(description: "no heartbeat came back")
            }
        }
    }
}

import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// What a server keeps in memory in step with a table: told of each change
/// the table announces (migration 0019), and when changes may have been
/// missed, so that it forgets what it holds.
public protocol ChangeSubscriber: AnyObject, Sendable {
    /// The first field of the notifications it reads ("entry", "session").
    var changeKind: String { get }
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
public final class ChangeFeed: Service, Sendable {
    static let channel = "parla_changes"
    /// What each server sends on the channel every `heartbeatInterval`: a
    /// listener that hears none for three intervals is deaf, and starts again.
    static let heartbeat = "heartbeat"

    let database: Database
    let logger: Logger
    let heartbeatInterval: Duration
    private let subscribers = Mutex<[String: any ChangeSubscriber]>([:])

    public init(database: Database, logger: Logger, heartbeatInterval: Duration = .seconds(10)) {
        (self.database, self.logger, self.heartbeatInterval) = (database, logger, heartbeatInterval)
    }

    /// Adds a subscriber, before `run`.
    public func subscribe(_ subscriber: any ChangeSubscriber) {
        subscribers.withLock { $0[subscriber.changeKind] = subscriber }
    }

    private var everyone: [any ChangeSubscriber] { subscribers.withLock { Array($0.values) } }

    /// When the listener last heard anything.
    final class LastHeard: Sendable {
        let instant = Mutex(ContinuousClock.now)
        func now() { instant.withLock { $0 = .now } }
    }

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
                            for subscriber in everyone { subscriber.startedListening() }
                            let lastHeard = LastHeard()
                            try await withThrowingTaskGroup(of: Void.self) { group in
                                group.addTask { try await self.read(notifications, lastHeard) }
                                group.addTask { try await self.beat(on: connection) }
                                group.addTask { try await self.watch(lastHeard) }
                                try await group.next()
                            }
                        }
                    }
                } catch {
                    if !Task.isCancelled { logger.warning("change notifications lost", metadata: ["error": "\(error)"]) }
                }
                // Changes may have been missed: everything is read again.
                for subscriber in everyone { subscriber.stoppedListening() }
                try? await Task.sleep(for: .seconds(1))
            }
    }

    private func read(_ notifications: PostgresNotificationSequence, _ lastHeard: LastHeard) async throws {
        let subscribers = self.subscribers.withLock { $0 }
        for try await notification in notifications {
            lastHeard.now()
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
            try await Task.sleep(for: heartbeatInterval)
            _ = try? await connection.query("SELECT pg_notify(\(Self.channel), \(Self.heartbeat))", logger: logger)
        }
    }

    /// Gives up on a listener that heard nothing for three heartbeats,
    /// apart from sending them (which may hang on a dead connection).
    private func watch(_ lastHeard: LastHeard) async throws {
        while true {
            try await Task.sleep(for: heartbeatInterval)
            if ContinuousClock.now - lastHeard.instant.withLock({ $0 }) > heartbeatInterval * 3 {
                throw Deaf(description: "no heartbeat came back")
            }
        }
    }
}

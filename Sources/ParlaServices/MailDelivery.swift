import Foundation
import Logging
import Metrics
import ParlaMail
import ParlaStore
import ServiceLifecycle

/// Delivers the outbox: over SMTP when a server is configured, else as
/// `.eml` files in a directory (the embedded default), logged without
/// their content. Runs in every server; rows are leased (`OutboxStore`), so
/// any number of servers share the work. A change that queues a message
/// wakes this server's delivery at once; others' messages are found by
/// polling.
package final class MailDelivery: Service, Sendable {
    package enum Transport: Sendable {
        case smtp(SMTPClient)
        case directory(String)
    }

    package let outbox: OutboxStore
    package let schema: SchemaReady
    package let transport: Transport
    package let settings: MailSettings
    package let logger: Logger
    private let wakeUps: AsyncStream<Void>
    private let wakeUp: AsyncStream<Void>.Continuation
    private let sent = Counter(label: "parla_mail_sent_total")
    private let retried = Counter(label: "parla_mail_retried_total")
    private let givenUp = Counter(label: "parla_mail_failed_total")

    /// Messages claimed at once, and how long a claim lasts: past it, a
    /// message whose worker died is claimed again.
    package static let batch = 10
    package static let lease: TimeInterval = 300
    /// The longest wait between two attempts.
    package static let longestRetry: TimeInterval = 3600
    /// Sent and failed messages are forgotten after this long.
    package static let kept: TimeInterval = 30 * 86400

    package init(outbox: OutboxStore, settings: MailSettings, schema: SchemaReady, logger: Logger) throws {
        self.outbox = outbox
        self.schema = schema
        self.settings = settings
        self.logger = logger
        transport = try settings.smtp.map { .smtp(try SMTPClient(settings: $0)) } ?? .directory(settings.outboxDirectory)
        (wakeUps, wakeUp) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Something was queued here: deliver now rather than at the next poll.
    package func wake() {
        wakeUp.yield()
    }

    package func run() async throws {
        var lastPrune = Date.distantPast
        try? await cancelWhenGracefulShutdown { await self.schema.wait() }
        await withGracefulShutdownHandler {
            var wakeUps = wakeUps.makeAsyncIterator()
            repeat {
                await deliverDue()
                if Date().timeIntervalSince(lastPrune) > 3600 {
                    lastPrune = Date()
                    try? await outbox.prune(olderThan: Self.kept)
                }
                let poll = Task { [settings, wakeUp] in
                    try await Task.sleep(for: .seconds(settings.pollSeconds))
                    wakeUp.yield()
                }
                defer { poll.cancel() }
                guard await wakeUps.next() != nil else { break }
            } while !Task.isCancelled
        } onGracefulShutdown: { [wakeUp] in
            wakeUp.finish()
        }
    }

    /// Delivers every message due now, a batch at a time.
    package func deliverDue() async {
        do {
            while true {
                let due = try await outbox.claim(limit: Self.batch, lease: Self.lease)
                for message in due { await deliver(message) }
                if due.count < Self.batch { return }
            }
        } catch {
            logger.error("outbox unreadable", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    private func deliver(_ message: OutboxStore.Claimed) async {
        var metadata: Logger.Metadata = ["mail_id": "\(message.id)", "kind": "\(message.kind)", "attempt": "\(message.attempt)"]
        do {
            switch transport {
            case .smtp(let client):
                let reply = try await client.send(MailEnvelope(from: message.sender, to: message.recipient, data: message.message))
                metadata["reply"] = "\(reply)"
                logger.info("email sent", metadata: metadata)
            case .directory(let directory):
                metadata["file"] = "\(try write(message, into: directory))"
                logger.info("email written", metadata: metadata)
            }
            sent.increment()
            try await outbox.delivered(message.id)
        } catch {
            // Neither the address nor the message goes to the log or the
            // table: a server's reply may quote the address.
            let why = "\(error)".replacingOccurrences(of: message.recipient, with: "<recipient>")
            metadata["error"] = "\(why)"
            let permanent = (error as? DeliveryFailure)?.isPermanent ?? false
            do {
                if permanent || message.attempt >= settings.maxAttempts {
                    givenUp.increment()
                    logger.error("email given up", metadata: metadata)
                    try await outbox.failed(message.id, error: why)
                } else {
                    let delay = retryDelay(after: message.attempt)
                    metadata["retry_in_seconds"] = "\(Int(delay.rounded()))"
                    retried.increment()
                    logger.warning("email not sent, will retry", metadata: metadata)
                    try await outbox.retry(message.id, after: delay, error: why)
                }
            } catch {
                // The lease runs out and the message is claimed again.
                logger.error("outbox not updated", metadata: ["mail_id": "\(message.id)", "error": "\(String(reflecting: error))"])
            }
        }
    }

    /// Exponential backoff with a fifth of jitter, so servers that failed
    /// together do not retry together.
    package func retryDelay(after attempt: Int) -> TimeInterval {
        let exponential = settings.retrySeconds * pow(2, Double(max(0, attempt - 1)))
        return min(exponential, Self.longestRetry) * Double.random(in: 0.8...1.2)
    }

    /// Writes the message as `<time>-<kind>-<id>.eml`, whole or not at all.
    private func write(_ message: OutboxStore.Claimed, into directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: .gmt, formatOptions: [.withFullDate, .withTime])
        let path = "\(directory)/\(stamp)-\(message.kind)-\(message.id.uuidString.lowercased()).eml"
        try Data(message.message).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }
}

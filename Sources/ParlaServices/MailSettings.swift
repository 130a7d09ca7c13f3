import Foundation
import ParlaMail

/// How Parla sends email (`mail.*`). With no SMTP host, the embedded
/// default, every message is written as an `.eml` file instead.
public struct MailSettings: Sendable {
    /// The `From` of every message.
    public var from = "Parla <no-reply@parla.app>"
    /// Where the links in emails lead: `<linkBase>/reset-password?token=…`.
    public var linkBase = "http://127.0.0.1:8080"
    /// Where messages go when no SMTP server is configured.
    public var outboxDirectory = ".parla/outbox"
    /// The SMTP submission server; nil writes files instead.
    public var smtp: SMTPSettings?
    /// Attempts before a message is given up.
    public var maxAttempts = 8
    /// The first retry's delay; each next one doubles, up to an hour.
    public var retrySeconds: TimeInterval = 30
    /// How often the outbox is read when nothing wakes the delivery.
    public var pollSeconds: TimeInterval = 5

    public init() {}
}

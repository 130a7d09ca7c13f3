import Configuration
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

    init(config: ConfigReader) {
        from = config.string(forKey: "from", default: from)
        linkBase = config.string(forKey: "linkBase", default: linkBase)
        outboxDirectory = config.string(forKey: "outboxDirectory", default: outboxDirectory)
        maxAttempts = config.int(forKey: "maxAttempts", default: maxAttempts)
        retrySeconds = config.double(forKey: "retrySeconds", default: retrySeconds)
        pollSeconds = config.double(forKey: "pollSeconds", default: pollSeconds)
        // Every key is read, set or not (Config/parla.json lists them all).
        var smtp = SMTPSettings(host: config.string(forKey: "smtp.host", default: ""))
        smtp.port = config.int(forKey: "smtp.port", default: smtp.port)
        smtp.security = config.string(forKey: "smtp.security").flatMap(SMTPSettings.Security.init(rawValue:)) ?? smtp.security
        smtp.username = config.nonEmptyString("smtp.username")
        smtp.password = config.nonEmptyString("smtp.password", isSecret: true)
        smtp.rootCertificates = config.list("smtp.rootCertificates")
        let clientName = config.string(forKey: "smtp.clientName", default: "")
        smtp.clientName = clientName.isEmpty ? ProcessInfo.processInfo.hostName : clientName
        self.smtp = smtp.host.isEmpty ? nil : smtp
    }
}

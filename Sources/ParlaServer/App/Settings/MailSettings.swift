import Configuration
import Foundation
import ParlaMail
import ParlaServices

extension MailSettings {
    init(config: ConfigReader) {
        self.init()
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

import Foundation
import ParlaCore
import ParlaMail
import ParlaStore

/// The emails accounts receive: each a fresh token, the link that carries
/// it and the letter around it, in the reader's language, ready to be
/// written with the change that sends it.
struct AccountMail: Sendable {
    let from: MailAddress
    /// Links lead here, without a trailing slash.
    let linkBase: String
    /// This server's delivery, woken when a change queued a message.
    let delivery: MailDelivery?

    /// Emails of one purpose an account may receive within an hour.
    static let hourlyLimit = 3

    init(settings: MailSettings, delivery: MailDelivery?) throws {
        guard let from = MailAddress(parsing: settings.from) else { throw SupportError(description: "mail.from is no email address") }
        self.from = from
        linkBase = settings.linkBase.hasSuffix("/") ? String(settings.linkBase.dropLast()) : settings.linkBase
        self.delivery = delivery
    }

    func challenge(_ purpose: EmailChallenge.Purpose, firstName: String, email: String, language: Language) -> EmailChallenge {
        let token = SessionToken.generate()
        let letter: Letter =
            switch purpose {
            case .passwordReset: .passwordReset(firstName: firstName, link: "\(linkBase)/reset-password?token=\(token.value)")
            case .emailVerification: .emailVerification(firstName: firstName, link: "\(linkBase)/verify-email?token=\(token.value)")
            }
        let message = letter.message(from: from, to: email, language: language)
        return EmailChallenge(
            purpose: purpose, tokenHash: token.hash,
            mail: OutgoingMail(kind: letter.kind, accountID: nil, sender: from.address, recipient: email, message: message.rendered()))
    }

    /// The acknowledgment of a bug report, for the outbox.
    func reportReceived(reference: String, firstName: String, email: String, account: AccountID, language: Language) -> OutgoingMail {
        let letter = Letter.reportReceived(firstName: firstName, reference: reference)
        let message = letter.message(from: from, to: email, language: language)
        return OutgoingMail(kind: letter.kind, accountID: account, sender: from.address, recipient: email, message: message.rendered())
    }

    /// A change committed with a message: deliver it now.
    func queued() {
        delivery?.wake()
    }
}

import Foundation
import ParlaCore
import ParlaMail
import ParlaStore

/// The emails accounts receive: each a fresh token, the link that carries
/// it and the letter around it, in the reader's language, ready to be
/// written with the change that sends it.
package struct AccountMail: Sendable {
    package let from: MailAddress
    /// Links lead here, without a trailing slash.
    package let linkBase: String
    /// This server's delivery, woken when a change queued a message.
    package let delivery: MailDelivery?

    /// Emails of one purpose an account may receive within an hour.
    package static let hourlyLimit = 3

    package init(settings: MailSettings, delivery: MailDelivery?) throws {
        guard let from = MailAddress(parsing: settings.from) else { throw SupportError(description: "mail.from is no email address") }
        self.from = from
        linkBase = settings.linkBase.hasSuffix("/") ? String(settings.linkBase.dropLast()) : settings.linkBase
        self.delivery = delivery
    }

    package func challenge(_ purpose: EmailChallenge.Purpose, firstName: String, email: String, language: Language) -> EmailChallenge {
        let token = SessionToken.generate()
        let letter: Letter =
            switch purpose {
            case .passwordReset: .passwordReset(firstName: firstName, link: "\(linkBase)/reset-password?token=\(token.value)")
            case .emailVerification: .emailVerification(firstName: firstName, link: "\(linkBase)/verify-email?token=\(token.value)")
            case .emailChangeUndo: preconditionFailure("an undo names the new address: undoChallenge")
            }
        let message = letter.message(from: from, to: email, language: language)
        return EmailChallenge(
            purpose: purpose, tokenHash: token.hash,
            mail: OutgoingMail(kind: letter.kind, accountID: nil, sender: from.address, recipient: email, message: message.rendered()))
    }

    /// To the old address of an account whose email changes to `newEmail`
    /// (shown masked, never whole: the old owner may not be its owner any
    /// more): the link that puts it back.
    package func undoChallenge(firstName: String, oldEmail: String, newEmail: String, language: Language) -> EmailChallenge {
        let token = SessionToken.generate()
        let letter = Letter.emailChanged(
            firstName: firstName, newAddress: Self.masked(newEmail), link: "\(linkBase)/undo-email-change?token=\(token.value)")
        let message = letter.message(from: from, to: oldEmail, language: language)
        return EmailChallenge(
            purpose: .emailChangeUndo, tokenHash: token.hash,
            mail: OutgoingMail(kind: letter.kind, accountID: nil, sender: from.address, recipient: oldEmail, message: message.rendered()))
    }

    /// "z***@example.com": enough to recognise an address, not to learn it.
    package static func masked(_ email: String) -> String {
        guard let at = email.lastIndex(of: "@"), at > email.startIndex else { return email }
        return String(email[email.startIndex]) + "***" + email[at...]
    }

    /// The acknowledgment of a bug report, for the outbox.
    package func reportReceived(reference: String, firstName: String, email: String, account: AccountID, language: Language) -> OutgoingMail
    {
        let letter = Letter.reportReceived(firstName: firstName, reference: reference)
        let message = letter.message(from: from, to: email, language: language)
        return OutgoingMail(kind: letter.kind, accountID: account, sender: from.address, recipient: email, message: message.rendered())
    }

    /// A change committed with a message: deliver it now.
    package func queued() {
        delivery?.wake()
    }
}

import Foundation
import ParlaCore
import ParlaTestSupport
import Testing

@testable import ParlaMail

@Suite("email messages and the SMTP conversation's parts")
struct MailMessageTests {
    let parla = MailAddress(address: "hello@parla.app", name: "Parla")

    @Test("a message is ASCII with CRLF lines of at most 76 characters, and its body decodes to the text")
    func rendering() throws {
        let text =
            "Bonjour Zoé,\n\nOuvrez ce lien : https://parla.app/reset-password?token=" + String(repeating: "x", count: 90)
            + "\n. a line starting with a dot \nend with space "
        let message = MailMessage(
            from: parla, to: MailAddress(address: "zoe@example.com"), subject: "Réinitialisez votre mot de passe Parla",
            text: text, language: "fr", messageID: "id-1@parla.app", date: Date(timeIntervalSince1970: 0))
        let rendered = String(decoding: message.rendered(), as: UTF8.self)
        #expect(message.rendered().allSatisfy { $0 < 128 })
        let lines = rendered.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 76 }, "\(lines.map(\.count).max() ?? 0)")
        #expect(!rendered.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(rendered.contains("Date: Thu, 01 Jan 1970 00:00:00 +0000\r\n"))
        #expect(rendered.contains("From: \"Parla\" <hello@parla.app>\r\n"))
        #expect(rendered.contains("Message-ID: <id-1@parla.app>\r\n") && rendered.contains("Content-Language: fr\r\n"))
        let subject = try #require(lines.first { $0.hasPrefix("Subject: ") })
        #expect(subject.hasPrefix("Subject: =?utf-8?B?"))
        let head = try #require(rendered.range(of: "\r\n\r\n"))
        let body = String(rendered[head.upperBound...])
        #expect(TestMail(raw: rendered).text == text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(body.contains("end with space=20"))
    }

    @Test("a long subject is folded into encoded words of whole characters")
    func encodedWords() {
        let subject = String(repeating: "Bestätigen Sie Ihre E-Mail-Adresse für Parla ", count: 3)
        let words = MailMessage.encodedWords(subject)
        #expect(words.count > 1 && words.allSatisfy { $0.count <= 75 })
        let decoded = words.map { word in
            String(decoding: Data(base64Encoded: String(word.dropFirst(10).dropLast(2)))!, as: UTF8.self)
        }.joined()
        #expect(decoded == subject)
        #expect(MailMessage.headerText("Plain subject") == "Plain subject")
        #expect(MailMessage.headerText("Two\r\nlines") == "Two  lines")
    }

    @Test("addresses with a name, and nothing that could forge a header")
    func addresses() {
        #expect(MailAddress(parsing: "Parla <hello@parla.app>") == MailAddress(address: "hello@parla.app", name: "Parla"))
        #expect(MailAddress(parsing: "hello@parla.app") == MailAddress(address: "hello@parla.app"))
        #expect(MailAddress(parsing: "\"Parla Team\" <team@parla.app>")?.name == "Parla Team")
        for bad in ["", "no at sign", "a@b.c\r\nBcc: x@y.z", "<a@b.c", "Name <a b@c.d>"] {
            #expect(MailAddress(parsing: bad) == nil, "\(bad)")
        }
        #expect(MailAddress(address: "zoé@exemple.fr").isInternationalized)
        #expect(MailAddress(address: "a@b.c", name: "Zoé").header.hasPrefix("=?utf-8?B?"))
        #expect(MailAddress(address: "a@b.c", name: "say \"hi\"").header == "\"say \\\"hi\\\"\" <a@b.c>")
    }

    @Test("DATA: CRLF everywhere, a leading dot doubled, and the closing dot")
    func dotStuffing() {
        let stuffed = SMTPClient.dotStuffed(Array(".first\r\nsecond\n.third\r\n..\r\nlast".utf8))
        #expect(String(decoding: stuffed, as: UTF8.self) == "..first\r\nsecond\r\n..third\r\n...\r\nlast\r\n.\r\n")
        #expect(String(decoding: SMTPClient.dotStuffed(Array("a\r\n".utf8)), as: UTF8.self) == "a\r\n.\r\n")
    }

    @Test("EHLO's extensions are read from its lines")
    func capabilities() {
        let reply = SMTPReply(code: 250, lines: ["mail.example.com Hello", "SIZE 33554432", "STARTTLS", "AUTH LOGIN PLAIN", "SMTPUTF8"])
        #expect(reply.offers("STARTTLS") && reply.offers("SMTPUTF8") && !reply.offers("PIPELINING"))
        #expect(reply.offersAuth("PLAIN") && reply.offersAuth("LOGIN") && !reply.offersAuth("CRAM-MD5"))
        #expect(SMTPReply(code: 250, lines: ["x", "AUTH=LOGIN"]).offersAuth("LOGIN"))
        // The greeting line is the server's name, not an extension.
        #expect(!SMTPReply(code: 250, lines: ["STARTTLS"]).offers("STARTTLS"))
    }

    @Test("every letter exists in every language, carries its link and says who it is for")
    func letters() {
        let link = "https://parla.app/reset-password?token=abc"
        for letter in [Letter.passwordReset(firstName: "Zoé", link: link), .emailVerification(firstName: "Zoé", link: link)] {
            var subjects = Set<String>()
            for language in Language.allCases {
                let message = letter.message(from: parla, to: "zoe@example.com", language: language)
                #expect(message.text.contains(link) && message.text.contains("Zoé") && message.language == language.code)
                subjects.insert(message.subject)
            }
            #expect(subjects.count == Language.allCases.count)
        }
    }

    @Test("a report's acknowledgment quotes its reference in every language")
    func reportReceived() {
        var subjects = Set<String>()
        for language in Language.allCases {
            let message = Letter.reportReceived(firstName: "Zoé", reference: "PR-000042")
                .message(from: parla, to: "zoe@example.com", language: language)
            #expect(message.subject.contains("PR-000042") && message.text.contains("PR-000042") && message.text.contains("Zoé"))
            subjects.insert(message.subject)
        }
        #expect(subjects.count == Language.allCases.count)
    }
}

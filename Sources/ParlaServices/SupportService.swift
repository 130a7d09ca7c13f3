import Foundation
import ParlaCore
import ParlaStore

/// Bug reports (seed 004, BF 3): filed by any signed-in account, with an
/// acknowledgment by email in the same transaction; followed by their
/// reporters; worked through by support.
package struct SupportService: Sendable {
    package let reports: SupportStore
    package let accounts: AccountStore
    package let mail: AccountMail

    /// A report as a viewer sees it; support also sees who filed it.
    package struct Seen: Sendable {
        package var report: SupportStore.Report
        /// For support: the reporter's email, to write back (a guest has none).
        package var reporterEmail: String?
        /// Whether support is looking: then support's note shows too.
        package var bySupport = false

        package init(report: SupportStore.Report, reporterEmail: String? = nil, bySupport: Bool = false) {
            self.report = report
            self.reporterEmail = reporterEmail
            self.bySupport = bySupport
        }
    }

    package func file(
        text: String?, appVersion: String?, platform: String?, device: String?, learner: LearnerID?, by caller: AccountID
    ) async throws -> SupportStore.Report {
        let submission = try SupportReport.validate(text: text, appVersion: appVersion, platform: platform, device: device)
        guard let account = try await accounts.account(caller) else { throw ParlaError(.authenticationRequired) }
        // A guest has no email to acknowledge to: it follows its report in the app.
        let (mail, firstName, language) = (mail, account.firstName ?? "", account.uiLanguage)
        var acknowledgment: (@Sendable (String) -> OutgoingMail)?
        if let email = account.email {
            acknowledgment = { reference in
                mail.reportReceived(reference: reference, firstName: firstName, email: email, account: caller, language: language)
            }
        }
        guard
            let report = try await reports.file(
                submission, by: caller, learner: learner, uiLanguage: account.uiLanguage, acknowledgment: acknowledgment)
        else { throw ParlaError(.tooManyReports, retryAfter: 3600) }
        mail.queued()
        return report
    }

    package func report(_ raw: String, for viewer: SupportStore.Viewer) async throws -> Seen {
        guard let id = UUIDText.parse(raw), let report = try await reports.report(id, for: viewer) else {
            throw ParlaError(.reportNotFound)
        }
        return try await seen([report], by: viewer)[0]
    }

    package func list(for viewer: SupportStore.Viewer, filter: SupportStore.Filter, before: String?, limit: Int?) async throws -> [Seen] {
        let limit = limit ?? 20
        var errors = FieldErrors()
        if !(1...100).contains(limit) { errors.add("limit", .validationFailed) }
        let number = before.flatMap(Self.number)
        if before != nil, number == nil { errors.add("before", .validationFailed) }
        try errors.throwIfAny()
        return try await seen(try await reports.reports(for: viewer, filter: filter, before: number, limit: limit), by: viewer)
    }

    package func update(_ raw: String, status: String?, note: String?, by staff: AccountID) async throws -> Seen {
        let status = try SupportReport.status(status)
        if let note, note.count > SupportReport.textLengths.upperBound {
            throw ParlaError.validation([FieldError("note", .validationFailed)])
        }
        guard let id = UUIDText.parse(raw), let report = try await reports.update(id, status: status, note: note, by: staff) else {
            throw ParlaError(.reportNotFound)
        }
        return try await seen([report], by: .support)[0]
    }

    /// The bytes decide the type, whatever the client called them.
    package func attach(screenshot bytes: [UInt8], to raw: String, by caller: AccountID) async throws -> Seen {
        let info = try ImageInspector.inspect(bytes)
        guard let id = UUIDText.parse(raw), try await reports.attach(info, bytes: bytes, to: id, by: caller) else {
            throw ParlaError(.reportNotFound)
        }
        return try await report(raw, for: .reporter(caller))
    }

    package func screenshot(of raw: String, for viewer: SupportStore.Viewer) async throws -> (ImageFormat, [UInt8]) {
        guard let id = UUIDText.parse(raw), let screenshot = try await reports.screenshot(of: id, for: viewer) else {
            throw ParlaError(.reportNotFound)
        }
        return screenshot
    }

    /// `PR-000042` or `42`.
    package static func number(_ reference: String) -> Int? {
        let digits = reference.hasPrefix("PR-") ? reference.dropFirst(3) : Substring(reference)
        guard (1...18).contains(digits.count), digits.allSatisfy(\.isASCII) else { return nil }
        return Int(digits)
    }

    private func seen(_ reports: [SupportStore.Report], by viewer: SupportStore.Viewer) async throws -> [Seen] {
        guard viewer == .support else { return reports.map { Seen(report: $0) } }
        let emails = try await accounts.emails(of: Set(reports.map(\.account)))
        return reports.map { Seen(report: $0, reporterEmail: emails[$0.account], bySupport: true) }
    }

    package init(reports: SupportStore, accounts: AccountStore, mail: AccountMail) {
        self.reports = reports
        self.accounts = accounts
        self.mail = mail
    }
}

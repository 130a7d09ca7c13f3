import Foundation
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// Bug reports and their screenshots (migration 0034). Text, device and
/// screenshot are sealed like any personal field.
public struct SupportStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    public init(database: Database, cipher: PersonalDataCipher) { (self.database, self.cipher) = (database, cipher) }

    /// Whose reports a request may see: an account its own, support all.
    public enum Viewer: Sendable, Equatable {
        case reporter(AccountID)
        case support
    }

    public struct Report: Sendable, Equatable {
        public var id: UUID
        public var number: Int
        public var account: AccountID
        public var learner: LearnerID?
        public var text: String
        public var appVersion: String
        public var platform: SupportReport.Platform
        public var device: String
        public var uiLanguage: Language
        public var status: SupportReport.Status
        public var note: String?
        public var hasScreenshot: Bool
        public var createdAt: Date
        public var updatedAt: Date

        public var reference: String { SupportReport.reference(number) }
    }

    /// Files a report, with the acknowledgment `mail` (made for the number
    /// it gets) in the same transaction; `nil` when the account filed
    /// `SupportReport.dailyLimit` reports in the last day.
    public func file(
        _ submission: SupportReport.Submission, by account: AccountID, learner: LearnerID?, uiLanguage: Language,
        acknowledgment mail: (@Sendable (_ reference: String) -> OutgoingMail)?
    ) async throws -> Report? {
        let id = UUID.version7()
        let text = ByteBuffer(bytes: try cipher.seal(submission.text, as: .supportText))
        let device = ByteBuffer(bytes: try cipher.seal(submission.device, as: .supportDevice))
        let outbox = OutboxStore(database: database, cipher: cipher)
        return try await database.withTransaction { connection -> Report? in
            // One account's reports are filed one at a time, so the daily limit holds.
            _ = try await connection.query("SELECT id FROM accounts WHERE id = \(account.uuid) FOR UPDATE", logger: database.logger)
                .collect()
            let today =
                try await connection.query(
                    """
                    SELECT count(*) FROM support_reports WHERE account_id = \(account.uuid) AND created_at > now() - interval '1 day'
                    """, logger: database.logger
                ).collect().first?.decode(Int.self) ?? 0
            guard today < SupportReport.dailyLimit else { return nil }
            let rows = try await connection.query(
                """
                INSERT INTO support_reports (id, account_id, learner_id, text, app_version, platform, device, ui_language)
                VALUES (\(id), \(account.uuid), \(learner?.uuid), \(text), \(submission.appVersion), \(submission.platform.rawValue),
                        \(device), \(uiLanguage.code))
                RETURNING number, created_at
                """, logger: database.logger
            ).collect()
            let (number, created) = try rows[0].decode((Int, Date).self)
            let report = Report(
                id: id, number: number, account: account, learner: learner, text: submission.text, appVersion: submission.appVersion,
                platform: submission.platform, device: submission.device, uiLanguage: uiLanguage, status: .open, note: nil,
                hasScreenshot: false, createdAt: created, updatedAt: created)
            if let mail { try await outbox.enqueue(mail(report.reference), on: connection) }
            return report
        }
    }

    public func report(_ id: UUID, for viewer: Viewer) async throws -> Report? {
        try await reports(id: id, for: viewer, filter: Filter(), before: nil, limit: 1).first
    }

    /// Filters for support's queue.
    public struct Filter: Sendable {
        public var status: SupportReport.Status?
        public var platform: SupportReport.Platform?
        public var appVersion: String?
        public init(status: SupportReport.Status? = nil, platform: SupportReport.Platform? = nil, appVersion: String? = nil) {
            (self.status, self.platform, self.appVersion) = (status, platform, appVersion)
        }
    }

    /// Reports the viewer may see, newest first, matching `filter`, before
    /// the report numbered `before` if given.
    public func reports(for viewer: Viewer, filter: Filter = Filter(), before: Int? = nil, limit: Int) async throws -> [Report] {
        try await reports(id: nil, for: viewer, filter: filter, before: before, limit: limit)
    }

    /// The one SELECT of reports, narrowed to what the viewer may see.
    private func reports(id: UUID?, for viewer: Viewer, filter: Filter, before: Int?, limit: Int) async throws -> [Report] {
        let reporter: UUID? = if case .reporter(let account) = viewer { account.uuid } else { nil }
        let (status, platform, version) = (filter.status?.rawValue, filter.platform?.rawValue, filter.appVersion)
        let rows = try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT r.id, r.number, r.account_id, r.learner_id, r.text, r.app_version, r.platform, r.device, r.ui_language,
                       r.status, r.note, s.report_id IS NOT NULL, r.created_at, r.updated_at
                FROM support_reports r LEFT JOIN support_screenshots s ON s.report_id = r.id
                WHERE (\(id)::uuid IS NULL OR r.id = \(id)) AND (\(reporter)::uuid IS NULL OR r.account_id = \(reporter))
                  AND (\(status)::text IS NULL OR r.status = \(status)) AND (\(platform)::text IS NULL OR r.platform = \(platform))
                  AND (\(version)::text IS NULL OR r.app_version = \(version)) AND (\(before)::bigint IS NULL OR r.number < \(before))
                ORDER BY r.number DESC LIMIT \(limit)
                """, logger: database.logger
            ).collect()
        }
        return try rows.map { row in
            let (id, number, account, learner, text, appVersion, platform, device, ui, status, note, screenshot, created, updated) =
                try row.decode(
                    (UUID, Int, UUID, UUID?, ByteBuffer, String, String, ByteBuffer, String, String, ByteBuffer?, Bool, Date, Date).self)
            return Report(
                id: id, number: number, account: AccountID(account), learner: learner.map(LearnerID.init),
                text: try cipher.openText(Array(text.readableBytesView), as: .supportText), appVersion: appVersion,
                platform: SupportReport.Platform(rawValue: platform) ?? .web,
                device: try cipher.openText(Array(device.readableBytesView), as: .supportDevice),
                uiLanguage: Language(rawValue: ui) ?? .english, status: SupportReport.Status(rawValue: status) ?? .open,
                note: try note.map { try cipher.openText(Array($0.readableBytesView), as: .supportNote) },
                hasScreenshot: screenshot, createdAt: created, updatedAt: updated)
        }
    }

    /// Support sets a report's status (and its note, when given); nil when
    /// there is no such report.
    public func update(_ id: UUID, status: SupportReport.Status, note: String?, by staff: AccountID) async throws -> Report? {
        let note = try note.map { ByteBuffer(bytes: try cipher.seal($0, as: .supportNote)) }
        let changed = try await database.withConnection { connection in
            try await connection.query(
                """
                UPDATE support_reports SET status = \(status.rawValue), note = coalesce(\(note)::bytea, note), handled_by = \(staff.uuid),
                    updated_at = now()
                WHERE id = \(id) RETURNING id
                """, logger: database.logger
            ).collect().count == 1
        }
        return changed ? try await report(id, for: .support) : nil
    }

    /// Adds (or replaces) the screenshot of the reporter's own report;
    /// false when it has no such report.
    public func attach(_ info: PictureInfo, bytes: [UInt8], to id: UUID, by account: AccountID) async throws -> Bool {
        let sealed = ByteBuffer(bytes: try cipher.seal(bytes, as: .supportScreenshot))
        return try await database.withConnection { connection in
            try await connection.query(
                """
                INSERT INTO support_screenshots (report_id, media_type, width, height, content)
                SELECT id, \(info.mediaType.rawValue), \(info.width), \(info.height), \(sealed)
                FROM support_reports WHERE id = \(id) AND account_id = \(account.uuid)
                ON CONFLICT (report_id) DO UPDATE SET media_type = EXCLUDED.media_type, width = EXCLUDED.width,
                    height = EXCLUDED.height, content = EXCLUDED.content, added_at = now()
                RETURNING report_id
                """, logger: database.logger
            ).collect().count == 1
        }
    }

    /// The report's screenshot, if the viewer may see the report and it has one.
    public func screenshot(of id: UUID, for viewer: Viewer) async throws -> (ImageFormat, [UInt8])? {
        let reporter: UUID? = if case .reporter(let account) = viewer { account.uuid } else { nil }
        let rows = try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT s.media_type, s.content FROM support_screenshots s JOIN support_reports r ON r.id = s.report_id
                WHERE r.id = \(id) AND (\(reporter)::uuid IS NULL OR r.account_id = \(reporter))
                """, logger: database.logger
            ).collect()
        }
        guard let row = rows.first else { return nil }
        let (type, content) = try row.decode((String, ByteBuffer).self)
        return (ImageFormat(rawValue: type) ?? .png, try cipher.open(Array(content.readableBytesView), as: .supportScreenshot))
    }
}

import OpenAPIRuntime
import ParlaAPI
import ParlaCore
import ParlaServices
import ParlaStore

extension APIHandler {
    func fileReport(_ input: Operations.FileReport.Input) async throws -> Operations.FileReport.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let caller = try await caller()
        // The learner named must be one of the caller's own.
        let learner = try await body.learnerId.asyncMap { try await authorized($0, for: .actAs, as: caller).id }
        let report = try await support.file(
            text: body.text, appVersion: body.appVersion, platform: body.platform, device: body.device, learner: learner,
            by: caller.accountID)
        return .created(.init(body: .json(.init(.init(report: report)))))
    }

    func listMyReports(_ input: Operations.ListMyReports.Input) async throws -> Operations.ListMyReports.Output {
        let caller = try await caller()
        let reports = try await support.list(
            for: .reporter(caller.accountID), filter: .init(), before: input.query.before, limit: input.query.limit)
        return .ok(.init(body: .json(.init(reports: reports.map { .init($0) }))))
    }

    func listSupportQueue(_ input: Operations.ListSupportQueue.Input) async throws -> Operations.ListSupportQueue.Output {
        try await staff(.supportReports)
        let filter = SupportStore.Filter(
            status: input.query.status.flatMap { SupportReport.Status(rawValue: $0.rawValue) },
            platform: input.query.platform.flatMap { SupportReport.Platform(rawValue: $0.rawValue) },
            appVersion: input.query.appVersion.flatMap { AppVersion($0)?.description ?? $0 })
        let reports = try await support.list(for: .support, filter: filter, before: input.query.before, limit: input.query.limit)
        return .ok(.init(body: .json(.init(reports: reports.map { .init($0) }))))
    }

    func getReport(_ input: Operations.GetReport.Input) async throws -> Operations.GetReport.Output {
        .ok(.init(body: .json(.init(try await support.report(input.path.reportId, for: try await reportViewer())))))
    }

    func updateReport(_ input: Operations.UpdateReport.Input) async throws -> Operations.UpdateReport.Output {
        guard case .json(let body) = input.body else { throw ParlaError(.unsupportedMediaType) }
        let staff = try await staff(.supportReports)
        let report = try await support.update(input.path.reportId, status: body.status, note: body.note, by: staff.accountID)
        return .ok(.init(body: .json(.init(report))))
    }

    func getReportScreenshot(_ input: Operations.GetReportScreenshot.Input) async throws -> Operations.GetReportScreenshot.Output {
        let (format, bytes) = try await support.screenshot(of: input.path.reportId, for: try await reportViewer())
        return .ok(.init(body: format == .png ? .png(HTTPBody(bytes)) : .jpeg(HTTPBody(bytes))))
    }

    func putReportScreenshot(_ input: Operations.PutReportScreenshot.Input) async throws -> Operations.PutReportScreenshot.Output {
        let caller = try await caller()
        let upload: HTTPBody
        switch input.body {
        case .png(let body), .jpeg(let body): upload = body
        }
        // The body middleware has already bounded the size.
        let bytes = try await [UInt8](collecting: upload, upTo: .max)
        let report = try await support.attach(screenshot: bytes, to: input.path.reportId, by: caller.accountID)
        return .ok(.init(body: .json(.init(report))))
    }

    /// Whose reports the caller may read: support's role reads them all
    /// from a session signed in with its second factor (as every staff
    /// route), anyone else only its own (another's is `report_not_found`).
    private func reportViewer() async throws -> SupportStore.Viewer {
        let caller = try await caller()
        let roles = try await staffRoles.roles(of: caller.accountID)
        guard StaffRole.allows(roles, .supportReports) else { return .reporter(caller.accountID) }
        try await twoFactor.requireForStaff(caller)
        return .support
    }
}

extension Components.Schemas.SupportReport {
    init(_ seen: SupportService.Seen) {
        let report = seen.report
        self.init(
            id: UUIDText.lowercase(report.id), reference: report.reference, status: .init(rawValue: report.status.rawValue)!,
            text: report.text, appVersion: report.appVersion, platform: .init(rawValue: report.platform.rawValue)!,
            device: report.device, learnerId: report.learner?.description, hasScreenshot: report.hasScreenshot,
            createdAt: report.createdAt, updatedAt: report.updatedAt, reporterEmail: seen.reporterEmail,
            note: seen.bySupport ? report.note : nil)
    }
}

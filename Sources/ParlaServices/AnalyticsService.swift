import Foundation
import Logging
import Metrics
import ParlaCore
import ParlaStore
import ServiceLifecycle

/// What apps report learners did, and the reports made of it: a learner's
/// own days and streaks, and what is touched most (for admins).
package struct AnalyticsService: Sendable {
    package let store: AnalyticsStore
    /// Where reports are read: a replica when one is configured.
    package let reports: AnalyticsStore
    package let content: ContentService

    package struct Recorded: Sendable {
        /// Events kept now.
        package var accepted: Int
        /// Events kept already (a batch sent again) or repeated in the batch.
        package var duplicates: Int
        /// Events older than the server keeps, left out.
        package var tooOld: Int
        /// Events left out as this server does not know their kind, word,
        /// phrase or list (an app newer than its content).
        package var ignored: Int
    }

    package func record(_ reports: [Analytics.Report], utcOffsetMinutes: Int?, for learner: AuthorizedLearner, now: Date = Date())
        async throws -> Recorded
    {
        let batch = try Analytics.check(reports, utcOffsetMinutes: utcOffsetMinutes, now: now)
        // Only content that exists is counted: the daily tables stay as
        // small as the content, whatever ids a client makes up.
        let snapshot = try content.snapshot()
        let known = batch.events.filter { isKnown($0, in: snapshot) }
        let accepted = try await store.record(known, of: learner)
        let ignored = batch.unknownKinds + batch.events.count - known.count
        return Recorded(
            accepted: accepted, duplicates: reports.count - batch.tooOld - ignored - accepted, tooOld: batch.tooOld, ignored: ignored)
    }

    private func isKnown(_ event: Analytics.Event, in snapshot: ContentCatalog.Snapshot) -> Bool {
        if let list = event.listID, snapshot.lists[list] == nil { return false }
        guard let itemKind = event.itemKind, let item = event.itemID, let language = event.language else { return true }
        return (try? content.itemText(itemKind, item, in: language)) != nil
    }

    package struct Activity: Sendable {
        package var days: [AnalyticsStore.LearnerDay]
        package var streak: Analytics.Streak
        package var from: Day
        package var to: Day
    }

    /// The learner's days from `from` to `to` (its own days; by default the
    /// 30 ending `today`) and its streaks as of `today`.
    package func activity(of learner: AuthorizedLearner, from: String?, to: String?, today: String?, now: Date = Date()) async throws
        -> Activity
    {
        let (first, last, today) = try Self.period(from: from, to: to, today: today, now: now)
        let (days, learning) = try await store.days(of: learner, from: first, through: last)
        return Activity(days: days, streak: Analytics.streak(learningDays: learning, today: today), from: first, to: last)
    }

    package struct Touched: Sendable {
        package var touched: AnalyticsStore.Touched
        /// The word or phrase in the report's language; its id when it left the content.
        package var text: String
    }

    /// What was touched most in `language` (and `list`, if given), UTC days
    /// `from` to `to` (by default the last 30).
    package func mostTouched(language: Language, list: String?, from: String?, to: String?, limit: Int?, now: Date = Date()) async throws
        -> (items: [Touched], from: Day, to: Day)
    {
        let limit = limit ?? 20
        guard (1...100).contains(limit) else { throw ParlaError.validation([FieldError("limit", .validationFailed)]) }
        if let list, try content.snapshot().lists[list] == nil { throw ParlaError(.wordListNotFound) }
        let (first, last, _) = try Self.period(from: from, to: to, today: nil, now: now)
        let touched = try await reports.mostTouched(language: language, list: list, from: first, through: last, limit: limit)
        return (touched.map { Touched(touched: $0, text: text($0, in: language)) }, first, last)
    }

    private func text(_ touched: AnalyticsStore.Touched, in language: Language) -> String {
        (try? content.itemText(touched.itemKind, touched.itemID, in: language)) ?? touched.itemID
    }

    /// A report's days: `to` (else `today`, else the UTC day of `now`) and
    /// `from` (else 29 days before `to`), at most `Analytics.longestReport`
    /// apart; every malformed one named.
    package static func period(from: String?, to: String?, today: String?, now: Date) throws(ParlaError) -> (Day, Day, today: Day) {
        var errors = FieldErrors()
        func day(_ text: String?, _ field: String) -> Day? {
            guard let text else { return nil }
            guard let day = Day(text) else {
                errors.add(field, .validationFailed)
                return nil
            }
            return day
        }
        let today = day(today, "today") ?? Day(now)
        let last = day(to, "to") ?? today
        let first = day(from, "from") ?? last.adding(-29)
        if first > last || last.ordinal - first.ordinal >= Analytics.longestReport { errors.add("from", .validationFailed) }
        try errors.throwIfAny()
        return (first, last, today)
    }

    package init(store: AnalyticsStore, reports: AnalyticsStore, content: ContentService) {
        self.store = store
        self.reports = reports
        self.content = content
    }
}

/// Rolls analytics events up by day every few seconds, in every server
/// (a run under way elsewhere is skipped: `AnalyticsStore.rollUp`), and
/// forgets raw events past their keeping time once an hour.
package struct AnalyticsRollup: Service {
    package let store: AnalyticsStore
    package let interval: Duration
    package let keptFor: TimeInterval
    package let logger: Logger
    private let counted = Counter(label: "parla_analytics_events_counted_total")

    package let schema: SchemaReady

    package init(store: AnalyticsStore, every seconds: Double, keepDays: Int, schema: SchemaReady, logger: Logger) {
        (self.store, self.schema, self.logger) = (store, schema, logger)
        interval = .milliseconds(Int(seconds * 1000))
        keptFor = Double(keepDays) * 86400
    }

    package func run() async throws {
        // Old events are forgotten at the first round, then about once an hour.
        let roundsPerPrune = max(1, Int(Duration.seconds(3600) / interval))
        // What learners make of the course's lessons moves slowly: recounted
        // about every ten minutes, by the server whose roll-up ran.
        let roundsPerRecount = max(1, Int(Duration.seconds(600) / interval))
        await schema.everyRound(interval, logger: logger, failure: "analytics roll-up failed") { round in
            if let count = try await store.rollUp() {
                counted.increment(by: count)
                if round % roundsPerRecount == 0 { try await store.recountCourseAppeal() }
            }
            if round % roundsPerPrune == 0 { try await store.prune(receivedBefore: Date().addingTimeInterval(-keptFor)) }
        }
    }
}

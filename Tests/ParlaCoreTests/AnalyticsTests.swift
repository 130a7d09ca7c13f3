import Foundation
import ParlaCore
import Testing

@Suite("analytics rules")
struct AnalyticsRuleTests {
    let now = Timestamp.parse("2026-11-27T18:00:00Z")!

    func report(_ kind: String, at time: String = "2026-11-27T17:00:00Z", id: String = UUID().uuidString) -> Analytics.Report {
        Analytics.Report(id: id, kind: kind, occurredAt: time, screen: kind == "screen_viewed" ? "home" : nil)
    }

    @Test("days are civil dates: parsed, printed, counted across months, leap years and offsets")
    func days() {
        #expect(Day("2026-11-27")?.description == "2026-11-27")
        #expect(Day("2024-02-29") != nil && Day("2026-02-29") == nil && Day("2026-13-01") == nil && Day("26-11-27") == nil)
        #expect(Day("1970-01-01")?.ordinal == 0)
        #expect(Day("2026-03-01")!.ordinal - Day("2026-02-28")!.ordinal == 1)
        #expect(Day("2000-03-01")!.ordinal - Day("2000-02-28")!.ordinal == 2)
        #expect(Day(now).description == "2026-11-27")
        // 18:00 UTC is already tomorrow in Tokyo (+9) and still today in Los Angeles (-8).
        #expect(Day(now, utcOffsetMinutes: 9 * 60).description == "2026-11-28")
        #expect(Day(now, utcOffsetMinutes: -8 * 60).description == "2026-11-27")
        #expect(Day(Timestamp.parse("1969-12-31T23:00:00Z")!).description == "1969-12-31")
    }

    @Test("times with or without fractional seconds and offsets are read; others are not")
    func timestamps() {
        #expect(Timestamp.parse("2026-11-27T18:00:00.250Z")!.timeIntervalSince(now) == 0.25)
        #expect(Timestamp.parse("2026-11-27T19:00:00+01:00") == now)
        #expect(Timestamp.parse("yesterday") == nil && Timestamp.parse("2026-11-27") == nil)
    }

    @Test("a batch: every problem named, a future time taken as now, old events and repeats left out")
    func batch() throws {
        let repeated = UUID().uuidString
        let batch = try Analytics.check(
            [
                report("lesson_finished"), report("lesson_started", at: "2027-01-01T00:00:00Z"),
                report("game_finished", at: "2026-09-01T00:00:00Z"), report("screen_viewed", id: repeated),
                report("screen_viewed", id: repeated),
            ], utcOffsetMinutes: 60, now: now)
        #expect(batch.events.count == 3 && batch.tooOld == 1 && batch.unknownKinds == 0)
        // A kind this server does not know (a newer app's) is left out, not refused.
        let newer = try Analytics.check([report("lesson_started"), report("story_read")], utcOffsetMinutes: nil, now: now)
        #expect(newer.events.count == 1 && newer.unknownKinds == 1)
        #expect(batch.events[1].occurredAt == now)
        #expect(batch.events[0].localDay.description == "2026-11-27")
        #expect(throws: ParlaError.validation([FieldError("events", .required)])) {
            try Analytics.check([], utcOffsetMinutes: nil, now: now)
        }
        #expect(throws: ParlaError.validation([FieldError("events", .tooManyEvents)])) {
            try Analytics.check(Array(repeating: report("lesson_started"), count: 101), utcOffsetMinutes: nil, now: now)
        }
        let bad = [
            Analytics.Report(id: "not-a-uuid", kind: "word_eaten", occurredAt: "soon"),
            Analytics.Report(id: nil, kind: "word_opened", occurredAt: "2026-11-27T17:00:00Z", itemKind: "song", durationMs: -1),
            Analytics.Report(id: UUID().uuidString, kind: "screen_viewed", occurredAt: "2026-11-27T17:00:00Z", listID: "a\nb"),
        ]
        do {
            _ = try Analytics.check(bad, utcOffsetMinutes: nil, now: now)
            Issue.record("a bad batch was accepted")
        } catch {
            #expect(
                Set(error.fieldErrors.map(\.description)) == [
                    "events[0].id: validation_failed", "events[0].occurredAt: validation_failed",
                    "events[1].id: required", "events[1].itemKind: invalid_item_kind", "events[1].durationMs: validation_failed",
                    "events[1].language: required", "events[1].itemId: required",
                    "events[2].listId: validation_failed", "events[2].screen: required",
                ])
        }
        #expect(throws: ParlaError.validation([FieldError("utcOffsetMinutes", .validationFailed)])) {
            try Analytics.check([report("lesson_started")], utcOffsetMinutes: 15 * 60, now: now)
        }
    }

    @Test("streaks: days of learning in a row up to today, or yesterday while today has none yet; the longest ever")
    func streaks() {
        let today = Day("2026-11-27")!
        func days(_ offsets: [Int]) -> Set<Day> { Set(offsets.map { today.adding($0) }) }
        #expect(Analytics.streak(learningDays: [], today: today) == .init(current: 0, longest: 0))
        #expect(Analytics.streak(learningDays: days([0, -1, -2]), today: today) == .init(current: 3, longest: 3))
        #expect(Analytics.streak(learningDays: days([-1, -2]), today: today) == .init(current: 2, longest: 2))
        #expect(Analytics.streak(learningDays: days([-2, -3]), today: today) == .init(current: 0, longest: 2))
        #expect(Analytics.streak(learningDays: days([0, -10, -11, -12, -13]), today: today) == .init(current: 1, longest: 4))
    }
}

@Suite("staff roles")
struct StaffRoleTests {
    @Test("support answers bug reports; an admin also reads the analytics")
    func duties() {
        #expect(StaffRole.allows([.support], .supportReports))
        #expect(!StaffRole.allows([.support], .analyticsReport))
        #expect(StaffRole.allows([.admin], .supportReports) && StaffRole.allows([.admin], .analyticsReport))
        #expect(!StaffRole.allows([], .supportReports) && !StaffRole.allows([], .analyticsReport))
    }
}

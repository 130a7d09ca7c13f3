import Foundation

/// What the app reports a learner did (seeds 000 and 002): words opened,
/// pictures touched, audio played, lessons and games, screens viewed. The
/// app sends events in batches, each with its own id so a batch sent twice
/// (a retry after a lost answer) counts once. Events are rolled up by day:
/// what is touched most per language and list, and each learner's own time
/// and streak.
public enum Analytics {
    /// Events one request may carry.
    public static let batchLimit = 100
    /// The oldest event kept: an app offline for longer has lost its
    /// events' days, and an older time is a wrong clock.
    public static let oldestEvent: TimeInterval = 30 * 86400
    /// The longest a single event may say it lasted (a screen left open).
    public static let longestDurationMs = 4 * 3600 * 1000
    /// The longest list, item and screen names kept.
    public static let longestName = 64
    /// Days an activity report may span.
    public static let longestReport = 366

    public enum Kind: String, Sendable, CaseIterable {
        case wordOpened = "word_opened"
        case pictureTouched = "picture_touched"
        case audioPlayed = "audio_played"
        case lessonStarted = "lesson_started"
        case lessonFinished = "lesson_finished"
        case gameFinished = "game_finished"
        case screenViewed = "screen_viewed"

        /// Kinds about one word or phrase: they say what is touched most.
        public var touchesItem: Bool { self == .wordOpened || self == .pictureTouched || self == .audioPlayed }

        /// Kinds that make a day count as a day of learning, for streaks:
        /// every one but a screen seen.
        public var isLearning: Bool { self != .screenViewed }
    }

    /// What a touched item is: a word or a phrase, as a saved one is.
    public typealias ItemKind = SavedList.Kind

    /// An event as the app sends it, before it is checked.
    public struct Report: Sendable {
        public var id: String?
        public var kind: String?
        public var occurredAt: String?
        public var language: String?
        public var listID: String?
        public var itemKind: String?
        public var itemID: String?
        public var screen: String?
        public var durationMs: Int?

        public init(
            id: String?, kind: String?, occurredAt: String?, language: String? = nil, listID: String? = nil, itemKind: String? = nil,
            itemID: String? = nil, screen: String? = nil, durationMs: Int? = nil
        ) {
            (self.id, self.kind, self.occurredAt, self.language, self.listID) = (id, kind, occurredAt, language, listID)
            (self.itemKind, self.itemID, self.screen, self.durationMs) = (itemKind, itemID, screen, durationMs)
        }
    }

    /// An event as it is kept.
    public struct Event: Sendable, Equatable {
        public var id: UUID
        public var kind: Kind
        /// The client's time, within the server's bounds.
        public var occurredAt: Date
        /// The learner's own calendar day when it happened.
        public var localDay: Day
        public var language: Language?
        public var listID: String?
        public var itemKind: ItemKind?
        public var itemID: String?
        public var screen: String?
        public var durationMs: Int?
    }

    /// A checked batch: the events to keep, how many were too old to, and
    /// how many were of kinds this server does not know (an app newer than
    /// it: they are left out, not refused, so the rest of the batch counts).
    public struct Batch: Sendable, Equatable {
        public var events: [Event]
        public var tooOld: Int
        public var unknownKinds: Int
    }

    /// Checks a batch sent at `now` by an app whose clock is `utcOffsetMinutes`
    /// from UTC: every problem at once, named `events[3].occurredAt`. A time
    /// ahead of the server's is taken as now; one older than `oldestEvent`
    /// is left out and counted, and so is an event of an unknown kind.
    public static func check(_ reports: [Report], utcOffsetMinutes: Int?, now: Date) throws(ParlaError) -> Batch {
        var errors = FieldErrors()
        if reports.isEmpty { errors.add("events", .required) }
        if reports.count > batchLimit { errors.add("events", .tooManyEvents) }
        let offset = utcOffsetMinutes ?? 0
        if !(-14 * 60...14 * 60).contains(offset) { errors.add("utcOffsetMinutes", .validationFailed) }
        try errors.throwIfAny()
        var events: [Event] = []
        var tooOld = 0, unknownKinds = 0
        var ids = Set<UUID>()
        for (index, report) in reports.enumerated() {
            let field = "events[\(index)]"
            let id = report.id.flatMap(UUID.init(uuidString:))
            if report.id == nil { errors.add("\(field).id", .required) } else if id == nil { errors.add("\(field).id", .validationFailed) }
            let kind = report.kind.flatMap(Kind.init(rawValue:))
            if report.kind == nil { errors.add("\(field).kind", .required) }
            let time = report.occurredAt.flatMap(Timestamp.parse)
            if report.occurredAt == nil {
                errors.add("\(field).occurredAt", .required)
            } else if time == nil {
                errors.add("\(field).occurredAt", .validationFailed)
            }
            let language = report.language.flatMap(Language.init(rawValue:))
            if report.language != nil, language == nil { errors.add("\(field).language", .invalidLanguage) }
            let itemKind = report.itemKind.flatMap(ItemKind.init(rawValue:))
            if report.itemKind != nil, itemKind == nil { errors.add("\(field).itemKind", .invalidItemKind) }
            for (name, value) in [("listId", report.listID), ("itemId", report.itemID), ("screen", report.screen)] {
                if let value, !isName(value) { errors.add("\(field).\(name)", .validationFailed) }
            }
            if let duration = report.durationMs, !(0...longestDurationMs).contains(duration) {
                errors.add("\(field).durationMs", .validationFailed)
            }
            if let kind {
                if kind.touchesItem {
                    if language == nil, report.language == nil { errors.add("\(field).language", .required) }
                    if report.itemKind == nil { errors.add("\(field).itemKind", .required) }
                    if report.itemID == nil { errors.add("\(field).itemId", .required) }
                }
                if kind == .screenViewed, report.screen == nil { errors.add("\(field).screen", .required) }
            }
            guard let id, let time, report.kind != nil else { continue }
            guard let kind else {
                unknownKinds += 1
                continue
            }
            if !ids.insert(id).inserted { continue }
            if time < now.addingTimeInterval(-oldestEvent) {
                tooOld += 1
                continue
            }
            // A clock ahead of the server's cannot say what has not happened yet.
            let occurredAt = min(time, now)
            events.append(
                Event(
                    id: id, kind: kind, occurredAt: occurredAt, localDay: Day(occurredAt, utcOffsetMinutes: offset), language: language,
                    listID: report.listID, itemKind: itemKind, itemID: report.itemID, screen: report.screen,
                    durationMs: report.durationMs))
        }
        try errors.throwIfAny()
        return Batch(events: events, tooOld: tooOld, unknownKinds: unknownKinds)
    }

    /// A list, item or screen name: printable, not blank, not too long.
    static func isName(_ value: String) -> Bool {
        !value.isEmpty && value.count <= longestName && value.unicodeScalars.allSatisfy { !$0.properties.isWhitespace || $0 == " " }
            && !value.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    // MARK: Streaks

    /// A learner's run of learning days: the current one (ending today, or
    /// yesterday while today is not over) and the longest ever.
    public struct Streak: Sendable, Equatable {
        public var current: Int
        public var longest: Int
        public init(current: Int, longest: Int) { (self.current, self.longest) = (current, longest) }
    }

    /// The streaks of a learner who learned on `days`, seen on `today`.
    public static func streak(learningDays days: Set<Day>, today: Day) -> Streak {
        var longest = 0
        var run = 0
        var previous: Day?
        for day in days.sorted() {
            run = previous.map { day.ordinal - $0.ordinal == 1 } == true ? run + 1 : 1
            longest = max(longest, run)
            previous = day
        }
        var current = 0
        var day = days.contains(today) ? today : today.adding(-1)
        while days.contains(day) {
            current += 1
            day = day.adding(-1)
        }
        return Streak(current: current, longest: longest)
    }
}

/// A calendar day, without a time zone: a learner's own day, or a UTC day.
/// Kept as days since 1970-01-01, so days subtract.
public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let ordinal: Int

    public init(ordinal: Int) { self.ordinal = ordinal }

    /// The day `date` falls on for a clock `utcOffsetMinutes` from UTC.
    public init(_ date: Date, utcOffsetMinutes: Int = 0) {
        let seconds = Int((date.timeIntervalSince1970 + Double(utcOffsetMinutes * 60)).rounded(.down))
        ordinal = Int((Double(seconds) / 86400).rounded(.down))
    }

    /// `2026-11-27`; nil for anything else (or a day that does not exist).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...Self.length(of: month, in: year)).contains(day)
        else { return nil }
        ordinal = Self.ordinal(year: year, month: month, day: day)
    }

    public func adding(_ days: Int) -> Day { Day(ordinal: ordinal + days) }

    /// Midnight UTC of this day.
    public var start: Date { Date(timeIntervalSince1970: Double(ordinal) * 86400) }

    public var description: String {
        let (year, month, day) = civil
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.ordinal < rhs.ordinal }

    // Howard Hinnant's days-from-civil and civil-from-days: exact for the
    // proleptic Gregorian calendar, no calendar object needed.
    static func ordinal(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    var civil: (year: Int, month: Int, day: Int) {
        let z = ordinal + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func length(of month: Int, in year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// RFC 3339 times as apps write them: with or without fractional seconds,
/// `Z` or an offset.
public enum Timestamp {
    public static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 40 else { return nil }
        // Apps mostly send milliseconds: that form first, not a failed parse first.
        let fractional = text.utf8.contains(UInt8(ascii: "."))
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: fractional))
    }
}

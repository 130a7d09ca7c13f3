import Foundation
import ParlaCore
import ParlaDatabase
import ParlaTeaching
import PostgresNIO

/// The events apps report and their daily roll-ups (migration 0032, whose
/// note explains how a roll-up counts each event once).
public struct AnalyticsStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Keeps a checked batch of the learner's events in one statement;
    /// events kept already (a batch sent again) are left as they are.
    /// Returns how many were new.
    public func record(_ events: [Analytics.Event], of learner: AuthorizedLearner) async throws -> Int {
        guard !events.isEmpty else { return 0 }
        // Arrays of optionals do not bind: absent text is '' and an absent
        // duration -1, turned back into NULL here.
        let ids = events.map(\.id), kinds = events.map(\.kind.rawValue), times = events.map(\.occurredAt)
        let days = events.map(\.localDay.ordinal), languages = events.map { $0.language?.code ?? "" }
        let lists = events.map { $0.listID ?? "" }, itemKinds = events.map { $0.itemKind?.rawValue ?? "" }
        let items = events.map { $0.itemID ?? "" }, screens = events.map { $0.screen ?? "" }
        let durations = events.map { $0.durationMs ?? -1 }
        return try await database.withConnection { connection in
            try await connection.query(
                """
                INSERT INTO analytics_events
                    (learner_id, event_id, kind, occurred_at, local_day, language, list_id, item_kind, item_id, screen, duration_ms)
                SELECT \(learner.uuid), e.id, e.kind, e.at, DATE '1970-01-01' + e.day, NULLIF(e.language, ''), NULLIF(e.list, ''),
                       NULLIF(e.item_kind, ''), NULLIF(e.item, ''), NULLIF(e.screen, ''), NULLIF(e.duration, -1)
                FROM unnest(\(ids)::uuid[], \(kinds)::text[], \(times)::timestamptz[], \(days)::integer[], \(languages)::text[],
                            \(lists)::text[], \(itemKinds)::text[], \(items)::text[], \(screens)::text[], \(durations)::integer[])
                     AS e (id, kind, at, day, language, list, item_kind, item, screen, duration)
                ON CONFLICT (learner_id, event_id) DO NOTHING
                RETURNING event_id
                """, logger: database.logger
            ).collect().count
        }
    }

    // MARK: Roll-up

    /// Counts the events written since the last run into the daily tables,
    /// once each, and returns how many it counted; a run under way on
    /// another server makes this one return nil at once.
    public func rollUp() async throws -> Int? {
        try await database.withTransaction { connection in
            let marks = try await connection.query(
                """
                SELECT counted_below::text, pg_snapshot_xmin(pg_current_snapshot())::text
                FROM analytics_rollup FOR UPDATE SKIP LOCKED
                """, logger: database.logger
            ).collect()
            guard let mark = marks.first else { return nil }
            let (from, below) = try mark.decode((String, String).self)
            // The mark only moves forward: a smaller one would count events twice.
            guard let start = UInt64(from), let end = UInt64(below), end > start else { return 0 }
            let counted =
                try await connection.query(
                    """
                    WITH fresh AS MATERIALIZED (
                        SELECT * FROM analytics_events WHERE writer >= \(from)::xid8 AND writer < \(below)::xid8
                    ), items AS (
                        INSERT INTO analytics_daily_items AS d (day, language, list_id, item_kind, item_id, kind, touches)
                        SELECT (occurred_at AT TIME ZONE 'UTC')::date, language, coalesce(list_id, ''), item_kind, item_id, kind, count(*)
                        FROM fresh
                        WHERE kind IN ('word_opened', 'picture_touched', 'audio_played')
                          AND language IS NOT NULL AND item_kind IS NOT NULL AND item_id IS NOT NULL
                        GROUP BY 1, 2, 3, 4, 5, 6
                        ON CONFLICT (day, language, list_id, item_kind, item_id, kind) DO UPDATE SET touches = d.touches + EXCLUDED.touches
                    ), days AS (
                        INSERT INTO analytics_learner_days AS d (learner_id, day, screen_ms, events, lessons, games, learning)
                        SELECT learner_id, local_day,
                               coalesce(sum(duration_ms) FILTER (WHERE kind = 'screen_viewed'), 0),
                               count(*), count(*) FILTER (WHERE kind = 'lesson_finished'), count(*) FILTER (WHERE kind = 'game_finished'),
                               bool_or(kind <> 'screen_viewed')
                        FROM fresh
                        GROUP BY 1, 2
                        ON CONFLICT (learner_id, day) DO UPDATE SET
                            screen_ms = d.screen_ms + EXCLUDED.screen_ms, events = d.events + EXCLUDED.events,
                            lessons = d.lessons + EXCLUDED.lessons, games = d.games + EXCLUDED.games,
                            learning = d.learning OR EXCLUDED.learning
                    )
                    SELECT count(*) FROM fresh
                    """, logger: database.logger
                ).collect().first?.decode(Int.self) ?? 0
            try await connection.query(
                "UPDATE analytics_rollup SET counted_below = \(below)::xid8, ran_at = now()", logger: database.logger)
            return counted
        }
    }

    /// Recounts `course_lesson_appeal` from the lessons (migration 0053's function).
    public func recountCourseAppeal() async throws {
        try await database.withConnection { connection in
            try await connection.query("SELECT recount_course_lesson_appeal()", logger: database.logger)
        }
    }

    /// What learners of `language` at `level` (every level when nil) made of each course lesson, by its id.
    public func courseAppeal(language: Language, level: CEFRLevel?) async throws -> [String: LessonAppeal] {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT course_lesson, started, finished, repeated FROM course_lesson_appeal
                WHERE language = \(language.code) AND level = \(level?.rawValue ?? "")
                """, logger: database.logger
            ).collect().map { try $0.decode((String, Int, Int, Int).self) }
            return Dictionary(rows.map { ($0.0, LessonAppeal(started: $0.1, finished: $0.2, repeated: $0.3)) }) { first, _ in first }
        }
    }

    /// Forgets raw events received before `cutoff` (their roll-ups stay).
    public func prune(receivedBefore cutoff: Date) async throws {
        try await database.withConnection { connection in
            try await connection.query("DELETE FROM analytics_events WHERE received_at < \(cutoff)", logger: database.logger)
        }
    }

    // MARK: Reports

    /// One of a learner's days.
    public struct LearnerDay: Sendable, Equatable {
        public var day: Day
        public var seconds: Int
        public var events: Int
        public var lessons: Int
        public var games: Int
        public var learning: Bool
    }

    /// The learner's days from `first` to `last`, and every day it learned
    /// (for its streaks).
    public func days(of learner: AuthorizedLearner, from first: Day, through last: Day) async throws
        -> (days: [LearnerDay], learningDays: Set<Day>)
    {
        try await database.withConnection { connection in
            let days = try await connection.query(
                """
                SELECT day - DATE '1970-01-01', screen_ms / 1000, events, lessons, games, learning FROM analytics_learner_days
                WHERE learner_id = \(learner.uuid) AND day BETWEEN DATE '1970-01-01' + \(first.ordinal)::integer AND DATE '1970-01-01' + \(last.ordinal)::integer
                ORDER BY day
                """, logger: database.logger
            ).collect().map { row in
                let (day, seconds, events, lessons, games, learning) = try row.decode((Int, Int, Int, Int, Int, Bool).self)
                return LearnerDay(
                    day: Day(ordinal: day), seconds: seconds, events: events, lessons: lessons, games: games, learning: learning)
            }
            let learning = try await connection.query(
                """
                SELECT day - DATE '1970-01-01' FROM analytics_learner_days WHERE learner_id = \(learner.uuid) AND learning
                """, logger: database.logger
            ).collect().map { Day(ordinal: try $0.decode(Int.self)) }
            return (days, Set(learning))
        }
    }

    /// A word or phrase and how often it was touched.
    public struct Touched: Sendable, Equatable {
        public var itemKind: Analytics.ItemKind
        public var itemID: String
        public var touches: Int
        /// Touches by kind of event.
        public var byKind: [Analytics.Kind: Int]
    }

    /// The items of `language` touched most from `first` to `last` (UTC
    /// days), in one list or in all; the most touched first.
    public func mostTouched(language: Language, list: String?, from first: Day, through last: Day, limit: Int) async throws
        -> [Touched]
    {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT item_kind, item_id, sum(touches)::bigint AS total,
                       array_agg(kind ORDER BY kind), array_agg(touches ORDER BY kind)
                FROM (
                    SELECT item_kind, item_id, kind, sum(touches)::bigint AS touches FROM analytics_daily_items
                    WHERE language = \(language.code) AND (\(list ?? "")::text = '' OR list_id = \(list ?? ""))
                      AND day BETWEEN DATE '1970-01-01' + \(first.ordinal)::integer AND DATE '1970-01-01' + \(last.ordinal)::integer
                    GROUP BY 1, 2, 3
                ) t
                GROUP BY 1, 2 ORDER BY total DESC, item_kind, item_id LIMIT \(limit)
                """, logger: database.logger
            ).collect().map { row in
                let (itemKind, id, total, kinds, counts) = try row.decode((String, String, Int, [String], [Int]).self)
                var byKind: [Analytics.Kind: Int] = [:]
                for (kind, count) in zip(kinds, counts) { if let kind = Analytics.Kind(rawValue: kind) { byKind[kind] = count } }
                return Touched(itemKind: Analytics.ItemKind(rawValue: itemKind) ?? .word, itemID: id, touches: total, byKind: byKind)
            }
        }
    }
}

/// The staff roles of accounts (migration 0031).
public struct StaffRoles: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    public func roles(of account: AccountID) async throws -> Set<StaffRole> {
        try await database.withConnection { connection in
            Set(
                try await connection.query("SELECT role FROM account_roles WHERE account_id = \(account.uuid)", logger: database.logger)
                    .collect().compactMap { StaffRole(rawValue: try $0.decode(String.self)) })
        }
    }

    /// Gives the role; false when the account had it already.
    public func grant(_ role: StaffRole, to account: AccountID) async throws -> Bool {
        try await database.withConnection { connection in
            try await connection.query(
                """
                INSERT INTO account_roles (account_id, role) VALUES (\(account.uuid), \(role.rawValue))
                ON CONFLICT DO NOTHING RETURNING role
                """, logger: database.logger
            ).collect().count == 1
        }
    }

    /// Takes the role back; false when the account did not have it.
    public func revoke(_ role: StaffRole, from account: AccountID) async throws -> Bool {
        try await database.withConnection { connection in
            try await connection.query(
                "DELETE FROM account_roles WHERE account_id = \(account.uuid) AND role = \(role.rawValue) RETURNING role",
                logger: database.logger
            ).collect().count == 1
        }
    }
}

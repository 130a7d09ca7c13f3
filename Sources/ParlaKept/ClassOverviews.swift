import Foundation
import HTTPTypes
import ParlaCore
import ParlaStore
import ParlaTeaching

/// The class overviews this server has made, by class: the day's report,
/// and the answers made from it byte for byte (the API's JSON, the
/// dashboard's page in each language), so that a teacher's reload needs no
/// query, no encoding and no rendering.
///
/// Design note: an overview is read from thousands of rows, but changes
/// only when its inputs do. Every table it reads announces a change as
/// "class id" (`Kept`: the class, its members and assignments, and each
/// member's name, answers, abilities, courses, recordings, games and its
/// account's entitlements, which say what of an assignment it may open;
/// written by any server or in SQL, a truncation announcing every class),
/// and the overview is dropped, on this server at the commit of its own
/// change (`ChangeFeed`), so that a teacher sees its own change. Trends and the weeks of progress move with the
/// day (UTC): an overview is kept for the day it was made on. (An
/// entitlement that lapses by its date mid-day changes no row: completions
/// follow it at the next change or the next day.)
public final class ClassOverviews: ChangeSubscriber, Sendable {
    public struct Overview: Sendable {
        public var schoolClass: ClassStore.SchoolClass
        public var report: ClassReport
        /// Days since 1970 (UTC) when it was made.
        public var day: Int
        /// What was made of it, by name (which says what the bytes depend on),
        /// for one version of the content (`answersVersion`).
        public var answers: [String: Answer] = [:]
        public var answersVersion = ""

        public init(schoolClass: ClassStore.SchoolClass, report: ClassReport, day: Int) {
            (self.schoolClass, self.report, self.day) = (schoolClass, report, day)
        }
    }

    /// An answer's header fields and body, in parts between which each
    /// visitor's own CSRF token goes (a single part: none).
    public struct Answer: Sendable {
        public var fields: HTTPFields
        public var parts: [[UInt8]]

        public init(fields: HTTPFields, parts: [[UInt8]]) { (self.fields, self.parts) = (fields, parts) }

        public func body(token: String = "") -> [UInt8] {
            guard parts.count > 1 else { return parts.first ?? [] }
            var body: [UInt8] = []
            body.reserveCapacity(parts.reduce(0) { $0 + $1.count } + (parts.count - 1) * token.utf8.count)
            for (index, part) in parts.enumerated() {
                if index > 0 { body += token.utf8 }
                body += part
            }
            return body
        }
    }

    let cache: MemoryCache<UUID, Overview>
    let feed: ChangeFeed

    /// `limit`: classes kept (a class of 40 takes about 100 kB with its
    /// JSON and a page: most of it the assignment forms' choices).
    public init(feed: ChangeFeed, limit: Int = 1_000) {
        self.feed = feed
        cache = MemoryCache(limit: limit)
        feed.subscribe(self)
    }

    public var changeKind: String { "class" }
    public var hearsOwnWrites: Bool { true }
    public func startedListening() { cache.startedListening() }
    public func stoppedListening() { cache.stoppedListening() }

    /// "class id": its overview's inputs changed; "class *": many classes' did.
    public func received(_ fields: [Substring]) -> Bool { cache.drop(notified: fields) }

    public static func day(_ date: Date) -> Int { Int((date.timeIntervalSince1970 / 86400).rounded(.down)) }

    /// The class's overview made on `today`'s day, while the feed has heard
    /// from the database lately (a change must not be missed behind a
    /// half-open connection).
    public func overview(_ id: ClassID, on today: Date) -> Overview? {
        guard feed.isHearing, let kept = cache.value(id.uuid), kept.day == Self.day(today) else { return nil }
        return kept
    }

    /// Taken before reading an overview or making an answer to keep.
    public var stamp: MemoryCache<UUID, Overview>.Stamp? { cache.stamp }

    public func keep(_ overview: Overview, since stamp: MemoryCache<UUID, Overview>.Stamp?) {
        cache.keep([overview.schoolClass.id.uuid: overview], since: stamp)
    }

    /// Keeps an answer made since `stamp` from the overview of `day` and
    /// the content's `version`, if that overview is still the one kept.
    /// Answers made from another version of the content go.
    public func keep(
        _ answer: Answer, named name: String, for id: ClassID, day: Int, version: String, since stamp: MemoryCache<UUID, Overview>.Stamp?
    ) {
        cache.update(id.uuid, since: stamp) { overview in
            guard overview.day == day else { return }
            if overview.answersVersion != version { (overview.answers, overview.answersVersion) = ([:], version) }
            overview.answers[name] = answer
        }
    }
}

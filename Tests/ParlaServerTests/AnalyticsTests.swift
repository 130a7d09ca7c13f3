import Foundation
import Logging
import ParlaAPI
import ParlaCore
import ParlaOperations
import ParlaServer
import ParlaTestSupport
import Testing

/// Issue 19, item 4 (seeds 000 and 002): analytics events and their reports.
@Suite("analytics")
struct AnalyticsTests {
    typealias Activity = Components.Schemas.Activity
    typealias MostTouched = Components.Schemas.MostTouched
    /// The body of `POST /v1/learners/{id}/events` (an inline schema: no `Components.Schemas` type).
    typealias Kept = Operations.RecordEvents.Output.Ok.Body.JsonPayload

    /// An event as the app sends it (a request body: a dictionary, so that a test can leave fields out).
    static func event(
        _ kind: String, _ extra: [String: any Sendable] = [:], at time: Date = Date(), id: String = UUID().uuidString
    ) -> [String: any Sendable] {
        var event: [String: any Sendable] = ["id": id, "kind": kind, "occurredAt": ISO8601DateFormatter().string(from: time)]
        for (key, value) in extra { event[key] = value }
        return event
    }

    /// Reads `path` until `done` holds of the answer (the roll-up runs
    /// every 0.2 s here), for at most 15 s.
    static func eventually(_ client: Client, _ path: String, token: String, _ done: (Client.Reply) -> Bool) async throws
        -> Client.Reply
    {
        var reply = try await client.get(path, token: token)
        _ = try await ParlaTestSupport.eventually {
            reply = try await client.get(path, token: token)
            return done(reply)
        }
        return reply
    }

    @Test("events in batches, idempotent by id; the learner's days, time and streak; bad batches refused whole")
    func learnerActivity() async throws {
        try await TestApp.make { $0.analytics.rollupSeconds = 0.2 }.run { client in
            let zoe = try await client.signUp()
            let path = "/v1/learners/\(zoe.learnerID)/events"
            let now = Date()
            let opened = Self.event("word_opened", ["language": "fr", "listId": "animals", "itemKind": "word", "itemId": "cat"])
            let batch: [[String: any Sendable]] = [
                opened,
                Self.event("screen_viewed", ["screen": "word_list", "durationMs": 90_000]),
                Self.event("lesson_finished", ["language": "fr", "durationMs": 300_000]),
                Self.event("game_finished", at: now.addingTimeInterval(-86400)),
                Self.event("lesson_finished", at: now.addingTimeInterval(-3 * 86400)),
                Self.event("lesson_finished", at: now.addingTimeInterval(-40 * 86400)),
            ]
            let first = try await client.post(path, token: zoe.token, json: ["events": batch])
            #expect(first.status == 200, "\(first.text)")
            let firstKept = try first.decoded(Kept.self)
            #expect(firstKept.accepted == 5 && firstKept.tooOld == 1, "\(first.text)")
            // A kind, word or list this server does not know is left out, not refused.
            let unknown = try await client.post(
                path, token: zoe.token,
                json: [
                    "events": [
                        Self.event("story_read"), Self.event("word_opened", ["language": "fr", "itemKind": "word", "itemId": "made-up"]),
                        Self.event("game_finished", ["listId": "no-such-list"]),
                    ]
                ])
            #expect(unknown.status == 200)
            let unknownKept = try unknown.decoded(Kept.self)
            #expect(unknownKept.ignored == 3 && unknownKept.accepted == 0)
            // Sent again after a lost answer: nothing counts twice.
            let again = try await client.post(path, token: zoe.token, json: ["events": [opened]]).decoded(Kept.self)
            #expect(again.accepted == 0 && again.duplicates == 1)

            let today = Day(now).description
            let reply = try await Self.eventually(client, "/v1/learners/\(zoe.learnerID)/activity?today=\(today)", token: zoe.token) {
                (try? $0.decoded(Activity.self))?.days.count == 3
            }
            let activity = try reply.decoded(Activity.self)
            let days = activity.days
            #expect(days.map(\.day) == [-3, -1, 0].map { Day(now).adding($0).description }, "\(reply.text)")
            let last = try #require(days.last)
            #expect(last.seconds == 90 && last.events == 3 && last.lessons == 1)
            #expect(days[1].games == 1)
            #expect(activity.streak.current == 2 && activity.streak.longest == 2)
            #expect(activity.totalSeconds == 90)

            // A batch with any bad event is refused whole, every problem named.
            let bad = try await client.post(
                path, token: zoe.token,
                json: ["events": [Self.event("word_opened"), Self.event("word_eaten"), ["kind": "screen_viewed"]]])
            #expect(bad.status == 422)
            #expect(
                bad.fieldErrors.isSuperset(of: [
                    "events[0].language:required", "events[0].itemId:required",
                    "events[2].id:required", "events[2].occurredAt:required", "events[2].screen:required",
                ]), "\(bad.fieldErrors)")
            let tooMany = (0...100).map { _ in Self.event("lesson_started") }
            #expect(try await client.post(path, token: zoe.token, json: ["events": tooMany]).fieldErrors == ["events:too_many_events"])
            let noEvents: [[String: any Sendable]] = []
            #expect(try await client.post(path, token: zoe.token, json: ["events": noEvents]).fieldErrors == ["events:required"])
            let range = try await client.get("/v1/learners/\(zoe.learnerID)/activity?from=2026-02-30", token: zoe.token)
            #expect(range.fieldErrors == ["from:validation_failed"])
            // Another account reaches neither.
            let max = try await client.signUp(email: "max@example.com")
            #expect(try await client.post(path, token: max.token, json: ["events": [opened]]).status == 404)
            #expect(try await client.get("/v1/learners/\(zoe.learnerID)/activity", token: max.token).status == 404)
        }
    }

    @Test("what is touched most, per language and list, for admins only (parla role)")
    func mostTouched() async throws {
        let app = try await TestApp.make { $0.analytics.rollupSeconds = 0.2 }
        let (admin, learner) = try await app.run { client in (try await client.signUp(), try await client.signUp(email: "max@example.com"))
        }
        let granted = try await SupportDesk.with(app.settings, logger: Logger(label: "parla.test.role")) {
            try await $0.role(.admin, for: admin.email, revoke: false)
        }
        #expect(granted.hasPrefix("gave account"))
        try await app.run { client in
            func touch(_ kind: String, _ item: String, list: String = "animals", language: String = "fr") -> [String: any Sendable] {
                Self.event(kind, ["language": language, "listId": list, "itemKind": "word", "itemId": item])
            }
            var events: [[String: any Sendable]] = []
            for _ in 0..<3 { events.append(touch("word_opened", "dog")) }
            events += [touch("picture_touched", "dog"), touch("audio_played", "cat"), touch("word_opened", "cat")]
            events.append(touch("word_opened", "bed", list: "home"))
            events.append(touch("word_opened", "dog", language: "de"))
            let posted = try await client.post("/v1/learners/\(learner.learnerID)/events", token: learner.token, json: ["events": events])
            #expect(try posted.decoded(Kept.self).accepted == 8)

            let path = "/v1/admin/analytics/most-touched?language=fr&list=animals"
            try await client.turnOnTwoFactor(token: admin.token)
            let report = try await Self.eventually(client, path, token: admin.token) {
                (try? $0.decoded(MostTouched.self))?.items.count == 2
            }
            let items = try report.decoded(MostTouched.self).items
            #expect(items.map(\.id) == ["dog", "cat"], "\(report.text)")
            #expect(items.first?.text == "le chien" && items.first?.touches == 4)
            #expect(items.first?.byKind.additionalProperties["word_opened"] == 3)
            let all = try await client.get("/v1/admin/analytics/most-touched?language=fr", token: admin.token).decoded(MostTouched.self)
            #expect(all.items.map(\.id) == ["dog", "cat", "bed"])
            #expect(
                try await client.get("/v1/admin/analytics/most-touched?language=fr&list=nope", token: admin.token).code
                    == "word_list_not_found")
            // A learner is no admin.
            let refused = try await client.get(path, token: learner.token)
            #expect(refused.status == 403 && refused.code == "staff_role_required")
            #expect(try await client.get(path).status == 401)
        }
        let revoked = try await SupportDesk.with(app.settings, logger: Logger(label: "parla.test.role")) {
            try await $0.role(.admin, for: admin.accountID, revoke: true)
        }
        #expect(revoked.hasPrefix("took the admin role back"))
    }
}

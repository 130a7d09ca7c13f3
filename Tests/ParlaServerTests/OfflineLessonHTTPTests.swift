import Foundation
import ParlaAPI
import ParlaContent
import ParlaCore
import ParlaServices
import ParlaTestSupport
import Synchronization
import Testing

/// A pack's lessons taken offline (issue 34): laid out in the pack's
/// bundle with their answers, taken on the device, and sent later as a log
/// that the server replays through the live answer path.
@Suite("the course offline: a pack's lessons taken on the device, their logs replayed")
struct OfflineLessonHTTPTests {
    typealias Bundle = Components.Schemas.CoursePackBundle
    typealias OfflineLesson = Components.Schemas.OfflineCourseLesson
    typealias Lesson = Components.Schemas.Lesson

    /// The tries a learner makes at `lesson` on the device, judged there
    /// with the bundle's answers: at each choice question a wrong option
    /// first when there is one (when `wrongFirst`), then the right one;
    /// each template's items not yet in place, where the key puts them.
    /// One try every `seconds` from the start.
    static func tries(_ lesson: OfflineLesson, wrongFirst: Bool, every seconds: Double = 4) -> [[String: any Sendable]] {
        var tries: [[String: any Sendable]] = []
        func add(_ question: String, _ option: String, target: String? = nil) {
            var entry: [String: any Sendable] = ["questionId": question, "optionId": option, "at": Double(tries.count + 1) * seconds]
            if let target { entry["targetId"] = target }
            entry["responseTimeMs"] = 2500
            tries.append(entry)
        }
        for entry in lesson.questions {
            let question = entry.question, placed = (question.placed ?? []).map(\.optionId)
            if let matches = entry.answer.matches {
                // Each item once, on a target not yet taken (a spelling tile may fit two places).
                var used = Set(placed), taken = Set((question.placed ?? []).compactMap(\.targetId))
                for match in matches where !used.contains(match.optionId) && !taken.contains(match.targetId) {
                    add(question.id, match.optionId, target: match.targetId)
                    used.insert(match.optionId)
                    taken.insert(match.targetId)
                }
            } else if let order = entry.answer.order {
                // Sight words: a tile serves again at its word's next turn; the worked example tapped the first.
                let left = question._type == .sightWords ? Array(order.dropFirst(placed.count)) : order.filter { !placed.contains($0) }
                for item in left { add(question.id, item) }
            } else if let right = entry.answer.optionId {
                if wrongFirst, let wrong = question.options.first(where: { $0.id != right }) { add(question.id, wrong.id) }
                add(question.id, right)
            }
        }
        return tries
    }

    static func log(_ lesson: OfflineLesson, startedAt: Date, tries: [[String: any Sendable]]) -> [String: any Sendable] {
        [
            "courseLesson": lesson.lessonId, "seed": lesson.seed, "startedAt": ISO8601DateFormatter().string(from: startedAt),
            "answers": tries,
        ]
    }

    @Test("a pack downloaded, two lessons taken offline (one whole, one left halfway), sent back once and again, refused when impossible")
    func takenOffline() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            _ = try await client.startCourse("fr", for: learner)
            let learnerPath = "/v1/learners/\(learner.learnerID)"
            let bundle = try await client.get(learnerPath + "/packs/fr-discover-home/bundle", token: learner.token).decoded(Bundle.self)
            let detail = try await client.get(learnerPath + "/packs/fr-discover-home", token: learner.token)
                .decoded(Components.Schemas.CoursePackDetail.self)
            #expect(bundle.lessons.map(\.lessonId) == detail.value2.lessonList.map(\.id))
            for lesson in bundle.lessons {
                #expect(!lesson.questions.isEmpty && !lesson.title.isEmpty && !lesson.praises.isEmpty, "\(lesson.lessonId)")
                #expect(lesson.closing?.text.isEmpty == false, "\(lesson.lessonId)")
                // No one offline scores a recording; every question says what is right, on its screen.
                #expect(lesson.questions.allSatisfy { $0.question._type != .repetition }, "\(lesson.lessonId)")
                #expect(
                    lesson.questions.allSatisfy { $0.answer.optionId != nil || $0.answer.order != nil || $0.answer.matches != nil },
                    "\(lesson.lessonId)")
                let screens = lesson.questions.map(\.place.screen)
                #expect(screens == screens.sorted() && lesson.questions.allSatisfy { $0.place.lessonId == lesson.lessonId })
                #expect(lesson.questions.allSatisfy { $0.place.instruction?.isEmpty == false }, "\(lesson.lessonId)")
                // A listening question's audio is the asset itself, which the download holds.
                #expect(lesson.questions.allSatisfy { $0.question.audio?.hasPrefix("/v1/assets/") ?? true }, "\(lesson.lessonId)")
            }
            // Asked again, the same layout.
            let again = try await client.get(learnerPath + "/packs/fr-discover-home/bundle", token: learner.token).decoded(Bundle.self)
            #expect(again.lessons.map(\.seed) == bundle.lessons.map(\.seed))
            #expect(
                again.lessons.map { $0.questions.map(\.question.options) } == bundle.lessons.map { $0.questions.map(\.question.options) })

            // A lesson open online stays open while logs come in.
            let live = try await client.post(
                learnerPath + "/lessons", token: learner.token,
                json: ["language": "fr", "mode": "course", "courseLesson": "fr-discover-home-03"]
            ).decoded(Lesson.self)

            // The first lesson, whole, a wrong try first at each choice question.
            let first = bundle.lessons[0]
            let startedAt = Date().addingTimeInterval(-3600)
            let tries = Self.tries(first, wrongFirst: true)
            let choices = first.questions.filter { $0.answer.optionId != nil && $0.question.options.count > 1 }.count
            let runID = UUID().uuidString.lowercased()
            let sent = try await client.put(
                learnerPath + "/lessons/\(runID)/log", token: learner.token, json: Self.log(first, startedAt: startedAt, tries: tries))
            #expect(sent.status == 201, "\(sent.text)")
            let replayed = try sent.decoded(Lesson.self)
            #expect(replayed.id == runID && replayed.status == .finished && replayed.course?.lessonId == first.lessonId)
            #expect(replayed.summary?.questions == first.questions.count)
            #expect(replayed.summary?.firstTryCorrect == first.questions.count - choices)
            #expect(abs((replayed.startedAt.timeIntervalSince(startedAt))) < 1)
            #expect(abs(try #require(replayed.finishedAt).timeIntervalSince(startedAt) - Double(tries.count) * 4) < 1)

            // Sent again (the answer was lost on the way back): the same lesson, counted once.
            let resent = try await client.put(
                learnerPath + "/lessons/\(runID)/log", token: learner.token, json: Self.log(first, startedAt: startedAt, tries: tries))
            #expect(resent.status == 200, "\(resent.text)")
            #expect(try resent.decoded(Lesson.self).id == runID)
            let history = try await client.get(learnerPath + "/lessons/history?language=fr", token: learner.token)
                .decoded(Operations.ListLessonHistory.Output.Ok.Body.JsonPayload.self)
            let records = history.lessons.filter { $0.id == runID }
            // A row per first try taught (a template's, one per item placed but its last), each choice's wrong.
            let record = try #require(records.first)
            #expect(records.count == 1 && record.answers >= choices && record.right == record.answers - choices, "\(record)")

            // Memory was fed at the times the tries were given, an hour ago, not now.
            let fed = try await TestDatabase.shared.rows(
                in: app.databaseURL,
                """
                SELECT (SELECT count(*)::int FROM memory_cards WHERE learner_id = \(UUID(uuidString: learner.learnerID)!)
                          AND last_review < now() - interval '30 minutes'),
                       (SELECT count(*)::int FROM lesson_answers WHERE lesson_id = \(UUID(uuidString: runID)!)
                          AND answered_at < now() - interval '30 minutes')
                """)
            let (cards, answered) = try #require(fed.first).decode((Int, Int).self)
            #expect(cards >= 1 && answered == record.answers, "\(cards) cards, \(answered) answers")

            // The second lesson, left after two tries: kept as abandoned, its answers taught.
            let second = bundle.lessons[1]
            let half = Array(Self.tries(second, wrongFirst: false).prefix(2))
            let halfID = UUID().uuidString.lowercased()
            let halfway = try await client.put(
                learnerPath + "/lessons/\(halfID)/log", token: learner.token, json: Self.log(second, startedAt: startedAt, tries: half))
            #expect(halfway.status == 201, "\(halfway.text)")
            #expect(try halfway.decoded(Lesson.self).status == .inProgress)

            // The pack's progress counts both, as lessons taken online.
            let pack = try await client.get(learnerPath + "/packs/fr-discover-home", token: learner.token)
                .decoded(Components.Schemas.CoursePackDetail.self)
            #expect(pack.value1.completed == 1)
            #expect(pack.value2.lessonList.prefix(3).map(\.status.rawValue) == ["completed", "started", "started"])
            let open = try await client.get(learnerPath + "/lessons/\(live.id)", token: learner.token)
            #expect(open.status == 200, "\(open.text)")

            // Impossible logs are refused whole, naming the try at fault.
            func refused(_ json: [String: any Sendable], id: String = UUID().uuidString.lowercased()) async throws -> Client.Reply {
                try await client.put(learnerPath + "/lessons/\(id)/log", token: learner.token, json: json)
            }
            var wrongQuestion = Self.tries(first, wrongFirst: false)
            wrongQuestion[1]["questionId"] = "q42"
            let outOfPlace = try await refused(Self.log(first, startedAt: startedAt, tries: wrongQuestion))
            #expect(outOfPlace.status == 422 && outOfPlace.text.contains("lesson_log_rejected"), "\(outOfPlace.text)")
            #expect(outOfPlace.text.contains("answers[1]") && outOfPlace.text.contains("not_current_question"), "\(outOfPlace.text)")
            var noOption = Self.tries(first, wrongFirst: false)
            noOption[0]["optionId"] = "zz"
            let unknownOption = try await refused(Self.log(first, startedAt: startedAt, tries: noOption))
            #expect(unknownOption.status == 422 && unknownOption.text.contains("answers[0]"), "\(unknownOption.text)")
            var backwards = Self.tries(first, wrongFirst: false)
            backwards[2]["at"] = 1.0
            let outOfOrder = try await refused(Self.log(first, startedAt: startedAt, tries: backwards))
            #expect(outOfOrder.status == 422 && outOfOrder.text.contains("answers[2].at"), "\(outOfOrder.text)")
            let tomorrow = try await refused(Self.log(first, startedAt: Date().addingTimeInterval(86_400), tries: []))
            #expect(tomorrow.status == 422 && tomorrow.text.contains("startedAt"), "\(tomorrow.text)")
            let longAgo = try await refused(Self.log(first, startedAt: Date().addingTimeInterval(-40 * 86_400), tries: []))
            #expect(longAgo.status == 422 && longAgo.text.contains("startedAt"), "\(longAgo.text)")
            var unknownLesson = Self.log(first, startedAt: startedAt, tries: [])
            unknownLesson["courseLesson"] = "fr-discover-home-99"
            let notFound = try await refused(unknownLesson)
            #expect(notFound.status == 404 && notFound.text.contains("course_lesson_not_found"), "\(notFound.text)")
            var locked = Self.log(first, startedAt: startedAt, tries: [])
            locked["courseLesson"] = "fr-discover-food-01"
            let lockedPack = try await refused(locked)
            #expect(lockedPack.status == 403 && lockedPack.text.contains("pack_locked"), "\(lockedPack.text)")
            let lockedBundle = try await client.get(learnerPath + "/packs/fr-discover-food/bundle", token: learner.token)
            #expect(lockedBundle.status == 403, "\(lockedBundle.text)")
            // Nothing refused was kept.
            let after = try await client.get(learnerPath + "/lessons/history?language=fr", token: learner.token)
                .decoded(Operations.ListLessonHistory.Output.Ok.Body.JsonPayload.self)
            #expect(after.lessons.count == history.lessons.count + 1)

            // Another learner's run id is not theirs to send under.
            let other = try await client.signUp(email: "other@example.com")
            _ = try await client.startCourse("fr", for: other)
            let stolen = try await client.put(
                "/v1/learners/\(other.learnerID)/lessons/\(runID)/log", token: other.token,
                json: Self.log(first, startedAt: startedAt, tries: tries))
            #expect(stolen.status == 404 && stolen.text.contains("lesson_not_found"), "\(stolen.text)")
        }
    }
}

/// A pack's download size kept once all of it is made (`PackDownloadSizes`).
@Suite("pack download sizes")
struct PackDownloadSizesTests {
    @Test("summed while assets are missing, kept once all are made, summed again for another content version")
    func keptOnceComplete() async throws {
        let corpus = try ContentImporter(directory: TestApp.corporaDirectory, openMojiDirectory: TestApp.openMojiDirectory).read().corpus
        let packs = Array(corpus.packs.filter { $0.language == .french }.prefix(2))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pack-sizes-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let names = [packs[0].id: ["a", "b"], packs[1].id: ["c"]].mapValues { $0.map { String(repeating: $0, count: 32) + ".svg" } }
        func make(_ name: String, _ bytes: Int) throws {
            try Data(repeating: 0x20, count: bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
        }
        let files = AssetStore(directory: directory), sizes = PackDownloadSizes()
        let walked = Mutex(0)
        func bytes(_ stamp: String) async throws -> [String: Int] {
            try await sizes.bytes(
                of: packs, native: .english, stamp: stamp,
                assets: { pack in
                    walked.withLock { $0 += 1 }
                    return names[pack.id] ?? []
                }, files: files)
        }
        try make(names[packs[0].id]![0], 10)
        #expect(try await bytes("v1") == [packs[0].id: 10, packs[1].id: 0])
        try make(names[packs[0].id]![1], 5)
        try make(names[packs[1].id]![0], 7)
        #expect(try await bytes("v1") == [packs[0].id: 15, packs[1].id: 7])
        let before = walked.withLock { $0 }
        #expect(try await bytes("v1") == [packs[0].id: 15, packs[1].id: 7])
        #expect(walked.withLock { $0 } == before, "kept: no pack walked again")
        _ = try await bytes("v2")
        #expect(walked.withLock { $0 } == before + 2, "another version: each pack walked again")
    }
}

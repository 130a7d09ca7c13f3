import Foundation
import ParlaAPI
import ParlaCore
import ParlaTestSupport
import Testing

/// Teachers, classes and join codes, and what a teacher may read of its
/// learners through the one access rule.
@Suite("teachers and classes")
struct ClassTests {
    typealias SchoolClass = Components.Schemas.SchoolClass
    struct SpeechAttempts: Decodable { var attempts: [Components.Schemas.SpeechAttempt] }
    struct GameRecords: Decodable { var games: [Components.Schemas.GameRecord] }
    struct SchoolClasses: Decodable { var classes: [SchoolClass] }
    struct LearnerClasses: Decodable { var classes: [Components.Schemas.LearnerClass] }
    static let clip = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav"

    @Test("a learner joins with the code and its account's password; its teacher reads its progress, never writes; others see nothing")
    func teacherReads() async throws {
        try await TestApp.make().run { client in
            let (teacher, classID, code) = try await client.teacherWithClass()
            #expect(code.wholeMatch(of: /[ACDEFGHJKMNPQRTUVWXY34679]{4}-[ACDEFGHJKMNPQRTUVWXY34679]{4}/) != nil)
            let parent = try await client.signUp(email: "parent@example.com")
            let child = try await client.post(
                "/v1/learners", token: parent.token, json: ["displayName": "Léo", "age": 9, "keepRecordings": true]
            ).decoded(Components.Schemas.Learner.self).id
            // Before joining, the teacher cannot see the child at all.
            #expect(try await client.get("/v1/learners/\(child)/speech/attempts", token: teacher.token).code == "learner_not_found")

            let noConsent = try await client.post(
                "/v1/learners/\(child)/classes", token: parent.token, json: ["joinCode": code, "password": "wrong one"])
            #expect(noConsent.code == "wrong_current_password")
            let typed = code.lowercased().replacingOccurrences(of: "-", with: " ")
            let joined = try await client.post(
                "/v1/learners/\(child)/classes", token: parent.token,
                json: ["joinCode": typed, "password": parent.password, "shareRecordings": true])
            #expect(joined.status == 201, "\(joined.text)")
            #expect(try joined.decoded(Components.Schemas.LearnerClass.self).teacher.displayName == "Mme Dupont")
            // The code is not handed to the learner: read as JSON, since a typed decode cannot show a key left out.
            #expect(joined.json["joinCode"] == nil)
            let again = try await client.post(
                "/v1/learners/\(child)/classes", token: parent.token, json: ["joinCode": code, "password": parent.password])
            #expect(again.code == "already_in_class")

            // The child records a phrase; its teacher reads the attempt and hears it (shared).
            let attempt = try await client.send(
                .post, "/v1/learners/\(child)/speech/attempts?language=en&text=He%20was%20not%20an%20ill-disposed%20young%20man.",
                token: parent.token, body: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.clip))),
                headers: ["Content-Type": "audio/wav"])
            #expect(attempt.status == 201, "\(attempt.text)")
            let attemptID = try attempt.decoded(Components.Schemas.SpeechAttempt.self).id
            let seen = try await client.get("/v1/learners/\(child)/speech/attempts", token: teacher.token).decoded(SpeechAttempts.self)
            #expect(seen.attempts.count == 1)
            #expect(try await client.get("/v1/learners/\(child)/speech/attempts/\(attemptID)/audio", token: teacher.token).status == 200)
            let childProfile = try await client.get("/v1/learners/\(child)", token: teacher.token).decoded(Components.Schemas.Learner.self)
            #expect(childProfile.displayName == "Léo")
            #expect(try await client.get("/v1/learners/\(child)/courses", token: teacher.token).status == 200)

            // The child plays a game; its teacher reads the result.
            let played = try await GameTests.playPerfectly(client, learner: child, token: parent.token)
            #expect(played.status == 200, "\(played.text)")
            let games = try await client.get("/v1/learners/\(child)/games", token: teacher.token)
            #expect(try games.decoded(GameRecords.self).games.first?.result.score == 295, "\(games.text)")

            let detail = try await client.get("/v1/classes/\(classID)", token: teacher.token).decoded(Components.Schemas.ClassDetail.self)
            #expect(detail.members.map(\.displayName) == ["Léo"])
            #expect(detail._class.members == 1)

            // Never a write, never the learner's friends, never the account.
            #expect(
                try await client.patch("/v1/learners/\(child)", token: teacher.token, json: ["displayName": "X"]).code
                    == "learner_not_found")
            #expect(
                try await client.post("/v1/learners/\(child)/games", token: teacher.token, json: ["language": "fr", "kind": "matching"])
                    .code
                    == "learner_not_found")
            #expect(try await client.get("/v1/learners/\(child)/friends", token: teacher.token).code == "learner_not_found")
            #expect(try await client.get("/v1/learners/\(child)/classes", token: teacher.token).code == "learner_not_found")

            // Another teacher sees nothing of it.
            let (other, otherClass, _) = try await client.teacherWithClass(email: "other@example.com")
            #expect(try await client.get("/v1/learners/\(child)/speech/attempts", token: other.token).code == "learner_not_found")
            #expect(try await client.get("/v1/learners/\(child)/games", token: other.token).code == "learner_not_found")
            #expect(try await client.get("/v1/classes/\(classID)", token: other.token).code == "class_not_found")
            // Someone else's class is not there for it, whatever it asks of it.
            #expect(try await client.delete("/v1/classes/\(classID)/members/\(child)", token: other.token).code == "class_not_found")
            #expect(try await client.delete("/v1/classes/\(otherClass)/members/\(child)", token: other.token).code == "learner_not_found")

            // The learner sees its class and leaves; the teacher reads nothing any more.
            let mine = try await client.get("/v1/learners/\(child)/classes", token: parent.token).decoded(LearnerClasses.self)
            #expect(mine.classes.first?.name == "4e B")
            #expect(try await client.delete("/v1/learners/\(child)/classes/\(classID)", token: parent.token).status == 204)
            #expect(try await client.get("/v1/learners/\(child)/speech/attempts", token: teacher.token).code == "learner_not_found")
        }
    }

    @Test("recordings not shared stay with the family; a removed learner is out of reach")
    func recordingsAndRemoval() async throws {
        try await TestApp.make().run { client in
            let (teacher, classID, code) = try await client.teacherWithClass()
            let parent = try await client.signUp(email: "parent@example.com")
            _ = try await client.patch("/v1/learners/\(parent.learnerID)", token: parent.token, json: ["keepRecordings": true])
            #expect(
                try await client.post(
                    "/v1/learners/\(parent.learnerID)/classes", token: parent.token, json: ["joinCode": code, "password": parent.password]
                ).status == 201)
            let attempt = try await client.send(
                .post,
                "/v1/learners/\(parent.learnerID)/speech/attempts?language=en&text=He%20was%20not%20an%20ill-disposed%20young%20man.",
                token: parent.token, body: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.clip))),
                headers: ["Content-Type": "audio/wav"])
            let attemptID = try attempt.decoded(Components.Schemas.SpeechAttempt.self).id
            #expect(
                try await client.get("/v1/learners/\(parent.learnerID)/speech/attempts/\(attemptID)/audio", token: parent.token).status
                    == 200)
            #expect(
                try await client.get("/v1/learners/\(parent.learnerID)/speech/attempts/\(attemptID)/audio", token: teacher.token).code
                    == "recording_not_kept")
            #expect(try await client.delete("/v1/classes/\(classID)/members/\(parent.learnerID)", token: teacher.token).status == 204)
            #expect(
                try await client.get("/v1/learners/\(parent.learnerID)/speech/attempts", token: teacher.token).code == "learner_not_found")
        }
    }

    @Test("join codes rotate and close; limits per teacher and per class; only a teacher makes classes")
    func codesAndLimits() async throws {
        try await TestApp.make {
            $0.teaching.classesPerTeacher = 2
            $0.teaching.membersPerClass = 1
        }.run { client in
            let stranger = try await client.signUp(email: "stranger@example.com")
            #expect(
                try await client.post("/v1/classes", token: stranger.token, json: ["name": "X", "language": "fr", "level": "A1"]).code
                    == "teacher_required")
            #expect(try await client.get("/v1/me/teacher", token: stranger.token).status == 403)

            let (teacher, classID, code) = try await client.teacherWithClass()
            let rotated = try await client.post("/v1/classes/\(classID)/join-code", token: teacher.token, json: [:])
            let fresh = try #require(try rotated.decoded(SchoolClass.self).joinCode)
            #expect(fresh != code)
            let first = try await client.signUp(email: "first@example.com")
            #expect(
                try await client.post(
                    "/v1/learners/\(first.learnerID)/classes", token: first.token, json: ["joinCode": code, "password": first.password]
                ).code == "join_code_not_found")
            #expect(
                try await client.post(
                    "/v1/learners/\(first.learnerID)/classes", token: first.token, json: ["joinCode": fresh, "password": first.password]
                ).status == 201)
            let second = try await client.signUp(email: "second@example.com")
            #expect(
                try await client.post(
                    "/v1/learners/\(second.learnerID)/classes", token: second.token, json: ["joinCode": fresh, "password": second.password]
                ).code == "class_full")
            let closed = try await client.delete("/v1/classes/\(classID)/join-code", token: teacher.token)
            #expect(closed.status == 200, "\(closed.text)")
            let closedClass = try closed.decoded(SchoolClass.self)
            #expect(closedClass.joinCode == nil)
            #expect(closedClass.members == 1)

            #expect(
                try await client.post("/v1/classes", token: teacher.token, json: ["name": "5e A", "language": "de", "level": "B1"]).status
                    == 201)
            #expect(
                try await client.post("/v1/classes", token: teacher.token, json: ["name": "6e", "language": "de", "level": "B1"]).code
                    == "class_limit_reached")
            let bad = try await client.post("/v1/classes", token: teacher.token, json: ["name": "", "language": "pt", "level": "Z9"])
            #expect(bad.fieldErrors == ["name:invalid_class_name", "language:invalid_language", "level:invalid_level"])
            #expect(try await client.get("/v1/classes", token: teacher.token).decoded(SchoolClasses.self).classes.count == 2)
            let renamed = try await client.patch("/v1/classes/\(classID)", token: teacher.token, json: ["name": "4e B (bis)"])
            #expect(try renamed.decoded(SchoolClass.self).name == "4e B (bis)")
            #expect(try await client.delete("/v1/classes/\(classID)", token: teacher.token).status == 204)
            let left = try await client.get("/v1/learners/\(first.learnerID)/classes", token: first.token)
            #expect((try? left.decoded(LearnerClasses.self)) != nil, "\(left.text)")
        }
    }
}

@Suite("assignments")
struct AssignmentTests {
    typealias ClassOverview = Components.Schemas.ClassOverview
    struct LearnerAssignments: Decodable { var assignments: [Components.Schemas.LearnerAssignment] }
    struct AssignmentDetail: Decodable { var learners: [Components.Schemas.AssignmentProgress] }
    struct LessonHistory: Decodable { var lessons: [Components.Schemas.LessonRecord] }

    @Test(
        "a teacher assigns the home list; the learner sees it, a lesson on it asks its words first; completion and accuracy show on the class"
    )
    func assignAndProgress() async throws {
        try await TestApp.make().run { client in
            let (teacher, classID, code) = try await client.teacherWithClass()
            let learner = try await client.signUp(email: "learner@example.com")
            #expect(
                try await client.post(
                    "/v1/learners/\(learner.learnerID)/classes", token: learner.token,
                    json: ["joinCode": code, "password": learner.password]
                ).status == 201)
            let due = ISO8601DateFormatter().string(from: Date().addingTimeInterval(7 * 86400))
            let created = try await client.post(
                "/v1/classes/\(classID)/assignments", token: teacher.token, json: ["kind": "wordList", "targets": ["home"], "dueAt": due])
            #expect(created.status == 201, "\(created.text)")
            let assignment = try created.decoded(Components.Schemas.Assignment.self)
            #expect(assignment.itemCount == 35)
            let assignmentID = assignment.id

            let mine = try await client.get("/v1/learners/\(learner.learnerID)/assignments", token: learner.token)
            let first = try #require(try mine.decoded(LearnerAssignments.self).assignments.first)
            #expect(first.className == "4e B")
            #expect(first.progress.completion == 0)

            // A lesson on the assignment: its words first; three answered right.
            var lesson = try await client.post(
                "/v1/learners/\(learner.learnerID)/lessons", token: learner.token,
                json: ["language": "fr", "length": 5, "types": ["translationFromTarget"], "assignmentId": assignmentID]
            ).decoded(Components.Schemas.Lesson.self)
            let lessonID = lesson.id
            let home = Set(try #require(TeacherModeTests.corpus.wordLists.first { $0.id == "home" }).words.map(\.key))
            for _ in 0..<3 {
                let question = try #require(lesson.question)
                // Every question is about a word of the assignment.
                let french = question.prompt ?? ""
                #expect(
                    TeacherModeTests.corpus.concepts.contains { home.contains($0.key) && $0.localization(.french)?.word == french },
                    "\(french)")
                let option = try TeacherModeTests.rightOption(question)
                let reply = try await client.post(
                    "/v1/learners/\(learner.learnerID)/lessons/\(lessonID)/answers", token: learner.token,
                    json: ["questionId": question.id, "optionId": option, "responseTimeMs": 2000])
                let result = try reply.decoded(Components.Schemas.LessonAnswerResult.self)
                #expect(result.correct, "\(reply.text)")
                lesson = result.lesson
            }

            let progress = try await client.get("/v1/classes/\(classID)/assignments/\(assignmentID)", token: teacher.token)
            let row = try #require(try progress.decoded(AssignmentDetail.self).learners.first)
            #expect(row.answers == 3)
            #expect(abs((row.completion ?? 0) - 3.0 / 35) < 1e-9)
            #expect(row.accuracy == 1)

            // The teacher reads the learner's lessons: answers, accuracy, time, per skill.
            let history = try await client.get("/v1/learners/\(learner.learnerID)/lessons/history", token: teacher.token)
            let record = try #require(try history.decoded(LessonHistory.self).lessons.first, "\(history.text)")
            #expect(record.answers == 3 && record.right == 3 && record.accuracy == 1)
            #expect(record.status == .open && record.seconds > 0)
            #expect(record.skills.first?.skill == "vocabulary")

            // The class overview and its CSV.
            let overview = try await client.get("/v1/classes/\(classID)/overview", token: teacher.token)
            #expect(overview.status == 200, "\(overview.text)")
            let glance = try overview.decoded(ClassOverview.self)
            let summary = try #require(glance.learners.first)
            #expect(summary.lastActiveAt != nil)
            #expect(abs((summary.assignmentCompletion ?? 0) - 3.0 / 35) < 1e-9)
            #expect(summary.weakestSkill == .vocabulary)
            let levels = glance.levels
            #expect(levels.count == 6)
            #expect(levels.map(\.learners).reduce(0, +) == (summary.level == nil ? 0 : 1))
            let perAssignment = try #require(glance.assignments.first)
            #expect(perAssignment.assignmentId == assignmentID)
            #expect(abs(perAssignment.completion - 3.0 / 35) < 1e-9)
            let weekly = glance.progress
            #expect(weekly.last?.learners == (summary.level == nil ? nil : 1), "\(weekly)")
            let export = try await client.get("/v1/classes/\(classID)/export.csv", token: teacher.token)
            #expect(export.header("Content-Type")?.hasPrefix("text/csv") == true)
            let lines = export.text.split(separator: "\r\n")
            #expect(lines.count == 2 && lines[0].hasPrefix("learner_id,name,last_active,level"))
            #expect(lines[1].hasPrefix(learner.learnerID + ",Zoë,"))

            // Bad assignments, every problem at once; another teacher sees nothing; withdrawn.
            let bad = try await client.post(
                "/v1/classes/\(classID)/assignments", token: teacher.token,
                json: ["kind": "grammarNote", "targets": ["de-cases"], "dueAt": "2020-01-01T00:00:00Z"])
            #expect(bad.fieldErrors == ["dueAt:validation_failed", "targets:grammar_note_not_found"])
            let (other, _, _) = try await client.teacherWithClass(email: "other@example.com")
            #expect(
                try await client.get("/v1/classes/\(classID)/assignments/\(assignmentID)", token: other.token).code
                    == "class_not_found")
            #expect(try await client.get("/v1/classes/\(classID)/assignments", token: other.token).code == "class_not_found")
            #expect(try await client.get("/v1/classes/\(classID)/overview", token: other.token).code == "class_not_found")
            #expect(
                try await client.get("/v1/learners/\(learner.learnerID)/lessons/history", token: other.token).code == "learner_not_found")
            #expect(try await client.get("/v1/classes/\(classID)/export.csv", token: other.token).status == 404)
            #expect(try await client.delete("/v1/classes/\(classID)/assignments/\(assignmentID)", token: teacher.token).status == 204)
            let withdrawn = try await client.get("/v1/learners/\(learner.learnerID)/assignments", token: learner.token)
            #expect(try withdrawn.decoded(LearnerAssignments.self).assignments.isEmpty)
        }
    }

    @Test(
        "the overview kept in memory follows every change to what it is read from: the teacher's own at once, a learner's, another server's and SQL's soon after"
    )
    func overviewFollowsChanges() async throws {
        let app = try await TestApp.make()
        let elsewhere = TestApp(databaseURL: app.databaseURL)
        try await app.run { client in
            try await elsewhere.run { other in
                let (teacher, classID, code) = try await client.teacherWithClass()
                let learner = try await client.signUp(email: "learner@example.com")
                _ = try await client.post(
                    "/v1/learners/\(learner.learnerID)/classes", token: learner.token,
                    json: ["joinCode": code, "password": learner.password])
                func overview() async throws -> ClassOverview {
                    try await client.get("/v1/classes/\(classID)/overview", token: teacher.token).decoded(ClassOverview.self)
                }
                func only(_ overview: ClassOverview) -> ClassOverview.LearnersPayloadPayload? { overview.learners.first }
                #expect(try await eventually { only(try await overview()) != nil })
                #expect(only(try await overview())?.lastActiveAt == nil)
                #expect(try await overview().assignments.isEmpty)

                // A question missed at the first try, answered on another
                // server: the learner is active, and what it missed shows.
                let lesson = try await other.post(
                    "/v1/learners/\(learner.learnerID)/lessons", token: learner.token,
                    json: ["language": "fr", "length": 3, "types": ["translationFromTarget"]]
                ).decoded(Components.Schemas.Lesson.self)
                let question = try #require(lesson.question)
                let wrong = try #require(question.options.first { $0.id != (try? TeacherModeTests.rightOption(question)) })
                _ = try await other.post(
                    "/v1/learners/\(learner.learnerID)/lessons/\(lesson.id)/answers", token: learner.token,
                    json: ["questionId": question.id, "optionId": wrong.id, "responseTimeMs": 1500])
                _ = try await other.post(
                    "/v1/learners/\(learner.learnerID)/lessons/\(lesson.id)/answers", token: learner.token,
                    json: ["questionId": question.id, "optionId": try TeacherModeTests.rightOption(question), "responseTimeMs": 1500])
                #expect(try await eventually { only(try await overview())?.lastActiveAt != nil })
                #expect(try await overview().mostMissed.count == 1)

                // The teacher's own changes show at once: an assignment, the class renamed.
                let due = ISO8601DateFormatter().string(from: Date().addingTimeInterval(7 * 86400))
                _ = try await client.post(
                    "/v1/classes/\(classID)/assignments", token: teacher.token,
                    json: ["kind": "wordList", "targets": ["home"], "dueAt": due])
                #expect(try await overview().assignments.count == 1)
                _ = try await client.patch("/v1/classes/\(classID)", token: teacher.token, json: ["name": "4B"])
                #expect(try await overview()._class.name == "4B")

                // The learner renamed; the class's level, the learner's abilities and its history changed in SQL.
                _ = try await client.patch("/v1/learners/\(learner.learnerID)", token: learner.token, json: ["displayName": "Zoé"])
                #expect(try await eventually { only(try await overview())?.displayName == "Zoé" })
                try await TestDatabase.shared.execute(in: app.databaseURL, "UPDATE classes SET level = 'B2'")
                #expect(try await eventually { try await overview()._class.level == .b2 })
                try await TestDatabase.shared.execute(in: app.databaseURL, "UPDATE abilities SET theta = 2.0 WHERE language = 'fr'")
                #expect(try await eventually { only(try await overview())?.level == .c1 })
                try await TestDatabase.shared.execute(
                    in: app.databaseURL,
                    """
                    INSERT INTO ability_history (learner_id, language, skill, day, theta, level)
                    SELECT learner_id, 'fr', 'overall', current_date, 2.5, 'C2' FROM class_members
                    ON CONFLICT (learner_id, language, skill, day) DO UPDATE SET theta = 2.5, level = 'C2'
                    """)
                #expect(try await eventually { try await overview().progress.last?.ability == 2.5 })
                // A table emptied in SQL: every class's overview goes.
                try await TestDatabase.shared.execute(in: app.databaseURL, "TRUNCATE assignments")
                #expect(try await eventually { try await overview().assignments.isEmpty })

                // Removed by the teacher: at once.
                _ = try await client.delete("/v1/classes/\(classID)/members/\(learner.learnerID)", token: teacher.token)
                #expect(try await overview().learners.isEmpty)
            }
        }
    }

    /// Issue 32, item 9: a list some pupils have not bought.
    @Test(
        "assigning a list some pupils cannot open names them; theirs shows it locked with its offer; completion counts what they may open")
    func lockedForSome() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let (teacher, classID, code) = try await client.teacherWithClass()
            let free = try await client.signUp(firstName: "Free", email: "free@example.com")
            let paid = try await client.signUp(firstName: "Paid", email: "paid@example.com")
            try await app.grant("water-and-professions", to: paid, client: client)
            for pupil in [free, paid] {
                let joined = try await client.post(
                    "/v1/learners/\(pupil.learnerID)/classes", token: pupil.token, json: ["joinCode": code, "password": pupil.password])
                #expect(joined.status == 201, "\(joined.text)")
            }
            func overview() async throws -> [String: Double] {
                let learners = try await client.get("/v1/classes/\(classID)/overview", token: teacher.token)
                    .decoded(ClassOverview.self).learners
                return Dictionary(uniqueKeysWithValues: learners.map { ($0.learnerId, $0.assignmentCompletion ?? -1) })
            }
            _ = try await overview()  // kept from here on

            let due = ISO8601DateFormatter().string(from: Date().addingTimeInterval(7 * 86400))
            let created = try await client.post(
                "/v1/classes/\(classID)/assignments", token: teacher.token, json: ["kind": "wordList", "targets": ["water"], "dueAt": due])
            #expect(created.status == 201, "\(created.text)")
            let assignment = try created.decoded(Components.Schemas.Assignment.self)
            let lockedFor = try #require(assignment.lockedFor)
            #expect(lockedFor.count == 1 && lockedFor.first?.learnerId == free.learnerID, "\(created.text)")
            #expect(lockedFor.first?.lockedItemCount == 35 && lockedFor.first?.displayName == "Free")
            let assignmentID = assignment.id

            // The free pupil sees the list locked, with what opens it, and no completion: none of it is its to do.
            let freeList = try await client.get("/v1/learners/\(free.learnerID)/assignments", token: free.token)
            let freeView = try #require(try freeList.decoded(LearnerAssignments.self).assignments.first)
            let freeProgress = freeView.progress
            #expect(freeProgress.lockedItems.count == 35)
            #expect(freeProgress.lockedItems.allSatisfy { $0.hasPrefix("word:") })
            #expect(["water-and-professions", "water"].contains(freeView.offer ?? ""), "\(freeView)")
            #expect(freeProgress.completion == nil)
            // The paying pupil has all of it to do, nothing locked, nothing offered.
            let paidList = try await client.get("/v1/learners/\(paid.learnerID)/assignments", token: paid.token)
            let paidView = try #require(try paidList.decoded(LearnerAssignments.self).assignments.first)
            #expect(paidView.progress.lockedItems.isEmpty && paidView.offer == nil)
            #expect(paidView.progress.completion == 0)

            // The teacher's view of the assignment says the same, pupil by pupil.
            let rows = try await client.get("/v1/classes/\(classID)/assignments/\(assignmentID)", token: teacher.token)
                .decoded(AssignmentDetail.self).learners
            let byLearner = Dictionary(uniqueKeysWithValues: rows.map { ($0.learnerId, $0) })
            #expect(byLearner[free.learnerID]?.lockedItems.count == 35)
            #expect(byLearner[paid.learnerID]?.lockedItems.isEmpty == true)
            var completions = try await overview()
            // The overview leaves the free pupil out of the assignment's mean.
            #expect(completions[free.learnerID] == -1 && completions[paid.learnerID] == 0, "\(completions)")

            // Once the free pupil's family buys the pair, the list is its to do: the kept overview follows.
            try await app.grant("water-and-professions", to: free, client: client)
            #expect(try await eventually { try await overview()[free.learnerID] == 0 })
            let openedList = try await client.get("/v1/learners/\(free.learnerID)/assignments", token: free.token)
            let opened = try #require(try openedList.decoded(LearnerAssignments.self).assignments.first)
            #expect(opened.progress.lockedItems.isEmpty && opened.offer == nil)
            completions = try await overview()
            #expect(completions[paid.learnerID] == 0)
        }
    }
}

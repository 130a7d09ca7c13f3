import Foundation
import ParlaCore
import ParlaTestSupport
import Testing

/// Teachers, classes and join codes, and what a teacher may read of its
/// learners through the one access rule.
@Suite("teachers and classes")
struct ClassTests {
    typealias JSON = [String: any Sendable]
    static let clip = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav"

    /// A teacher with one French class; its join code as handed out.
    func teacherWithClass(_ client: Client, email: String = "teacher@example.com") async throws -> (Client.SignedUp, String, String) {
        let teacher = try await client.signUp(email: email)
        let profile = try await client.send(
            .put, "/v1/me/teacher", token: teacher.token, json: ["displayName": "Mme Dupont", "school": "École Jean Moulin"])
        #expect(profile.status == 200, "\(profile.text)")
        let created = try await client.post("/v1/classes", token: teacher.token, json: ["name": "4e B", "language": "fr", "level": "A2"])
        #expect(created.status == 201, "\(created.text)")
        let code = try #require(created.json["joinCode"] as? String)
        return (teacher, try #require(created.json["id"] as? String), code)
    }

    @Test("a learner joins with the code and its account's password; its teacher reads its progress, never writes; others see nothing")
    func teacherReads() async throws {
        try await TestApp.make().run { client in
            let (teacher, classID, code) = try await teacherWithClass(client)
            #expect(code.wholeMatch(of: /[ACDEFGHJKMNPQRTUVWXY34679]{4}-[ACDEFGHJKMNPQRTUVWXY34679]{4}/) != nil)
            let parent = try await client.signUp(email: "parent@example.com")
            let child = try #require(
                try await client.post("/v1/learners", token: parent.token, json: ["displayName": "Léo", "age": 9, "keepRecordings": true])
                    .json["id"] as? String)
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
            #expect((joined.json["teacher"] as? JSON)?["displayName"] as? String == "Mme Dupont")
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
            let attemptID = try #require(attempt.json["id"] as? String)
            let seen = try await client.get("/v1/learners/\(child)/speech/attempts", token: teacher.token)
            #expect((seen.json["attempts"] as? [JSON])?.count == 1)
            #expect(try await client.get("/v1/learners/\(child)/speech/attempts/\(attemptID)/audio", token: teacher.token).status == 200)
            #expect(try await client.get("/v1/learners/\(child)", token: teacher.token).json["displayName"] as? String == "Léo")
            #expect(try await client.get("/v1/learners/\(child)/courses", token: teacher.token).status == 200)

            // The child plays a game; its teacher reads the result.
            let played = try await GameTests.playPerfectly(client, learner: child, token: parent.token)
            #expect(played.status == 200, "\(played.text)")
            let games = try await client.get("/v1/learners/\(child)/games", token: teacher.token)
            #expect(((games.json["games"] as? [JSON])?.first?["result"] as? JSON)?["score"] as? Int == 295, "\(games.text)")

            let members = try await client.get("/v1/classes/\(classID)", token: teacher.token)
            #expect((members.json["members"] as? [JSON])?.compactMap { $0["displayName"] as? String } == ["Léo"])
            #expect((members.json["class"] as? JSON)?["members"] as? Int == 1)

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
            let (other, otherClass, _) = try await teacherWithClass(client, email: "other@example.com")
            #expect(try await client.get("/v1/learners/\(child)/speech/attempts", token: other.token).code == "learner_not_found")
            #expect(try await client.get("/v1/learners/\(child)/games", token: other.token).code == "learner_not_found")
            #expect(try await client.get("/v1/classes/\(classID)", token: other.token).code == "class_not_found")
            // Someone else's class is not there for it, whatever it asks of it.
            #expect(try await client.delete("/v1/classes/\(classID)/members/\(child)", token: other.token).code == "class_not_found")
            #expect(try await client.delete("/v1/classes/\(otherClass)/members/\(child)", token: other.token).code == "learner_not_found")

            // The learner sees its class and leaves; the teacher reads nothing any more.
            let mine = try await client.get("/v1/learners/\(child)/classes", token: parent.token)
            #expect((mine.json["classes"] as? [JSON])?.first?["name"] as? String == "4e B")
            #expect(try await client.delete("/v1/learners/\(child)/classes/\(classID)", token: parent.token).status == 204)
            #expect(try await client.get("/v1/learners/\(child)/speech/attempts", token: teacher.token).code == "learner_not_found")
        }
    }

    @Test("recordings not shared stay with the family; a removed learner is out of reach")
    func recordingsAndRemoval() async throws {
        try await TestApp.make().run { client in
            let (teacher, classID, code) = try await teacherWithClass(client)
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
            let attemptID = try #require(attempt.json["id"] as? String)
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

            let (teacher, classID, code) = try await teacherWithClass(client)
            let rotated = try await client.post("/v1/classes/\(classID)/join-code", token: teacher.token, json: [:])
            let fresh = try #require(rotated.json["joinCode"] as? String)
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
            #expect(closed.status == 200 && closed.json["joinCode"] == nil)
            #expect((closed.json["members"] as? Int) == 1)

            #expect(
                try await client.post("/v1/classes", token: teacher.token, json: ["name": "5e A", "language": "de", "level": "B1"]).status
                    == 201)
            #expect(
                try await client.post("/v1/classes", token: teacher.token, json: ["name": "6e", "language": "de", "level": "B1"]).code
                    == "class_limit_reached")
            let bad = try await client.post("/v1/classes", token: teacher.token, json: ["name": "", "language": "pt", "level": "Z9"])
            #expect(bad.fieldErrors == ["name:invalid_class_name", "language:invalid_language", "level:invalid_level"])
            #expect((try await client.get("/v1/classes", token: teacher.token).json["classes"] as? [JSON])?.count == 2)
            let renamed = try await client.patch("/v1/classes/\(classID)", token: teacher.token, json: ["name": "4e B (bis)"])
            #expect(renamed.json["name"] as? String == "4e B (bis)")
            #expect(try await client.delete("/v1/classes/\(classID)", token: teacher.token).status == 204)
            #expect(try await client.get("/v1/learners/\(first.learnerID)/classes", token: first.token).json["classes"] as? [JSON] != nil)
        }
    }
}

@Suite("assignments")
struct AssignmentTests {
    typealias JSON = [String: any Sendable]

    @Test(
        "a teacher assigns the home list; the learner sees it, a lesson on it asks its words first; completion and accuracy show on the class"
    )
    func assignAndProgress() async throws {
        try await TestApp.make().run { client in
            let (teacher, classID, code) = try await ClassTests().teacherWithClass(client)
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
            #expect(created.json["itemCount"] as? Int == 35)
            let assignmentID = try #require(created.json["id"] as? String)

            let mine = try await client.get("/v1/learners/\(learner.learnerID)/assignments", token: learner.token)
            let first = try #require((mine.json["assignments"] as? [JSON])?.first)
            #expect(first["className"] as? String == "4e B")
            #expect((first["progress"] as? JSON)?["completion"] as? Double == 0)

            // A lesson on the assignment: its words first; three answered right.
            var lesson = try await client.post(
                "/v1/learners/\(learner.learnerID)/lessons", token: learner.token,
                json: ["language": "fr", "length": 5, "types": ["translationFromTarget"], "assignmentId": assignmentID]
            ).json
            let lessonID = try #require(lesson["id"] as? String)
            let home = Set(try #require(TeacherModeTests.corpus.wordLists.first { $0.id == "home" }).words.map(\.key))
            for _ in 0..<3 {
                let question = try #require(lesson["question"] as? JSON)
                // Every question is about a word of the assignment.
                let french = question["prompt"] as? String ?? ""
                #expect(
                    TeacherModeTests.corpus.concepts.contains { home.contains($0.key) && $0.localization(.french)?.word == french },
                    "\(french)")
                let option = try TeacherModeTests.rightOption(question)
                let reply = try await client.post(
                    "/v1/learners/\(learner.learnerID)/lessons/\(lessonID)/answers", token: learner.token,
                    json: ["questionId": question["id"] as! String, "optionId": option, "responseTimeMs": 2000])
                #expect(reply.json["correct"] as? Bool == true, "\(reply.text)")
                lesson = try #require(reply.json["lesson"] as? JSON)
            }

            let progress = try await client.get("/v1/classes/\(classID)/assignments/\(assignmentID)", token: teacher.token)
            let row = try #require((progress.json["learners"] as? [JSON])?.first)
            #expect(row["answers"] as? Int == 3)
            #expect(abs((row["completion"] as? Double ?? 0) - 3.0 / 35) < 1e-9)
            #expect(row["accuracy"] as? Double == 1)

            // The teacher reads the learner's lessons: answers, accuracy, time, per skill.
            let history = try await client.get("/v1/learners/\(learner.learnerID)/lessons/history", token: teacher.token)
            let record = try #require((history.json["lessons"] as? [JSON])?.first, "\(history.text)")
            #expect(record["answers"] as? Int == 3 && record["right"] as? Int == 3 && record["accuracy"] as? Double == 1)
            #expect(record["status"] as? String == "open" && (record["seconds"] as? Double ?? 0) > 0)
            #expect((record["skills"] as? [JSON])?.first?["skill"] as? String == "vocabulary")

            // The class overview and its CSV.
            let overview = try await client.get("/v1/classes/\(classID)/overview", token: teacher.token)
            #expect(overview.status == 200, "\(overview.text)")
            let summary = try #require((overview.json["learners"] as? [JSON])?.first)
            #expect(summary["lastActiveAt"] is String)
            #expect(abs((summary["assignmentCompletion"] as? Double ?? 0) - 3.0 / 35) < 1e-9)
            #expect(summary["weakestSkill"] as? String == "vocabulary")
            let levels = try #require(overview.json["levels"] as? [JSON])
            #expect(levels.count == 6)
            #expect(levels.compactMap { $0["learners"] as? Int }.reduce(0, +) == (summary["level"] == nil ? 0 : 1))
            let perAssignment = try #require((overview.json["assignments"] as? [JSON])?.first)
            #expect(perAssignment["assignmentId"] as? String == assignmentID)
            #expect(abs((perAssignment["completion"] as? Double ?? 0) - 3.0 / 35) < 1e-9)
            let weekly = overview.json["progress"] as? [JSON] ?? []
            #expect(weekly.last?["learners"] as? Int == (summary["level"] == nil ? nil : 1), "\(weekly)")
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
            let (other, _, _) = try await ClassTests().teacherWithClass(client, email: "other@example.com")
            #expect(
                try await client.get("/v1/classes/\(classID)/assignments/\(assignmentID)", token: other.token).code
                    == "class_not_found")
            #expect(try await client.get("/v1/classes/\(classID)/assignments", token: other.token).code == "class_not_found")
            #expect(try await client.get("/v1/classes/\(classID)/overview", token: other.token).code == "class_not_found")
            #expect(
                try await client.get("/v1/learners/\(learner.learnerID)/lessons/history", token: other.token).code == "learner_not_found")
            #expect(try await client.get("/v1/classes/\(classID)/export.csv", token: other.token).status == 404)
            #expect(try await client.delete("/v1/classes/\(classID)/assignments/\(assignmentID)", token: teacher.token).status == 204)
            #expect(
                (try await client.get("/v1/learners/\(learner.learnerID)/assignments", token: learner.token).json["assignments"] as? [JSON])?
                    .isEmpty == true)
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
                let (teacher, classID, code) = try await ClassTests().teacherWithClass(client)
                let learner = try await client.signUp(email: "learner@example.com")
                _ = try await client.post(
                    "/v1/learners/\(learner.learnerID)/classes", token: learner.token,
                    json: ["joinCode": code, "password": learner.password])
                func overview() async throws -> JSON { try await client.get("/v1/classes/\(classID)/overview", token: teacher.token).json }
                func only(_ overview: JSON) -> JSON? { (overview["learners"] as? [JSON])?.first }
                #expect(try await eventually { only(try await overview()) != nil })
                #expect(only(try await overview())?["lastActiveAt"] == nil)
                #expect((try await overview()["assignments"] as? [JSON])?.isEmpty == true)

                // A question missed at the first try, answered on another
                // server: the learner is active, and what it missed shows.
                let lesson = try await other.post(
                    "/v1/learners/\(learner.learnerID)/lessons", token: learner.token,
                    json: ["language": "fr", "length": 3, "types": ["translationFromTarget"]]
                ).json
                let question = try #require(lesson["question"] as? JSON)
                let wrong = try #require(
                    (question["options"] as? [JSON])?.first { $0["id"] as? String != (try? TeacherModeTests.rightOption(question)) })
                _ = try await other.post(
                    "/v1/learners/\(learner.learnerID)/lessons/\(lesson["id"] as! String)/answers", token: learner.token,
                    json: ["questionId": question["id"] as! String, "optionId": wrong["id"] as! String, "responseTimeMs": 1500])
                _ = try await other.post(
                    "/v1/learners/\(learner.learnerID)/lessons/\(lesson["id"] as! String)/answers", token: learner.token,
                    json: [
                        "questionId": question["id"] as! String, "optionId": try TeacherModeTests.rightOption(question),
                        "responseTimeMs": 1500,
                    ])
                #expect(try await eventually { only(try await overview())?["lastActiveAt"] is String })
                #expect((try await overview()["mostMissed"] as? [JSON])?.count == 1)

                // The teacher's own changes show at once: an assignment, the class renamed.
                let due = ISO8601DateFormatter().string(from: Date().addingTimeInterval(7 * 86400))
                _ = try await client.post(
                    "/v1/classes/\(classID)/assignments", token: teacher.token,
                    json: ["kind": "wordList", "targets": ["home"], "dueAt": due])
                #expect((try await overview()["assignments"] as? [JSON])?.count == 1)
                _ = try await client.patch("/v1/classes/\(classID)", token: teacher.token, json: ["name": "4B"])
                #expect((try await overview()["class"] as? JSON)?["name"] as? String == "4B")

                // The learner renamed; the class's level, the learner's abilities and its history changed in SQL.
                _ = try await client.patch("/v1/learners/\(learner.learnerID)", token: learner.token, json: ["displayName": "Zoé"])
                #expect(try await eventually { only(try await overview())?["displayName"] as? String == "Zoé" })
                try await TestDatabase.shared.execute(in: app.databaseURL, "UPDATE classes SET level = 'B2'")
                #expect(try await eventually { (try await overview()["class"] as? JSON)?["level"] as? String == "B2" })
                try await TestDatabase.shared.execute(in: app.databaseURL, "UPDATE abilities SET theta = 2.0 WHERE language = 'fr'")
                #expect(try await eventually { only(try await overview())?["level"] as? String == "C1" })
                try await TestDatabase.shared.execute(
                    in: app.databaseURL,
                    """
                    INSERT INTO ability_history (learner_id, language, skill, day, theta, level)
                    SELECT learner_id, 'fr', 'overall', current_date, 2.5, 'C2' FROM class_members
                    ON CONFLICT (learner_id, language, skill, day) DO UPDATE SET theta = 2.5, level = 'C2'
                    """)
                #expect(
                    try await eventually { ((try await overview()["progress"] as? [JSON])?.last?["ability"] as? Double) == 2.5 })
                // A table emptied in SQL: every class's overview goes.
                try await TestDatabase.shared.execute(in: app.databaseURL, "TRUNCATE assignments")
                #expect(try await eventually { (try await overview()["assignments"] as? [JSON])?.isEmpty == true })

                // Removed by the teacher: at once.
                _ = try await client.delete("/v1/classes/\(classID)/members/\(learner.learnerID)", token: teacher.token)
                #expect((try await overview()["learners"] as? [JSON])?.isEmpty == true)
            }
        }
    }

    /// Issue 32, item 9: a list some pupils have not bought.
    @Test(
        "assigning a list some pupils cannot open names them; theirs shows it locked with its offer; completion counts what they may open")
    func lockedForSome() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let (teacher, classID, code) = try await ClassTests().teacherWithClass(client)
            let free = try await client.signUp(firstName: "Free", email: "free@example.com")
            let paid = try await client.signUp(firstName: "Paid", email: "paid@example.com")
            func grant(_ product: String, to learner: String) async throws {
                try await TestDatabase.shared.execute(
                    in: app.databaseURL,
                    """
                    INSERT INTO account_entitlements (account_id, product, source, note)
                    SELECT account_id, \(product), 'grant', 'test' FROM learners WHERE id = \(UUID(uuidString: learner)!)
                    """)
            }
            try await grant("water-and-professions", to: paid.learnerID)
            for pupil in [free, paid] {
                let joined = try await client.post(
                    "/v1/learners/\(pupil.learnerID)/classes", token: pupil.token, json: ["joinCode": code, "password": pupil.password])
                #expect(joined.status == 201, "\(joined.text)")
            }
            func overview() async throws -> [String: Double] {
                let learners =
                    try await client.get("/v1/classes/\(classID)/overview", token: teacher.token).json["learners"] as? [JSON] ?? []
                return Dictionary(
                    uniqueKeysWithValues: learners.compactMap { row in
                        (row["learnerId"] as? String).map { ($0, row["assignmentCompletion"] as? Double ?? -1) }
                    })
            }
            _ = try await overview()  // kept from here on

            let due = ISO8601DateFormatter().string(from: Date().addingTimeInterval(7 * 86400))
            let created = try await client.post(
                "/v1/classes/\(classID)/assignments", token: teacher.token, json: ["kind": "wordList", "targets": ["water"], "dueAt": due])
            #expect(created.status == 201, "\(created.text)")
            let lockedFor = try #require(created.json["lockedFor"] as? [JSON])
            #expect(lockedFor.count == 1 && lockedFor.first?["learnerId"] as? String == free.learnerID, "\(created.text)")
            #expect(lockedFor.first?["lockedItemCount"] as? Int == 35 && lockedFor.first?["displayName"] as? String == "Free")
            let assignmentID = try #require(created.json["id"] as? String)

            // The free pupil sees the list locked, with what opens it, and no completion: none of it is its to do.
            let freeView = try #require(
                (try await client.get("/v1/learners/\(free.learnerID)/assignments", token: free.token).json["assignments"] as? [JSON])?
                    .first)
            let freeProgress = try #require(freeView["progress"] as? JSON)
            #expect((freeProgress["lockedItems"] as? [String])?.count == 35)
            #expect((freeProgress["lockedItems"] as? [String])?.allSatisfy { $0.hasPrefix("word:") } == true)
            #expect(["water-and-professions", "water"].contains(freeView["offer"] as? String ?? ""), "\(freeView)")
            #expect(freeProgress["completion"] == nil)
            // The paying pupil has all of it to do, nothing locked, nothing offered.
            let paidView = try #require(
                (try await client.get("/v1/learners/\(paid.learnerID)/assignments", token: paid.token).json["assignments"] as? [JSON])?
                    .first)
            #expect(((paidView["progress"] as? JSON)?["lockedItems"] as? [String])?.isEmpty == true && paidView["offer"] == nil)
            #expect((paidView["progress"] as? JSON)?["completion"] as? Double == 0)

            // The teacher's view of the assignment says the same, pupil by pupil.
            let rows = try #require(
                try await client.get("/v1/classes/\(classID)/assignments/\(assignmentID)", token: teacher.token).json["learners"] as? [JSON]
            )
            let byLearner = Dictionary(uniqueKeysWithValues: rows.map { ($0["learnerId"] as? String ?? "", $0) })
            #expect((byLearner[free.learnerID]?["lockedItems"] as? [String])?.count == 35)
            #expect((byLearner[paid.learnerID]?["lockedItems"] as? [String])?.isEmpty == true)
            var completions = try await overview()
            // The overview leaves the free pupil out of the assignment's mean.
            #expect(completions[free.learnerID] == -1 && completions[paid.learnerID] == 0, "\(completions)")

            // Once the free pupil's family buys the pair, the list is its to do: the kept overview follows.
            try await grant("water-and-professions", to: free.learnerID)
            #expect(try await eventually { try await overview()[free.learnerID] == 0 })
            let opened = try #require(
                (try await client.get("/v1/learners/\(free.learnerID)/assignments", token: free.token).json["assignments"] as? [JSON])?
                    .first)
            #expect(((opened["progress"] as? JSON)?["lockedItems"] as? [String])?.isEmpty == true && opened["offer"] == nil)
            completions = try await overview()
            #expect(completions[paid.learnerID] == 0)
        }
    }
}

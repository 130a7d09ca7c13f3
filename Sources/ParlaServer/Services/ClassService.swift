import Foundation
import ParlaCore
import ParlaStore
import ParlaTeaching

/// Teachers and classes (issue 17): becoming a teacher, classes with join
/// codes, learners joining with their account's consent (its password),
/// leaving, and teachers removing them. What a teacher may read of its
/// learners is the access rule's (`LearnerAccess`), not this service's.
struct ClassService: Sendable {
    let classes: ClassStore
    /// Where overviews are read: a replica when one is configured.
    let reports: ClassStore
    let assignments: AssignmentStore
    let accounts: AccountService
    let content: ContentService
    /// Overviews kept in memory (nil: each is read afresh).
    let overviews: ClassOverviews?
    let classesPerTeacher: Int
    let membersPerClass: Int

    func becomeTeacher(_ caller: Caller, name: String?, school: String?) async throws -> ClassStore.Teacher {
        let (name, school) = try ClassRules.teacher(name: name, school: school)
        try await accounts.requireSignedUp(caller)
        return try await classes.becomeTeacher(caller.accountID, name: name, school: school)
    }

    func teacher(_ caller: Caller) async throws -> ClassStore.Teacher {
        guard let teacher = try await classes.teacher(caller.accountID) else { throw ParlaError(.teacherRequired) }
        return teacher
    }

    func create(_ caller: Caller, _ form: ClassForm) async throws -> ClassStore.SchoolClass {
        let fields = try ClassRules.validate(form, creating: true)
        // A code already taken (one in 25^8) is drawn again.
        for _ in 0..<5 {
            var generator = SystemRandomNumberGenerator()
            do {
                return try await classes.create(
                    for: caller.accountID, name: fields.name!, language: fields.language!, level: fields.level!,
                    joinCode: JoinCode.generate(using: &generator), limit: classesPerTeacher)
            } catch is ClassStore.JoinCodeTaken {
                continue
            }
        }
        throw ParlaError(.internalError)
    }

    func list(_ caller: Caller) async throws -> [ClassStore.SchoolClass] {
        _ = try await teacher(caller)
        return try await classes.classes(of: caller.accountID)
    }

    /// The caller's teacher profile and classes, if it teaches (the dashboard's home).
    func teaching(_ caller: Caller) async throws -> (ClassStore.Teacher, [ClassStore.SchoolClass])? {
        guard let teacher = try await classes.teacher(caller.accountID) else { return nil }
        return (teacher, try await classes.classes(of: caller.accountID))
    }

    /// The caller's own class (`class_not_found` for anyone else's), without its members.
    func schoolClass(_ caller: Caller, _ id: ClassID) async throws -> ClassStore.SchoolClass {
        try await classes.schoolClass(id, of: caller.accountID)
    }

    func get(_ caller: Caller, _ id: ClassID) async throws -> (ClassStore.SchoolClass, [ClassStore.Member]) {
        (try await classes.schoolClass(id, of: caller.accountID), try await classes.members(of: id, teacher: caller.accountID))
    }

    func update(_ caller: Caller, _ id: ClassID, _ form: ClassForm) async throws -> ClassStore.SchoolClass {
        defer { overviews?.changed(id) }
        return try await classes.update(id, of: caller.accountID, try ClassRules.validate(form, creating: false))
    }

    /// A new code (the old one stops working), or none: nobody else joins.
    func rotateCode(_ caller: Caller, _ id: ClassID, close: Bool) async throws -> ClassStore.SchoolClass {
        defer { overviews?.changed(id) }
        for _ in 0..<5 {
            var generator = SystemRandomNumberGenerator()
            do {
                return try await classes.setJoinCode(id, of: caller.accountID, to: close ? nil : JoinCode.generate(using: &generator))
            } catch is ClassStore.JoinCodeTaken {
                continue
            }
        }
        throw ParlaError(.internalError)
    }

    func delete(_ caller: Caller, _ id: ClassID) async throws {
        defer { overviews?.changed(id) }
        try await classes.delete(id, of: caller.accountID)
    }

    func remove(_ caller: Caller, learner: LearnerID, from id: ClassID) async throws {
        defer { overviews?.changed(id) }
        try await classes.removeMember(learner, from: id, teacher: caller.accountID)
    }

    /// The learner joins with the code its teacher gave; the account's
    /// password is its consent (a parent's, for a child's profile).
    func join(
        _ caller: Caller, _ learner: AuthorizedLearner, code typed: String, password: String?, sharesRecordings: Bool
    ) async throws -> (ClassStore.SchoolClass, teacher: ClassStore.Teacher) {
        guard let code = JoinCode.normalized(typed) else { throw ParlaError(.joinCodeNotFound) }
        try await accounts.requireSignedUp(caller)
        guard let password, !password.isEmpty else { throw ParlaError.validation([FieldError("password", .required)]) }
        try await accounts.checkPassword(password, of: caller.accountID)
        let joined = try await classes.join(learner, code: code, sharesRecordings: sharesRecordings, limit: membersPerClass)
        guard let teacher = try await classes.teacher(joined.teacher) else { throw ParlaError(.classNotFound) }
        return (joined, teacher)
    }

    func classes(of learner: AuthorizedLearner) async throws -> [(
        ClassStore.SchoolClass, teacher: ClassStore.Teacher, sharesRecordings: Bool
    )] {
        try await classes.classes(of: learner)
    }

    func leave(_ learner: AuthorizedLearner, _ id: ClassID) async throws { try await classes.leave(learner, class: id) }

    // MARK: Overview

    /// The overview of the caller's own class: kept in memory for the day
    /// while nothing it shows changes (`ClassOverviews`), else read.
    func overview(_ caller: Caller, _ id: ClassID) async throws -> (ClassStore.SchoolClass, ClassReport) {
        let today = Date()
        if let kept = overviews?.overview(id, on: today) {
            // The teacher of a class never changes.
            guard kept.schoolClass.teacher == caller.accountID else { throw ParlaError(.classNotFound) }
            return (kept.schoolClass, kept.report)
        }
        let stamp = overviews?.stamp
        let (schoolClass, members, missed) = try await reports.overview(id, teacher: caller.accountID)
        let report = ClassReport(members: members, missed: missed, today: today)
        overviews?.keep(.init(schoolClass: schoolClass, report: report, day: ClassOverviews.day(today)), since: stamp)
        return (schoolClass, report)
    }

    /// An answer made from the overview of the caller's own class and the
    /// content's current version, kept with it under `name` (`keepAnswer`);
    /// nil when there is none.
    func keptAnswer(_ name: String, _ caller: Caller, _ id: ClassID) -> ClassOverviews.Answer? {
        guard let kept = overviews?.overview(id, on: Date()), kept.schoolClass.teacher == caller.accountID,
            kept.answersVersion == (try? content.snapshot().version)
        else { return nil }
        return kept.answers[name]
    }

    /// Makes an answer from the overview of the caller's class (`make`
    /// returns it, or nil when there is none), and keeps it under `name`
    /// (nil: not kept) while the overview and the content's version last.
    func keepAnswer(_ name: String?, _ id: ClassID, made make: () async throws -> ClassOverviews.Answer?) async rethrows
        -> ClassOverviews.Answer?
    {
        let (stamp, day, version) = (overviews?.stamp, ClassOverviews.day(Date()), try? content.snapshot().version)
        guard let answer = try await make() else { return nil }
        if let name, let version { overviews?.keep(answer, named: name, for: id, day: day, version: version, since: stamp) }
        return answer
    }

    /// What a missed item says in the class's language.
    func text(of item: String, in language: Language) -> String {
        guard let id = LessonItemID(item), let snapshot = try? content.snapshot() else { return item }
        switch id.kind {
        case .word: return snapshot.concepts[id.key]?.localization(language)?.word ?? id.key
        case .phrase: return snapshot.phrases[id.key]?.texts[language] ?? id.key
        case .grammar: return id.key
        }
    }

    // MARK: Assignments

    func assign(_ caller: Caller, _ id: ClassID, kind: String, targets: [String], due: Date?) async throws
        -> AssignmentStore.Assignment
    {
        let schoolClass = try await classes.schoolClass(id, of: caller.accountID)
        let (kind, items) = try AssignmentRules.items(
            kind, targets: targets, due: due, in: schoolClass.language, corpus: try content.snapshot().corpus, now: Date())
        defer { overviews?.changed(id) }
        return try await assignments.create(
            for: id, teacher: caller.accountID, kind: kind.rawValue, targets: targets, items: items.map(\.description), due: due!)
    }

    func assignments(_ caller: Caller, _ id: ClassID) async throws -> [AssignmentStore.Assignment] {
        try await assignments(of: try await schoolClass(caller, id))
    }

    /// The assignments of a class already found as its teacher's.
    func assignments(of schoolClass: ClassStore.SchoolClass) async throws -> [AssignmentStore.Assignment] {
        try await assignments.assignments(of: schoolClass.id, teacher: schoolClass.teacher)
    }

    func assignment(_ caller: Caller, _ id: AssignmentID, of classID: ClassID) async throws
        -> (AssignmentStore.Assignment, [(learner: LearnerID, displayName: String, progress: AssignmentStore.Progress)])
    {
        try await assignments.assignment(id, of: classID, teacher: caller.accountID)
    }

    func withdraw(_ caller: Caller, _ id: AssignmentID, of classID: ClassID) async throws {
        defer { overviews?.changed(classID) }
        try await assignments.delete(id, of: classID, teacher: caller.accountID)
    }

    func assignments(of learner: AuthorizedLearner) async throws
        -> [(AssignmentStore.Assignment, className: String, progress: AssignmentStore.Progress)]
    {
        try await assignments.assignments(of: learner)
    }
}

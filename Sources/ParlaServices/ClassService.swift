import Foundation
import ParlaContent
import ParlaCore
import ParlaKept
import ParlaStore
import ParlaTeaching

/// Teachers and classes (issue 17): becoming a teacher, classes with join
/// codes, learners joining with their account's consent (its password),
/// leaving, and teachers removing them. What a teacher may read of its
/// learners is the access rule's (`LearnerAccess`), not this service's.
package struct ClassService: Sendable {
    package let classes: ClassStore
    /// Where overviews are read: a replica when one is configured.
    package let reports: ClassStore
    package let assignments: AssignmentStore
    package let accounts: AccountService
    package let content: ContentService
    /// What each member's account may open: an assignment counts only that.
    package let plans: EntitlementService
    /// Overviews kept in memory (nil: each is read afresh).
    package let overviews: ClassOverviews?
    package let classesPerTeacher: Int
    package let membersPerClass: Int

    package func becomeTeacher(_ caller: Caller, name: String?, school: String?) async throws -> ClassStore.Teacher {
        let (name, school) = try ClassRules.teacher(name: name, school: school)
        try await accounts.requireSignedUp(caller)
        return try await classes.becomeTeacher(caller.accountID, name: name, school: school)
    }

    package func teacher(_ caller: Caller) async throws -> ClassStore.Teacher {
        guard let teacher = try await classes.teacher(caller.accountID) else { throw ParlaError(.teacherRequired) }
        return teacher
    }

    package func create(_ caller: Caller, _ form: ClassForm) async throws -> ClassStore.SchoolClass {
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

    package func list(_ caller: Caller) async throws -> [ClassStore.SchoolClass] {
        _ = try await teacher(caller)
        return try await classes.classes(of: caller.accountID)
    }

    /// The caller's teacher profile and classes, if it teaches (the dashboard's home).
    package func teaching(_ caller: Caller) async throws -> (ClassStore.Teacher, [ClassStore.SchoolClass])? {
        guard let teacher = try await classes.teacher(caller.accountID) else { return nil }
        return (teacher, try await classes.classes(of: caller.accountID))
    }

    /// The class, without its members.
    package func schoolClass(_ authorized: AuthorizedClass) async throws -> ClassStore.SchoolClass {
        try await classes.schoolClass(authorized)
    }

    package func get(_ authorized: AuthorizedClass) async throws -> (ClassStore.SchoolClass, [ClassStore.Member]) {
        (try await classes.schoolClass(authorized), try await classes.members(of: authorized))
    }

    package func update(_ authorized: AuthorizedClass, _ form: ClassForm) async throws -> ClassStore.SchoolClass {
        try await classes.update(authorized, try ClassRules.validate(form, creating: false))
    }

    /// A new code (the old one stops working), or none: nobody else joins.
    package func rotateCode(_ authorized: AuthorizedClass, close: Bool) async throws -> ClassStore.SchoolClass {
        for _ in 0..<5 {
            var generator = SystemRandomNumberGenerator()
            do {
                return try await classes.setJoinCode(authorized, to: close ? nil : JoinCode.generate(using: &generator))
            } catch is ClassStore.JoinCodeTaken {
                continue
            }
        }
        throw ParlaError(.internalError)
    }

    package func delete(_ authorized: AuthorizedClass) async throws {
        try await classes.delete(authorized)
    }

    package func remove(_ learner: LearnerID, from authorized: AuthorizedClass) async throws {
        try await classes.remove(learner, from: authorized)
    }

    /// The learner joins with the code its teacher gave; the account's
    /// password is its consent (a parent's, for a child's profile), or for
    /// an account made with a provider, a fresh sign-in there.
    package func join(
        _ caller: Caller, _ learner: AuthorizedLearner, code typed: String, password: String?,
        reauthentication: AccountRules.Reauthentication?, sharesRecordings: Bool
    ) async throws -> (ClassStore.SchoolClass, teacher: ClassStore.Teacher) {
        guard let code = JoinCode.normalized(typed) else { throw ParlaError(.joinCodeNotFound) }
        try await accounts.requireSignedUp(caller)
        try await accounts.reauthenticate(
            caller.accountID, currentPassword: password?.isEmpty == true ? nil : password, reauthentication: reauthentication,
            passwordField: "password")
        let joined = try await classes.join(learner, code: code, sharesRecordings: sharesRecordings, limit: membersPerClass)
        guard let teacher = try await classes.teacher(joined.teacher) else { throw ParlaError(.classNotFound) }
        return (joined, teacher)
    }

    package func classes(of learner: AuthorizedLearner) async throws -> [(
        ClassStore.SchoolClass, teacher: ClassStore.Teacher, sharesRecordings: Bool
    )] {
        try await classes.classes(of: learner)
    }

    package func leave(_ learner: AuthorizedLearner, _ id: ClassID) async throws { try await classes.leave(learner, class: id) }

    // MARK: Overview

    /// The class's overview: kept in memory for the day while nothing it
    /// shows changes (`ClassOverviews`), else read.
    package func overview(_ authorized: AuthorizedClass) async throws -> (ClassStore.SchoolClass, ClassReport) {
        let today = Date()
        if let kept = overviews?.overview(authorized.id, on: today) { return (kept.schoolClass, kept.report) }
        let stamp = overviews?.stamp
        let (schoolClass, read, missed, work) = try await reports.overview(authorized)
        let open = try await openContent(of: Set(work.map(\.account)))
        var completions: [LearnerID: [AssignmentID: Double]] = [:]
        for done in work {
            // An assignment a member may open none of has no completion for it.
            completions[done.learner, default: [:]][done.assignment] = AssignmentRules.completion(
                rightItems: done.rightItems, of: done.items, open: open[done.account] ?? Self.nothingOpen)
        }
        let members = read.map { member in
            var member = member
            member.completions = completions[member.id] ?? [:]
            return member
        }
        let report = ClassReport(members: members, missed: missed, today: today)
        overviews?.keep(.init(schoolClass: schoolClass, report: report, day: ClassOverviews.day(today)), since: stamp)
        return (schoolClass, report)
    }

    /// An answer made from the class's overview and the content's current
    /// version, kept with it under `name` (`keepAnswer`); nil when there is none.
    package func keptAnswer(_ name: String, _ authorized: AuthorizedClass) -> ClassOverviews.Answer? {
        guard let kept = overviews?.overview(authorized.id, on: Date()), kept.answersVersion == (try? content.snapshot().version)
        else { return nil }
        return kept.answers[name]
    }

    /// Makes an answer from the overview of the caller's class (`make`
    /// returns it, or nil when there is none), and keeps it under `name`
    /// (nil: not kept) while the overview and the content's version last.
    package func keepAnswer(_ name: String?, _ authorized: AuthorizedClass, made make: () async throws -> ClassOverviews.Answer?)
        async rethrows -> ClassOverviews.Answer?
    {
        let (stamp, day, version) = (overviews?.stamp, ClassOverviews.day(Date()), try? content.snapshot().version)
        guard let answer = try await make() else { return nil }
        if let name, let version { overviews?.keep(answer, named: name, for: authorized.id, day: day, version: version, since: stamp) }
        return answer
    }

    /// What a missed item says in the class's language.
    package func text(of item: String, in language: Language) -> String {
        guard let id = LessonItemID(item), let snapshot = try? content.snapshot() else { return item }
        switch id.kind {
        case .word: return snapshot.concepts[id.key]?.localization(language)?.word ?? id.key
        case .phrase: return snapshot.phrases[id.key]?.texts[language] ?? id.key
        case .grammar, .sightWord, .letter: return id.key
        case .course:
            let lesson = snapshot.courseLesson(id.key, in: language)?.lesson
            return lesson?.titles[language] ?? id.key
        case .story:
            // The question as the story asks it.
            guard let (storyID, number) = id.storyQuestion, let story = snapshot.corpus.stories.first(where: { $0.id == storyID }),
                story.questions.indices.contains(number - 1)
            else { return id.key }
            return story.questions[number - 1].prompt
        }
    }

    // MARK: Assignments

    /// What each account may open of what assignments cover: the words
    /// lessons draw from and the course's packs, read once per account.
    package func openContent(of accounts: Set<AccountID>) async throws -> [AccountID: AssignmentRules.Open] {
        var open: [AccountID: AssignmentRules.Open] = [:]
        let packs = Set(try content.snapshot().corpus.packs.map(\.sharedID))
        for account in accounts {
            let ownership = try await plans.ownership(of: account)
            open[account] = .init(
                words: try content.openWords(ownership.lists), packs: packs.filter { ownership.mayOpen(coursePack: $0) })
        }
        return open
    }

    static let nothingOpen = AssignmentRules.Open(words: [], packs: [])

    /// A member who cannot open some of an assignment's items, and which.
    package struct LockedFor: Sendable {
        package var learner: LearnerID
        package var displayName: String
        package var lockedItems: [String]
    }

    /// A new assignment, and the members who cannot open all of it (the
    /// teacher is told which: their completion counts only what they may
    /// open, and their app offers what opens the rest).
    package func assign(_ authorized: AuthorizedClass, kind: String, targets: [String], due: Date?) async throws
        -> (AssignmentStore.Assignment, lockedFor: [LockedFor])
    {
        let schoolClass = try await classes.schoolClass(authorized)
        let (kind, items) = try AssignmentRules.items(
            kind, targets: targets, due: due, in: schoolClass.language, corpus: try content.snapshot().corpus, now: Date())
        // Read before the assignment is made, so that a failure here never
        // answers an error for an assignment that exists.
        let locked = try await lockedFor(items.map(\.description), in: authorized.id)
        let created = try await assignments.create(
            for: authorized, kind: kind.rawValue, targets: targets, items: items.map(\.description), due: due!)
        return (created, locked)
    }

    /// The members of a class who cannot open every one of `items`.
    package func lockedFor(_ items: [String], in classID: ClassID) async throws -> [LockedFor] {
        let members = try await classes.memberAccounts(of: classID)
        let open = try await openContent(of: Set(members.map(\.account)))
        return members.compactMap { member in
            let locked = AssignmentRules.lockedItems(items, open: open[member.account] ?? Self.nothingOpen)
            return locked.isEmpty ? nil : LockedFor(learner: member.learner, displayName: member.displayName, lockedItems: locked)
        }
    }

    package func assignments(of authorized: AuthorizedClass) async throws -> [AssignmentStore.Assignment] {
        try await assignments.assignments(of: authorized)
    }

    /// A member's progress on an assignment, counted over what it may open.
    package struct MemberProgress: Sendable {
        package var learner: LearnerID
        package var displayName: String
        package var progress: AssignmentStore.Progress
        package var completion: Double?
        package var lockedItems: [String]
    }

    package func assignment(_ id: AssignmentID, of authorized: AuthorizedClass) async throws
        -> (AssignmentStore.Assignment, [MemberProgress])
    {
        let (assignment, members) = try await assignments.assignment(id, of: authorized)
        let open = try await openContent(of: Set(members.map(\.account)))
        return (
            assignment,
            members.map { member in
                let open = open[member.account] ?? Self.nothingOpen
                return MemberProgress(
                    learner: member.learner, displayName: member.displayName, progress: member.progress,
                    completion: AssignmentRules.completion(rightItems: member.progress.rightItems, of: assignment.items, open: open),
                    lockedItems: AssignmentRules.lockedItems(assignment.items, open: open))
            }
        )
    }

    package func withdraw(_ id: AssignmentID, of authorized: AuthorizedClass) async throws {
        try await assignments.delete(id, of: authorized)
    }

    /// A pupil's assignment as it sees it: its completion over what it may
    /// open, the items it may not, and what would open them.
    package struct PupilAssignment: Sendable {
        package var assignment: AssignmentStore.Assignment
        package var className: String
        package var progress: AssignmentStore.Progress
        package var completion: Double?
        package var lockedItems: [String]
        package var offer: String?
    }

    package func assignments(of learner: AuthorizedLearner) async throws -> [PupilAssignment] {
        let found = try await assignments.assignments(of: learner)
        guard !found.isEmpty else { return [] }
        let now = Date()
        let ownership = try await plans.ownership(of: learner.account, at: now)
        let open = try await openContent(of: [learner.account])[learner.account] ?? Self.nothingOpen
        let catalogue = try plans.catalogue()
        return found.map { assignment, className, progress in
            let locked = AssignmentRules.lockedItems(assignment.items, open: open)
            // What opens the rest: the list's offer, or the first locked lesson's pack's (alone first).
            var offer: String?
            if let item = locked.first.flatMap(LessonItemID.init), item.kind == .course {
                offer =
                    catalogue.offers(opening: CoursePack.sharedID(ofLesson: item.key), for: ownership, currency: "USD", at: now)
                    .first?.product.id
            } else if !locked.isEmpty, assignment.kind == AssignmentKind.wordList.rawValue {
                offer = assignment.targets.first.flatMap { catalogue.offer(opening: $0, for: ownership, at: now)?.id }
            }
            return PupilAssignment(
                assignment: assignment, className: className, progress: progress,
                completion: AssignmentRules.completion(rightItems: progress.rightItems, of: assignment.items, open: open),
                lockedItems: locked, offer: offer)
        }
    }

    package init(
        classes: ClassStore, reports: ClassStore, assignments: AssignmentStore, accounts: AccountService, content: ContentService,
        plans: EntitlementService, overviews: ClassOverviews?, classesPerTeacher: Int, membersPerClass: Int
    ) {
        self.classes = classes
        self.reports = reports
        self.assignments = assignments
        self.accounts = accounts
        self.content = content
        self.plans = plans
        self.overviews = overviews
        self.classesPerTeacher = classesPerTeacher
        self.membersPerClass = membersPerClass
    }
}

import Foundation
import OpenAPIRuntime
import ParlaAPI
import ParlaCore
import ParlaStore
import ParlaTeaching

/// Teachers and their classes; learners joining and leaving them.
extension APIHandler {
    func getTeacher(_ input: Operations.GetTeacher.Input) async throws -> Operations.GetTeacher.Output {
        .ok(.init(body: .json(.init(try await classes.teacher(try await caller())))))
    }

    func becomeTeacher(_ input: Operations.BecomeTeacher.Input) async throws -> Operations.BecomeTeacher.Output {
        let caller = try await caller()
        guard case .json(let body) = input.body else { throw ParlaError(.malformedRequest) }
        return .ok(.init(body: .json(.init(try await classes.becomeTeacher(caller, name: body.displayName, school: body.school)))))
    }

    func listClasses(_ input: Operations.ListClasses.Input) async throws -> Operations.ListClasses.Output {
        .ok(.init(body: .json(.init(classes: try await classes.list(try await caller()).map(Components.Schemas.SchoolClass.init)))))
    }

    func createClass(_ input: Operations.CreateClass.Input) async throws -> Operations.CreateClass.Output {
        let caller = try await caller()
        guard case .json(let body) = input.body else { throw ParlaError(.malformedRequest) }
        let created = try await classes.create(caller, ClassForm(name: body.name, language: body.language, level: body.level))
        return .created(.init(body: .json(.init(created))))
    }

    func getClass(_ input: Operations.GetClass.Input) async throws -> Operations.GetClass.Output {
        let caller = try await caller()
        let (found, members) = try await classes.get(try await authorizedClass(input.path.classId, as: caller))
        return .ok(
            .init(
                body: .json(
                    .init(
                        _class: .init(found),
                        members: members.map {
                            .init(
                                learnerId: $0.learner.description, displayName: $0.displayName, avatarId: $0.avatarID,
                                sharesRecordings: $0.sharesRecordings, joinedAt: $0.joinedAt)
                        }))))
    }

    func updateClass(_ input: Operations.UpdateClass.Input) async throws -> Operations.UpdateClass.Output {
        let caller = try await caller()
        guard case .json(let body) = input.body else { throw ParlaError(.malformedRequest) }
        let updated = try await classes.update(
            try await authorizedClass(input.path.classId, as: caller),
            ClassForm(name: body.name, language: body.language, level: body.level))
        return .ok(.init(body: .json(.init(updated))))
    }

    func deleteClass(_ input: Operations.DeleteClass.Input) async throws -> Operations.DeleteClass.Output {
        let caller = try await caller()
        try await classes.delete(try await authorizedClass(input.path.classId, as: caller))
        return .noContent(.init())
    }

    func rotateJoinCode(_ input: Operations.RotateJoinCode.Input) async throws -> Operations.RotateJoinCode.Output {
        let caller = try await caller()
        let changed = try await classes.rotateCode(try await authorizedClass(input.path.classId, as: caller), close: false)
        return .ok(.init(body: .json(.init(changed))))
    }

    func closeJoinCode(_ input: Operations.CloseJoinCode.Input) async throws -> Operations.CloseJoinCode.Output {
        let caller = try await caller()
        let changed = try await classes.rotateCode(try await authorizedClass(input.path.classId, as: caller), close: true)
        return .ok(.init(body: .json(.init(changed))))
    }

    func removeClassMember(_ input: Operations.RemoveClassMember.Input) async throws -> Operations.RemoveClassMember.Output {
        let caller = try await caller()
        try await classes.remove(
            try parseID(input.path.learnerId, orElse: .learnerNotFound), from: try await authorizedClass(input.path.classId, as: caller))
        return .noContent(.init())
    }

    func listLearnerClasses(_ input: Operations.ListLearnerClasses.Input) async throws -> Operations.ListLearnerClasses.Output {
        let learner = try await authorized(input.path.learnerId, for: .actAs)
        let joined = try await classes.classes(of: learner).map { Components.Schemas.LearnerClass($0.0, $0.teacher, $0.sharesRecordings) }
        return .ok(.init(body: .json(.init(classes: joined))))
    }

    func joinClass(_ input: Operations.JoinClass.Input) async throws -> Operations.JoinClass.Output {
        let caller = try await caller()
        let learner = try await authorized(input.path.learnerId, for: .write, as: caller)
        guard case .json(let body) = input.body else { throw ParlaError(.malformedRequest) }
        let shares = body.shareRecordings ?? false
        let (joined, teacher) = try await classes.join(
            caller, learner, code: body.joinCode, password: body.password,
            reauthentication: body.reauthentication.map(AccountRules.Reauthentication.init), sharesRecordings: shares)
        return .created(.init(body: .json(.init(joined, teacher, shares))))
    }

    func leaveClass(_ input: Operations.LeaveClass.Input) async throws -> Operations.LeaveClass.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        try await classes.leave(learner, try parseID(input.path.classId, orElse: .classNotFound))
        return .noContent(.init())
    }
}

extension APIHandler {
    func listAssignments(_ input: Operations.ListAssignments.Input) async throws -> Operations.ListAssignments.Output {
        let found = try await classes.assignments(of: try await authorizedClass(input.path.classId, as: try await caller()))
        return .ok(.init(body: .json(.init(assignments: found.map(Components.Schemas.Assignment.init)))))
    }

    func createAssignment(_ input: Operations.CreateAssignment.Input) async throws -> Operations.CreateAssignment.Output {
        let caller = try await caller()
        guard case .json(let body) = input.body else { throw ParlaError(.malformedRequest) }
        let (created, lockedFor) = try await classes.assign(
            try await authorizedClass(input.path.classId, as: caller), kind: body.kind.rawValue, targets: body.targets,
            due: body.dueAt)
        var answer = Components.Schemas.Assignment(created)
        answer.lockedFor = lockedFor.map {
            .init(learnerId: $0.learner.description, displayName: $0.displayName, lockedItemCount: $0.lockedItems.count)
        }
        return .created(.init(body: .json(answer)))
    }

    func getAssignment(_ input: Operations.GetAssignment.Input) async throws -> Operations.GetAssignment.Output {
        let (assignment, learners) = try await classes.assignment(
            try parseID(input.path.assignmentId, orElse: .assignmentNotFound),
            of: try await authorizedClass(input.path.classId, as: try await caller()))
        return .ok(
            .init(
                body: .json(
                    .init(
                        assignment: .init(assignment),
                        learners: learners.map {
                            .init($0.learner, $0.displayName, $0.progress, completion: $0.completion, lockedItems: $0.lockedItems)
                        }))))
    }

    func deleteAssignment(_ input: Operations.DeleteAssignment.Input) async throws -> Operations.DeleteAssignment.Output {
        try await classes.withdraw(
            try parseID(input.path.assignmentId, orElse: .assignmentNotFound),
            of: try await authorizedClass(input.path.classId, as: try await caller()))
        return .noContent(.init())
    }

    func listLearnerAssignments(_ input: Operations.ListLearnerAssignments.Input) async throws
        -> Operations.ListLearnerAssignments.Output
    {
        let learner = try await authorized(input.path.learnerId, for: .actAs)
        let found = try await classes.assignments(of: learner).map { pupil in
            Components.Schemas.LearnerAssignment(
                assignment: .init(pupil.assignment), className: pupil.className,
                progress: .init(learner.id, "", pupil.progress, completion: pupil.completion, lockedItems: pupil.lockedItems),
                offer: pupil.offer)
        }
        return .ok(.init(body: .json(.init(assignments: found))))
    }
}

extension APIHandler {
    func getClassOverview(_ input: Operations.GetClassOverview.Input) async throws -> Operations.GetClassOverview.Output {
        let (schoolClass, report) = try await classes.overview(try await authorizedClass(input.path.classId, as: try await caller()))
        return .ok(
            .init(
                body: .json(
                    .init(
                        _class: .init(schoolClass),
                        learners: report.learners.map { learner in
                            .init(
                                learnerId: learner.id.description, displayName: learner.displayName, lastActiveAt: learner.lastActive,
                                level: learner.level.flatMap { .init(rawValue: $0.rawValue) }, ability: learner.theta,
                                trend7Days: learner.trend7, trend30Days: learner.trend30,
                                weakestSkill: learner.weakestSkill.flatMap { .init(rawValue: $0.rawValue) },
                                assignmentCompletion: learner.assignmentCompletion)
                        },
                        levels: CEFRLevel.allCases.map { .init(level: .init(rawValue: $0.rawValue)!, learners: report.levels[$0] ?? 0) },
                        progress: report.progress.map { .init(day: calendarDay($0.day), ability: $0.theta, learners: $0.learners) },
                        assignments: report.assignments.sorted { $0.key.description < $1.key.description }.map {
                            .init(assignmentId: $0.key.description, completion: $0.value)
                        },
                        mostMissed: report.mostMissed.map {
                            .init(
                                itemId: $0.item, text: classes.text(of: $0.item, in: schoolClass.language), misses: $0.misses,
                                answers: $0.answers)
                        }))))
    }

    func exportClass(_ input: Operations.ExportClass.Input) async throws -> Operations.ExportClass.Output {
        let (_, report) = try await classes.overview(try await authorizedClass(input.path.classId, as: try await caller()))
        return .ok(.init(body: .csv(HTTPBody(report.csv()))))
    }
}

extension Components.Schemas.Assignment {
    init(_ assignment: AssignmentStore.Assignment) {
        self.init(
            id: assignment.id.description, classId: assignment.classID.description, kind: .init(rawValue: assignment.kind)!,
            targets: assignment.targets, itemCount: assignment.items.count, dueAt: assignment.due, createdAt: assignment.created)
    }
}

extension Components.Schemas.AssignmentProgress {
    init(_ learner: LearnerID, _ name: String, _ progress: AssignmentStore.Progress, completion: Double?, lockedItems: [String]) {
        self.init(
            learnerId: learner.description, displayName: name, completion: completion, lockedItems: lockedItems,
            accuracy: progress.accuracy, answers: progress.answers, lastAnsweredAt: progress.lastAnswer)
    }
}

extension Components.Schemas.Teacher {
    init(_ teacher: ClassStore.Teacher) { self.init(displayName: teacher.displayName, school: teacher.school) }
}

extension Components.Schemas.SchoolClass {
    init(_ found: ClassStore.SchoolClass) {
        self.init(
            id: found.id.description, name: found.name, language: .init(rawValue: found.language.code)!,
            level: .init(rawValue: found.level.rawValue)!, joinCode: found.joinCode.map(JoinCode.display), members: found.members,
            createdAt: found.createdAt)
    }
}

extension Components.Schemas.LearnerClass {
    init(_ found: ClassStore.SchoolClass, _ teacher: ClassStore.Teacher, _ sharesRecordings: Bool) {
        self.init(
            id: found.id.description, name: found.name, language: .init(rawValue: found.language.code)!,
            level: .init(rawValue: found.level.rawValue)!, teacher: .init(teacher), sharesRecordings: sharesRecordings)
    }
}

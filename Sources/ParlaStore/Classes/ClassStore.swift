import Foundation
import ParlaCore
import ParlaDatabase
import ParlaTeaching
import PostgresNIO

/// Teachers, their classes and the learners in them (migration 0023).
/// Names are personal data, sealed as learners' are. Who may read which
/// learner is the access rule's (`LearnerAccess`, which asks `teaching`).
public struct ClassStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    public init(database: Database, cipher: PersonalDataCipher) {
        (self.database, self.cipher) = (database, cipher)
    }

    public struct Teacher: Sendable, Equatable {
        public var account: AccountID
        public var displayName: String
        public var school: String?
    }

    public struct SchoolClass: Sendable, Equatable {
        public var id: ClassID
        public var teacher: AccountID
        public var name: String
        public var language: Language
        public var level: CEFRLevel
        /// Nil while closed.
        public var joinCode: String?
        public var members: Int
        public var createdAt: Date
    }

    public struct Member: Sendable, Equatable {
        public var learner: LearnerID
        public var displayName: String
        public var avatarID: String
        public var sharesRecordings: Bool
        public var joinedAt: Date
    }

    // MARK: Teachers

    /// Makes the account a teacher, or renames it.
    public func becomeTeacher(_ account: AccountID, name: String, school: String?) async throws -> Teacher {
        let sealedName = ByteBuffer(bytes: try cipher.seal(name, as: .teacherName))
        let sealedSchool = try school.map { ByteBuffer(bytes: try cipher.seal($0, as: .school)) }
        try await database.withConnection { connection in
            try await connection.query(
                """
                INSERT INTO teachers (account_id, display_name, school) VALUES (\(account.uuid), \(sealedName), \(sealedSchool))
                ON CONFLICT (account_id) DO UPDATE SET display_name = EXCLUDED.display_name, school = EXCLUDED.school
                """, logger: database.logger)
        }
        return Teacher(account: account, displayName: name, school: school)
    }

    public func teacher(_ account: AccountID) async throws -> Teacher? {
        try await database.withConnection { connection in
            try await connection.query(
                "SELECT display_name, school FROM teachers WHERE account_id = \(account.uuid)", logger: database.logger
            ).collect().first.map { row in
                let (name, school) = try row.decode((ByteBuffer, ByteBuffer?).self)
                return Teacher(
                    account: account, displayName: try cipher.openText(Array(buffer: name), as: .teacherName),
                    school: try school.map { try cipher.openText(Array(buffer: $0), as: .school) })
            }
        }
    }

    // MARK: Classes

    /// Another class holds the code drawn: draw again.
    public struct JoinCodeTaken: Error {}

    static let classColumns = """
        c.id, c.teacher_id, c.name, c.language, c.level, c.join_code, c.created_at,
        (SELECT count(*)::int FROM class_members m WHERE m.class_id = c.id)
        """

    func decodeClass(_ row: PostgresRow) throws -> SchoolClass {
        let columns = row.makeRandomAccess()
        let (id, teacher, name) = (
            try columns[0].decode(UUID.self), try columns[1].decode(UUID.self), try columns[2].decode(ByteBuffer.self)
        )
        let (language, level, code) = (
            try columns[3].decode(String.self), try columns[4].decode(String.self), try columns[5].decode(String?.self)
        )
        let (created, members) = (try columns[6].decode(Date.self), try columns[7].decode(Int.self))
        return SchoolClass(
            id: ClassID(id), teacher: AccountID(teacher), name: try cipher.openText(Array(buffer: name), as: .className),
            language: Language(rawValue: language) ?? .english, level: CEFRLevel(rawValue: level) ?? .a1, joinCode: code,
            members: members, createdAt: created)
    }

    /// A new class with an open join code, unless the teacher has `limit` already.
    public func create(
        for teacher: AccountID, name: String, language: Language, level: CEFRLevel, joinCode: String, limit: Int
    ) async throws -> SchoolClass {
        let id = ClassID.generate()
        let sealed = ByteBuffer(bytes: try cipher.seal(name, as: .className))
        do {
            try await insert(id, teacher: teacher, sealed: sealed, language: language, level: level, joinCode: joinCode, limit: limit)
        } catch let error as PSQLError where error.isUniqueViolation {
            throw JoinCodeTaken()
        }
        return SchoolClass(
            id: id, teacher: teacher, name: name, language: language, level: level, joinCode: joinCode, members: 0,
            createdAt: Date())
    }

    private func insert(
        _ id: ClassID, teacher: AccountID, sealed: ByteBuffer, language: Language, level: CEFRLevel, joinCode: String, limit: Int
    ) async throws {
        try await database.withTransaction { connection in
            // The teacher's row, locked: two creations at once never pass the limit.
            let teachers = try await connection.query(
                "SELECT 1 FROM teachers WHERE account_id = \(teacher.uuid) FOR UPDATE", logger: database.logger
            ).collect()
            guard !teachers.isEmpty else { throw ParlaError(.teacherRequired) }
            let count =
                try await connection.query(
                    "SELECT count(*)::int FROM classes WHERE teacher_id = \(teacher.uuid)", logger: database.logger
                ).collect().first?.decode(Int.self) ?? 0
            guard count < limit else { throw ParlaError(.classLimitReached) }
            try await connection.query(
                """
                INSERT INTO classes (id, teacher_id, name, language, level, join_code)
                VALUES (\(id.uuid), \(teacher.uuid), \(sealed), \(language.code), \(level.rawValue), \(joinCode))
                """, logger: database.logger)
        }
    }

    public func classes(of teacher: AccountID) async throws -> [SchoolClass] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT \(unescaped: Self.classColumns) FROM classes c WHERE c.teacher_id = \(teacher.uuid)
                ORDER BY c.created_at, c.id
                """, logger: database.logger
            ).collect().map(decodeClass)
        }
    }

    /// Who teaches class `id`, if there is one: what the access rule needs (`ClassAccess`).
    public func teacher(of id: ClassID) async throws -> AccountID? {
        try await database.withConnection { connection in
            try await connection.query("SELECT teacher_id FROM classes WHERE id = \(id.uuid)", logger: database.logger)
                .collect().first.map { AccountID(try $0.decode(UUID.self)) }
        }
    }

    /// The class; `class_not_found` once it is gone.
    public func schoolClass(_ authorized: AuthorizedClass) async throws -> SchoolClass {
        let found = try await database.withConnection { connection in
            try await connection.query(
                "SELECT \(unescaped: Self.classColumns) FROM classes c WHERE c.id = \(authorized.uuid)", logger: database.logger
            ).collect().first.map(decodeClass)
        }
        guard let found else { throw ParlaError(.classNotFound) }
        return found
    }

    public func update(_ authorized: AuthorizedClass, _ fields: ClassFields) async throws -> SchoolClass {
        let sealed = try fields.name.map { ByteBuffer(bytes: try cipher.seal($0, as: .className)) }
        let rows = try await database.withTransaction { connection in
            try await connection.query(
                """
                UPDATE classes SET name = coalesce(\(sealed), name), language = coalesce(\(fields.language?.code), language),
                    level = coalesce(\(fields.level?.rawValue), level)
                WHERE id = \(authorized.uuid) RETURNING 1
                """, logger: database.logger
            ).collect()
        }
        guard !rows.isEmpty else { throw ParlaError(.classNotFound) }
        return try await schoolClass(authorized)
    }

    /// A new join code (`code`), or none (closed); members stay.
    public func setJoinCode(_ authorized: AuthorizedClass, to code: String?) async throws -> SchoolClass {
        let rows: [PostgresRow]
        do {
            rows = try await database.withTransaction { connection in
                try await connection.query(
                    "UPDATE classes SET join_code = \(code) WHERE id = \(authorized.uuid) RETURNING 1",
                    logger: database.logger
                ).collect()
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw JoinCodeTaken()
        }
        guard !rows.isEmpty else { throw ParlaError(.classNotFound) }
        return try await schoolClass(authorized)
    }

    public func delete(_ authorized: AuthorizedClass) async throws {
        let rows = try await database.withTransaction { connection in
            try await connection.query("DELETE FROM classes WHERE id = \(authorized.uuid) RETURNING 1", logger: database.logger).collect()
        }
        guard !rows.isEmpty else { throw ParlaError(.classNotFound) }
    }

    // MARK: Members

    public func members(of authorized: AuthorizedClass) async throws -> [Member] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT l.id, l.display_name, l.avatar_id, m.shares_recordings, m.joined_at
                FROM class_members m JOIN learners l ON l.id = m.learner_id
                WHERE m.class_id = \(authorized.uuid) ORDER BY m.joined_at, l.id
                """, logger: database.logger
            ).collect().map { row in
                let (learner, name, avatar, shares, joined) = try row.decode((UUID, ByteBuffer, String, Bool, Date).self)
                return Member(
                    learner: LearnerID(learner), displayName: try cipher.openText(Array(buffer: name), as: .displayName),
                    avatarID: avatar, sharesRecordings: shares, joinedAt: joined)
            }
        }
    }

    /// The members of a class already found as its teacher's, with their
    /// accounts (whose entitlements say what they may open).
    public func memberAccounts(of id: ClassID) async throws -> [(learner: LearnerID, account: AccountID, displayName: String)] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT l.id, l.account_id, l.display_name FROM class_members m JOIN learners l ON l.id = m.learner_id
                WHERE m.class_id = \(id.uuid) ORDER BY m.joined_at, l.id
                """, logger: database.logger
            ).collect().map { row in
                let (learner, account, name) = try row.decode((UUID, UUID, ByteBuffer).self)
                return (LearnerID(learner), AccountID(account), try cipher.openText(Array(buffer: name), as: .displayName))
            }
        }
    }

    /// The learner joins the open class with `code` (its account consented),
    /// unless the class has `limit` members.
    public func join(_ learner: AuthorizedLearner, code: String, sharesRecordings: Bool, limit: Int) async throws -> SchoolClass {
        let id: UUID = try await database.withTransaction { connection in
            guard
                let id = try await connection.query(
                    "SELECT id FROM classes WHERE join_code = \(code) FOR UPDATE", logger: database.logger
                ).collect().first?.decode(UUID.self)
            else { throw ParlaError(.joinCodeNotFound) }
            let count =
                try await connection.query(
                    "SELECT count(*)::int FROM class_members WHERE class_id = \(id)", logger: database.logger
                ).collect().first?.decode(Int.self) ?? 0
            guard count < limit else { throw ParlaError(.classFull) }
            let inserted = try await connection.query(
                """
                INSERT INTO class_members (class_id, learner_id, shares_recordings) VALUES (\(id), \(learner.uuid), \(sharesRecordings))
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: database.logger
            ).collect()
            guard !inserted.isEmpty else { throw ParlaError(.alreadyInClass) }
            return id
        }
        return try await database.withConnection { connection in
            try await connection.query(
                "SELECT \(unescaped: Self.classColumns) FROM classes c WHERE c.id = \(id)", logger: database.logger
            ).collect().first.map(decodeClass)!
        }
    }

    /// The classes a learner is in, with their teachers' names.
    public func classes(of learner: AuthorizedLearner) async throws -> [(SchoolClass, teacher: Teacher, sharesRecordings: Bool)] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT \(unescaped: Self.classColumns), t.display_name, t.school, m.shares_recordings
                FROM class_members m JOIN classes c ON c.id = m.class_id JOIN teachers t ON t.account_id = c.teacher_id
                WHERE m.learner_id = \(learner.uuid) ORDER BY m.joined_at, c.id
                """, logger: database.logger
            ).collect().map { row in
                var schoolClass = try decodeClass(row)
                schoolClass.joinCode = nil  // the teacher's to hand out, not the learner's
                let columns = row.makeRandomAccess()
                let name = try columns[8].decode(ByteBuffer.self)
                let school = try columns[9].decode(ByteBuffer?.self)
                let teacher = Teacher(
                    account: schoolClass.teacher, displayName: try cipher.openText(Array(buffer: name), as: .teacherName),
                    school: try school.map { try cipher.openText(Array(buffer: $0), as: .school) })
                return (schoolClass, teacher, try columns[10].decode(Bool.self))
            }
        }
    }

    /// The learner leaves a class (its account's wish); `class_not_found` when it was not in it.
    public func leave(_ learner: AuthorizedLearner, class id: ClassID) async throws {
        guard try await removeMember(learner.id, from: id) else { throw ParlaError(.classNotFound) }
    }

    /// The teacher takes a learner out of its class; `learner_not_found` when it was not in it.
    public func remove(_ learner: LearnerID, from authorized: AuthorizedClass) async throws {
        guard try await removeMember(learner, from: authorized.id) else { throw ParlaError(.learnerNotFound) }
    }

    private func removeMember(_ learner: LearnerID, from id: ClassID) async throws -> Bool {
        try await database.withTransaction { connection in
            try await connection.query(
                "DELETE FROM class_members WHERE class_id = \(id.uuid) AND learner_id = \(learner.uuid) RETURNING 1",
                logger: database.logger
            ).collect().count == 1
        }
    }

    /// Whether `teacher` teaches `learner` (in any of its classes), and
    /// whether the learner shares its recordings with one of them.
    public func teaching(_ learner: LearnerID, by teacher: AccountID) async throws -> AuthorizedLearner.Teaching? {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT bool_or(m.shares_recordings) FROM class_members m JOIN classes c ON c.id = m.class_id
                WHERE m.learner_id = \(learner.uuid) AND c.teacher_id = \(teacher.uuid)
                HAVING count(*) > 0
                """, logger: database.logger
            ).collect().first.map { AuthorizedLearner.Teaching(sharesRecordings: try $0.decode(Bool.self)) }
        }
    }

    // MARK: Overview

    /// What the class overview is built from (`ClassReport`): the class,
    /// then seven set queries whatever its size: members, their abilities
    /// and their course's level in the class's language, their overall
    /// history (the report's weeks and the last day before them), their
    /// last activity, what they answered right of each assignment (with
    /// their account, whose entitlements say what of it they may open);
    /// and the items they missed most in the last 30 days.
    public func overview(_ authorized: AuthorizedClass) async throws
        -> (SchoolClass, [ClassReport.Member], [ClassReport.Missed], [AssignmentStore.AssignmentWork])
    {
        let schoolClass = try await schoolClass(authorized)
        let (members, missed, work) = try await read(schoolClass)
        return (schoolClass, members, missed, work)
    }

    /// Today in UTC, as the overview counts days (histories are written by
    /// UTC day, and a kept overview lasts the UTC day): not the database's
    /// own time zone.
    static let utcToday = "(now() AT TIME ZONE 'UTC')::date"

    /// The overview's rows for `schoolClass`.
    func read(_ schoolClass: SchoolClass) async throws -> ([ClassReport.Member], [ClassReport.Missed], [AssignmentStore.AssignmentWork]) {
        let id = schoolClass.id
        let language = schoolClass.language.code
        let days = ClassReport.progressWeeks * 7
        return try await database.withConnection { connection in
            let logger = database.logger
            var members: [UUID: ClassReport.Member] = [:]
            var order: [UUID] = []
            var work: [AssignmentStore.AssignmentWork] = []
            for row in try await connection.query(
                """
                SELECT l.id, l.display_name FROM class_members m JOIN learners l ON l.id = m.learner_id
                WHERE m.class_id = \(id.uuid) ORDER BY m.joined_at, l.id
                """, logger: logger
            ).collect() {
                let (learner, name) = try row.decode((UUID, ByteBuffer).self)
                order.append(learner)
                members[learner] = ClassReport.Member(
                    id: LearnerID(learner), displayName: try cipher.openText(Array(buffer: name), as: .displayName), lastActive: nil,
                    history: [], skills: [], completions: [:])
            }
            guard !order.isEmpty else { return ([], [], []) }
            for row in try await connection.query(
                """
                SELECT learner_id, skill, theta, responses FROM abilities
                WHERE learner_id = ANY(\(order)) AND language = \(language)
                """, logger: logger
            ).collect() {
                let (learner, skill, theta, responses) = try row.decode((UUID, String, Double, Int).self)
                if let skill = Skill(rawValue: skill) { members[learner]?.skills.append((skill, theta, responses)) }
            }
            for row in try await connection.query(
                """
                SELECT learner_id, level FROM courses WHERE learner_id = ANY(\(order)) AND language = \(language) AND level IS NOT NULL
                """, logger: logger
            ).collect() {
                let (learner, level) = try row.decode((UUID, String).self)
                members[learner]?.courseLevel = CEFRLevel(rawValue: level)
            }
            for row in try await connection.query(
                """
                SELECT learner_id, day, theta, level FROM ability_history
                WHERE learner_id = ANY(\(order)) AND language = \(language) AND skill = 'overall'
                  AND (day > \(unescaped: Self.utcToday) - \(days)::int
                       OR day = (SELECT max(h.day) FROM ability_history h
                                 WHERE h.learner_id = ability_history.learner_id AND h.language = \(language) AND h.skill = 'overall'
                                   AND h.day <= \(unescaped: Self.utcToday) - \(days)::int))
                """, logger: logger
            ).collect() {
                let (learner, day, theta, level) = try row.decode((UUID, Date, Double, String).self)
                if let level = CEFRLevel(rawValue: level) { members[learner]?.history.append((day, theta, level)) }
            }
            for row in try await connection.query(
                """
                SELECT learner_id, max(at) FROM (
                    SELECT learner_id, max(answered_at) AS at FROM lesson_answers WHERE learner_id = ANY(\(order)) GROUP BY learner_id
                    UNION ALL
                    SELECT learner_id, max(created_at) FROM speech_attempts WHERE learner_id = ANY(\(order)) GROUP BY learner_id
                    UNION ALL
                    SELECT learner_id, max(started_at) FROM games WHERE learner_id = ANY(\(order)) GROUP BY learner_id
                ) activity GROUP BY learner_id
                """, logger: logger
            ).collect() {
                let (learner, at) = try row.decode((UUID, Date?).self)
                members[learner]?.lastActive = at
            }
            for row in try await connection.query(
                """
                SELECT m.learner_id, l.account_id, s.id, s.items, p.right_items
                FROM assignments s JOIN class_members m ON m.class_id = s.class_id JOIN learners l ON l.id = m.learner_id
                \(unescaped: AssignmentStore.progress(of: "m.learner_id"))
                WHERE s.class_id = \(id.uuid)
                """, logger: logger
            ).collect() {
                let (learner, account, assignment, items, right) = try row.decode((UUID, UUID, UUID, [String], [String]).self)
                work.append(
                    AssignmentStore.AssignmentWork(
                        learner: LearnerID(learner), account: AccountID(account), assignment: AssignmentID(assignment), items: items,
                        rightItems: Set(right)))
            }
            let missed = try await connection.query(
                """
                SELECT item_id, count(*) FILTER (WHERE NOT correct)::int AS misses, count(*)::int FROM lesson_answers
                WHERE learner_id = ANY(\(order)) AND language = \(language) AND answered_at >= (\(unescaped: Self.utcToday) - 30)::timestamp AT TIME ZONE 'UTC'
                  AND (item_id LIKE 'word:%' OR item_id LIKE 'phrase:%')
                GROUP BY item_id HAVING count(*) FILTER (WHERE NOT correct) > 0
                ORDER BY misses DESC, item_id LIMIT 10
                """, logger: logger
            ).collect().map { row in
                let (item, misses, answers) = try row.decode((String, Int, Int).self)
                return ClassReport.Missed(item: item, misses: misses, answers: answers)
            }
            return (order.compactMap { members[$0] }, missed, work)
        }
    }
}

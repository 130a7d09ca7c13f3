import Foundation
import ParlaCore
import ParlaDatabase
import ParlaTeaching
import PostgresNIO

/// Teachers' assignments (migration 0024) and each learner's progress on
/// them, read from its lesson answers since the assignment was made.
public struct AssignmentStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    public init(database: Database, cipher: PersonalDataCipher) { (self.database, self.cipher) = (database, cipher) }

    public struct Assignment: Sendable, Equatable {
        public var id: AssignmentID
        public var classID: ClassID
        public var kind: String
        public var targets: [String]
        public var items: [String]
        public var due: Date
        public var created: Date
    }

    /// What a learner did of an assignment: items answered right at least
    /// once, answers, and answers right at the first try.
    public struct Progress: Sendable, Equatable {
        public var rightItems: Set<String>
        public var answers: Int
        public var firstTriesRight: Int
        public var lastAnswer: Date?

        /// Answers right at the first try over answers; nil before any.
        public var accuracy: Double? { answers == 0 ? nil : Double(firstTriesRight) / Double(answers) }
    }

    /// A member's answers right of one of its class's assignments, with
    /// its account (whose entitlements say which items it may open).
    public struct AssignmentWork: Sendable, Equatable {
        public var learner: LearnerID
        public var account: AccountID
        public var assignment: AssignmentID
        public var items: [String]
        public var rightItems: Set<String>
    }

    static let columns = "s.id, s.class_id, s.kind, s.targets, s.items, s.due_at, s.created_at"
    /// A learner's progress on the assignment `s` (`learner`: a column of
    /// the tables before it), read once from its answers as the columns
    /// `p.right_items`, `p.answers`, `p.first_tries_right`, `p.last_answer`.
    /// A lesson of the course (`course:<id>`) is right once finished since.
    static func progress(of learner: String) -> String {
        """
        CROSS JOIN LATERAL (
            SELECT coalesce(array_agg(DISTINCT a.item_id) FILTER (WHERE a.correct), '{}') || ARRAY(
                       SELECT DISTINCT 'course:' || l.course_lesson FROM lessons l
                       WHERE s.kind IN ('coursePack', 'courseLessons') AND l.learner_id = \(learner) AND l.course_lesson IS NOT NULL
                         AND l.finished_at >= s.created_at
                         AND 'course:' || l.course_lesson = ANY(s.items)) AS right_items,
                   count(*)::int AS answers, count(*) FILTER (WHERE a.correct AND a.tries = 1)::int AS first_tries_right,
                   max(a.answered_at) AS last_answer
            FROM lesson_answers a
            WHERE a.learner_id = \(learner) AND a.item_id = ANY(s.items) AND a.answered_at >= s.created_at
        ) p
        """
    }
    static let progressColumns = "p.right_items, p.answers, p.first_tries_right, p.last_answer"

    func decode(_ columns: PostgresRandomAccessRow, from start: Int = 0) throws -> Assignment {
        Assignment(
            id: AssignmentID(try columns[start].decode(UUID.self)), classID: ClassID(try columns[start + 1].decode(UUID.self)),
            kind: try columns[start + 2].decode(String.self), targets: try columns[start + 3].decode([String].self),
            items: try columns[start + 4].decode([String].self), due: try columns[start + 5].decode(Date.self),
            created: try columns[start + 6].decode(Date.self))
    }

    func decodeProgress(_ columns: PostgresRandomAccessRow, from start: Int) throws -> Progress {
        Progress(
            rightItems: Set(try columns[start].decode([String].self)), answers: try columns[start + 1].decode(Int.self),
            firstTriesRight: try columns[start + 2].decode(Int.self), lastAnswer: try columns[start + 3].decode(Date?.self))
    }

    /// A new assignment for the class; `class_not_found` once it is gone.
    public func create(
        for authorized: AuthorizedClass, kind: String, targets: [String], items: [String], due: Date
    ) async throws -> Assignment {
        let id = AssignmentID.generate()
        let rows = try await database.withTransaction { connection in
            try await connection.query(
                """
                INSERT INTO assignments (id, class_id, kind, targets, items, due_at)
                SELECT \(id.uuid), c.id, \(kind), \(targets), \(items), \(due) FROM classes c
                WHERE c.id = \(authorized.uuid)
                RETURNING created_at
                """, logger: database.logger
            ).collect()
        }
        guard let created = try rows.first?.decode(Date.self) else { throw ParlaError(.classNotFound) }
        return Assignment(id: id, classID: authorized.id, kind: kind, targets: targets, items: items, due: due, created: created)
    }

    public func assignments(of authorized: AuthorizedClass) async throws -> [Assignment] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT \(unescaped: Self.columns) FROM assignments s
                WHERE s.class_id = \(authorized.uuid) ORDER BY s.due_at, s.id
                """, logger: database.logger
            ).collect().map { try decode($0.makeRandomAccess()) }
        }
    }

    /// One of the class's assignments with every member (and its
    /// account, whose entitlements say what it may open) and its progress.
    public func assignment(_ id: AssignmentID, of authorized: AuthorizedClass) async throws
        -> (Assignment, [(learner: LearnerID, account: AccountID, displayName: String, progress: Progress)])
    {
        try await database.withConnection { connection in
            let logger = database.logger
            guard
                let assignment = try await connection.query(
                    """
                    SELECT \(unescaped: Self.columns) FROM assignments s WHERE s.id = \(id.uuid) AND s.class_id = \(authorized.uuid)
                    """, logger: logger
                ).collect().first.map({ try decode($0.makeRandomAccess()) })
            else { throw ParlaError(.assignmentNotFound) }
            let members = try await connection.query(
                """
                SELECT l.id, l.account_id, l.display_name, \(unescaped: Self.progressColumns)
                FROM assignments s JOIN class_members m ON m.class_id = s.class_id JOIN learners l ON l.id = m.learner_id
                \(unescaped: Self.progress(of: "m.learner_id"))
                WHERE s.id = \(id.uuid) ORDER BY m.joined_at, l.id
                """, logger: logger
            ).collect().map { row in
                let columns = row.makeRandomAccess()
                return (
                    learner: LearnerID(try columns[0].decode(UUID.self)), account: AccountID(try columns[1].decode(UUID.self)),
                    displayName: try cipher.openText(Array(buffer: try columns[2].decode(ByteBuffer.self)), as: .displayName),
                    progress: try decodeProgress(columns, from: 3)
                )
            }
            return (assignment, members)
        }
    }

    public func delete(_ id: AssignmentID, of authorized: AuthorizedClass) async throws {
        let rows = try await database.withTransaction { connection in
            try await connection.query(
                "DELETE FROM assignments WHERE id = \(id.uuid) AND class_id = \(authorized.uuid) RETURNING 1", logger: database.logger
            ).collect()
        }
        guard !rows.isEmpty else { throw ParlaError(.assignmentNotFound) }
    }

    /// The assignments of the learner's classes, soonest due first, with its progress.
    public func assignments(of learner: AuthorizedLearner) async throws -> [(Assignment, className: String, progress: Progress)] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT \(unescaped: Self.columns), c.name, \(unescaped: Self.progressColumns)
                FROM class_members m JOIN assignments s ON s.class_id = m.class_id JOIN classes c ON c.id = s.class_id
                \(unescaped: Self.progress(of: "m.learner_id"))
                WHERE m.learner_id = \(learner.uuid) ORDER BY s.due_at, s.id
                """, logger: database.logger
            ).collect().map { row in
                let columns = row.makeRandomAccess()
                return (
                    try decode(columns),
                    className: try cipher.openText(Array(buffer: try columns[7].decode(ByteBuffer.self)), as: .className),
                    progress: try decodeProgress(columns, from: 8)
                )
            }
        }
    }

    /// The items of an assignment of one of the learner's classes that it
    /// has not answered right yet (what a lesson focused on it asks first).
    public func remainingItems(_ id: AssignmentID, for learner: AuthorizedLearner) async throws -> [String] {
        let rows = try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT ARRAY(
                    SELECT i.item FROM unnest(s.items) WITH ORDINALITY AS i(item, n)
                    WHERE NOT EXISTS (SELECT 1 FROM lesson_answers a
                                      WHERE a.learner_id = m.learner_id AND a.item_id = i.item
                                        AND a.answered_at >= s.created_at AND a.correct)
                    ORDER BY i.n)
                FROM assignments s JOIN class_members m ON m.class_id = s.class_id
                WHERE s.id = \(id.uuid) AND m.learner_id = \(learner.uuid)
                """, logger: database.logger
            ).collect()
        }
        guard let items = try rows.first?.decode([String].self) else { throw ParlaError(.assignmentNotFound) }
        return items
    }
}

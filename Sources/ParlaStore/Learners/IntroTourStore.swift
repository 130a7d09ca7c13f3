import Foundation
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// Where each learner is with the intro tour.
public struct IntroTourStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    public struct Progress: Sendable, Equatable {
        public var status: IntroTour.Status
        public var version: Int?
        public var step: String?
        public var updatedAt: Date?
    }

    public func progress(_ learner: AuthorizedLearner) async throws -> Progress {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT l.id, t.tour_version, t.status, t.last_step, t.updated_at
                FROM learners l LEFT JOIN learner_intro_tours t ON t.learner_id = l.id
                WHERE l.id = \(learner.uuid)
                """, logger: database.logger
            ).collect()
            guard let row = rows.first else { throw ParlaError(.learnerNotFound) }
            let (_, version, status, step, updated) = try row.decode((UUID, Int?, String?, String?, Date?).self)
            return Progress(
                status: status.flatMap(IntroTour.Status.init(rawValue:)) ?? .notStarted, version: version, step: step, updatedAt: updated)
        }
    }

    /// Records the learner's progress with the current tour.
    public func record(_ learner: AuthorizedLearner, status: IntroTour.Status, step: String?) async throws -> Progress {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                INSERT INTO learner_intro_tours (learner_id, tour_version, status, last_step)
                SELECT id, \(IntroTour.version), \(status.rawValue), \(step) FROM learners WHERE id = \(learner.uuid)
                ON CONFLICT (learner_id) DO UPDATE SET tour_version = EXCLUDED.tour_version, status = EXCLUDED.status,
                    last_step = COALESCE(EXCLUDED.last_step, learner_intro_tours.last_step), updated_at = now()
                RETURNING last_step, updated_at
                """, logger: database.logger
            ).collect()
            guard let row = rows.first else { throw ParlaError(.learnerNotFound) }
            let (lastStep, updated) = try row.decode((String?, Date).self)
            return Progress(status: status, version: IntroTour.version, step: lastStep, updatedAt: updated)
        }
    }
}

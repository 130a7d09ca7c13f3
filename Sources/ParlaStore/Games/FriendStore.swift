import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// Friends between learners: codes, requests, acceptances, removals.
public struct FriendStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    public init(database: Database, cipher: PersonalDataCipher) { (self.database, self.cipher) = (database, cipher) }

    public struct Person: Sendable, Equatable {
        public var learner: LearnerID
        public var displayName: String
        public var avatarID: String
        public var since: Date
    }

    public struct Circle: Sendable {
        public var friendCode: String
        public var friends: [Person]
        /// Requests others sent, waiting for this learner's answer.
        public var incoming: [Person]
        /// Requests this learner sent, waiting.
        public var outgoing: [Person]
    }

    public enum RequestResult: Sendable { case requested(LearnerID), accepted(LearnerID) }

    public func circle(of learner: AuthorizedLearner) async throws -> Circle {
        try await database.withConnection { connection in
            let logger = database.logger
            let codes = try await connection.query(
                """
                SELECT friend_code FROM learners WHERE id = \(learner.uuid)
                """, logger: logger
            ).collect()
            guard let code = try codes.first?.decode(String.self) else { throw ParlaError(.learnerNotFound) }
            var circle = Circle(friendCode: code, friends: [], incoming: [], outgoing: [])
            for row in try await connection.query(
                """
                SELECT o.id, o.display_name, o.avatar_id, f.status, f.requester_id = \(learner.uuid), coalesce(f.accepted_at, f.requested_at)
                FROM friendships f JOIN learners o ON o.id = CASE WHEN f.requester_id = \(learner.uuid) THEN f.addressee_id ELSE f.requester_id END
                WHERE f.requester_id = \(learner.uuid) OR f.addressee_id = \(learner.uuid)
                ORDER BY 6, 1
                """, logger: logger
            ).collect() {
                let (id, name, avatar, status, mine, since) = try row.decode((UUID, ByteBuffer, String, String, Bool, Date).self)
                let person = Person(
                    learner: LearnerID(id), displayName: try cipher.openText(Array(buffer: name), as: .displayName),
                    avatarID: avatar, since: since)
                if status == "accepted" {
                    circle.friends.append(person)
                } else if mine {
                    circle.outgoing.append(person)
                } else {
                    circle.incoming.append(person)
                }
            }
            return circle
        }
    }

    /// Sends a request to the learner whose code it is (as the database
    /// makes them: `FriendCode`); when that learner
    /// had already asked, the two are friends at once.
    public func request(from learner: AuthorizedLearner, code: String) async throws -> RequestResult {
        try await database.withTransaction { connection in
            let logger = database.logger
            let found = try await connection.query("SELECT id FROM learners WHERE friend_code = \(code)", logger: logger)
                .collect()
            guard let other = try found.first.map({ LearnerID(try $0.decode(UUID.self)) }) else { throw ParlaError(.friendCodeNotFound) }
            guard other != learner.id else { throw ParlaError(.cannotBefriendSelf) }
            let existing = try await connection.query(
                """
                SELECT requester_id, status FROM friendships
                WHERE (requester_id = \(learner.uuid) AND addressee_id = \(other.uuid)) OR (requester_id = \(other.uuid) AND addressee_id = \(learner.uuid))
                FOR UPDATE
                """, logger: logger
            ).collect()
            if let (requester, status) = try existing.first?.decode((UUID, String).self) {
                if status == "accepted" { throw ParlaError(.alreadyFriends) }
                if requester == learner.uuid { return .requested(other) }
                try await connection.query(
                    """
                    UPDATE friendships SET status = 'accepted', accepted_at = now()
                    WHERE requester_id = \(other.uuid) AND addressee_id = \(learner.uuid)
                    """, logger: logger)
                return .accepted(other)
            }
            try await connection.query(
                """
                INSERT INTO friendships (requester_id, addressee_id, status) VALUES (\(learner.uuid), \(other.uuid), 'pending')
                ON CONFLICT DO NOTHING
                """, logger: logger)
            return .requested(other)
        }
    }

    /// Accepts or declines `other`'s pending request to `learner`.
    public func respond(_ learner: AuthorizedLearner, to other: LearnerID, accept: Bool) async throws {
        try await database.withConnection { connection in
            let logger = database.logger
            let rows =
                accept
                ? try await connection.query(
                    """
                    UPDATE friendships SET status = 'accepted', accepted_at = now()
                    WHERE requester_id = \(other.uuid) AND addressee_id = \(learner.uuid) AND status = 'pending' RETURNING 1
                    """, logger: logger
                ).collect()
                : try await connection.query(
                    """
                    DELETE FROM friendships WHERE requester_id = \(other.uuid) AND addressee_id = \(learner.uuid) AND status = 'pending'
                    RETURNING 1
                    """, logger: logger
                ).collect()
            guard !rows.isEmpty else { throw ParlaError(.friendRequestNotFound) }
        }
    }

    /// Ends a friendship, or withdraws a request, from either side.
    public func remove(_ learner: AuthorizedLearner, other: LearnerID) async throws {
        try await database.withConnection { connection in
            let logger = database.logger
            let rows = try await connection.query(
                """
                DELETE FROM friendships
                WHERE (requester_id = \(learner.uuid) AND addressee_id = \(other.uuid)) OR (requester_id = \(other.uuid) AND addressee_id = \(learner.uuid))
                RETURNING 1
                """, logger: logger
            ).collect()
            guard !rows.isEmpty else { throw ParlaError(.friendNotFound) }
        }
    }

    /// What others may see of a learner: name, avatar, the level of each
    /// course, and whether the profile is public.
    public struct PublicCard: Sendable {
        public var learner: LearnerID
        public var displayName: String
        public var avatarID: String
        public var isPublic: Bool
        public var levels: [(language: Language, level: CEFRLevel?)]
    }

    /// `target`'s card if `viewer` may see it: its own, a friend's, or a
    /// public one. Nil otherwise, as for a learner that does not exist.
    public func card(of target: LearnerID, viewer: AuthorizedLearner) async throws -> PublicCard? {
        try await database.withConnection { connection in
            let logger = database.logger
            let rows = try await connection.query(
                """
                SELECT l.display_name, l.avatar_id, l.public_profile,
                       l.id = \(viewer.uuid) OR EXISTS (SELECT 1 FROM friendships f WHERE f.status = 'accepted'
                           AND ((f.requester_id = l.id AND f.addressee_id = \(viewer.uuid)) OR (f.addressee_id = l.id AND f.requester_id = \(viewer.uuid))))
                FROM learners l WHERE l.id = \(target.uuid)
                """, logger: logger
            ).collect()
            guard let (name, avatar, isPublic, close) = try rows.first?.decode((ByteBuffer, String, Bool, Bool).self), isPublic || close
            else {
                return nil
            }
            let levels = try await connection.query(
                """
                SELECT language, level FROM courses WHERE learner_id = \(target.uuid) ORDER BY created_at
                """, logger: logger
            ).collect().compactMap { row -> (Language, CEFRLevel?)? in
                let (code, level) = try row.decode((String, String?).self)
                return Language(rawValue: code).map { ($0, level.flatMap(CEFRLevel.init(rawValue:))) }
            }
            return PublicCard(
                learner: target, displayName: try cipher.openText(Array(buffer: name), as: .displayName), avatarID: avatar,
                isPublic: isPublic, levels: levels)
        }
    }

    /// The share of learners in `language`'s courses at or below `level`, 0-100.
    public func levelPercentile(_ level: CEFRLevel, language: Language) async throws -> Double {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT coalesce(sum(learners) FILTER (WHERE level <= \(level.rawValue)), 0)::int, coalesce(sum(learners), 0)::int
                FROM course_level_counts WHERE language = \(language.code)
                """, logger: database.logger
            ).collect()
            guard let (atOrBelow, total) = try rows.first?.decode((Int, Int).self), total > 0 else { return 100 }
            return 100 * Double(atOrBelow) / Double(total)
        }
    }

    /// The game kinds and languages a learner has results in (all time).
    public func boards(of learner: LearnerID) async throws -> [(language: Language, kind: String)] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT language, kind FROM leaderboard_entries WHERE learner_id = \(learner.uuid) AND period = 'all' ORDER BY 1, 2
                """, logger: database.logger
            ).collect().compactMap { row in
                let (code, kind) = try row.decode((String, String).self)
                return Language(rawValue: code).map { ($0, kind) }
            }
        }
    }

    /// The learner's accepted friends.
    public func friends(of learner: LearnerID) async throws -> [LearnerID] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT CASE WHEN requester_id = \(learner.uuid) THEN addressee_id ELSE requester_id END FROM friendships
                WHERE (requester_id = \(learner.uuid) OR addressee_id = \(learner.uuid)) AND status = 'accepted'
                """, logger: database.logger
            ).collect().map { LearnerID(try $0.decode(UUID.self)) }
        }
    }
}

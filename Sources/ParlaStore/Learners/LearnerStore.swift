import Foundation
import Logging
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// Learner profiles under an account, and their pictures. Queries about
/// one learner take an `AuthorizedLearner`: who may touch it was decided
/// once, before the store is asked.
public struct LearnerStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    public init(database: Database, cipher: PersonalDataCipher) {
        self.database = database
        self.cipher = cipher
    }

    public struct NewLearner: Sendable {
        public var displayName: String
        public var age: Int?
        public var avatarID: String
        public var nativeLanguage: Language
        public var targetLanguages: [Language]
        public var keepRecordings: Bool
        public var publicProfile: Bool
        public var letterCase: LetterCase
        public init(
            displayName: String, age: Int?, avatarID: String, nativeLanguage: Language, targetLanguages: [Language],
            keepRecordings: Bool = false, publicProfile: Bool = false, letterCase: LetterCase = .lower
        ) {
            (self.displayName, self.age, self.avatarID) = (displayName, age, avatarID)
            (self.nativeLanguage, self.targetLanguages, self.keepRecordings) = (nativeLanguage, targetLanguages, keepRecordings)
            (self.publicProfile, self.letterCase) = (publicProfile, letterCase)
        }
    }

    public func learners(of accountID: AccountID) async throws -> [Learner] {
        try await database.withConnection { connection in
            var learners: [Learner] = []
            for try await row in try await connection.execute(LearnersOfAccount(key: accountID.uuid), logger: database.logger) {
                learners.append(try learner(from: row, accountID: accountID))
            }
            return learners
        }
    }

    /// Prepared once per connection: the profile screen reads it on every launch.
    struct LearnersOfAccount: KeyedStatement {
        static let sql = """
            SELECT \(LearnerStore.columns)
            FROM learners l LEFT JOIN learner_pictures p ON p.learner_id = l.id
            \(LearnerStore.coursesJoin)
            WHERE l.account_id = $1 ORDER BY l.created_at, l.id
            """
        typealias Row = PostgresRow
        var key: UUID
    }

    /// The learner; `learner_not_found` if it was deleted since it was authorized.
    /// The account a learner belongs to, for support's tools (requests go
    /// through `LearnerAccess`).
    public func account(of learner: LearnerID) async throws -> AccountID? {
        try await database.withConnection { connection in
            try await connection.query("SELECT account_id FROM learners WHERE id = \(learner.uuid)", logger: database.logger)
                .collect().first.map { AccountID(try $0.decode(UUID.self)) }
        }
    }

    public func learner(_ learner: AuthorizedLearner) async throws -> Learner {
        guard let found = try await database.withConnection({ try await find(learner, on: $0) }) else { throw ParlaError(.learnerNotFound) }
        return found
    }

    /// How many learners the account has; used to name the next one.
    public func count(of accountID: AccountID) async throws -> Int {
        try await database.withConnection { connection in
            try await connection.query(
                "SELECT count(*)::int FROM learners WHERE account_id = \(accountID.uuid)",
                logger: database.logger
            ).collect()[0].decode(Int.self)
        }
    }

    /// Adds a learner unless the account already has the most it may have.
    public func create(_ new: NewLearner, accountID: AccountID) async throws -> Learner {
        try await database.withTransaction { connection in
            // Lock the account row so two concurrent additions cannot both
            // pass the limit.
            let locked = try await connection.query(
                "SELECT id FROM accounts WHERE id = \(accountID.uuid) FOR UPDATE", logger: database.logger
            ).collect()
            guard !locked.isEmpty else { throw ParlaError(.authenticationRequired) }
            let count = try await connection.query(
                "SELECT count(*)::int FROM learners WHERE account_id = \(accountID.uuid)", logger: database.logger
            )
            .collect()[0].decode(Int.self)
            guard count < LearnerProfileRules.maximumLearnersPerAccount else { throw ParlaError(.learnerLimitReached) }
            return try await insert(new, accountID: accountID, on: connection)
        }
    }

    func insert(_ new: NewLearner, accountID: AccountID, on connection: PostgresConnection) async throws -> Learner {
        let id = LearnerID.generate()
        let name = ByteBuffer(bytes: try cipher.seal(new.displayName, as: .displayName))
        let age = new.age.map { Int16($0) }
        let targets = new.targetLanguages.map(\.code)
        let rows = try await connection.query(
            """
            INSERT INTO learners (id, account_id, display_name, age, avatar_id, native_language, target_languages, keep_recordings,
                                  public_profile, letter_case)
            VALUES (\(id.uuid), \(accountID.uuid), \(name), \(age), \(new.avatarID), \(new.nativeLanguage.code), \(targets),
                    \(new.keepRecordings), \(new.publicProfile), \(new.letterCase.rawValue))
            RETURNING created_at
            """, logger: database.logger
        ).collect()
        return Learner(
            id: id, accountID: accountID, displayName: new.displayName, age: new.age, avatarID: new.avatarID,
            nativeLanguage: new.nativeLanguage, targetLanguages: new.targetLanguages, picture: nil,
            createdAt: try rows[0].decode(Date.self), keepRecordings: new.keepRecordings, publicProfile: new.publicProfile,
            letterCase: new.letterCase)
    }

    /// Applies the validated fields; nil ones stay as they are.
    public func update(_ learner: AuthorizedLearner, _ changes: LearnerFields) async throws -> Learner {
        let name = try changes.displayName.map { ByteBuffer(bytes: try cipher.seal($0, as: .displayName)) }
        let age = changes.age.map { Int16($0) }
        let targets = changes.targetLanguages.map { $0.map(\.code) }
        return try await database.withTransaction { connection in
            let updated = try await connection.query(
                """
                UPDATE learners SET
                    display_name = COALESCE(\(name), display_name),
                    age = CASE WHEN \(changes.removeAge) THEN NULL ELSE COALESCE(\(age), age) END,
                    avatar_id = COALESCE(\(changes.avatarID), avatar_id),
                    native_language = COALESCE(\(changes.nativeLanguage?.code), native_language),
                    target_languages = COALESCE(\(targets), target_languages),
                    keep_recordings = COALESCE(\(changes.keepRecordings), keep_recordings),
                    public_profile = COALESCE(\(changes.publicProfile), public_profile),
                    letter_case = COALESCE(\(changes.letterCase?.rawValue), letter_case),
                    updated_at = now()
                WHERE id = \(learner.uuid)
                RETURNING id
                """, logger: database.logger
            ).collect()
            guard !updated.isEmpty, let found = try await find(learner, on: connection) else {
                throw ParlaError(.learnerNotFound)
            }
            return found
        }
    }

    /// "I can't speak now": no speaking question in the learner's lessons
    /// until `until` (a later pause already set stays).
    public func pauseSpeaking(_ learner: AuthorizedLearner, until: Date) async throws {
        try await database.withTransaction { connection in
            try await connection.query(
                """
                UPDATE learners SET speaking_paused_until = greatest(speaking_paused_until, \(until))
                WHERE id = \(learner.uuid)
                """, logger: database.logger)
        }
    }

    /// Until when the learner's speaking questions are paused, if they are.
    public func speakingPausedUntil(_ learner: AuthorizedLearner) async throws -> Date? {
        try await database.withConnection { connection in
            try await connection.query(
                "SELECT speaking_paused_until FROM learners WHERE id = \(learner.uuid) AND speaking_paused_until > now()",
                logger: database.logger
            ).collect().first?.decode(Date?.self)
        }
    }

    /// Deletes a learner and everything under it; the last one stays.
    /// Returns them if they were on leaderboards.
    public func delete(_ learner: AuthorizedLearner) async throws -> [LearnerID] {
        let id = learner.id
        return try await database.withTransaction { connection in
            // The account's row is locked: two deletions at once never leave it with none.
            let owned = try await connection.query(
                """
                SELECT (SELECT count(*)::int FROM learners WHERE account_id = \(learner.account.uuid)),
                       EXISTS (SELECT 1 FROM learners WHERE id = \(id.uuid))
                FROM accounts WHERE id = \(learner.account.uuid) FOR UPDATE
                """, logger: database.logger
            ).collect()
            guard let row = owned.first else { throw ParlaError(.learnerNotFound) }
            let (count, exists) = try row.decode((Int, Bool).self)
            guard exists else { throw ParlaError(.learnerNotFound) }
            guard count > 1 else { throw ParlaError(.lastLearner) }
            let ranked = try await LeaderboardStore.removeEntries(
                ofLearners: "SELECT \(id.uuid)::uuid", on: connection,
                logger: database.logger)
            try await connection.query("DELETE FROM learners WHERE id = \(id.uuid)", logger: database.logger)
            return ranked
        }
    }

    /// What a leaderboard shows of each of `learners`, and whose they are,
    /// in one query; learners that do not exist are missing.
    public func cards(_ learners: Set<UUID>) async throws -> [UUID: LearnerCard] {
        let rows = try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT l.id, l.account_id, l.display_name, l.avatar_id, l.letter_case,
                       coalesce(array_agg(c.language) FILTER (WHERE c.variant IS NOT NULL), '{}'),
                       coalesce(array_agg(c.variant) FILTER (WHERE c.variant IS NOT NULL), '{}')
                FROM learners l LEFT JOIN courses c ON c.learner_id = l.id
                WHERE l.id = ANY(\(Array(learners))) GROUP BY l.id
                """,
                logger: database.logger
            ).collect()
        }
        var cards: [UUID: LearnerCard] = [:]
        for row in rows {
            let (id, account, name, avatar, letterCase, languages, variants) = try row.decode(
                (UUID, UUID, ByteBuffer, String, String, [String], [String]).self)
            cards[id] = LearnerCard(
                account: AccountID(account), displayName: try cipher.openText(Array(buffer: name), as: .displayName), avatarID: avatar,
                letterCase: LetterCase(rawValue: letterCase) ?? .lower,
                variants: Dictionary(zip(languages, variants), uniquingKeysWith: { first, _ in first }))
        }
        return cards
    }

    // MARK: Pictures

    public func setPicture(_ learner: AuthorizedLearner, info: PictureInfo, bytes: [UInt8]) async throws {
        let sealed = ByteBuffer(bytes: try cipher.seal(bytes, as: .picture))
        try await database.withTransaction { connection in
            let stored = try await connection.query(
                """
                INSERT INTO learner_pictures (learner_id, media_type, width, height, content)
                SELECT id, \(info.mediaType.rawValue), \(info.width), \(info.height), \(sealed)
                FROM learners WHERE id = \(learner.uuid)
                ON CONFLICT (learner_id) DO UPDATE SET media_type = EXCLUDED.media_type, width = EXCLUDED.width,
                    height = EXCLUDED.height, content = EXCLUDED.content, updated_at = now()
                RETURNING learner_id
                """, logger: database.logger
            ).collect()
            guard !stored.isEmpty else { throw ParlaError(.learnerNotFound) }
        }
    }

    /// The learner's own picture; nil when it has none (it shows a default).
    public func picture(_ learner: AuthorizedLearner) async throws -> (PictureInfo, [UInt8])? {
        let row = try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT p.media_type, p.width, p.height, p.content
                FROM learners l LEFT JOIN learner_pictures p ON p.learner_id = l.id
                WHERE l.id = \(learner.uuid)
                """, logger: database.logger
            ).collect().first
        }
        guard let row else { throw ParlaError(.learnerNotFound) }
        let (type, width, height, content) = try row.decode((String?, Int?, Int?, ByteBuffer?).self)
        guard let type, let format = ImageFormat(rawValue: type), let width, let height, let content else { return nil }
        return (PictureInfo(mediaType: format, width: width, height: height), try cipher.open(content.bytes, as: .picture))
    }

    public func deletePicture(_ learner: AuthorizedLearner) async throws {
        try await database.withTransaction { connection in
            let owned = try await connection.query(
                """
                WITH owned AS (SELECT id FROM learners WHERE id = \(learner.uuid)),
                     gone AS (DELETE FROM learner_pictures WHERE learner_id IN (SELECT id FROM owned))
                SELECT id FROM owned
                """, logger: database.logger
            ).collect()
            guard !owned.isEmpty else { throw ParlaError(.learnerNotFound) }
        }
    }

    // MARK: Rows

    private func find(_ learner: AuthorizedLearner, on connection: PostgresConnection) async throws -> Learner? {
        try await connection.query(
            """
            SELECT \(unescaped: Self.columns)
            FROM learners l LEFT JOIN learner_pictures p ON p.learner_id = l.id
            \(unescaped: Self.coursesJoin)
            WHERE l.id = \(learner.uuid)
            """, logger: database.logger
        ).collect().first.map { try self.learner(from: $0, accountID: learner.account) }
    }

    private func learner(from row: PostgresRow, accountID: AccountID) throws -> Learner {
        try Self.learner(row.makeRandomAccess(), from: 0, accountID: accountID, cipher: cipher)
    }

    /// The columns every learner query selects, in order: the learner's,
    /// its picture's and its courses' (with `coursesJoin`).
    static let columns = """
        l.id, l.display_name, l.age, l.avatar_id, l.native_language, l.target_languages, l.keep_recordings, l.public_profile, l.created_at,
        p.media_type, p.width, p.height, k.languages, k.levels, k.started, l.letter_case
        """
    static let columnCount = 16

    /// Joined after `learners l` (and `learner_pictures p`): the learner's
    /// courses as three arrays in the order they were started. A course's
    /// level is the latest day's overall level, else where it started.
    static let coursesJoin = """
        LEFT JOIN LATERAL (
            SELECT array_agg(c.language ORDER BY c.created_at, c.language) AS languages,
                   array_agg(coalesce((SELECT h.level FROM ability_history h
                                       WHERE h.learner_id = c.learner_id AND h.language = c.language AND h.skill = 'overall'
                                       ORDER BY h.day DESC LIMIT 1), c.level, '') ORDER BY c.created_at, c.language) AS levels,
                   array_agg(EXISTS (SELECT 1 FROM abilities a WHERE a.learner_id = c.learner_id AND a.language = c.language
                                     AND a.responses > 0) ORDER BY c.created_at, c.language) AS started
            FROM courses c WHERE c.learner_id = l.id) k ON true
        """

    /// A learner from `columns`, read from the `offset`th column on.
    static func learner(_ row: PostgresRandomAccessRow, from offset: Int, accountID: AccountID, cipher: PersonalDataCipher) throws
        -> Learner
    {
        var picture: PictureInfo?
        if let pictureType = try row[offset + 9].decode(String?.self), let format = ImageFormat(rawValue: pictureType),
            let width = try row[offset + 10].decode(Int?.self), let height = try row[offset + 11].decode(Int?.self)
        {
            picture = PictureInfo(mediaType: format, width: width, height: height)
        }
        let courseLanguages = try row[offset + 12].decode([String]?.self) ?? []
        let courseLevels = try row[offset + 13].decode([String]?.self) ?? []
        let courseStarted = try row[offset + 14].decode([Bool]?.self) ?? []
        let courses = zip(courseLanguages, zip(courseLevels, courseStarted)).compactMap { code, course -> LanguageProgress? in
            Language(rawValue: code).map {
                LanguageProgress(language: $0, status: course.1 ? .inProgress : .notStarted, level: CEFRLevel(rawValue: course.0))
            }
        }
        return Learner(
            id: LearnerID(try row[offset].decode(UUID.self)), accountID: accountID,
            displayName: try cipher.openText(row[offset + 1].decode(ByteBuffer.self).bytes, as: .displayName),
            age: try row[offset + 2].decode(Int16?.self).map(Int.init), avatarID: try row[offset + 3].decode(String.self),
            nativeLanguage: Language(rawValue: try row[offset + 4].decode(String.self)) ?? .english,
            targetLanguages: try row[offset + 5].decode([String].self).compactMap(Language.init(rawValue:)), picture: picture,
            createdAt: try row[offset + 8].decode(Date.self), keepRecordings: try row[offset + 6].decode(Bool.self),
            publicProfile: try row[offset + 7].decode(Bool.self),
            letterCase: LetterCase(rawValue: try row[offset + 15].decode(String.self)) ?? .lower, courses: courses)
    }
}

/// What a leaderboard shows of a learner, and whose they are.
public struct LearnerCard: Sendable, Equatable {
    public var account: AccountID
    public var displayName: String
    public var avatarID: String
    /// How the learner sees words: its letter case, and the variant each
    /// of its courses names (by language code; none: the default one).
    public var letterCase: LetterCase = .lower
    public var variants: [String: String] = [:]
}

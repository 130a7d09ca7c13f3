import Foundation
import ParlaCore
import ParlaDatabase
import PostgresNIO

/// The drawings of learners' Art Spaces, sealed at rest: titles, pictures
/// and recordings. `sharedOnly` reads only what a learner shares with its
/// teachers (`ArtSpaceRules.seesUnshared`).
public struct DrawingStore: Sendable {
    let database: Database
    let cipher: PersonalDataCipher

    public init(database: Database, cipher: PersonalDataCipher) { (self.database, self.cipher) = (database, cipher) }

    /// Keeps a new drawing; `art_space_full` when the learner has as many as it may.
    public func create(_ learner: AuthorizedLearner, title: String, picture: PictureInfo, bytes: [UInt8]) async throws -> Drawing {
        let id = DrawingID.generate()
        let sealedTitle = ByteBuffer(bytes: try cipher.seal(title, as: .drawingTitle))
        let sealedPicture = ByteBuffer(bytes: try cipher.seal(bytes, as: .drawingPicture))
        return try await database.withTransaction { connection in
            // The learner's row, locked: two uploads at once count each other.
            let counted = try await connection.query(
                """
                SELECT (SELECT count(*) FROM drawings WHERE learner_id = l.id)::int
                FROM learners l WHERE l.id = \(learner.uuid) FOR UPDATE
                """, logger: database.logger
            ).collect()
            guard let count = try counted.first?.decode(Int.self) else { throw ParlaError(.learnerNotFound) }
            guard count < ArtSpaceRules.drawingsPerLearner else { throw ParlaError(.artSpaceFull) }
            let rows = try await connection.query(
                """
                INSERT INTO drawings (id, learner_id, title, picture, picture_type, width, height)
                VALUES (\(id.uuid), \(learner.uuid), \(sealedTitle), \(sealedPicture), \(picture.mediaType.rawValue),
                        \(picture.width), \(picture.height))
                RETURNING created_at
                """, logger: database.logger
            ).collect()
            return Drawing(
                id: id, title: title, picture: picture, recording: nil, isShared: false, createdAt: try rows[0].decode(Date.self))
        }
    }

    /// The learner's drawings, newest first.
    public func drawings(of learner: AuthorizedLearner, sharedOnly: Bool) async throws -> [Drawing] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT \(unescaped: Self.columns) FROM drawings
                WHERE learner_id = \(learner.uuid) AND (shared OR NOT \(sharedOnly))
                ORDER BY created_at DESC, id DESC
                """, logger: database.logger
            ).collect().map(drawing)
        }
    }

    public func drawing(_ id: DrawingID, of learner: AuthorizedLearner, sharedOnly: Bool) async throws -> Drawing {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.columns) FROM drawings
                WHERE id = \(id.uuid) AND learner_id = \(learner.uuid) AND (shared OR NOT \(sharedOnly))
                """, logger: database.logger
            ).collect()
            guard let row = rows.first else { throw ParlaError(.drawingNotFound) }
            return try drawing(row)
        }
    }

    /// A drawing's picture, opened.
    public func picture(_ id: DrawingID, of learner: AuthorizedLearner, sharedOnly: Bool) async throws -> (ImageFormat, [UInt8]) {
        let row = try await one("picture_type, picture", id, learner, sharedOnly)
        let (type, sealed) = try row.decode((String, ByteBuffer).self)
        guard let format = ImageFormat(rawValue: type) else { throw ParlaError(.internalError) }
        return (format, try cipher.open(sealed.bytes, as: .drawingPicture))
    }

    /// What the learner said about a drawing; nil when it recorded nothing.
    public func recording(_ id: DrawingID, of learner: AuthorizedLearner, sharedOnly: Bool) async throws
        -> (mediaType: String, bytes: [UInt8])?
    {
        let row = try await one("recording_type, recording", id, learner, sharedOnly)
        let (type, sealed) = try row.decode((String?, ByteBuffer?).self)
        guard let type, let sealed else { return nil }
        return (type, try cipher.open(sealed.bytes, as: .drawingRecording))
    }

    /// Renames it, or shares it (or stops); nil leaves either as it is.
    public func update(_ id: DrawingID, of learner: AuthorizedLearner, title: String?, isShared: Bool?) async throws -> Drawing {
        let sealedTitle = try title.map { ByteBuffer(bytes: try cipher.seal($0, as: .drawingTitle)) }
        return try await changed(
            """
            UPDATE drawings SET title = COALESCE(\(sealedTitle), title), shared = COALESCE(\(isShared), shared), updated_at = now()
            WHERE id = \(id.uuid) AND learner_id = \(learner.uuid)
            RETURNING \(unescaped: Self.columns)
            """)
    }

    /// Keeps what the learner said about the drawing, in place of what it
    /// said before; nil forgets it.
    public func setRecording(
        _ id: DrawingID, of learner: AuthorizedLearner, _ recording: (mediaType: String, seconds: Double, bytes: [UInt8])?
    ) async throws -> Drawing {
        let sealed = try recording.map { ByteBuffer(bytes: try cipher.seal($0.bytes, as: .drawingRecording)) }
        return try await changed(
            """
            UPDATE drawings SET recording = \(sealed), recording_type = \(recording?.mediaType),
                recording_seconds = \(recording?.seconds)::float8, updated_at = now()
            WHERE id = \(id.uuid) AND learner_id = \(learner.uuid)
            RETURNING \(unescaped: Self.columns)
            """)
    }

    /// The drawing an update returns; `drawing_not_found` when none matched.
    private func changed(_ update: PostgresQuery) async throws -> Drawing {
        try await database.withConnection { connection in
            guard let row = try await connection.query(update, logger: database.logger).collect().first else {
                throw ParlaError(.drawingNotFound)
            }
            return try drawing(row)
        }
    }

    public func delete(_ id: DrawingID, of learner: AuthorizedLearner) async throws {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                "DELETE FROM drawings WHERE id = \(id.uuid) AND learner_id = \(learner.uuid) RETURNING id", logger: database.logger
            ).collect()
            guard !rows.isEmpty else { throw ParlaError(.drawingNotFound) }
        }
    }

    private func one(_ columns: String, _ id: DrawingID, _ learner: AuthorizedLearner, _ sharedOnly: Bool) async throws -> PostgresRow {
        try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: columns) FROM drawings
                WHERE id = \(id.uuid) AND learner_id = \(learner.uuid) AND (shared OR NOT \(sharedOnly))
                """, logger: database.logger
            ).collect()
            guard let row = rows.first else { throw ParlaError(.drawingNotFound) }
            return row
        }
    }

    static let columns = "id, title, picture_type, width, height, recording_type, recording_seconds, shared, created_at"

    private func drawing(_ row: PostgresRow) throws -> Drawing {
        let (id, title, type, width, height, recordingType, seconds, shared, createdAt) = try row.decode(
            (UUID, ByteBuffer, String, Int, Int, String?, Double?, Bool, Date).self)
        guard let format = ImageFormat(rawValue: type) else { throw ParlaError(.internalError) }
        return Drawing(
            id: DrawingID(id), title: try cipher.openText(title.bytes, as: .drawingTitle),
            picture: PictureInfo(mediaType: format, width: width, height: height),
            recording: zip(recordingType, seconds).map { Drawing.Recording(mediaType: $0, seconds: $1) }, isShared: shared,
            createdAt: createdAt)
    }
}

/// Both values, when both are there.
private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}

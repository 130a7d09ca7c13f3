import Crypto
import Foundation

/// Encrypts personal fields at rest and derives blind indexes for lookups.
///
/// One 256-bit master key yields two independent keys (HKDF): one for
/// AES-GCM, one for HMAC-SHA256 indexes, so an index never reveals the
/// encryption key. Each field is sealed with its purpose as associated data,
/// so a ciphertext copied into another column does not open.
public struct PersonalDataCipher: Sendable {
    public enum Field: String, Sendable {
        case firstName = "account.first_name"
        case lastName = "account.last_name"
        case email = "account.email"
        case deviceName = "session.device_name"
        case displayName = "learner.display_name"
        case picture = "learner.picture"
        case speechRecording = "speech_attempt.audio"
        case speechJobRecording = "speech_job.audio"
        case teacherName = "teacher.display_name"
        case school = "teacher.school"
        case className = "class.name"
        case mailRecipient = "outbox.recipient"
        case mailMessage = "outbox.message"
        case supportText = "support_report.text"
        case supportDevice = "support_report.device"
        case supportScreenshot = "support_screenshot.content"
        case supportNote = "support_report.note"
        case twoFactorSecret = "account.two_factor_secret"
        case drawingTitle = "drawing.title"
        case drawingPicture = "drawing.picture"
        case drawingRecording = "drawing.recording"
    }

    // Raw bytes: SymmetricKey is not Sendable; making one per use is cheap.
    private let encryptionKeyBytes: [UInt8]
    private let indexKeyBytes: [UInt8]
    private var encryptionKey: SymmetricKey { SymmetricKey(data: encryptionKeyBytes) }
    private var indexKey: SymmetricKey { SymmetricKey(data: indexKeyBytes) }

    public init(masterKey: SymmetricKey) throws {
        guard masterKey.bitCount == 256 else { throw StoreError.invalidKey }
        encryptionKeyBytes = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: masterKey, info: Data("parla.personal-data.aes-gcm".utf8),
            outputByteCount: 32
        ).withUnsafeBytes { Array($0) }
        indexKeyBytes = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: masterKey, info: Data("parla.personal-data.blind-index".utf8),
            outputByteCount: 32
        ).withUnsafeBytes { Array($0) }
    }

    public func seal(_ text: String, as field: Field) throws -> [UInt8] {
        try seal(Array(text.utf8), as: field)
    }

    public func seal(_ bytes: [UInt8], as field: Field) throws -> [UInt8] {
        let box = try AES.GCM.seal(bytes, using: encryptionKey, authenticating: Data(field.rawValue.utf8))
        guard let combined = box.combined else { throw StoreError.invalidKey }
        return Array(combined)
    }

    public func openText(_ bytes: [UInt8], as field: Field) throws -> String {
        String(decoding: try open(bytes, as: field), as: UTF8.self)
    }

    public func open(_ bytes: [UInt8], as field: Field) throws -> [UInt8] {
        let box = try AES.GCM.SealedBox(combined: bytes)
        return Array(try AES.GCM.open(box, using: encryptionKey, authenticating: Data(field.rawValue.utf8)))
    }

    /// Equal inputs give equal indexes; nothing else can be learnt from one.
    public func blindIndex(_ text: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: indexKey))
    }
}

extension PersonalDataCipher {
    /// Reads a base64 key from `path`, or creates one there (mode 0600)
    /// when `create` is set and the file does not exist yet.
    public static func loadKey(at path: String, create: Bool) throws -> SymmetricKey {
        let manager = FileManager.default
        if let contents = manager.contents(atPath: path) {
            let text = String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let data = Data(base64Encoded: text), data.count == 32 else { throw StoreError.invalidKey }
            return SymmetricKey(data: data)
        }
        guard create else { throw StoreError.missingKey(path) }
        let key = SymmetricKey(size: .bits256)
        let encoded = key.withUnsafeBytes { Data($0).base64EncodedString() } + "\n"
        try manager.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard manager.createFile(atPath: path, contents: Data(encoded.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw StoreError.missingKey(path)
        }
        return key
    }

    public static func key(base64: String) throws -> SymmetricKey {
        guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32 else {
            throw StoreError.invalidKey
        }
        return SymmetricKey(data: data)
    }
}

public enum StoreError: Error, CustomStringConvertible {
    case invalidKey
    case missingKey(String)
    case clusterFailed(String)
    case migrationFailed(String)
    case invalidDatabaseURL
    case backupFailed(String)
    /// No connection to the database within `Database.connectionWait`.
    case databaseUnavailable

    public var description: String {
        switch self {
        case .invalidKey: "the personal-data key must be 32 bytes, base64-encoded"
        case .missingKey(let path): "no personal-data key at \(path): set security.dataKey or create the file"
        case .clusterFailed(let why): "embedded PostgreSQL: \(why)"
        case .migrationFailed(let why): "migration failed: \(why)"
        case .backupFailed(let why): "backup: \(why)"
        case .databaseUnavailable: "no database connection within the wait"
        case .invalidDatabaseURL: "database.url must look like postgres://user:password@host:5432/database"
        }
    }
}

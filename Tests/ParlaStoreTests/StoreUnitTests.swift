import Crypto
import Foundation
@testable import ParlaStore
import PostgresNIO
import Testing

@Suite("migration scripts")
struct SQLScriptTests {
    @Test func splitsOnlyBetweenStatements() {
        let script = """
            -- a comment; with a semicolon
            CREATE TABLE a (x text DEFAULT 'a;b');
            /* block; comment */
            CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;
            INSERT INTO "odd;name" VALUES (1);

            """
        #expect(SQLScript.statements(script) == [
            "CREATE TABLE a (x text DEFAULT 'a;b')",
            "CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql",
            "INSERT INTO \"odd;name\" VALUES (1)",
        ])
    }

    @Test func bundledMigrationsAreNumberedInOrder() throws {
        let migrations = try Database.bundledMigrations()
        #expect(!migrations.isEmpty)
        #expect(migrations.map(\.version) == migrations.map(\.version).sorted())
        #expect(Set(migrations.map(\.version)).count == migrations.count)
    }
}

@Suite("personal-data encryption")
struct CipherTests {
    let cipher = try! PersonalDataCipher(masterKey: SymmetricKey(size: .bits256))

    @Test func roundTripAndFreshNonces() throws {
        let sealed = try cipher.seal("Zoë O'Brien", as: .firstName)
        #expect(try cipher.openText(sealed, as: .firstName) == "Zoë O'Brien")
        #expect(try cipher.seal("Zoë O'Brien", as: .firstName) != sealed)
        #expect(!String(decoding: sealed, as: UTF8.self).contains("Zo"))
    }

    @Test func aCiphertextOpensOnlyInItsOwnColumn() throws {
        let sealed = try cipher.seal("zoe@example.com", as: .email)
        #expect(throws: (any Error).self) { try cipher.open(sealed, as: .firstName) }
        var tampered = sealed
        tampered[tampered.count - 1] ^= 1
        #expect(throws: (any Error).self) { try cipher.open(tampered, as: .email) }
    }

    @Test func blindIndexesAreDeterministicAndKeyed() throws {
        #expect(cipher.blindIndex("zoe@example.com") == cipher.blindIndex("zoe@example.com"))
        #expect(cipher.blindIndex("zoe@example.com") != cipher.blindIndex("zoé@example.com"))
        let other = try PersonalDataCipher(masterKey: SymmetricKey(size: .bits256))
        #expect(other.blindIndex("zoe@example.com") != cipher.blindIndex("zoe@example.com"))
    }

    @Test func keyFiles() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parla-key-\(UUID())/data.key").path
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        #expect(throws: (any Error).self) { try PersonalDataCipher.loadKey(at: path, create: false) }
        let made = try PersonalDataCipher.loadKey(at: path, create: true)
        let read = try PersonalDataCipher.loadKey(at: path, create: false)
        #expect(made == read)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(throws: (any Error).self) { try PersonalDataCipher.key(base64: "c2hvcnQ=") }
    }
}

@Suite("database URLs")
struct DatabaseURLTests {
    @Test func parses() throws {
        let tcp = try PostgresClient.Configuration(url: "postgres://parla:s%40cret@db.internal:6543/parla?sslmode=disable")
        #expect(tcp.host == "db.internal")
        #expect(tcp.port == 6543)
        #expect(tcp.username == "parla")
        #expect(tcp.password == "s@cret")
        #expect(tcp.database == "parla")
        let socket = try PostgresClient.Configuration(url: "postgresql://parla@localhost/app?host=/tmp/pg")
        #expect(socket.unixSocketPath == "/tmp/pg/.s.PGSQL.5432")
        for bad in ["mysql://x@y/z", "postgres://db.internal/parla", "not a url"] {
            #expect(throws: (any Error).self) { try PostgresClient.Configuration(url: bad) }
        }
    }
}

import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import ServiceLifecycle
import Synchronization

/// bcrypt on a thread pool of its own, never on an event loop: a cost-12
/// hash takes a quarter of a second of CPU.
///
/// The password is first reduced with SHA-256 (base64, 44 characters), so
/// every one of its up to 128 characters counts despite bcrypt's 72-byte
/// limit, and a NUL byte cannot cut it short.
public final class PasswordHasher: Service {
    private let pool: NIOThreadPool
    private let cost: UInt8
    /// A hash of nothing anyone knows, checked when the email is unknown;
    /// made on first use, on the pool.
    private let decoy = Mutex<String?>(nil)

    public init(cost: Int, threads: Int) {
        self.cost = UInt8(clamping: cost)
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
    }

    public func hash(_ password: String) async throws -> String {
        let input = Self.prehash(password)
        let cost = self.cost
        return try await pool.runIfActive { Bcrypt.hash(input, cost: cost) }
    }

    public func verify(_ password: String, against hash: String) async throws -> Bool {
        let input = Self.prehash(password)
        return try await pool.runIfActive { Bcrypt.verify(input, hash: hash) }
    }

    /// Spends the same time as a real check, so that an unknown email
    /// answers no faster than a wrong password.
    public func verifyNothing() async throws {
        let cost = self.cost
        _ = try await pool.runIfActive { [self] in
            let hash = self.decoy.withLock { stored in
                if let stored { return stored }
                let made = Bcrypt.hash(Self.prehash(UUID().uuidString), cost: cost)
                stored = made
                return made
            }
            return Bcrypt.verify(Self.prehash("parla-timing-equalizer"), hash: hash)
        }
    }

    package static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }

    public func run() async throws {
        try? await gracefulShutdown()
        try await pool.shutdownGracefully()
    }
}

/// An opaque bearer token: 256 random bits, shown to the client once and
/// stored only as its SHA-256.
package struct SessionToken {
    package let value: String

    package static func generate() -> SessionToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return SessionToken(value: Data(bytes).base64URLEncoded)
    }

    package var hash: [UInt8] { Self.hash(value) }

    package static func hash(_ token: String) -> [UInt8] { Array(SHA256.hash(data: Data(token.utf8))) }
}

extension Data {
    package var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

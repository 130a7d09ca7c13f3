import Crypto
import Foundation
import Hummingbird
import HummingbirdTLS
import Logging
import NIOSSL
import ServiceLifecycle
import SwiftASN1
import X509

/// A certificate authority of a test's own and a server certificate it
/// signed for `localhost` and 127.0.0.1: PEM files for servers of other
/// languages and for the client's trusted roots, and NIO's server side.
public struct TestCertificates: Sendable {
    /// The CA, for a client's trusted roots.
    public let caFile: String
    public let certificateFile: String
    public let keyFile: String
    public let serverConfiguration: TLSConfiguration

    public init(name: String, directory: URL) throws {
        let now = Date()
        let caKey = P256.Signing.PrivateKey()
        let serverKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName { CommonName("Parla Test \(name) CA") }
        let ca = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey), notValidBefore: now - 3600,
            notValidAfter: now + 86400 * 365, issuer: caName, subject: caName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            }, issuerPrivateKey: .init(caKey))
        let server = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(serverKey.publicKey), notValidBefore: now - 3600,
            notValidAfter: now + 86400 * 30, issuer: caName, subject: try DistinguishedName { CommonName("localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            }, issuerPrivateKey: .init(caKey))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        caFile = directory.appendingPathComponent("ca.pem").path
        certificateFile = directory.appendingPathComponent("server.pem").path
        keyFile = directory.appendingPathComponent("server-key.pem").path
        let serverPEM = try server.serializeAsPEM().pemString
        try ca.serializeAsPEM().pemString.write(toFile: caFile, atomically: true, encoding: .utf8)
        try serverPEM.write(toFile: certificateFile, atomically: true, encoding: .utf8)
        try serverKey.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
        serverConfiguration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(serverPEM.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(serverKey.pemRepresentation.utf8), format: .pem)))
    }
}

/// Serves `router` on a port of its own (on 127.0.0.1; over TLS with
/// `certificates`' server side, plain HTTP without) while `body` runs;
/// `listening` learns the port before `body` starts.
func serve<Value: Sendable>(
    _ router: Router<BasicRequestContext>, certificates: TLSConfiguration?, label: String,
    listening: @Sendable (Int) throws -> Void, _ body: () async throws -> Value
) async throws -> Value {
    let running = AsyncStream<Int>.makeStream()
    let logger = Logger(label: label)
    let app = Application(
        router: router, server: try certificates.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1(),
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in running.continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
    let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
    return try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask {
            try await services.run()
            return nil
        }
        var ports = running.stream.makeAsyncIterator()
        do {
            try listening(await ports.next() ?? 0)
            let value = try await body()
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            return value
        } catch {
            await services.triggerGracefulShutdown()
            throw error
        }
    }
}

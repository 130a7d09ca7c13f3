import Foundation
import Hummingbird
import Synchronization

/// A local OpenTelemetry collector: receives traces over OTLP/HTTP in its
/// JSON encoding (`POST /v1/traces`, as the protocol's specification
/// describes) and keeps every span, for tests of what a server exports.
public final class TestCollector: Sendable {
    /// One received span: its ids, name, kind and attributes (as text).
    public struct Span: Sendable {
        public var service: String
        public var traceID: String
        public var spanID: String
        public var parentSpanID: String
        public var name: String
        public var kind: Int
        public var attributes: [String: String]
    }

    private let state = Mutex<(port: Int, spans: [Span], requests: Int)>((0, [], 0))

    public init() {}

    /// The traces endpoint, once `run` has started the server.
    public var tracesURL: String { "http://127.0.0.1:\(state.withLock { $0.port })/v1/traces" }
    public var spans: [Span] { state.withLock { $0.spans } }

    /// Runs `body` with the collector listening on a port of its own.
    public func run<Value: Sendable>(_ body: @Sendable (TestCollector) async throws -> Value) async throws -> Value {
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 16 * 1024 * 1024)
            guard request.headers[.contentType]?.hasPrefix("application/json") == true,
                let export = try? JSONSerialization.jsonObject(with: Data(buffer: bytes)) as? [String: Any]
            else { return Response(status: .unsupportedMediaType) }
            let spans = Self.spans(in: export)
            self.state.withLock {
                $0.spans += spans
                $0.requests += 1
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        return try await serve(
            router, certificates: nil, label: "parla.test.collector", listening: { port in self.state.withLock { $0.port = port } }
        ) { try await body(self) }
    }

    /// The spans of an `ExportTraceServiceRequest` in OTLP's JSON encoding.
    static func spans(in export: [String: Any]) -> [Span] {
        var found: [Span] = []
        for resource in export["resourceSpans"] as? [[String: Any]] ?? [] {
            let resourceAttributes = attributes((resource["resource"] as? [String: Any])?["attributes"])
            for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scope["spans"] as? [[String: Any]] ?? [] {
                    found.append(
                        Span(
                            service: resourceAttributes["service.name"] ?? "", traceID: span["traceId"] as? String ?? "",
                            spanID: span["spanId"] as? String ?? "", parentSpanID: span["parentSpanId"] as? String ?? "",
                            name: span["name"] as? String ?? "", kind: span["kind"] as? Int ?? 0,
                            attributes: attributes(span["attributes"])))
                }
            }
        }
        return found
    }

    /// OTLP's key-value list, each value as text.
    static func attributes(_ list: Any?) -> [String: String] {
        var result: [String: String] = [:]
        for item in list as? [[String: Any]] ?? [] {
            guard let key = item["key"] as? String, let value = item["value"] as? [String: Any], let first = value.first else { continue }
            result[key] = "\(first.value)"
        }
        return result
    }
}

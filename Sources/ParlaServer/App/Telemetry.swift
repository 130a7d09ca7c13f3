import Foundation
import OTel
import ParlaDatabase
import ParlaServices
import ServiceLifecycle
import Synchronization

/// Where traces go: nowhere unless an OTLP endpoint is configured.
public struct TelemetrySettings: Sendable {
    /// The OTLP/HTTP traces URL, used as it is
    /// (`http://collector:4318/v1/traces`); nil: no tracing.
    public var otlpEndpoint: String?
    /// `http/protobuf` (the default) or `http/json`.
    public var otlpProtocol = "http/protobuf"
    /// The share of new traces recorded (a request with a sampled parent
    /// follows its parent).
    public var sampleRatio = 1.0
    public var serviceName = "parla"
    /// How long finished spans wait to be sent together.
    public var exportDelaySeconds = 5.0

    public init() {}
}

/// Traces across HTTP, SQL and scoring (issue 20, item 7), exported by
/// OTLP when configured: the HTTP span comes from Hummingbird's
/// `TracingMiddleware`, one client span per database use from `Database`,
/// and one per recording from `ScoringRoute` and `SpeechWorker`. Logs and
/// metrics keep their own paths (JSON lines, Prometheus).
package enum Telemetry {
    private static let started = Mutex(false)

    /// The exporter, to run with the process's services, the first time it
    /// is asked for in a process and only when an endpoint is configured
    /// (tracing is a process-wide system, set up once); nil otherwise.
    package static func exporter(_ settings: TelemetrySettings) throws -> (any Service)? {
        guard let endpoint = settings.otlpEndpoint, !endpoint.isEmpty else { return nil }
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = settings.serviceName
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.otlpExporter.endpoint = endpoint
        configuration.traces.otlpExporter.protocol = settings.otlpProtocol == "http/json" ? .httpJSON : .httpProtobuf
        configuration.traces.batchSpanProcessor.scheduleDelay = .milliseconds(Int(settings.exportDelaySeconds * 1000))
        if let sampler = OTel.Configuration.TracesConfiguration.SamplerConfiguration.parentBasedTraceIDRatio(
            ratio: min(1, max(0, settings.sampleRatio)))
        {
            configuration.traces.sampler = sampler
        }
        return try OTel.bootstrap(configuration: configuration)
    }

    /// Whether traces are being recorded in this process.
    static var isOn: Bool { started.withLock { $0 } }
}

import Foundation
import ParlaDatabase
import ParlaStore

/// A real nginx (Debian's) in front of Parla servers, round-robin, as
/// `deploy/README.md` describes: for tests of several app servers behind
/// one address. It writes which server took each request to its access log.
public final class TestBalancer: Sendable {
    public let port: Int
    let directory: String

    public static let binary = "/usr/sbin/nginx"

    /// Starts nginx on a free port, balancing over the servers at `upstreams`.
    public init(upstreams: [Int]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw TestFailure("nginx is not installed: run `make install-deps`")
        }
        port = try ServerProcess.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-nginx-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/logs", withIntermediateDirectories: true)
        let servers = upstreams.map { "        server 127.0.0.1:\($0);" }.joined(separator: "\n")
        let configuration = """
            pid \(directory)/nginx.pid;
            error_log \(directory)/logs/error.log warn;
            events { worker_connections 256; }
            http {
                log_format upstream '$request_method $uri $status $upstream_addr';
                access_log \(directory)/logs/access.log upstream;
                client_body_temp_path \(directory)/body;
                proxy_temp_path \(directory)/proxy;
                fastcgi_temp_path \(directory)/fastcgi;
                uwsgi_temp_path \(directory)/uwsgi;
                scgi_temp_path \(directory)/scgi;
                client_max_body_size 4m;
                upstream parla {
            \(servers)
                    keepalive 16;
                }
                server {
                    listen 127.0.0.1:\(port);
                    location / {
                        proxy_pass http://parla;
                        proxy_http_version 1.1;
                        proxy_set_header Connection "";
                        proxy_set_header Host $host;
                        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                        proxy_set_header X-Forwarded-Proto $scheme;
                    }
                }
            }
            """
        try configuration.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
        // nginx forks its master into the background and returns once it listens.
        let status = try ChildProcess.run(
            [Self.binary, "-p", directory, "-c", directory + "/nginx.conf"], outputPath: directory + "/logs/start.log")
        guard status == 0 else {
            throw TestFailure("nginx did not start: \((try? String(contentsOfFile: directory + "/logs/start.log", encoding: .utf8)) ?? "")")
        }
    }

    /// The upstream (`127.0.0.1:PORT`) that answered each request so far, in order.
    public func upstreamsUsed() throws -> [String] {
        let log = try String(contentsOfFile: directory + "/logs/access.log", encoding: .utf8)
        return log.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
    }

    /// Stops nginx and removes its files.
    public func stop() {
        _ = try? ChildProcess.run(
            [Self.binary, "-p", directory, "-c", directory + "/nginx.conf", "-s", "stop"], outputPath: directory + "/logs/stop.log")
        try? FileManager.default.removeItem(atPath: directory)
    }
}

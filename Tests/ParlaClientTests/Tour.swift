import Foundation
import HTTPTypes
import OpenAPIRuntime
import ParlaTestSupport
import Synchronization

/// README.md's tour as scripts/tour.sh reads it: each ```sh block between
/// `<!-- tour:start -->` and `<!-- tour:end -->` is a step, titled by the
/// last "**N. Title**" before it. Of each block we keep the requests its
/// curl calls make (method, path, signed in or not), so that a test walking
/// the tour with the typed client can show it made the same ones.
struct Tour {
    struct Step {
        let title: String
        let requests: Set<Request>
    }

    /// A request as the README writes it: `path` keeps its shell variables
    /// (`/v1/learners/$LEARNER/courses`), each standing for one segment.
    struct Request: Hashable, CustomStringConvertible {
        let method: String
        let path: String
        let signed: Bool

        var description: String { "\(method) \(path)\(signed ? " (signed in)" : "")" }

        /// Whether a request the client made is this one.
        func matches(_ made: Made) -> Bool {
            guard made.method == method, made.signed == signed else { return false }
            let pattern = path.split(separator: "/", omittingEmptySubsequences: false)
            let segments = made.path.split(separator: "/", omittingEmptySubsequences: false)
            return pattern.count == segments.count && zip(pattern, segments).allSatisfy { $0.hasPrefix("$") || $0 == $1 }
        }
    }

    /// A request the client made, its query left out.
    struct Made: Hashable, CustomStringConvertible {
        let method: String
        let path: String
        let signed: Bool

        var description: String { "\(method) \(path)\(signed ? " (signed in)" : "")" }
    }

    let steps: [Step]

    init(readme: String) {
        var steps: [Step] = []
        var title = ""
        var block: [Substring]?
        var inside = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains("<!-- tour:start -->") { inside = true } else if line.contains("<!-- tour:end -->") { inside = false }
            guard inside else { continue }
            if var lines = block {
                if line.trimmingCharacters(in: .whitespaces) == "```" {
                    steps.append(Step(title: title, requests: Self.requests(lines.joined(separator: "\n"))))
                    block = nil
                } else {
                    lines.append(line)
                    block = lines
                }
            } else if line.trimmingCharacters(in: .whitespaces) == "```sh" {
                block = []
            } else if line.hasPrefix("**"), let end = line.dropFirst(2).range(of: "**") {
                title = String(line.dropFirst(2)[..<end.lowerBound])
            }
        }
        self.steps = steps
    }

    /// The project's README.md.
    static func read() throws -> Tour {
        Tour(readme: try String(contentsOfFile: TestApp.projectDirectory + "/README.md", encoding: .utf8))
    }

    /// Every curl call of a block: from `curl` to its `$PARLA/...` address
    /// (the tour puts every option before the address). `-X` names the
    /// method; a body (`--json`, `--data-binary`) makes it a POST.
    static func requests(_ script: String) -> Set<Request> {
        var requests: Set<Request> = []
        var rest = script[...]
        while let curl = rest.range(of: "curl ") {
            guard let address = rest[curl.upperBound...].range(of: "$PARLA/") else { break }
            let options = rest[curl.upperBound..<address.lowerBound]
            let path = "/" + rest[address.upperBound...].prefix { !" \"'?)|;\n".contains($0) }
            let words = options.split(whereSeparator: \.isWhitespace)
            let method: String
            if let x = words.firstIndex(of: "-X"), x + 1 < words.endIndex {
                method = String(words[x + 1])
            } else {
                method = words.contains { $0 == "--json" || $0 == "--data-binary" } ? "POST" : "GET"
            }
            requests.insert(Request(method: method, path: path, signed: options.contains("$AUTH")))
            rest = rest[address.upperBound...]
        }
        return requests
    }
}

/// Keeps the requests a client makes, for one step at a time.
final class RequestLog: ClientMiddleware {
    private let made = Mutex<[Tour.Made]>([])

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let path = String((request.path ?? "").prefix { $0 != "?" })
        let signed = request.headerFields[.authorization] != nil
        made.withLock { $0.append(Tour.Made(method: request.method.rawValue, path: path, signed: signed)) }
        return try await next(request, body, baseURL)
    }

    /// What was made since the last call.
    func take() -> [Tour.Made] {
        made.withLock { made in
            defer { made = [] }
            return made
        }
    }
}

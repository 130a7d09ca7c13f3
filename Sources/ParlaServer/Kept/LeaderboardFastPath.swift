import Foundation
import HTTPTypes
import OpenAPIRuntime
import ParlaCore
import ParlaStore

/// The leaderboard page is the busiest read, and once the page itself came
/// from memory, a third of its CPU went to the generated code's URI
/// decoder (which parses the whole query once per parameter) and to
/// `JSONEncoder` (about 100 µs for a page). This reads the usual request by
/// hand and writes the page's JSON by hand, in the bytes the generated
/// code writes (a test compares them). Anything else (the friends scope,
/// an unknown parameter, an escaped or out-of-range value) goes on to the
/// generated handler, which answers it, errors included: the OpenAPI
/// document stays the one contract.
struct LeaderboardFastPath: ServerMiddleware {
    let handler: APIHandler

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        guard operationID == "getLeaderboard", request.method == .get, request.headerFields[.accept].map(Self.acceptsJSON) ?? true,
            let query = request.path.flatMap(Self.query)
        else { return try await next(request, body, metadata) }
        let board = try await handler.leaderboard(query)
        guard let bytes = LeaderboardJSON.encode(query, language: board.language, period: board.period, page: board.page) else {
            return try await next(request, body, metadata)
        }
        return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json; charset=utf-8"]), HTTPBody(bytes))
    }

    /// An `Accept` that plainly takes JSON; the generated code judges the rest.
    static func acceptsJSON(_ accept: String) -> Bool {
        accept.split(separator: ",").contains { entry in
            let type = (entry.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            return type == "application/json" || type == "application/*" || type == "*/*"
        }
    }

    static let prefix = "/v1/leaderboards/"
    /// The games with leaderboards.
    static let kinds = ["matching", "spelling"]

    /// The request, when it is one this path answers: nil sends it on.
    static func query(_ path: String) -> LeaderboardQuery? {
        let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts[0].hasPrefix(Self.prefix), let kind = Self.kinds.first(where: { parts[0].dropFirst(Self.prefix.count) == $0 }) else {
            return nil
        }
        var query = LeaderboardQuery(kind: kind, language: "", scope: .global, metric: .score, learner: nil, limit: 10)
        var seen: Set<Substring> = []
        for pair in parts.count == 2 ? parts[1].split(separator: "&") : [] {
            let field = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard field.count == 2, seen.insert(field[0]).inserted, !field[1].contains("%"), !field[1].contains("+") else { return nil }
            let value = String(field[1])
            switch field[0] {
            case "language" where Language(rawValue: value) != nil: query.language = value
            case "scope" where value == "global" || value == "week": query.scope = LeaderboardQuery.Scope(rawValue: value)!
            case "metric":
                guard let metric = LeaderboardStore.Metric(rawValue: value) else { return nil }
                query.metric = metric
            case "learnerId" where UUIDText.parse(value) != nil: query.learner = value
            case "limit":
                guard let limit = Int(value), (1...100).contains(limit), String(limit) == value else { return nil }
                query.limit = limit
            default: return nil
            }
        }
        return query.language.isEmpty ? nil : query
    }
}

/// A page as JSON, keys sorted and nothing escaped that need not be, as
/// the generated code's `JSONEncoder` writes it.
enum LeaderboardJSON {
    /// Nil for a time that is no number (JSONEncoder refuses it too).
    static func encode(_ query: LeaderboardQuery, language: Language, period: String, page: LeaderboardStore.Page) -> [UInt8]? {
        guard (page.top + page.neighbours + (page.own.map { [$0] } ?? [])).allSatisfy(\.seconds.isFinite) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(200 + 180 * (page.top.count + page.neighbours.count + 1))
        out += #"{"entries":["#.utf8
        rows(page.top, into: &out)
        out += #"],"kind":"#.utf8
        string(query.kind, into: &out)
        out += #","language":"#.utf8
        string(language.code, into: &out)
        out += #","metric":"#.utf8
        string(query.metric.rawValue, into: &out)
        out += #","neighbours":["#.utf8
        rows(page.neighbours, into: &out)
        out += "]".utf8
        if let own = page.own {
            out += #","own":"#.utf8
            row(own, into: &out)
        }
        out += #","period":"#.utf8
        string(period, into: &out)
        out += #","scope":"#.utf8
        string(query.scope.rawValue, into: &out)
        out += #","total":"#.utf8
        out += String(page.total).utf8
        out += "}".utf8
        return out
    }

    static func rows(_ rows: [LeaderboardStore.Row], into out: inout [UInt8]) {
        for (index, shown) in rows.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            row(shown, into: &out)
        }
    }

    static func row(_ row: LeaderboardStore.Row, into out: inout [UInt8]) {
        out += #"{"avatarId":"#.utf8
        string(row.avatarID, into: &out)
        out += #","displayName":"#.utf8
        string(row.displayName, into: &out)
        out += #","learnerId":""#.utf8
        out += UUIDText.lowercase(row.learner.uuid).utf8
        out += #"","rank":"#.utf8
        out += String(row.rank).utf8
        out += #","score":"#.utf8
        out += String(row.score).utf8
        out += #","seconds":"#.utf8
        number(row.seconds, into: &out)
        out += "}".utf8
    }

    /// A string as `JSONEncoder` escapes it (with `.withoutEscapingSlashes`).
    static func string(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case 0x08: out += #"\b"#.utf8
            case 0x0C: out += #"\f"#.utf8
            case 0x0A: out += #"\n"#.utf8
            case 0x0D: out += #"\r"#.utf8
            case 0x09: out += #"\t"#.utf8
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                out += #"\u00"#.utf8
                out += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A number as `JSONEncoder` writes it: its description without a final ".0".
    static func number(_ value: Double, into out: inout [UInt8]) {
        let text = value.description.utf8
        out += text.count > 2 && text.suffix(2).elementsEqual(".0".utf8) ? text.dropLast(2) : text[...]
    }
}

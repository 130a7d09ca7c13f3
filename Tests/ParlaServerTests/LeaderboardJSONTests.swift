import Foundation
import ParlaCore
import ParlaStore
import Testing

@testable import ParlaServer

@Suite("leaderboard fast path")
struct LeaderboardJSONTests {
    /// What `JSONEncoder` writes for one value, as the generated code configures it.
    func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode([value]), as: UTF8.self).dropFirst().dropLast().description
    }

    @Test("strings and numbers are written as JSONEncoder writes them")
    func values() throws {
        var texts = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["Zoë", "Ñandú", "日本語", "a\"b\\c/d", "emoji 🦊", "", "tab\tand\nnew line\u{7f}\u{2028}"]
        for text in texts {
            var out: [UInt8] = []
            LeaderboardJSON.string(text, into: &out)
            #expect(String(decoding: out, as: UTF8.self) == (try encoded(text)), "\(text.unicodeScalars.map(\.value))")
        }
        var random = SystemRandomNumberGenerator()
        var numbers: [Double] = [0, 1, 12, 12.3, 0.1, 140.6, 259, 3.05, 1e14, 1e15, 1e16, 123_456.789, 0.000_1, 1.0 / 3, 2.5e-7]
        numbers += (0..<2000).map { _ in Double(random.next() % 100_000) / [1, 7, 10, 100][Int(random.next() % 4)] }
        for number in numbers {
            var out: [UInt8] = []
            LeaderboardJSON.number(number, into: &out)
            #expect(String(decoding: out, as: UTF8.self) == (try encoded(number)), "\(number)")
        }
    }

    @Test("only the usual requests take the fast path; anything else goes to the generated code")
    func queries() {
        let learner = "01a2067c-ab15-7242-99cc-fcaa26914601"
        #expect(
            LeaderboardFastPath.query("/v1/leaderboards/matching?language=fr")
                == LeaderboardQuery(kind: "matching", language: "fr", scope: .global, metric: .score, learner: nil, limit: 10))
        #expect(
            LeaderboardFastPath.query("/v1/leaderboards/matching?limit=3&metric=time&scope=week&learnerId=\(learner)&language=de")
                == LeaderboardQuery(kind: "matching", language: "de", scope: .week, metric: .time, learner: learner, limit: 3))
        for path in [
            "/v1/leaderboards/matching", "/v1/leaderboards/matching?", "/v1/leaderboards/other?language=fr",
            "/v1/leaderboards/matching?language=xx", "/v1/leaderboards/matching?language=fr&scope=friends",
            "/v1/leaderboards/matching?language=fr&metric=speed", "/v1/leaderboards/matching?language=fr&limit=0",
            "/v1/leaderboards/matching?language=fr&limit=101", "/v1/leaderboards/matching?language=fr&limit=05",
            "/v1/leaderboards/matching?language=fr&learnerId=nope", "/v1/leaderboards/matching?language=fr&learnerId=",
            "/v1/leaderboards/matching?language=fr&language=de", "/v1/leaderboards/matching?language=f%72",
            "/v1/leaderboards/matching?language=fr&x=1", "/v1/leaderboards/matching?language",
        ] {
            #expect(LeaderboardFastPath.query(path) == nil, "\(path)")
        }
        for accept in ["application/json", "*/*", "text/html, application/json;q=0.9", "Application/JSON", "application/*"] {
            #expect(LeaderboardFastPath.acceptsJSON(accept), "\(accept)")
        }
        for accept in ["text/html", "", ",,", "application/xml", "application/jsonx"] {
            #expect(!LeaderboardFastPath.acceptsJSON(accept), "\(accept)")
        }
    }
}

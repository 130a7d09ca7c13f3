import Foundation
import ParlaAPI
import ParlaTestSupport
import Testing

/// Issue 35, item 1: `GET /v1/languages/{lang}/alphabet`, every variant.
@Suite("alphabets over HTTP")
struct AlphabetHTTPTests {
    @Test("every variant's alphabet, its letters said aloud (a phonics y two ways), no sign-in; clear codes for what has none")
    func alphabets() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let variants = [
                ("en", nil, 26), ("en", "en-GB", 26), ("en", "en-phonics", 26), ("en", "en-GB-phonics", 26), ("fr", nil, 41),
                ("it", nil, 32), ("de", nil, 30), ("es", nil, 27),
            ]
            var heard: Set<String> = []
            for (language, variant, count) in variants {
                let path = "/v1/languages/\(language)/alphabet" + (variant.map { "?variant=\($0)" } ?? "")
                let reply = try await client.get(path)
                #expect(reply.status == 200, "\(path): \(reply.text)")
                let alphabet = try reply.decoded(Components.Schemas.Alphabet.self)
                // Unnamed, the language's default variant: British English.
                #expect(alphabet.variant == variant ?? (language == "en" ? "en-GB" : language) && alphabet.language.rawValue == language)
                #expect(alphabet.letters.count == count, "\(alphabet.variant): \(alphabet.letters.count) letters")
                #expect(alphabet.phonics == alphabet.variant.hasSuffix("-phonics") && !alphabet.all.isEmpty)
                #expect(alphabet.letters.allSatisfy { $0.audio?.hasPrefix("/v1/assets/") == true }, "\(alphabet.variant)")
                heard.formUnion(alphabet.letters.compactMap(\.audio))
                // The same letter's audio differs between a name and a sound.
                if alphabet.phonics {
                    let y = try #require(alphabet.letters.first { $0.letter == "y" })
                    #expect(y.finalAudio != nil && y.finalAudio != y.audio && y.upper == "Y")
                    try await CourseLessonHTTPTests().expectAudio(app, client, y.audio)
                    try await CourseLessonHTTPTests().expectAudio(app, client, y.finalAudio)
                } else {
                    #expect(alphabet.letters.allSatisfy { $0.finalAudio == nil })
                }
                // Cached as content is: the same tag, 304.
                let tag = try #require(reply.headers[.eTag])
                #expect(try await client.get(path, headers: ["If-None-Match": tag]).status == 304)
            }
            #expect(heard.count > 26 * 4, "variants share no audio of a letter: \(heard.count)")
            // The flag of each variant's country, drawn by us: SVG, and a PNG of 115 x 79.
            for (language, variant, flag) in [("en", "en-GB-phonics", "gb"), ("en", "en", "us"), ("es", "es", "es")] {
                let alphabet = try await client.get("/v1/languages/\(language)/alphabet?variant=\(variant)")
                    .decoded(Components.Schemas.Alphabet.self)
                try await app.buildAssets(paths: [alphabet.flag, alphabet.flagPng])
                let svg = try await client.get(alphabet.flag)
                #expect(svg.status == 200 && svg.header("Content-Type") == "image/svg+xml" && svg.text.hasPrefix("<svg"), "\(flag)")
                let png = try await client.get(alphabet.flagPng)
                #expect(png.status == 200 && png.header("Content-Type") == "image/png", "\(flag): \(png.status)")
                #expect(png.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && Array(png.bytes[16..<24]) == [0, 0, 0, 115, 0, 0, 0, 79])
            }
            let german = try await client.get("/v1/languages/de/alphabet").decoded(Components.Schemas.Alphabet.self)
            #expect(german.letters.suffix(4).map(\.letter) == ["ä", "ö", "ü", "ß"] && german.all == "Alle Wörter")
            try await CourseLessonHTTPTests().expectAudio(app, client, german.letters.last?.audio)
            for (path, code) in [
                ("/v1/languages/en/alphabet?variant=en-AU", "alphabet_not_found"),
                ("/v1/languages/fr/alphabet?variant=en-GB", "alphabet_not_found"),
                ("/v1/languages/xx/alphabet", "language_not_found"),
            ] {
                let refused = try await client.get(path, headers: ["Accept-Language": "fr"])
                #expect(refused.status == 404 && refused.code == code, "\(path): \(refused.text)")
            }
        }
    }

}

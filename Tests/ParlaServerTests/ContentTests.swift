import Foundation
import HTTPTypes
import OpenAPIRuntime
import ParlaCommerce
import ParlaContent
import ParlaCore
import ParlaServices
import ParlaTestSupport
import Synchronization
import Testing

@testable import ParlaServer

/// Seed 000's starter set: Home and seven lists of 35, 280 words, open to
/// every account (Corpora/products.yaml).
let starterLists = ["home", "animals", "food", "body", "clothing", "transport", "weather", "family"]

/// The content API over the project's own Corpora (imported into every
/// test database through the template).
@Suite("content API")
struct ContentTests {
    typealias JSON = [String: any Sendable]

    func grant(_ product: String, to learner: String, in app: TestApp) async throws {
        try await TestDatabase.shared.execute(
            in: app.databaseURL,
            """
            INSERT INTO account_entitlements (account_id, product, source, note)
            SELECT account_id, \(product), 'grant', 'test' FROM learners WHERE id = \(UUID(uuidString: learner)!)
            """)
    }

    @Test("languages with their names and alphabets; Spanish has ñ")
    func languages() async throws {
        try await TestApp.make().run { client in
            let reply = try await client.get("/v1/languages")
            let languages = try #require(reply.json["languages"] as? [JSON])
            #expect(languages.compactMap { $0["code"] as? String } == ["en", "fr", "it", "de", "es"])
            let spanish = try #require(languages.first { $0["code"] as? String == "es" })
            #expect(spanish["nativeName"] as? String == "español")
            #expect((spanish["alphabet"] as? [String])?.count == 27)
            #expect((spanish["alphabet"] as? [String])?[14] == "Ñ")
            #expect(reply.json["contentVersion"] is String)
        }
    }

    @Test("twelve lists of 35; the starter's eight open, the rest locked with their offer; a grant unlocks only its list")
    func wordLists() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let anonymous = try #require(try await client.get("/v1/languages/fr/wordlists").json["wordLists"] as? [JSON])
            #expect(anonymous.count == 12)
            #expect(
                anonymous.allSatisfy {
                    $0["wordCount"] as? Int == 35 && $0["locked"] as? Bool == !starterLists.contains($0["id"] as? String ?? "")
                })
            // Seed 000: Water and Professions greyed out with the pair's offer while the promotion runs, alone after it.
            let offers = Dictionary(uniqueKeysWithValues: anonymous.map { ($0["id"] as? String ?? "", $0["offer"] as? String) })
            let pair = Date() < ISO8601DateFormatter().date(from: "2027-01-01T00:00:00Z")!
            #expect(offers["water"] == (pair ? "water-and-professions" : "water"))
            #expect(offers["professions"] == (pair ? "water-and-professions" : "professions"))
            #expect(offers["numbers"] == "numbers" && offers["colours"] == "colours")
            #expect(starterLists.allSatisfy { offers[$0] == .some(nil) })
            #expect(anonymous.first { $0["id"] as? String == "animals" }?["name"] as? String != nil)
            // DF5: every list's name in each UI language, for the app's own.
            let names = try #require(anonymous.first { $0["id"] as? String == "home" }?["names"] as? [String: any Sendable])
            #expect(names["fr"] as? String == "La maison" && names["de"] as? String == "Das Zuhause" && names.count == 5)

            let parent = try await client.signUp()
            try await grant("numbers", to: parent.learnerID, in: app)
            let mine = try #require(
                try await client.get("/v1/languages/fr/wordlists?learnerId=\(parent.learnerID)", token: parent.token)
                    .json["wordLists"] as? [JSON])
            #expect(
                Set(mine.filter { $0["locked"] as? Bool == false }.compactMap { $0["id"] as? String }) == Set(starterLists + ["numbers"]))
            #expect(mine.first { $0["id"] as? String == "numbers" }?["offer"] == nil)

            // Someone else's learner is not found; no token is a 401.
            let other = try await client.signUp(email: "other@example.com")
            #expect(try await client.get("/v1/languages/fr/wordlists?learnerId=\(parent.learnerID)", token: other.token).status == 404)
            #expect(try await client.get("/v1/languages/fr/wordlists?learnerId=\(parent.learnerID)").status == 401)
            #expect(try await client.get("/v1/languages/pt/wordlists").code == "language_not_found")
        }
    }

    @Test("a locked list shows no word; an open one all 35, in the language's order")
    func pages() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let locked = try await client.get("/v1/languages/de/wordlists/water/pages/1")
            #expect(locked.json["locked"] as? Bool == true)
            #expect((locked.json["words"] as? [JSON])?.count == 0)

            let parent = try await client.signUp()
            for language in Language.allCases {
                let page = try await client.get(
                    "/v1/languages/\(language.code)/wordlists/animals/pages/1?learnerId=\(parent.learnerID)",
                    token: parent.token)
                let words = try #require(page.json["words"] as? [JSON])
                #expect(words.count == 35, "\(language)")
                #expect(page.json["pageCount"] as? Int == 1)
                let texts = words.compactMap { $0["word"] as? String }
                let collation = ParlaContentOrder(language)
                #expect(texts == texts.sorted(by: collation.before), "\(language) order")
                let bar = try #require(page.json["alphabetBar"] as? [JSON])
                #expect(bar.count == (language == .spanish ? 27 : 26))
                // Every word's initial links to page 1.
                let initials = Set(texts.compactMap { collation.initial($0) })
                for entry in bar {
                    let letter = entry["letter"] as? String ?? ""
                    #expect((entry["firstPage"] as? Int) == (initials.contains(letter) ? 1 : nil), "\(language) \(letter)")
                }
            }
            #expect(try await client.get("/v1/languages/en/wordlists/animals/pages/2").code == "page_not_found")
            #expect(try await client.get("/v1/languages/en/wordlists/dragons/pages/1").code == "word_list_not_found")
        }
    }

    @Test("seed 000: All Words A-Z holds exactly the starter's 280 words, then 350 once the pair is bought, each word once")
    func allWords() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let parent = try await client.signUp()
            func allWords() async throws -> (ids: [String], pageCount: Int) {
                var ids: [String] = []
                var page = 1
                var pageCount = 1
                repeat {
                    let reply = try await client.get(
                        "/v1/languages/it/wordlists/all/pages/\(page)?learnerId=\(parent.learnerID)", token: parent.token)
                    #expect(reply.status == 200)
                    pageCount = reply.json["pageCount"] as? Int ?? 0
                    let words = reply.json["words"] as? [JSON] ?? []
                    #expect(words.count == (page < pageCount ? 35 : words.count))
                    ids += words.compactMap { $0["id"] as? String }
                    page += 1
                } while page <= pageCount
                #expect(Set(ids).count == ids.count)
                return (ids, pageCount)
            }
            let starter = try await allWords()
            #expect(starter.ids.count == 280 && starter.pageCount == 8)
            #expect(starter.ids.contains("elephant"))  // a starter list's word
            #expect(!starter.ids.contains("water") && !starter.ids.contains("anchor"))  // a locked list's words
            // Seed 000 1.a.v: the pair's 70 words folded in alphabetically.
            try await grant("water-and-professions", to: parent.learnerID, in: app)
            let bought = try await allWords()
            #expect(bought.ids.count == 350 && bought.pageCount == 10)
            #expect(bought.ids.contains("anchor") && bought.ids.contains("doctor"))
        }
    }

    @Test(
        "seed 000 1.b: an upgrader from the old 175-word app gets the starter's 280 words; Water and Professions stay locked with the offer"
    )
    func legacyOwners() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let parent = try await client.signUp()
            try await grant("legacy-picture-dictionary-175", to: parent.learnerID, in: app)
            let lists = try #require(
                try await client.get("/v1/languages/en/wordlists?learnerId=\(parent.learnerID)", token: parent.token)
                    .json["wordLists"] as? [JSON])
            let unlocked = Set(lists.filter { $0["locked"] as? Bool == false }.compactMap { $0["id"] as? String })
            #expect(unlocked == Set(starterLists))
            let owned = lists.filter { $0["locked"] as? Bool == false }.map { $0["wordCount"] as? Int ?? 0 }.reduce(0, +)
            #expect(owned == 280)
            #expect(lists.first { $0["id"] as? String == "water" }?["offer"] as? String != nil)
            #expect(lists.first { $0["id"] as? String == "professions" }?["offer"] as? String != nil)
        }
    }

    @Test("ETag and If-None-Match: 304 while nothing changed; a grant changes the tag")
    func conditionalRequests() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let first = try await client.get("/v1/languages/fr/words/horse")
            let tag = try #require(first.header("ETag"))
            // Plain field values on the wire, not percent-encoded ones.
            #expect(first.header("Cache-Control") == "public, max-age=300")
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
            let again = try await client.get("/v1/languages/fr/words/horse", headers: ["If-None-Match": tag])
            #expect(again.status == 304)
            #expect(again.bytes.isEmpty)
            #expect(try await client.get("/v1/languages/fr/words/horse", headers: ["If-None-Match": "\"other\""]).status == 200)

            let parent = try await client.signUp()
            let path = "/v1/languages/fr/wordlists?learnerId=\(parent.learnerID)"
            let before = try #require(try await client.get(path, token: parent.token).header("ETag"))
            #expect(try await client.get(path, token: parent.token, headers: ["If-None-Match": before]).status == 304)
            try await grant("water", to: parent.learnerID, in: app)
            #expect(
                try await eventually { try await client.get(path, token: parent.token, headers: ["If-None-Match": before]).status == 200 })
            let after = try await client.get(path, token: parent.token, headers: ["If-None-Match": before])
            #expect(after.status == 200)
            #expect(after.header("Cache-Control")?.hasPrefix("private") == true)
        }
    }

    @Test("a word's card (of a list the learner owns); search ignores case and accents")
    func words() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let parent = try await client.signUp()
            try await grant("animals", to: parent.learnerID, in: app)
            let word = try await client.get("/v1/languages/fr/words/elephant?learnerId=\(parent.learnerID)", token: parent.token)
            #expect(word.json["word"] as? String == "éléphant")
            #expect(word.json["article"] as? String == "l'")
            #expect(word.json["gender"] as? String == "m")
            #expect((word.json["definition"] as? String)?.contains("éléphant") == true)
            #expect((word.json["picture"] as? String)?.wholeMatch(of: /\/v1\/assets\/[0-9a-f]{32}\.svg/) != nil)
            #expect(((word.json["audio"] as? JSON)?["word"] as? String)?.hasSuffix(".opus") == true)
            #expect((word.json["lists"] as? [String]) == ["animals"])
            #expect(try await client.get("/v1/languages/fr/words/unicorn-ship").code == "word_not_found")
            #expect(try await client.get("/v1/languages/fr/words/anchor").code == "word_locked")

            let search = try await client.get("/v1/languages/fr/words?prefix=ELEP")
            #expect((search.json["words"] as? [JSON])?.contains { $0["id"] as? String == "elephant" } == true)
            #expect(try await client.get("/v1/languages/fr/words?prefix=").fieldErrors == ["prefix:required"])
        }
    }

    @Test("phrases filter by level, topic and skill, page by page, with their translations")
    func phrases() async throws {
        try await TestApp.make().run { client in
            let all = try await client.get("/v1/languages/es/phrases?perPage=100")
            #expect((all.json["total"] as? Int ?? 0) >= 300)
            #expect(all.json["pageCount"] as? Int == ((all.json["total"] as? Int ?? 0) + 99) / 100)
            let a1 = try await client.get("/v1/languages/es/phrases?level=A1&topic=greetings&skill=speaking")
            let phrases = try #require(a1.json["phrases"] as? [JSON])
            #expect(!phrases.isEmpty)
            #expect(
                phrases.allSatisfy {
                    $0["level"] as? String == "A1" && $0["topic"] as? String == "greetings" && $0["skill"] as? String == "speaking"
                })
            let id = try #require(phrases.first?["id"] as? String)
            let detail = try await client.get("/v1/languages/es/phrases/\(id)")
            #expect((detail.json["translations"] as? JSON)?.count == 4)
            #expect(try await client.get("/v1/languages/es/phrases?page=99").code == "page_not_found")
            #expect(try await client.get("/v1/languages/es/phrases?level=Z9").status == 400)
        }
    }

    @Test("grammar notes per language, with their example phrases")
    func grammar() async throws {
        try await TestApp.make().run { client in
            for language in Language.allCases {
                let notes = try #require(try await client.get("/v1/languages/\(language.code)/grammar").json["notes"] as? [JSON])
                #expect(notes.count >= 10, "\(language)")
                let id = try #require(notes.first?["id"] as? String)
                let note = try await client.get("/v1/languages/\(language.code)/grammar/\(id)")
                let examples = try #require(note.json["examples"] as? [JSON])
                #expect(examples.count >= 2)
                #expect(examples.allSatisfy { ($0["text"] as? String)?.isEmpty == false })
            }
            #expect(try await client.get("/v1/languages/de/grammar/fr-articles-gender").code == "grammar_note_not_found")
        }
    }

    @Test("DF5: every grammar note is explained in each UI language, by ui= or Accept-Language; English otherwise")
    func grammarInTheReadersLanguage() async throws {
        try await TestApp.make().run { client in
            var titles: Set<String> = []
            for ui in Language.allCases {
                for language in Language.allCases {
                    let notes = try #require(
                        try await client.get("/v1/languages/\(language.code)/grammar?ui=\(ui.code)").json["notes"] as? [JSON])
                    #expect(notes.allSatisfy { $0["explainedIn"] as? String == ui.code && ($0["title"] as? String)?.isEmpty == false })
                }
                let note = try await client.get("/v1/languages/fr/grammar/fr-articles-gender?ui=\(ui.code)")
                #expect(note.json["explainedIn"] as? String == ui.code && note.json["language"] as? String == "fr")
                #expect(((note.json["body"] as? String) ?? "").contains("**le**"))
                titles.insert(note.json["title"] as? String ?? "")
            }
            // Five languages, five different titles.
            #expect(titles.count == 5)
            let english = try await client.get("/v1/languages/fr/grammar/fr-articles-gender")
            #expect(english.json["title"] as? String == "Gender and articles" && english.json["explainedIn"] as? String == "en")
            // Accept-Language chooses when ui= does not, and answers kept in memory follow it.
            let german = try await client.get("/v1/languages/fr/grammar/fr-articles-gender", headers: ["Accept-Language": "de-DE"])
            #expect(german.json["explainedIn"] as? String == "de" && german.json["title"] as? String != english.json["title"] as? String)
            #expect(german.header("ETag") != english.header("ETag"))
            let again = try await client.get("/v1/languages/fr/grammar/fr-articles-gender")
            #expect(again.json["explainedIn"] as? String == "en")
            #expect(try await client.get("/v1/languages/fr/grammar?ui=xx").fieldErrors == ["ui:invalid_language"])
        }
    }
}

@Suite("content answer cache")
struct ContentAnswerCacheTests {
    @Test("an anonymous answer is kept byte for byte; a learner's own view is answered as its handler decides")
    func kept() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let path = "/v1/languages/es/wordlists/water/pages/1"
            let first = try await client.get(path), second = try await client.get(path)
            #expect(first.status == 200 && second.status == 200)
            #expect(first.bytes == second.bytes)
            #expect(first.header("ETag") == second.header("ETag"))
            #expect(second.header("Cache-Control") == "public, max-age=300")
            #expect(try await client.get(path, headers: ["If-None-Match": first.header("ETag")!]).status == 304)

            // The learner's view changes with a grant at once.
            let parent = try await client.signUp()
            let mine = path + "?learnerId=\(parent.learnerID)"
            #expect(try await client.get(mine, token: parent.token).json["locked"] as? Bool == true)
            try await TestDatabase.shared.execute(
                in: app.databaseURL,
                """
                INSERT INTO account_entitlements (account_id, product, source) VALUES (\(UUID(uuidString: parent.accountID)!), 'water', 'grant')
                """)
            // As soon as the entitlements' notification reaches the server.
            #expect(try await eventually { try await client.get(mine, token: parent.token).json["locked"] as? Bool == false })
            #expect(try await client.get(path).json["locked"] as? Bool == true)
            // Asked again, the learner's view is the same private answer;
            // nobody else may have it, and a revoked token gets nothing.
            let own = try await client.get(mine, token: parent.token), ownAgain = try await client.get(mine, token: parent.token)
            #expect(own.bytes == ownAgain.bytes && ownAgain.header("ETag") == own.header("ETag"))
            #expect(ownAgain.header("Cache-Control") == "private, max-age=60")
            let stranger = try await client.signUp(email: "stranger@example.com")
            #expect(try await client.get(mine, token: stranger.token).code == "learner_not_found")
            #expect(try await client.get(mine).status == 401)
            #expect(try await client.delete("/v1/sessions/current", token: parent.token).status == 204)
            #expect(try await client.get(mine, token: parent.token).status == 401)
        }
    }

    @Test("both caches key an answer alike: without the learner's id, marked as a learner's own, per reader's language where it follows it")
    func keys() {
        let page = "/v1/languages/fr/wordlists/animals/pages/1"
        #expect(ContentAnswers.key(page, operationID: "getWordListPage") == page)
        #expect(ContentAnswers.key(page + "?learnerId=l1", operationID: "getWordListPage") == page + "?#own")
        #expect(
            ContentAnswers.key(page + "?x=1&learnerId=l2&y=2", operationID: "getWordListPage")
                == ContentAnswers.key(page + "?x=1&learnerId=l1&y=2", operationID: "getWordListPage"))
        let notes = "/v1/languages/fr/grammar"
        #expect(ContentAnswers.key(notes, operationID: "listGrammarNotes") == notes + "#en")
        #expect(ContentAnswers.key(notes + "?ui=de", operationID: "listGrammarNotes") == notes + "?ui=de")
        var anonymous = HTTPRequest(method: .get, scheme: "http", authority: "test", path: page)
        #expect(!ContentAnswers.isPersonal(anonymous, path: page))
        #expect(ContentAnswers.isPersonal(anonymous, path: page + "?learnerId=l1"))
        anonymous.headerFields[.authorization] = "Bearer t"
        #expect(ContentAnswers.isPersonal(anonymous, path: page))
    }

    @Test("a learner's own answer is sent again only when the handler, asked with the kept tags, answers 304 with one of them")
    func ownAnswers() async throws {
        let catalog = ContentCatalog()
        catalog.replace(
            with: .init(version: "v1", corpus: Corpus(), assets: [:], catalogue: Catalogue(products: [], plans: [:], starterLists: [])))
        let kept = OwnContentAnswers(catalog: catalog)
        // What the handler was asked with, and what it answers next.
        let asked = Mutex<[String?]>([])
        let next = Mutex<(HTTPResponse.Status, String, String)>((.ok, "\"a\"", "A"))
        func ask(_ learner: String = "l1", ifNoneMatch: String? = nil, token: Bool = true) async throws -> (Int, String, String?) {
            var request = HTTPRequest(
                method: .get, scheme: "http", authority: "test", path: "/v1/languages/fr/wordlists/animals/pages/1?learnerId=\(learner)")
            if token { request.headerFields[.authorization] = "Bearer t" }
            if !token { request.path = "/v1/languages/fr/wordlists/animals/pages/1" }
            request.headerFields[.ifNoneMatch] = ifNoneMatch
            let (response, body) = try await kept.intercept(request, body: nil, metadata: .init(), operationID: "getWordListPage") {
                request, _, _ in
                asked.withLock { $0.append(request.headerFields[.ifNoneMatch]) }
                let (status, tag, text) = next.withLock { $0 }
                var fields = HTTPFields()
                fields[.eTag] = tag
                return (HTTPResponse(status: status, headerFields: fields), status == .ok ? HTTPBody(text) : nil)
            }
            let text = if let body { try await String(collecting: body, upTo: 1024) } else { "" }
            return (response.status.code, text, response.headerFields[.eTag])
        }
        #expect(try await ask() == (200, "A", "\"a\""))
        // Current: the kept answer, sent as a 200 (the handler built nothing).
        next.withLock { $0 = (.notModified, "\"a\"", "") }
        #expect(try await ask() == (200, "A", "\"a\""))
        // Another learner on the same lists shares it.
        #expect(try await ask("l2") == (200, "A", "\"a\""))
        #expect(asked.withLock { $0 } == [nil, "\"a\"", "\"a\""])
        // The client's own question is the client's answer.
        #expect(try await ask(ifNoneMatch: "\"a\"") == (304, "", "\"a\""))
        // A refusal passes through as it is.
        next.withLock { $0 = (.unauthorized, "", "") }
        #expect(try await ask().0 == 401)
        // A new tag (a grant): the new answer, kept beside the old.
        next.withLock { $0 = (.ok, "\"b\"", "B") }
        #expect(try await ask() == (200, "B", "\"b\""))
        next.withLock { $0 = (.notModified, "\"a\"", "") }
        #expect(try await ask() == (200, "A", "\"a\""))
        #expect(asked.withLock { $0.last } == "\"b\", \"a\"")
        // A 304 naming a tag not kept is the handler's, and anonymous requests are not this cache's.
        next.withLock { $0 = (.notModified, "\"c\"", "") }
        #expect(try await ask().0 == 304)
        asked.withLock { $0 = [] }
        #expect(try await ask(token: false).0 == 304)
        #expect(asked.withLock { $0 } == [nil])
        // Another content version keeps nothing of the last.
        catalog.replace(
            with: .init(version: "v2", corpus: Corpus(), assets: [:], catalogue: Catalogue(products: [], plans: [:], starterLists: [])))
        next.withLock { $0 = (.ok, "\"a2\"", "A2") }
        asked.withLock { $0 = [] }
        #expect(try await ask() == (200, "A2", "\"a2\""))
        #expect(asked.withLock { $0 } == [nil])
    }
}

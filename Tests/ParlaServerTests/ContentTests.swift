import Foundation
import HTTPTypes
import OpenAPIRuntime
import ParlaAPI
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
    struct LanguageList: Decodable {
        var contentVersion: String?
        var languages: [Components.Schemas.LanguageInfo]
    }
    struct WordLists: Decodable { var wordLists: [Components.Schemas.WordListSummary] }
    struct WordSearch: Decodable { var words: [Components.Schemas.WordSummary] }
    struct PhrasePage: Decodable {
        var page: Int
        var pageCount: Int
        var total: Int
        var phrases: [Components.Schemas.PhraseSummary]
    }
    struct GrammarNotes: Decodable { var notes: [Components.Schemas.GrammarNoteSummary] }
    typealias WordPage = Components.Schemas.WordPage
    typealias GrammarNote = Components.Schemas.GrammarNote

    @Test("languages with their names and alphabets; Spanish has ñ")
    func languages() async throws {
        try await TestApp.make().run { client in
            let reply = try await client.get("/v1/languages").decoded(LanguageList.self)
            let languages = reply.languages
            #expect(languages.map(\.code) == [.en, .fr, .it, .de, .es])
            let spanish = try #require(languages.first { $0.code == .es })
            #expect(spanish.nativeName == "español")
            #expect(spanish.alphabet.count == 27)
            #expect(spanish.alphabet[14] == "Ñ")
            #expect(reply.contentVersion != nil)
        }
    }

    @Test("twelve lists of 35; the starter's eight open, the rest locked with their offer; a grant unlocks only its list")
    func wordLists() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let anonymous = try await client.get("/v1/languages/fr/wordlists").decoded(WordLists.self).wordLists
            #expect(anonymous.count == 12)
            #expect(anonymous.allSatisfy { $0.wordCount == 35 && $0.locked == !starterLists.contains($0.id) })
            // Seed 000: Water and Professions greyed out with the pair's offer while the promotion runs, alone after it.
            let offers = Dictionary(uniqueKeysWithValues: anonymous.map { ($0.id, $0.offer) })
            let pair = Date() < ISO8601DateFormatter().date(from: "2027-01-01T00:00:00Z")!
            #expect(offers["water"] == (pair ? "water-and-professions" : "water"))
            #expect(offers["professions"] == (pair ? "water-and-professions" : "professions"))
            #expect(offers["numbers"] == "numbers" && offers["colours"] == "colours")
            #expect(starterLists.allSatisfy { offers[$0] == .some(nil) })
            #expect(anonymous.first { $0.id == "animals" }?.name != nil)
            // DF5: every list's name in each UI language, for the app's own.
            let names = try #require(anonymous.first { $0.id == "home" }?.names.additionalProperties)
            #expect(names["fr"] == "La maison" && names["de"] == "Das Zuhause" && names.count == 5)

            let parent = try await client.signUp()
            try await app.grant("numbers", to: parent, client: client)
            let mine = try await client.get("/v1/languages/fr/wordlists?learnerId=\(parent.learnerID)", token: parent.token)
                .decoded(WordLists.self).wordLists
            #expect(Set(mine.filter { !$0.locked }.map(\.id)) == Set(starterLists + ["numbers"]))
            #expect(mine.first { $0.id == "numbers" }?.offer == nil)

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
            let locked = try await client.get("/v1/languages/de/wordlists/water/pages/1").decoded(WordPage.self)
            #expect(locked.locked)
            #expect(locked.words.count == 0)

            let parent = try await client.signUp()
            for language in Language.allCases {
                let page = try await client.get(
                    "/v1/languages/\(language.code)/wordlists/animals/pages/1?learnerId=\(parent.learnerID)",
                    token: parent.token
                ).decoded(WordPage.self)
                let words = page.words
                #expect(words.count == 35, "\(language)")
                #expect(page.pageCount == 1)
                let texts = words.map(\.word)
                let collation = ParlaContentOrder(language)
                #expect(texts == texts.sorted(by: collation.before), "\(language) order")
                let bar = page.alphabetBar
                #expect(bar.count == (language == .spanish ? 27 : 26))
                // Every word's initial links to page 1.
                let initials = Set(texts.compactMap { collation.initial($0) })
                for entry in bar {
                    // A learner's bar is in its letter case: small letters by default.
                    let letter = entry.letter
                    #expect(letter == letter.lowercased(), "\(language) \(letter)")
                    #expect(entry.firstPage == (initials.contains(letter.uppercased()) ? 1 : nil), "\(language) \(letter)")
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
                    let wordPage = try reply.decoded(WordPage.self)
                    pageCount = wordPage.pageCount
                    let words = wordPage.words
                    #expect(words.count == (page < pageCount ? 35 : words.count))
                    ids += words.map(\.id)
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
            try await app.grant("water-and-professions", to: parent, client: client)
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
            try await app.grant("legacy-picture-dictionary-175", to: parent, client: client)
            let lists = try await client.get("/v1/languages/en/wordlists?learnerId=\(parent.learnerID)", token: parent.token)
                .decoded(WordLists.self).wordLists
            let unlocked = Set(lists.filter { !$0.locked }.map(\.id))
            #expect(unlocked == Set(starterLists))
            let owned = lists.filter { !$0.locked }.map(\.wordCount).reduce(0, +)
            #expect(owned == 280)
            #expect(lists.first { $0.id == "water" }?.offer != nil)
            #expect(lists.first { $0.id == "professions" }?.offer != nil)
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
            try await app.grant("water", to: parent, client: client)
            #expect(
                try await eventually { try await client.get(path, token: parent.token, headers: ["If-None-Match": before]).status == 200 })
            let after = try await client.get(path, token: parent.token, headers: ["If-None-Match": before])
            #expect(after.status == 200)
            #expect(after.header("Cache-Control")?.hasPrefix("private") == true)
        }
    }

    @Test("a word's card (of a list the learner owns: Animals is the starter set's); search ignores case and accents")
    func words() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let parent = try await client.signUp()
            let card = try await client.get("/v1/languages/fr/words/elephant?learnerId=\(parent.learnerID)", token: parent.token)
                .decoded(Components.Schemas.Word.self)
            #expect(card.word == "éléphant")
            #expect(card.article == "l'")
            #expect(card.gender == .m)
            #expect(card.definition.contains("éléphant"))
            #expect(card.picture.wholeMatch(of: /\/v1\/assets\/[0-9a-f]{32}\.svg/) != nil)
            #expect(card.audio?.word?.hasSuffix(".opus") == true)
            #expect(card.lists == ["animals"])
            #expect(try await client.get("/v1/languages/fr/words/unicorn-ship").code == "word_not_found")
            #expect(try await client.get("/v1/languages/fr/words/anchor").code == "word_locked")

            let search = try await client.get("/v1/languages/fr/words?prefix=ELEP").decoded(WordSearch.self)
            #expect(search.words.contains { $0.id == "elephant" })
            #expect(try await client.get("/v1/languages/fr/words?prefix=").fieldErrors == ["prefix:required"])
        }
    }

    @Test("word pages and cards follow the learner's course variant and letter case; anonymous ones stay as the content writes")
    func wordsAsTheLearnerSeesThem() async throws {
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            let id = learner.learnerID
            func page() async throws -> (WordPage, String?) {
                let reply = try await client.get("/v1/languages/en/wordlists/transport/pages/1?learnerId=\(id)", token: learner.token)
                return (try reply.decoded(WordPage.self), reply.header("ETag"))
            }
            func card() async throws -> Components.Schemas.Word {
                try await client.get("/v1/languages/en/words/lorry?learnerId=\(id)", token: learner.token)
                    .decoded(Components.Schemas.Word.self)
            }
            let anonymous = try await client.get("/v1/languages/en/wordlists/transport/pages/1").decoded(WordPage.self)
            let british = try await card()
            #expect(british.word == "lorry" && british.plural == "lorries")
            let (britishPage, britishTag) = try await page()
            #expect(britishPage.words.map(\.word) == anonymous.words.map(\.word))

            // An American English course: "truck", sorted where truck sorts, said by the American voice.
            let course = try await client.post(
                "/v1/learners/\(id)/courses", token: learner.token, json: ["language": "en", "start": "beginning", "variant": "en"])
            #expect(course.status == 201, "\(course.text)")
            let (american, americanTag) = try await page()
            #expect(americanTag != britishTag)
            let words = american.words.map(\.word)
            #expect(words.contains("truck") && !words.contains("lorry"), "\(words)")
            #expect(words == words.sorted(by: ParlaContentOrder(.english).before))
            let truck = try #require(american.words.first { $0.id == "lorry" })
            let lorry = try #require(anonymous.words.first { $0.id == "lorry" })
            #expect(truck.audio != nil && truck.audio != lorry.audio)
            let americanCard = try await card()
            #expect(americanCard.word == "truck" && americanCard.plural == "trucks" && americanCard.article == "the")
            #expect(americanCard.audio?.word == truck.audio)
            // The American definition, shown without the recording of the British one.
            #expect(americanCard.definition.hasPrefix("A truck"))
            #expect(americanCard.audio?.definition == nil && americanCard.definitionTimings == nil)
            #expect(british.audio?.definition != nil)

            // Capitals: every word, article and bar letter; the tag changes with them.
            let upper = try await client.patch("/v1/learners/\(id)", token: learner.token, json: ["letterCase": "upper"])
            #expect(upper.status == 200, "\(upper.text)")
            let (capitals, capitalsTag) = try await page()
            #expect(capitalsTag != americanTag)
            #expect(capitals.words.map(\.word) == words.map { $0.uppercased() })
            #expect(capitals.alphabetBar.allSatisfy { $0.letter == $0.letter.uppercased() })
            let capitalCard = try await card()
            #expect(capitalCard.word == "TRUCK" && capitalCard.article == "THE" && capitalCard.plural == "TRUCKS")

            // Anonymous pages and cards are as the content writes them, whatever a learner chose.
            let after = try await client.get("/v1/languages/en/wordlists/transport/pages/1").decoded(WordPage.self)
            #expect(after.words.map(\.word) == anonymous.words.map(\.word))
            #expect(after.alphabetBar.map(\.letter) == anonymous.alphabetBar.map(\.letter))
            let open = try await client.get("/v1/languages/en/words/lorry").decoded(Components.Schemas.Word.self)
            #expect(open.word == "lorry")
        }
    }

    @Test("phrases filter by level, topic and skill, page by page, with their translations")
    func phrases() async throws {
        try await TestApp.make().run { client in
            let all = try await client.get("/v1/languages/es/phrases?perPage=100").decoded(PhrasePage.self)
            #expect(all.total >= 300)
            #expect(all.pageCount == (all.total + 99) / 100)
            let a1 = try await client.get("/v1/languages/es/phrases?level=A1&topic=greetings&skill=speaking").decoded(PhrasePage.self)
            let phrases = a1.phrases
            #expect(!phrases.isEmpty)
            #expect(phrases.allSatisfy { $0.level == "A1" && $0.topic == "greetings" && $0.skill == "speaking" })
            let id = try #require(phrases.first?.id)
            let detail = try await client.get("/v1/languages/es/phrases/\(id)").decoded(Components.Schemas.Phrase.self)
            #expect(detail.translations.additionalProperties.count == 4)
            #expect(try await client.get("/v1/languages/es/phrases?page=99").code == "page_not_found")
            #expect(try await client.get("/v1/languages/es/phrases?level=Z9").status == 400)
        }
    }

    @Test("grammar notes per language, with their example phrases")
    func grammar() async throws {
        try await TestApp.make().run { client in
            for language in Language.allCases {
                let notes = try await client.get("/v1/languages/\(language.code)/grammar").decoded(GrammarNotes.self).notes
                #expect(notes.count >= 10, "\(language)")
                let id = try #require(notes.first?.id)
                let note = try await client.get("/v1/languages/\(language.code)/grammar/\(id)").decoded(GrammarNote.self)
                let examples = note.examples
                #expect(examples.count >= 2)
                #expect(examples.allSatisfy { !$0.text.isEmpty })
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
                    let notes = try await client.get("/v1/languages/\(language.code)/grammar?ui=\(ui.code)")
                        .decoded(GrammarNotes.self).notes
                    #expect(notes.allSatisfy { $0.explainedIn == ui.code && !$0.title.isEmpty })
                }
                let note = try await client.get("/v1/languages/fr/grammar/fr-articles-gender?ui=\(ui.code)").decoded(GrammarNote.self)
                #expect(note.explainedIn == ui.code && note.language == "fr")
                #expect(note.body.contains("**le**"))
                titles.insert(note.title)
            }
            // Five languages, five different titles.
            #expect(titles.count == 5)
            let english = try await client.get("/v1/languages/fr/grammar/fr-articles-gender")
            let englishNote = try english.decoded(GrammarNote.self)
            #expect(englishNote.title == "Gender and articles" && englishNote.explainedIn == "en")
            // Accept-Language chooses when ui= does not, and answers kept in memory follow it.
            let german = try await client.get("/v1/languages/fr/grammar/fr-articles-gender", headers: ["Accept-Language": "de-DE"])
            let germanNote = try german.decoded(GrammarNote.self)
            #expect(germanNote.explainedIn == "de" && germanNote.title != englishNote.title)
            #expect(german.header("ETag") != english.header("ETag"))
            let again = try await client.get("/v1/languages/fr/grammar/fr-articles-gender").decoded(GrammarNote.self)
            #expect(again.explainedIn == "en")
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

import Foundation
import ParlaAPI
import ParlaCore
import ParlaTestSupport
import Testing

/// Issue 19, item 5 (seed 002): the saved list.
@Suite("saved list")
struct SavedListTests {
    typealias SavedItem = Components.Schemas.SavedItem
    typealias SavedList = Components.Schemas.SavedList
    /// The body of `GET /v1/languages/{language}/phrases` (an inline schema: no `Components.Schemas` type).
    typealias Phrases = Operations.ListPhrases.Output.Ok.Body.JsonPayload

    @Test("words and phrases are saved per language, one marked as studied; the 51st is refused with the list")
    func savedList() async throws {
        try await TestApp.make().run { client in
            let zoe = try await client.signUp()
            let base = "/v1/learners/\(zoe.learnerID)/saved"
            let cat = try await client.post(base, token: zoe.token, json: ["language": "fr", "kind": "word", "id": "cat"])
            let catItem = try cat.decoded(SavedItem.self)
            #expect(cat.status == 201 && catItem.text == "le chat" && catItem.studying == false)
            #expect(try await client.post(base, token: zoe.token, json: ["language": "fr", "kind": "word", "id": "cat"]).status == 200)
            // Lists are per language.
            #expect(try await client.post(base, token: zoe.token, json: ["language": "es", "kind": "word", "id": "cat"]).status == 201)
            let phrases = try await client.get("/v1/languages/fr/phrases?perPage=100").decoded(Phrases.self).phrases
            let ids = phrases.map(\.id)
            #expect(ids.count >= 50)
            for id in ids.prefix(49) {
                let saved = try await client.post(base, token: zoe.token, json: ["language": "fr", "kind": "phrase", "id": id])
                #expect(saved.status == 201, "\(saved.text)")
            }
            let full = try await client.post(base, token: zoe.token, json: ["language": "fr", "kind": "phrase", "id": ids[49]])
            #expect(full.status == 409 && full.code == "saved_list_full")
            // Raw JSON on purpose: the list comes in the problem document (an error reply), whose
            // generated type has no `items`; they are references (kind, id, text), not `SavedItem`s.
            let listed = try #require(full.json["items"] as? [[String: any Sendable]])
            #expect(listed.count == 50 && listed.first?["id"] as? String == "cat" && listed.first?["text"] as? String == "le chat")
            // One studied at a time.
            let first = try await client.send(.patch, "\(base)/phrase/\(ids[0])?language=fr", token: zoe.token, json: ["studying": true])
            #expect(try first.decoded(SavedItem.self).studying == true)
            _ = try await client.send(.patch, "\(base)/word/cat?language=fr", token: zoe.token, json: ["studying": true])
            let list = try await client.get("\(base)?language=fr", token: zoe.token).decoded(SavedList.self)
            let items = list.items
            #expect(list.limit == 50 && items.count == 50)
            #expect(items.filter(\.studying).map(\.id) == ["cat"])
            // Room again after a removal.
            #expect(try await client.delete("\(base)/phrase/\(ids[1])?language=fr", token: zoe.token).status == 204)
            #expect(try await client.delete("\(base)/phrase/\(ids[1])?language=fr", token: zoe.token).code == "saved_item_not_found")
            #expect(try await client.post(base, token: zoe.token, json: ["language": "fr", "kind": "phrase", "id": ids[49]]).status == 201)
            // Bad input.
            let bad = try await client.post(base, token: zoe.token, json: ["language": "fr", "kind": "song", "id": "x"])
            #expect(bad.fieldErrors == ["kind:invalid_item_kind"])
            #expect(
                try await client.post(base, token: zoe.token, json: ["kind": "word"]).fieldErrors == ["language:required", "id:required"])
            #expect(
                try await client.post(base, token: zoe.token, json: ["language": "fr", "kind": "word", "id": "no-such"]).code
                    == "word_not_found")
            #expect(
                try await client.send(.patch, "\(base)/word/dog?language=fr", token: zoe.token, json: ["studying": true]).code
                    == "saved_item_not_found")
            // Another account sees no such learner.
            let max = try await client.signUp(email: "max@example.com")
            #expect(try await client.get("\(base)?language=fr", token: max.token).status == 404)
        }
    }
}

@Suite("discovery feed")
struct DiscoveryFeedTests {
    /// The body of `GET /v1/learners/{id}/feed` (an inline schema: no `Components.Schemas` type).
    typealias Feed = Operations.GetFeed.Output.Ok.Body.JsonPayload

    func cards(_ client: Client, _ learner: Client.SignedUp, limit: Int) async throws -> [String] {
        let reply = try await client.get("/v1/learners/\(learner.learnerID)/feed?language=fr&limit=\(limit)", token: learner.token)
        #expect(reply.status == 200, "\(reply.text)")
        return try reply.decoded(Feed.self).cards.map { "\($0.kind.rawValue)/\($0.id)" }
    }

    @Test("unseen cards come first; a liked card is saved, and neither it nor a dismissed one ever comes back")
    func feed() async throws {
        try await TestApp.make().run { client in
            let zoe = try await client.signUp()
            let first = try await cards(client, zoe, limit: 20)
            #expect(first.count == 20 && Set(first).count == 20)
            let second = try await cards(client, zoe, limit: 20)
            #expect(Set(first).isDisjoint(with: second))
            let (liked, dismissed) = (first[0], first[1])
            let like = try await client.post(
                "/v1/learners/\(zoe.learnerID)/feed/\(liked)?language=fr", token: zoe.token, json: ["reaction": "like"])
            #expect(try like.status == 200 && like.decoded(Components.Schemas.SavedItem.self).id == String(liked.split(separator: "/")[1]))
            let dismiss = try await client.post(
                "/v1/learners/\(zoe.learnerID)/feed/\(dismissed)?language=fr", token: zoe.token, json: ["reaction": "dismiss"])
            #expect(dismiss.status == 204)
            let saved = try await client.get("/v1/learners/\(zoe.learnerID)/saved?language=fr", token: zoe.token)
            #expect(try saved.decoded(Components.Schemas.SavedList.self).items.count == 1)
            // Through every card and round again: never the liked or dismissed one.
            var shown: [String] = []
            for _ in 0..<14 { shown += try await cards(client, zoe, limit: 50) }
            #expect(!shown.contains(liked) && !shown.contains(dismissed))
            #expect(shown.contains(first[2]))
            #expect(try await client.get("/v1/learners/\(zoe.learnerID)/feed?language=fr&limit=500", token: zoe.token).status == 422)
            let bad = try await client.post(
                "/v1/learners/\(zoe.learnerID)/feed/word/no-such?language=fr", token: zoe.token, json: ["reaction": "dismiss"])
            #expect(bad.code == "word_not_found")
        }
    }

    @Test("the pick: unseen at random first, then the least recently seen; settled and saved never")
    func pick() {
        var random = SystemRandomNumberGenerator()
        let candidates = ["a", "b", "c", "d", "e"]
        let seen = [
            DiscoveryFeed.Seen(key: "a", settled: false, order: 2), DiscoveryFeed.Seen(key: "b", settled: true, order: 0),
            DiscoveryFeed.Seen(key: "c", settled: false, order: 1),
        ]
        let picked = DiscoveryFeed.pick(4, from: candidates, seen: seen, saved: ["d"], using: &random)
        #expect(picked == ["e", "c", "a"])
        #expect(Set(DiscoveryFeed.pick(1, from: candidates, seen: [], saved: [], using: &random)).isSubset(of: Set(candidates)))
    }
}

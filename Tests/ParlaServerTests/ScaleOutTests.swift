import Foundation
import ParlaTestSupport
import Testing

/// Several stateless app servers behind nginx on one PostgreSQL (issue 20,
/// item 6): two real `parla` processes, Debian's nginx balancing over them
/// round-robin, a client that only knows nginx's address.
@Suite("scale-out")
struct ScaleOutTests {
    /// Two `parla serve` processes on a new database, nginx in front; both
    /// stopped afterwards, whatever `body` did.
    func withTwoServers(
        environment extra: [String: String] = [:],
        _ body: @escaping @Sendable (_ balancer: TestBalancer, _ servers: [ServerProcess]) async throws -> Void
    ) async throws {
        let url = try await TestDatabase.shared.newDatabase()
        var environment = [
            "PARLA_DATABASE_URL": url, "PARLA_SECURITY_DATA_KEY": TestApp.dataKey, "PARLA_DATABASE_MAX_CONNECTIONS": "4",
            // nginx is the client the servers see; the address it forwards counts.
            "PARLA_HTTP_TRUSTED_PROXIES": "127.0.0.1",
        ]
        environment.merge(extra) { $1 }
        var servers: [ServerProcess] = []
        var failure: (any Error)?
        do {
            for _ in 0..<2 {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parla-scale-\(UUID().uuidString)").path
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                servers.append(try ServerProcess(arguments: [], directory: directory, environment: environment))
            }
            for server in servers { try await server.waitUntilUp() }
            let balancer = try TestBalancer(upstreams: servers.map(\.port))
            do { try await body(balancer, servers) } catch { failure = error }
            balancer.stop()
        } catch { failure = error }
        for server in servers { _ = try? await server.terminate() }
        if let failure { throw failure }
    }

    @Test("two servers behind nginx on one database: sessions, leaderboards and refunds agree whichever server answers")
    func twoServersBehindNginx() async throws {
        let store = try TestAppStore()
        let root = try store.writeRoot()
        try await withTwoServers(environment: ["PARLA_PURCHASES_APP_STORE_ROOT_CERTIFICATES": root]) { balancer, servers in
            try await Client.connected(to: balancer.port) { client in
                try await Client.connected(to: servers[0].port) { first in
                    try await Client.connected(to: servers[1].port) { second in
                        let direct = [first, second]

                        // Sessions: a token made through one server works on both, and
                        // signing out through either ends it on both.
                        let account = try await client.signUp(email: "nginx@example.com")
                        for _ in 0..<4 { #expect(try await client.get("/v1/me", token: account.token).status == 200) }
                        let used = Set(try balancer.upstreamsUsed())
                        #expect(used == Set(servers.map { "127.0.0.1:\($0.port)" }), "nginx used \(used)")
                        for server in direct { #expect(try await server.get("/v1/me", token: account.token).status == 200) }
                        #expect(try await client.delete("/v1/sessions/current", token: account.token).status == 204)
                        for server in direct {
                            #expect(try await eventually { try await server.get("/v1/me", token: account.token).status == 401 })
                        }

                        // Leaderboards: results sent to either server rank the same on both.
                        var players: [Client.SignedUp] = []
                        for n in 1...4 {
                            let player = try await client.signUp(email: "player\(n)@example.com")
                            #expect(try await GameTests.playPerfectly(client, learner: player.learnerID, token: player.token).status == 200)
                            players.append(player)
                        }
                        func board(_ server: Client) async throws -> String {
                            let reply = try await server.get("/v1/leaderboards/matching?language=fr&limit=10", token: players[0].token)
                            let entries = reply.json["entries"] as? [[String: any Sendable]] ?? []
                            let ranked = entries.map { "\($0["rank"] ?? "")|\($0["learnerId"] ?? "")|\($0["score"] ?? "")" }
                            return "\(reply.json["total"] ?? "")\n" + ranked.joined(separator: "\n")
                        }
                        #expect(
                            try await eventually {
                                let (one, other) = (try await board(first), try await board(second))
                                return one == other && one.hasPrefix("4\n")
                            })
                        let ranked = try await board(first).split(separator: "\n").dropFirst().compactMap {
                            $0.split(separator: "|").dropFirst().first
                        }
                        // Equal scores rank by who got there first, on every server.
                        #expect(ranked.map(String.init) == players.map(\.learnerID))

                        // Refunds: bought through one server, refunded through the other,
                        // locked again on both.
                        let buyer = players[0]
                        func unlocked(_ server: Client) async throws -> Set<String> {
                            let lists =
                                try await server.get("/v1/languages/en/wordlists?learnerId=\(buyer.learnerID)", token: buyer.token)
                                .json["wordLists"] as? [[String: any Sendable]] ?? []
                            return Set(lists.filter { $0["locked"] as? Bool == false }.compactMap { $0["id"] as? String })
                        }
                        let transaction = try store.transaction(
                            id: "2000000001", product: "app.parla.list.water", accountToken: UUID(uuidString: buyer.accountID))
                        let bought = try await client.post(
                            "/v1/purchases/app-store", token: buyer.token, json: ["signedTransaction": transaction])
                        #expect(bought.status == 200, "\(bought.text)")
                        for server in direct {
                            #expect(try await eventually { try await unlocked(server) == Set(starterLists + ["water"]) })
                        }
                        let refunded = try store.transaction(
                            id: "2000000001", product: "app.parla.list.water", revoked: Date(),
                            accountToken: UUID(uuidString: buyer.accountID))
                        let notice = try store.notification("REFUND", transaction: refunded)
                        #expect(try await client.post("/v1/store-notifications/app-store", json: ["signedPayload": notice]).status == 200)
                        for server in direct {
                            #expect(try await eventually { try await unlocked(server) == Set(starterLists) })
                            let game = try await server.post(
                                "/v1/learners/\(buyer.learnerID)/games", token: buyer.token,
                                json: ["language": "fr", "kind": "matching", "pairs": 6, "faces": "wordPicture", "wordListId": "water"])
                            #expect(game.code == "word_list_locked")
                        }
                    }
                }
            }
        }
    }
}

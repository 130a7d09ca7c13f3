import Foundation
import ParlaAPI
import ParlaCore
import ParlaTestSupport
import Testing

/// Google Play purchases through a local HTTPS server that answers as the
/// Play Developer API and Google's token endpoint do (TLS with a CA of its
/// own, the service account's RS256 sign-in checked).
@Suite("Google Play purchases")
struct GooglePlayTests {
    typealias Entitlements = Components.Schemas.Entitlements
    /// The body of `GET /v1/languages/{language}/wordlists` (an inline schema: no `Components.Schemas` type).
    typealias WordLists = Operations.ListWordLists.Output.Ok.Body.JsonPayload
    static let secret = "pubsub-push-secret"

    func app(_ play: TestGooglePlay) async throws -> TestApp {
        try await TestApp.make {
            $0.purchases.googlePlay.serviceAccountKey = play.serviceAccountFile
            $0.purchases.googlePlay.baseURL = play.baseURL
            $0.purchases.googlePlay.rootCertificates = [play.caFile]
            $0.purchases.googlePlay.notificationSecret = Self.secret
        }
    }

    func unlocked(_ client: Client, _ learner: Client.SignedUp) async throws -> Set<String> {
        let lists = try await client.get("/v1/languages/en/wordlists?learnerId=\(learner.learnerID)", token: learner.token)
            .decoded(WordLists.self)
        return Set(lists.wordLists.filter { !$0.locked }.map(\.id))
    }

    @Test("a purchase token is read from the API, acknowledged, and opens its lists; a voided purchase's notification locks them")
    func oneTimeProduct() async throws {
        let play = try TestGooglePlay()
        try await play.run { play in
            let app = try await app(play)
            try await app.run { client in
                let parent = try await client.signUp()
                play.setProduct(token: "token-basics-1", product: "pack_basics", orderID: "GPA.3300-0001", account: parent.accountID)
                let bought = try await client.post(
                    "/v1/purchases/google-play", token: parent.token,
                    json: ["productId": "pack_basics", "purchaseToken": "token-basics-1"])
                #expect(bought.status == 200, "\(bought.text)")
                #expect(Set(try bought.decoded(Entitlements.self).lists) == Set(starterLists + ["numbers", "colours"]))
                #expect(play.isAcknowledged("token-basics-1"))
                #expect(play.tokensIssued == 1)

                // Unknown or pending tokens, or another account's, are refused.
                let unknown = try await client.post(
                    "/v1/purchases/google-play", token: parent.token, json: ["productId": "pack_basics", "purchaseToken": "nope"])
                #expect(unknown.status == 422 && unknown.code == "purchase_invalid")
                play.setProduct(token: "token-pending", product: "list_water", state: 2, orderID: "GPA.3300-0002")
                #expect(
                    try await client.post(
                        "/v1/purchases/google-play", token: parent.token,
                        json: ["productId": "list_water", "purchaseToken": "token-pending"]
                    ).code == "purchase_invalid")
                let stranger = try await client.signUp(email: "stranger@example.com")
                let stolen = try await client.post(
                    "/v1/purchases/google-play", token: stranger.token,
                    json: ["productId": "pack_basics", "purchaseToken": "token-basics-1"])
                #expect(stolen.status == 409 && stolen.code == "purchase_foreign")

                // A push without the secret is refused; with it, the voided purchase ends now.
                let voided = try TestGooglePlay.push([
                    "voidedPurchaseNotification": [
                        "purchaseToken": "token-basics-1", "orderId": "GPA.3300-0001", "productType": 2,
                    ] as [String: any Sendable]
                ])
                #expect(try await client.post("/v1/store-notifications/google-play?secret=wrong", json: voided).status == 403)
                #expect(try await unlocked(client, parent).count == starterLists.count + 2)
                #expect(try await client.post("/v1/store-notifications/google-play?secret=\(Self.secret)", json: voided).status == 200)
                #expect(try await unlocked(client, parent) == Set(starterLists))
            }
        }
    }

    @Test("a subscription: renewed through a notification re-read from the API, then expired back to free")
    func subscription() async throws {
        let play = try TestGooglePlay()
        try await play.run { play in
            try await app(play).run { client in
                let parent = try await client.signUp()
                play.setSubscription(
                    token: "sub-1", product: "plan_full_monthly", state: "SUBSCRIPTION_STATE_ACTIVE",
                    expires: Date().addingTimeInterval(20 * 86400), orderID: "GPA.1111-0000", account: parent.accountID)
                let bought = try await client.post(
                    "/v1/purchases/google-play", token: parent.token, json: ["productId": "plan_full_monthly", "purchaseToken": "sub-1"])
                #expect(bought.status == 200, "\(bought.text)")
                #expect(try bought.decoded(Entitlements.self).plan == .full)
                #expect(play.isAcknowledged("sub-1"))

                // Renewed: Google says so, the notification only tells us to look.
                play.setSubscription(
                    token: "sub-1", product: "plan_full_monthly", state: "SUBSCRIPTION_STATE_ACTIVE",
                    expires: Date().addingTimeInterval(50 * 86400), orderID: "GPA.1111-0000..0", account: parent.accountID)
                let renewed = try TestGooglePlay.push([
                    "subscriptionNotification": ["notificationType": 2, "purchaseToken": "sub-1", "subscriptionId": "plan_full_monthly"]
                        as [String: any Sendable]
                ])
                #expect(try await client.post("/v1/store-notifications/google-play?secret=\(Self.secret)", json: renewed).status == 200)
                let plan = try await client.get("/v1/me/plan", token: parent.token).decoded(Components.Schemas.PlanInfo.self)
                let ends = try #require(plan.endsAt)
                #expect(ends > Date().addingTimeInterval(49 * 86400))

                play.setSubscription(
                    token: "sub-1", product: "plan_full_monthly", state: "SUBSCRIPTION_STATE_EXPIRED",
                    expires: Date().addingTimeInterval(-60), orderID: "GPA.1111-0000..1", account: parent.accountID)
                let expired = try TestGooglePlay.push([
                    "subscriptionNotification": ["notificationType": 13, "purchaseToken": "sub-1", "subscriptionId": "plan_full_monthly"]
                        as [String: any Sendable]
                ])
                #expect(try await client.post("/v1/store-notifications/google-play?secret=\(Self.secret)", json: expired).status == 200)
                // The entitlement keeps its latest end (a late notice never shortens it) until revoked.
                let revoked = try TestGooglePlay.push([
                    "subscriptionNotification": ["notificationType": 12, "purchaseToken": "sub-1", "subscriptionId": "plan_full_monthly"]
                        as [String: any Sendable]
                ])
                #expect(try await client.post("/v1/store-notifications/google-play?secret=\(Self.secret)", json: revoked).status == 200)
                #expect(try await client.get("/v1/me/plan", token: parent.token).decoded(Components.Schemas.PlanInfo.self).plan == .free)
                #expect(play.tokensIssued == 1)  // the access token was kept
            }
        }
    }
}

import Foundation
import ParlaAPI
import ParlaCore
import ParlaTestSupport
import Testing

/// The apps' releases (issue 19, item 9): the client configuration, and
/// 426 `update_required` for an app too old to serve.
@Suite("client configuration")
struct ClientConfigTests {
    typealias ClientConfig = Components.Schemas.ClientConfig

    static func app() async throws -> TestApp {
        try await TestApp.make { settings in
            settings.clients[.ios] = ClientRelease(
                minimum: AppVersion("2.0"), latest: AppVersion("2.3.1"), storeURL: "https://apps.apple.com/app/id0000000001")
        }
    }

    @Test("an app below its platform's minimum gets 426 update_required with the store link, in its language; others pass")
    func updateRequired() async throws {
        try await Self.app().run { client in
            let learner = try await client.signUp()
            let old = try await client.get(
                "/v1/me", token: learner.token, headers: ["X-App-Platform": "ios", "X-App-Version": "1.9.9", "Accept-Language": "fr"])
            #expect(old.status == 426 && old.code == "update_required")
            // Raw JSON for `storeUrl`: the problem document carries it, but the `Problem` schema has no such property.
            #expect(old.json["storeUrl"] as? String == "https://apps.apple.com/app/id0000000001")
            #expect(try old.decoded(Components.Schemas.Problem.self).detail.contains("mettre à jour"))
            // Before authentication too: a signed-out old app is told to update, not to sign in.
            #expect(try await client.get("/v1/me", headers: ["X-App-Platform": "iOS", "X-App-Version": "1.0"]).status == 426)
            for headers in [
                ["X-App-Platform": "ios", "X-App-Version": "2.0"], ["X-App-Platform": "android", "X-App-Version": "1.0"],
                ["X-App-Version": "1.0"], [:],
            ] {
                #expect(try await client.get("/v1/me", token: learner.token, headers: headers).status == 200, "\(headers)")
            }
            let garbled = try await client.get("/v1/me", token: learner.token, headers: ["X-App-Platform": "ios", "X-App-Version": "2.x"])
            #expect(garbled.status == 422 && garbled.code == "invalid_app_version")
        }
    }

    @Test("the client configuration says what a platform's app should do, even to an app too old for anything else")
    func configuration() async throws {
        try await Self.app().run { client in
            let ios = try await client.get("/v1/client-config?platform=ios", headers: ["X-App-Platform": "ios", "X-App-Version": "1.5"])
            #expect(ios.status == 200, "\(ios.text)")
            let iosConfig = try ios.decoded(ClientConfig.self)
            #expect(iosConfig.minimumVersion == "2.0" && iosConfig.latestVersion == "2.3.1")
            #expect(iosConfig.updateRequired == true && iosConfig.updateAvailable == true)
            let current = try await client.get("/v1/client-config?platform=ios", headers: ["X-App-Version": "2.3.1"])
                .decoded(ClientConfig.self)
            #expect(current.updateRequired == false && current.updateAvailable == false)
            let android = try await client.get("/v1/client-config?platform=android")
            #expect(android.status == 200)
            let androidConfig = try android.decoded(ClientConfig.self)
            #expect(androidConfig.minimumVersion == nil && androidConfig.updateRequired == nil)
            #expect(try await client.get("/v1/client-config?platform=windows").status == 400)
        }
    }
}

import ParlaCore
import Testing

@Suite("app versions and releases")
struct ClientReleaseTests {
    @Test("versions compare part by part, missing parts as 0; anything else is no version")
    func versions() throws {
        let v = { (text: String) in AppVersion(text)! }
        #expect(v("2.10.1") > v("2.9.9") && v("2") == v("2.0.0") && v("1.0") < v("1.0.1"))
        #expect(v("10.0").description == "10.0")
        for bad in ["", "1.", ".1", "1..2", "v1.2", "1.2.3.4.5", "1.2-beta", "1234567890", "١.٢", " 1.2"] {
            #expect(AppVersion(bad) == nil, "\(bad)")
        }
    }

    @Test("an app below the minimum must update; one below the latest may")
    func release() {
        let release = ClientRelease(minimum: AppVersion("2.0"), latest: AppVersion("2.3.1"), storeURL: "https://example.com/app")
        #expect(release.requiresUpdate(AppVersion("1.9.9")!) && !release.requiresUpdate(AppVersion("2.0.0")!))
        #expect(release.offersUpdate(AppVersion("2.3")!) && !release.offersUpdate(AppVersion("2.3.1")!))
        #expect(!ClientRelease().requiresUpdate(AppVersion("0.1")!) && !ClientRelease().offersUpdate(AppVersion("0.1")!))
    }
}

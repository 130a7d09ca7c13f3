import ParlaCore
import Testing

@Suite("rate limit rules")
struct RateLimitRuleTests {
    @Test("a fixed window: its start and end, and the wait until it ends (at least a second)")
    func windows() {
        let limit = RateLimit(count: 5, seconds: 300)
        #expect(limit.window(at: 1_000_000) == (999_900, 1_000_200))
        #expect(limit.window(at: 999_900) == (999_900, 1_000_200))
        #expect(limit.retryAfter(at: 1_000_000) == 200)
        #expect(limit.retryAfter(at: 1_000_199.5) == 1)
        #expect(limit.retryAfter(at: 999_900.25) == 300)
    }

    @Test("the standard policy limits every action per address, and recordings per account too")
    func standard() {
        for action in LimitedAction.allCases { #expect(RateLimitPolicy.standard.perAddress[action] != nil) }
        #expect(RateLimitPolicy.standard.perAccount[.recording] != nil)
        #expect(RateLimitPolicy.standard.perAccount[.signUp] == nil)
    }

    @Test("the client is the peer, unless the peer is a trusted proxy; a client cannot pick its own address")
    func clientAddress() {
        let proxy: Set<String> = ["10.0.0.2"]
        // No peer: an in-process request.
        #expect(ClientAddress.resolve(peer: nil, forwardedFor: ["203.0.113.9"], trustedProxies: proxy) == nil)
        // An untrusted peer's header is ignored.
        #expect(ClientAddress.resolve(peer: "198.51.100.7", forwardedFor: ["203.0.113.9"], trustedProxies: proxy) == "198.51.100.7")
        // Through the proxy: the last address the proxy saw.
        #expect(ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: ["203.0.113.9"], trustedProxies: proxy) == "203.0.113.9")
        // A client's own forged entry comes before the one the proxy added.
        #expect(
            ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: ["1.2.3.4, 203.0.113.9"], trustedProxies: proxy) == "203.0.113.9")
        #expect(
            ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: ["1.2.3.4", "203.0.113.9"], trustedProxies: proxy) == "203.0.113.9")
        // Chained proxies are skipped.
        #expect(
            ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: ["203.0.113.9, 10.0.0.2"], trustedProxies: proxy) == "203.0.113.9")
        // Garbage in the header: the proxy itself is the client.
        #expect(ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: ["not an address"], trustedProxies: proxy) == "10.0.0.2")
        #expect(ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: [], trustedProxies: proxy) == "10.0.0.2")
    }

    @Test("addresses in canonical form; IPv6 counted per /64; IPv4-mapped IPv6 as IPv4")
    func canonical() {
        #expect(ClientAddress.canonical("192.0.2.1") == "192.0.2.1")
        #expect(ClientAddress.canonical("2001:DB8:0:0::1") == "2001:db8::1")
        #expect(ClientAddress.canonical("::ffff:192.0.2.1") == "192.0.2.1")
        #expect(ClientAddress.canonical("192.0.2.256") == nil)
        #expect(ClientAddress.canonical("") == nil)
        let a = ClientAddress.resolve(peer: "2001:db8:1:2:aaaa::1", forwardedFor: [], trustedProxies: [])
        let b = ClientAddress.resolve(peer: "2001:db8:1:2:bbbb::9", forwardedFor: [], trustedProxies: [])
        let c = ClientAddress.resolve(peer: "2001:db8:1:3::1", forwardedFor: [], trustedProxies: [])
        #expect(a == "2001:db8:1:2::/64")
        #expect(a == b)
        #expect(a != c)
    }
}

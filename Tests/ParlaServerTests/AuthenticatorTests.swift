import Testing

@testable import ParlaServer

@Suite("bearer tokens")
struct AuthenticatorTests {
    @Test("the scheme is read in any case, spaces around the token do not count, and odd headers give no token")
    func bearerTokens() {
        let long = String(repeating: "a", count: 256)
        let cases: [(String, String?)] = [
            ("Bearer abc", "abc"), ("bearer abc", "abc"), ("BEARER abc", "abc"), ("  Bearer   abc \t", "abc"), ("Bearer a b", "a b"),
            ("Bearer " + long, long), ("Bearer " + long + "a", nil), ("Bearer", nil), ("Bearer ", nil), ("Bearer    ", nil),
            ("Bearerabc", nil), ("Basic abc", nil), ("", nil), ("Bearér abc", nil),
        ]
        for (header, token) in cases { #expect(Authenticator.bearerToken(header) == token, "\(header)") }
    }
}

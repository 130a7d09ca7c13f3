import ParlaGames
import Testing

@Suite("friend codes")
struct FriendCodeTests {
    @Test("a code is read whatever its case, spaces and hyphens; what no code can be is nil")
    func typed() {
        #expect(FriendCode(typed: "ABCDEFGH23")?.text == "ABCDEFGH23")
        #expect(FriendCode(typed: " abcd-efgh 23 ")?.text == "ABCDEFGH23")
        #expect(FriendCode(typed: "ABCDEFGH2") == nil, "too short")
        #expect(FriendCode(typed: "ABCDEFGH234") == nil, "too long")
        #expect(FriendCode(typed: "ABCDEFGH10") == nil, "1 and 0 are never in a code")
        #expect(FriendCode(typed: "ABCDEFGHIO") == nil, "nor I and O")
        #expect(FriendCode(typed: "ÀBCDEFGH23") == nil)
        #expect(FriendCode(typed: "") == nil)
        #expect(FriendCode(typed: String(repeating: "A", count: 10_000)) == nil)
    }
}

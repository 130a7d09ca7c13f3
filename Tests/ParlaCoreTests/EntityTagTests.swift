import Testing

@testable import ParlaCore

@Suite("entity tags")
struct EntityTagTests {
    @Test("If-None-Match names the current tag when it is *, or lists it, weak or strong, among others")
    func current() {
        let tag = "\"v1-abc\""
        #expect(!EntityTag.isCurrent(tag, ifNoneMatch: nil))
        #expect(EntityTag.isCurrent(tag, ifNoneMatch: "*"))
        #expect(EntityTag.isCurrent(tag, ifNoneMatch: tag))
        #expect(EntityTag.isCurrent(tag, ifNoneMatch: "W/\(tag)"))
        #expect(EntityTag.isCurrent(tag, ifNoneMatch: "\"old\", W/\(tag) ,\"older\""))
        #expect(!EntityTag.isCurrent(tag, ifNoneMatch: "\"old\", \"v1-ab\""))
        #expect(!EntityTag.isCurrent(tag, ifNoneMatch: ""))
    }
}

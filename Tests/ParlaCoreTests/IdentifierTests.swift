import Foundation
import ParlaCore
import Testing

@Suite("identifiers")
struct IdentifierTests {
    @Test("ids read and print as Foundation reads and prints them, in lowercase")
    func text() {
        for _ in 0..<2000 {
            let uuid = UUID()
            #expect(UUIDText.lowercase(uuid) == uuid.uuidString.lowercased())
            #expect(UUIDText.parse(uuid.uuidString) == uuid)
            #expect(UUIDText.parse(uuid.uuidString.lowercased()) == uuid)
            #expect(LearnerID(LearnerID(uuid).description)?.uuid == uuid)
        }
        let good = "01a2067c-ab15-7242-99cc-fcaa26914601"
        for text in [
            "", "x", good.dropLast() + "g", "01a2067cab15-7242-99cc-fcaa269146011", good + "0", " " + good.dropFirst(),
            good.replacingOccurrences(of: "-", with: "_"), "{" + good + "}", "01a2067c-ab15-7242-99cc-fcaa2691460é",
        ] {
            // Stricter than Foundation, which lets sscanf skip a leading space.
            #expect(UUIDText.parse(String(text)) == nil, "\(text)")
        }
    }
}

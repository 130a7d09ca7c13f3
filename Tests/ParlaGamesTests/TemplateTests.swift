import ParlaLearning
import Testing

@testable import ParlaGames

@Suite("lesson templates: sequencing, matching and sight words")
struct TemplateTests {
    /// Numbers in French, in their one right order, with a repeated text.
    static let numbers: [(concept: String, text: String)] = [
        ("one", "un"), ("two", "deux"), ("three", "trois"), ("four", "quatre"), ("five", "cinq"), ("six", "six"),
        ("seven", "sept"), ("eight", "huit"), ("nine", "neuf"), ("ten", "dix"), ("ten-again", "Dix"),
    ]

    @Test("sequencing: exactly one order is right, never shown already in order; only the active box takes an item")
    func sequencing() throws {
        var generator = SimulationRandom(seed: 5)
        for _ in 0..<1000 {
            let task = try #require(SequencingTask.make(from: Self.numbers, using: &generator))
            #expect(task.items.count == 4 && Set(task.items.map(\.id)).count == 4)
            #expect(task.items.map(\.id) != task.order)
            // The right order follows the source order strictly, and no two texts read alike.
            let positions = task.order.map { id in Self.numbers.firstIndex { $0.concept == task.items.first { $0.id == id }!.concept }! }
            #expect(positions == positions.sorted() && Set(positions).count == 4)
            #expect(Set(task.items.map { SequencingTask.folded($0.text) }).count == 4)
        }
        var task = try #require(SequencingTask.make(from: Self.numbers, using: &generator))
        let wrong = task.order[1]
        #expect(try task.drop(wrong) == false && task.activeSlot == 0 && task.wrongDrops == 1)
        #expect(throws: TemplateRejection.unknownItem) { try task.drop("z") }
        for (slot, id) in task.order.enumerated() {
            #expect(try task.drop(id) == true && task.activeSlot == slot + 1)
            if slot < 3 { #expect(throws: TemplateRejection.alreadyPlaced) { try task.drop(id) } }
        }
        #expect(task.isComplete)
        #expect(throws: TemplateRejection.complete) { try task.drop(task.order[0]) }
        #expect(SequencingTask.make(from: Array(Self.numbers.prefix(3)), using: &generator) == nil)
    }

    @Test("sight words: a tile per word, tapped at each of its word's turns, in the sentence's order; a wrong tap changes nothing")
    func sightWords() throws {
        var generator = SimulationRandom(seed: 7)
        // "The cat is on the mat": "the" is said twice.
        let words = ["the", "is", "on", "the"]
        var task = try #require(SightWordsTask.make(words: words, using: &generator))
        #expect(task.tiles.count == 3 && Set(task.tiles.map(\.word)) == ["the", "is", "on"])
        #expect(task.order.map { id in task.tiles.first { $0.id == id }!.word } == words)
        #expect((0..<4).map(task.isFirstOfItsWord) == [true, true, true, false])
        let wrong = try #require(task.tiles.first { $0.word == "on" }).id
        let tapped = try task.tap(wrong)
        #expect(!tapped && task.tapped == 0 && task.wrongTaps == 1)
        #expect(throws: TemplateRejection.unknownItem) { try task.tap("z") }
        for (turn, id) in task.order.enumerated() {
            let right = try task.tap(id)
            #expect(right && task.tapped == turn + 1)
        }
        #expect(task.isComplete)
        #expect(throws: TemplateRejection.complete) { try task.tap(task.order[0]) }
        // One word is one tile; none, or more than six, cannot be lettered.
        #expect(SightWordsTask.make(words: ["das"], using: &generator)?.order.count == 1)
        #expect(SightWordsTask.make(words: [], using: &generator) == nil)
        #expect(SightWordsTask.make(words: ["a", "b", "c", "d", "e", "f", "g"], using: &generator) == nil)
    }

    @Test("drag matching: each item has exactly one target, no two targets alike; wrong drops pop back")
    func dragMatching() throws {
        let candidates = [
            MatchingCandidate(concept: "sea", word: "mer", translation: "sea", picture: "p-sea", hasAudio: true, soundsLike: ["mother"]),
            MatchingCandidate(
                concept: "mother", word: "mère", translation: "mother", picture: "p-mother", hasAudio: true, soundsLike: ["sea"]),
            MatchingCandidate(concept: "cat", word: "chat", translation: "cat", picture: "p-cat", hasAudio: true),
            MatchingCandidate(concept: "kitten", word: "chaton", translation: "cat", picture: "p-cat", hasAudio: true),
            MatchingCandidate(concept: "dog", word: "chien", translation: "dog", picture: "p-dog", hasAudio: true),
            MatchingCandidate(concept: "cow", word: "vache", translation: "cow", picture: "p-cow", hasAudio: true),
            MatchingCandidate(concept: "horse", word: "cheval", translation: "horse", picture: "p-horse", hasAudio: true),
        ]
        let byConcept = Dictionary(uniqueKeysWithValues: candidates.map { ($0.concept, $0) })
        var generator = SimulationRandom(seed: 8)
        for faces in MatchingFaces.allCases {
            for _ in 0..<300 {
                let task = try #require(DragMatchingTask.make(from: candidates, faces: faces, using: &generator))
                #expect(task.items.count == 4 && task.targets.count == 4)
                for item in task.items { #expect(task.targets.filter { $0.concept == item.concept }.count == 1) }
                let shown = task.targets.map { target -> String in
                    let candidate = byConcept[target.concept]!
                    return switch faces {
                    case .wordPicture: candidate.picture!
                    case .wordTranslation: candidate.translation!
                    case .wordAudio: candidate.concept == "mother" ? "sea" : candidate.concept  // homophones sound alike
                    }
                }
                #expect(Set(shown).count == 4, "\(faces): \(shown)")
            }
        }
        var task = try #require(DragMatchingTask.make(from: candidates, faces: .wordPicture, using: &generator))
        let item = task.items[0]
        let right = task.targets.first { $0.concept == item.concept }!
        let wrong = task.targets.first { $0.concept != item.concept }!
        #expect(try task.drop(item.id, on: wrong.id) == false && task.wrongDrops == 1 && task.matched.isEmpty)
        #expect(throws: TemplateRejection.unknownTarget) { try task.drop(item.id, on: "9") }
        #expect(try task.drop(item.id, on: right.id) == true)
        #expect(throws: TemplateRejection.alreadyPlaced) { try task.drop(item.id, on: right.id) }
        for other in task.items.dropFirst() {
            #expect(try task.drop(other.id, on: task.targets.first { $0.concept == other.concept }!.id) == true)
        }
        #expect(task.isComplete)
    }

    @Test("a word that also names another card's meaning never shares a deal with it (\"neuf\" is nine and new)")
    func wordsOfTwoMeanings() throws {
        let candidates = [
            MatchingCandidate(concept: "nine", word: "neuf", translation: "nine", picture: "p-nine", hasAudio: true, wordMeans: ["new"]),
            MatchingCandidate(concept: "new", word: "nouveau", translation: "new", picture: "p-new", hasAudio: true),
            // "glace" is ice cream and ice; "ice" is what "glaçon" is shown as.
            MatchingCandidate(
                concept: "ice-cream", word: "glace", translation: "ice cream", picture: "p-ice-cream", hasAudio: true,
                wordMeans: ["ice"]),
            MatchingCandidate(
                concept: "ice-cube", word: "glaçon", translation: "ice", picture: "p-ice-cube", hasAudio: true,
                translationMeans: ["ice"]),
            MatchingCandidate(concept: "dog", word: "chien", translation: "dog", picture: "p-dog", hasAudio: true),
            MatchingCandidate(concept: "cow", word: "vache", translation: "cow", picture: "p-cow", hasAudio: true),
            MatchingCandidate(concept: "horse", word: "cheval", translation: "horse", picture: "p-horse", hasAudio: true),
        ]
        var generator = SimulationRandom(seed: 9)
        var seen: [MatchingFaces: Set<Set<String>>] = [:]
        for faces in MatchingFaces.allCases {
            for _ in 0..<300 {
                let chosen = Set(try #require(MatchingDeal.choose(candidates, pairs: 4, faces: faces, using: &generator)))
                seen[faces, default: []].insert(chosen)
                if faces == .wordTranslation { #expect(!chosen.isSuperset(of: ["ice-cream", "ice-cube"]), "\(chosen)") }
                if faces != .wordAudio { #expect(!chosen.isSuperset(of: ["nine", "new"]), "\(faces): \(chosen)") }
            }
        }
        // Heard, two different words cannot be confused: both may come.
        #expect(seen[.wordAudio, default: []].contains { $0.isSuperset(of: ["nine", "new"]) })
        #expect(seen[.wordPicture, default: []].contains { $0.isSuperset(of: ["ice-cream", "ice-cube"]) })
    }
}

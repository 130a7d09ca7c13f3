import Foundation
import ParlaContent
import ParlaCore
import ParlaLearning
import Testing

@testable import ParlaTeaching

@Suite("typed answers")
struct TypedAnswerTests {
    @Test("case, punctuation and spacing never matter")
    func tolerant() {
        #expect(TypedAnswer.judge("Le  chat !", accepted: ["chat", "le chat"]) == .correct)
        #expect(TypedAnswer.judge("  l’éléphant ", accepted: ["l'éléphant"]) == .correct)
        #expect(TypedAnswer.judge("GOOD MORNING.", accepted: ["Good morning!"]) == .correct)
    }

    @Test("a missing or wrong accent is almost, with the right spelling shown")
    func accents() {
        #expect(TypedAnswer.judge("elephant", accepted: ["éléphant"]) == .almost(expected: "éléphant"))
        #expect(TypedAnswer.judge("Strasse", accepted: ["Straße"]) == .almost(expected: "Straße"))
        #expect(TypedAnswer.judge("perche", accepted: ["perché"]) == .almost(expected: "perché"))
    }

    @Test("anything else is wrong, and so is nothing")
    func wrong() {
        #expect(TypedAnswer.judge("chien", accepted: ["chat"]) == .wrong)
        #expect(TypedAnswer.judge(" ?! ", accepted: ["chat"]) == .wrong)
        #expect(TypedAnswer.judge("cha", accepted: ["chat"]) == .wrong)
    }
}

@Suite("choice questions")
struct ChoiceQuestionTests {
    static let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Corpora").standardized

    static let corpus: Corpus = {
        let root = corpora.appendingPathComponent("wordlists")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let files = names.filter { $0.hasSuffix(".yaml") }.sorted().compactMap { name in
            (try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)).map {
                CorpusLoader.File(path: "wordlists/" + name, text: $0)
            }
        }
        return CorpusLoader { _ in true }.load(files).0
    }()

    @Test("T4.2: over 1,000 generated questions per language, exactly one option is right", arguments: Language.allCases)
    func exactlyOneRight(target: Language) throws {
        let corpus = Self.corpus
        #expect(corpus.concepts.count > 300)
        let native: Language = target == .english ? .french : .english
        let maker = ChoiceQuestionMaker(corpus: corpus)
        // Seeded, so a failure can be replayed.
        var generator = SimulationRandom(seed: 42 &+ UInt64(Language.allCases.firstIndex(of: target)!))
        let concepts = corpus.concepts.filter { ChoiceQuestionMaker.word($0, target) != nil && ChoiceQuestionMaker.word($0, native) != nil }
        var made = 0, attempts = 0
        while made < 1000 && attempts < 2000 {
            attempts += 1
            let concept = concepts.randomElement(using: &generator)!
            let kind = ChoiceQuestion.Kind.allCases.randomElement(using: &generator)!
            guard let question = maker.question(kind, about: concept, native: native, target: target, using: &generator) else { continue }
            made += 1
            #expect(question.options.count == 4)
            #expect(Set(question.options.map(\.id)).count == 4)
            let right = question.options.filter { $0.concept == concept.key }
            #expect(right.count == 1 && right.first?.id == question.correctOptionID)
            let answer = ChoiceQuestionMaker.folded(ChoiceQuestionMaker.word(concept, target)!)
            let meaning = ChoiceQuestionMaker.folded(ChoiceQuestionMaker.word(concept, native)!)
            for option in question.options where option.concept != concept.key {
                let other = try #require(corpus.concepts.first { $0.key == option.concept })
                // Never a translation of the answer, never the same word, never the same picture.
                #expect(
                    ChoiceQuestionMaker.folded(ChoiceQuestionMaker.word(other, target)!) != answer, "\(kind) \(concept.key) ~ \(other.key)")
                #expect(
                    ChoiceQuestionMaker.folded(ChoiceQuestionMaker.word(other, native)!) != meaning, "\(kind) \(concept.key) ~ \(other.key)"
                )
                #expect(other.picture != concept.picture)
            }
            let shown = question.options.map { $0.text.map(ChoiceQuestionMaker.folded) ?? $0.picture!.description }
            #expect(Set(shown).count == 4, "\(kind) \(concept.key): \(shown)")
            // Same topic first: most distractors share a word list with the answer.
            let lists = Set(maker.listsOf[concept.key] ?? [])
            let sameTopic = question.options.filter { !lists.isDisjoint(with: maker.listsOf[$0.concept] ?? []) }.count
            #expect(sameTopic >= 3, "\(concept.key): \(sameTopic - 1) of 3 distractors from its topic")
        }
        #expect(made == 1000, "\(target.code): \(made) questions in \(attempts) attempts")
    }
}

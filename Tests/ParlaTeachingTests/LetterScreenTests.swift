import Foundation
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaLearning
import Testing

@testable import ParlaTeaching

/// The course's letters and spelling screens (issue 35) as a lesson asks
/// them: in the variant and letter case the lesson started with.
@Suite("letters and spelling screens")
struct LetterScreenTests {
    let corpus = CourseLessonTests.corpus
    let id = CourseLessonTests.id

    @Test("American phonics in capitals: a letter heard and tapped; a word spelled tile by tile, its mistake counted, taught once")
    func americanCapitals() throws {
        let pack = try #require(corpus.packs.first { $0.id == "en-read-letters" })
        // Lesson 2: i n m d p, then man, dad, map.
        let authored = pack.lessons[1]
        let planner = QuestionPlanner(catalog: LessonCatalog(corpus: corpus, language: .english))
        let phonics = try #require(corpus.alphabet("en-phonics"))
        var lesson = Lesson(
            course: authored, of: pack, in: planner.catalog, native: .french, startAbilities: [],
            writing: WordWriting(phonics, letterCase: .upper))
        var (model, known) = (LearnerModel(), [LessonItemID: ItemDifficulty]())
        let asked = lesson.askNext(id, planner: planner, state: LearnerState(model), at: CourseLessonTests.now)
        #expect(asked)
        var at = CourseLessonTests.now
        func record(_ answer: LessonAnswer, _ question: String) throws -> LessonLearning? {
            at += 2
            return try lesson.record(
                answer, to: question, of: id, at: at, claimedMilliseconds: nil, planner: planner, model: &model, difficulties: &known)
        }

        let letters = try #require(lesson.current)
        #expect(letters.type == .letters && letters.item == LessonItemID(.letter, "i") && letters.prompt == nil)
        #expect(Set(letters.options.compactMap(\.text)) == ["I", "S", "A", "T"])
        #expect(lesson.audioSlot(of: letters) == .letter(variant: "en-phonics", letter: "i", final: false))
        while let question = lesson.current, question.type == .letters {
            let taught = try record(.option(try #require(question.correctOptionID)), question.id)
            #expect(taught?.item.id == question.item && taught?.learned.correct == true)
        }

        let spelling = try #require(lesson.current)
        let word = try #require(spelling.spelling)
        #expect(spelling.type == .spelling && spelling.item == LessonItemID(.word, "man") && word.shown == "MAN")
        #expect(spelling.translation == "homme" && spelling.targets?.map(\.id) == ["0", "1", "2"])
        #expect(lesson.audioSlot(of: spelling) == .variantWord(concept: "man", tag: "en-US"))
        let tile = { (letter: String) in spelling.options.first { $0.text == letter }!.id }
        // Refused, changing nothing: a place the word lacks, a tile it lacks, a choice instead of a drop.
        var tried = lesson
        #expect(throws: LessonAnswerError.targetNotFound) {
            try tried.answer(.drop(item: tile("M"), target: "7"), to: spelling.id, at: at, claimedMilliseconds: nil)
        }
        #expect(throws: LessonAnswerError.optionNotFound) {
            try tried.answer(.drop(item: "t9", target: "0"), to: spelling.id, at: at, claimedMilliseconds: nil)
        }
        #expect(throws: LessonAnswerError.wrongAnswerKind) {
            try tried.answer(.option(tile("M")), to: spelling.id, at: at, claimedMilliseconds: nil)
        }
        #expect(tried == lesson)

        // N where M goes: it pops back, a mistake; then each letter in its place.
        #expect(try record(.drop(item: tile("N"), target: "0"), spelling.id) == nil)
        #expect(lesson.current?.spelling?.mistakes == 1 && lesson.current?.disabledOptionIDs.isEmpty == true)
        #expect(try record(.drop(item: tile("M"), target: "0"), spelling.id) == nil)
        #expect(lesson.current?.filledTargetIDs == ["0"] && lesson.current?.disabledOptionIDs == [tile("M")])
        #expect(throws: LessonAnswerError.optionAlreadyTried) {
            var again = lesson
            _ = try again.answer(.drop(item: tile("A"), target: "0"), to: spelling.id, at: at, claimedMilliseconds: nil)
        }
        #expect(try record(.drop(item: tile("A"), target: "1"), spelling.id) == nil)
        let taught = try #require(try record(.drop(item: tile("N"), target: "2"), spelling.id))
        #expect(taught.answerID == "\(spelling.id)/man" && taught.item.id == LessonItemID(.word, "man"))
        #expect(!taught.learned.correct && taught.learned.tries == 2 && taught.learned.type == .spelling)
        #expect(lesson.questions.last(where: { $0.id == spelling.id })?.correctAnswer == "MAN")

        // "dad": the key lets either D go on either place; the second D on the one left spells it.
        let dad = try #require(lesson.current)
        let key = OfflineAnswerKey(dad).matches ?? []
        let dadWord = try #require(dad.spelling)
        let ds = dadWord.tiles.filter { $0.letter.shown == "D" }.map(\.id)
        #expect(dadWord.shown == "DAD" && ds.count == 2 && key.count == 5)
        #expect(ds.allSatisfy { tile in Set(key.filter { $0.item == tile }.map(\.target)) == ["0", "2"] })
        _ = try record(.drop(item: ds[1], target: "0"), dad.id)
        _ = try record(.drop(item: try #require(dadWord.tiles.first { $0.letter.shown == "A" }).id, target: "1"), dad.id)
        let last = try record(.drop(item: ds[0], target: "2"), dad.id)
        #expect(last?.learned.correct == true && lesson.current?.id != dad.id)
    }

    @Test("a lesson stored before variants writes its language's own words, as written; another case shows them so")
    func writing() throws {
        let pack = try #require(corpus.packs.first { $0.id == "de-read-letters" })
        let planner = QuestionPlanner(catalog: LessonCatalog(corpus: corpus, language: .german))
        // Lesson 1: m a l i o, then Mama and Lila.
        let authored = pack.lessons[0]
        let spelling = try #require(authored.screens.firstIndex { $0.template == .spelling })
        for (writing, shown) in [(nil, "Mama"), (WordWriting(variant: "de", words: "de", letterCase: .upper), "MAMA")] {
            var lesson = Lesson(course: authored, of: pack, in: planner.catalog, native: .english, startAbilities: [], writing: writing)
            lesson.writing = writing
            var random = SimulationRandom(seed: 35)
            let question = try #require(
                planner.question(
                    forScreen: spelling, of: authored, in: lesson, state: LearnerState(LearnerModel()), at: CourseLessonTests.now,
                    using: &random))
            #expect(question.spelling?.shown == shown && lesson.audioSlot(of: question) == .word(concept: "mum", .german))
            // Tiles are all small letters unless the word is all capitals: the capital M gives nothing away.
            #expect(question.options.compactMap(\.text).sorted() == (writing == nil ? ["a", "a", "m", "m"] : ["A", "A", "M", "M"]))
        }
    }

    @Test(
        "every lesson writes the language learnt as its course's variant does: en-US gray, said by the American voice; typed, both spellings are right"
    )
    func variantWords() throws {
        let planner = QuestionPlanner(catalog: LessonCatalog(corpus: corpus, language: .english))
        let grey = try #require(planner.catalog.item(LessonItemID(.word, "grey")))
        var lesson = Lesson(
            language: .english, native: .french, length: 5, types: [.translationFromTarget, .typedTranslation, .picture], focus: [],
            gapWeights: [:], startAbilities: [])
        func ask(_ type: QuestionType) throws -> LessonQuestion {
            var random = SimulationRandom(seed: 35)
            return try #require(planner.question(type, about: grey, in: lesson, isNew: true, at: CourseLessonTests.now, using: &random))
        }
        #expect(
            try ask(.translationFromTarget).prompt == "grey" && lesson.audioSlot(of: try ask(.picture)) == .word(concept: "grey", .english))
        let british = try ask(.typedTranslation).accepted
        #expect(british.contains("grey") && british.contains("the grey") && !british.contains("gray"), "\(british)")
        lesson.writing = WordWriting(variant: "en", words: "en-US", letterCase: .title)
        let american = try ask(.translationFromTarget)
        #expect(american.prompt == "Gray" && lesson.audioSlot(of: american) == .variantWord(concept: "grey", tag: "en-US"))
        let typed = try ask(.typedTranslation).accepted
        #expect(typed.contains("grey") && typed.contains("gray") && typed.contains("the gray"), "\(typed)")
        // The learner's own language is written as it is.
        var random = SimulationRandom(seed: 35)
        lesson.writing = WordWriting(variant: "en", words: "en-US", letterCase: .upper)
        let toTarget = try #require(
            planner.question(
                .translationToTarget, about: grey, in: lesson, isNew: true, at: CourseLessonTests.now,
                using: &random))
        #expect(toTarget.prompt == "gris" && toTarget.options.contains { $0.text == "GRAY" })
    }

    @Test("a pack taken offline holds each word as every variant of its language says it")
    func variantWordsOffline() throws {
        let pack = try #require(corpus.packs.first { $0.id == "en-discover-home" })
        let slots = corpus.assetSlots(of: pack, native: .french) { key in corpus.concepts.first { $0.key == key } }
        let words = slots.compactMap { if case .word(let concept, _) = $0 { concept } else { nil } }
        #expect(!words.isEmpty && words.allSatisfy { slots.contains(.variantWord(concept: $0, tag: "en-US")) })
        let french = try #require(corpus.packs.first { $0.id == "fr-discover-home" })
        let frenchSlots = corpus.assetSlots(of: french, native: .english) { key in corpus.concepts.first { $0.key == key } }
        #expect(frenchSlots.contains { if case .word = $0 { true } else { false } })
        #expect(!frenchSlots.contains { if case .variantWord = $0 { true } else { false } })
    }
}

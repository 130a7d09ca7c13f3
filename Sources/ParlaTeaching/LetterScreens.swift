import Foundation
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaLearning

extension Lesson {
    /// How the lesson writes: as it started, or for a lesson stored before
    /// variants, the language's own words as written.
    public var writes: WordWriting {
        writing ?? WordWriting(variant: language.code, words: language.code, letterCase: .lower)
    }

    /// A word's audio as the lesson's variant says it.
    func wordSlot(_ concept: String) -> AssetSlot {
        writes.words == language.code ? .word(concept: concept, language) : .variantWord(concept: concept, tag: writes.words)
    }
}

extension LessonCatalog {
    /// The alphabet a lesson's letters are said in: the variant it writes
    /// in (`Lesson.writes`, the one rule for a lesson that names none).
    func alphabet(for lesson: Lesson) -> Alphabet? { corpus.variant(lesson.writes.variant, of: language) }
}

// The course's letters and spelling screens (seed 003) as questions.
extension QuestionPlanner {
    /// A letters screen: the letter is heard (the question's audio), and
    /// its tile is one of four, shown in the learner's letter case.
    func lettersQuestion(
        _ letter: String, others: [String], id: String, in lesson: Lesson, state: LearnerState, at now: Date,
        using generator: inout some RandomNumberGenerator
    ) -> LessonQuestion? {
        let asked = LessonItemID(.letter, letter)
        guard let alphabet = catalog.alphabet(for: lesson), catalog.item(asked) != nil else { return nil }
        let letters = [letter] + others
        guard letters.allSatisfy({ letter in alphabet.letters.contains { $0.letter == letter } }) else { return nil }
        let placed = zip(["a", "b", "c", "d", "e", "f"], letters.shuffled(using: &generator))
        let options = placed.map {
            LessonQuestion.Option(id: $0, text: Casing.letter($1, letterCase: lesson.writes.letterCase), concept: nil)
        }
        return LessonQuestion(
            id: id, item: asked, type: .letters, prompt: nil, options: options, correctOptionID: placed.first { $1 == letter }?.0,
            accepted: [], translation: nil, isNew: state.cards[asked] == nil, servedAt: now)
    }

    /// A spelling screen: the word is heard and pictured (its concept, the
    /// question's target picture), and spelled with its own letters' tiles,
    /// as the lesson's variant spells it and its letter case shows it.
    func spellingQuestion(
        _ concept: String, id: String, in lesson: Lesson, state: LearnerState, at now: Date,
        using generator: inout some RandomNumberGenerator
    ) -> LessonQuestion? {
        let asked = LessonItemID(.word, concept)
        guard let alphabet = catalog.alphabet(for: lesson), catalog.item(asked) != nil, let found = catalog.concept(concept),
            let shown = lesson.writes.shown(found)
        else { return nil }
        let letters = Set(alphabet.letters.map(\.letter))
        guard
            let word = SpellingWord.make(
                concept: concept, shown: shown, said: { Letters.said($0, in: letters) }, distractors: [], using: &generator)
        else { return nil }
        let native = lesson.native == lesson.language ? nil : ChoiceQuestionMaker.word(found, lesson.native)
        var question = LessonQuestion(
            id: id, item: asked, type: .spelling, prompt: nil,
            options: word.tiles.map { .init(id: $0.id, text: $0.letter.shown, concept: nil) }, correctOptionID: nil, accepted: [],
            translation: native, isNew: state.cards[asked] == nil, servedAt: now)
        question.spelling = word
        // Target n (from 0) is the word's n-th character; one shown, not
        // spelled (a space, a hyphen), comes with its text.
        question.targets = word.targets.enumerated().map { .init(id: String($0), text: $1.letter == nil ? $1.shown : nil, concept: nil) }
        return question
    }
}

extension Lesson {
    /// A tile dropped on a spelling question's target: right when its
    /// letter belongs there (it stays), wrong when not (it pops back).
    static func spell(_ question: inout LessonQuestion, tile: String, on target: String) throws(LessonAnswerError) -> Bool {
        guard var word = question.spelling else { throw .wrongAnswerKind }
        guard let index = Int(target) else { throw .targetNotFound }
        let placed: Bool
        do throws(PlacementRejection) {
            placed = try word.place(tile, on: index)
        } catch {
            switch error {
            case .unknownTile: throw .optionNotFound
            case .unknownTarget: throw .targetNotFound
            case .tileUsed, .targetFilled: throw .optionAlreadyTried
            }
        }
        question.spelling = word
        return placed
    }

    /// What a spelling question teaches once its word is spelled: the
    /// word, right when no tile went wrong, timed a letter at a time as its
    /// time limit is, with no guessing counted (as in typing).
    static func spelled(_ question: LessonQuestion, at now: Date) -> AnswerOutcome.Learned? {
        guard let word = question.spelling, word.isSpelled else { return nil }
        let letters = max(1, word.targets.filter { $0.letter != nil }.count)
        return .init(
            item: question.item, type: .spelling, correct: word.mistakes == 0,
            responseTime: max(0, now.timeIntervalSince(question.servedAt)) / Double(letters), tries: word.mistakes + 1,
            isNew: question.isNew, optionCount: 0)
    }
}

import Foundation
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaLearning

/// Where a lesson of the course (issue 34) stands: which authored lesson it
/// serves, and the screen its next question comes from.
public struct CourseLessonPlace: Codable, Sendable, Equatable {
    /// The course lesson's id, `<pack>-NN`.
    public var lesson: String
    public var pack: String
    /// The screen asking now, or the next to try, from 0.
    public var nextScreen: Int = 0
    /// Per question id, the screen it asks.
    public var screens: [String: Int] = [:]
    /// Taken offline: the seed its bundle laid its questions out with.
    public var seed: String?

    public init(lesson: String, pack: String) { (self.lesson, self.pack) = (lesson, pack) }
}

/// A course lesson's screens as a lesson's questions: the author decided
/// what is asked and what is right, this only lays it out (the options'
/// order, drawn from the lesson's seed as planned questions are, so that a
/// retried request builds the same). Answers are then judged, and teach the
/// model their first try, as any lesson's do (`Lesson.record`).
///
/// Each screen asks about the item the learner's memory keeps: its word
/// (the first, for a template), its phrase, or for a gap-fill the word that
/// fills it when the language's words have it (another form, "gants" for
/// "gant", teaches nothing: the lesson goes on all the same).
extension QuestionPlanner {
    /// The question the screen at `index` of `authored` asks as its
    /// `part`-th (a story screen asks each of the story's questions, any
    /// other screen one), as the next of `lesson`; nil when it has no more,
    /// or cannot be asked here: the content lost a word, a picture or a
    /// recording is not made yet, a translation is missing (the learner's
    /// own language is the one learnt).
    public func question(
        forScreen index: Int, part: Int = 0, of authored: CourseLesson, in lesson: Lesson, state: LearnerState, at now: Date,
        using generator: inout some RandomNumberGenerator
    ) -> LessonQuestion? {
        guard authored.screens.indices.contains(index) else { return nil }
        let screen = authored.screens[index]
        if case .story = screen.task {} else if part > 0 { return nil }
        let id = lesson.nextQuestionID
        let target = lesson.language, native = lesson.native
        func item(_ concept: String) -> LessonItem? { catalog.item(LessonItemID(.word, concept)) }
        func word(_ concept: String, _ language: Language) -> String? {
            catalog.concept(concept).flatMap { ChoiceQuestionMaker.word($0, language, as: lesson.writing) }
        }
        func isNew(_ id: LessonItemID) -> Bool { state.cards[id] == nil }
        let letters = ["a", "b", "c", "d", "e", "f"]

        switch screen.task {
        case .wordPicture(let answer, let others), .listen(let answer, let others), .choice(let answer, let others, _):
            let type: QuestionType =
                switch screen.task {
                case .wordPicture: .picture
                case .listen: .listening
                case .choice(_, _, .fromTarget): .translationFromTarget
                default: .translationToTarget
                }
            let concepts = [answer] + others
            guard concepts.count <= letters.count, let asked = item(answer), let answerWord = word(answer, target) else { return nil }
            // Every option must be showable the way it is asked.
            for concept in concepts {
                guard let option = item(concept) else { return nil }
                if type == .picture, !option.types.contains(.picture) { return nil }
            }
            if type == .listening, !asked.types.contains(.listening) { return nil }
            if type.needsTranslation, native == target { return nil }
            let shown: (String) -> String? = { concept in
                switch type {
                case .translationFromTarget: word(concept, native)
                case .picture: nil
                default: word(concept, target)
                }
            }
            var options: [LessonQuestion.Option] = []
            for (letter, concept) in zip(letters, concepts.shuffled(using: &generator)) {
                let text = shown(concept)
                guard type == .picture || text != nil else { return nil }
                options.append(.init(id: letter, text: text, concept: type == .picture ? concept : nil))
            }
            let correct = options.first { type == .picture ? $0.concept == answer : $0.text == shown(answer) }?.id
            let prompt: String? =
                switch type {
                case .translationToTarget: word(answer, native)
                case .listening: nil
                default: answerWord
                }
            let translation = type == .translationToTarget || native == target ? nil : word(answer, native)
            return LessonQuestion(
                id: id, item: asked.id, type: type, prompt: prompt, options: options, correctOptionID: correct, accepted: [],
                translation: translation, isNew: isNew(asked.id), servedAt: now)

        case .gapFill(let sentence, let answer, let others, let hint):
            let texts = ([answer] + others).shuffled(using: &generator)
            guard texts.count <= letters.count else { return nil }
            let options = zip(letters, texts).map { LessonQuestion.Option(id: $0, text: $1, concept: nil) }
            let filler = catalog.concepts(named: answer, in: target).first.map { LessonItemID(.word, $0.key) }
            let asked = filler ?? LessonItemID(.grammar, "\(authored.id)/\(index + 1)")
            return LessonQuestion(
                id: id, item: asked, type: .gapFill, prompt: sentence, options: options,
                correctOptionID: options.first { $0.text == answer }?.id, accepted: [],
                translation: native == target ? nil : hint[native], isNew: isNew(asked), servedAt: now)

        case .repeatPhrase(let phrase):
            let asked = LessonItemID(.phrase, phrase)
            guard catalog.item(asked) != nil, let text = catalog.phrase(phrase)?.texts[target] else { return nil }
            return LessonQuestion(
                id: id, item: asked, type: .repetition, prompt: text, options: [], correctOptionID: nil, accepted: [text],
                translation: native == target ? nil : catalog.phrase(phrase)?.texts[native], isNew: isNew(asked), servedAt: now)

        case .sequencing(let concepts):
            let entries = concepts.compactMap { concept in word(concept, target).map { (concept: concept, text: $0) } }
            guard entries.count == concepts.count, let first = concepts.first, let asked = item(first),
                var task = SequencingTask.make(from: entries, count: entries.count, using: &generator)
            else { return nil }
            // "I'll do the first one for you."
            if screen.workedExample { _ = try? task.drop(task.order[0]) }
            var question = LessonQuestion(
                id: id, item: asked.id, type: .sequencing, prompt: nil,
                options: task.items.map { .init(id: $0.id, text: $0.text, concept: nil) }, correctOptionID: nil, accepted: [],
                translation: nil, isNew: isNew(asked.id), servedAt: now)
            question.sequencing = task
            return question

        case .matching(let concepts):
            // Words onto their pictures.
            let candidates = concepts.compactMap { concept -> MatchingCandidate? in
                guard let text = word(concept, target), let picture = catalog.concept(concept)?.picture,
                    item(concept)?.types.contains(.picture) == true
                else { return nil }
                return MatchingCandidate(concept: concept, word: text, translation: nil, picture: picture.description, hasAudio: false)
            }
            guard candidates.count == concepts.count, let first = concepts.first, let asked = item(first),
                var task = DragMatchingTask.make(
                    from: candidates, count: candidates.count, faces: .wordPicture, preferred: candidates.count, using: &generator),
                task.items.count == concepts.count
            else { return nil }
            if screen.workedExample, let shown = task.items.first,
                let target = task.targets.first(where: { $0.concept == shown.concept })
            {
                _ = try? task.drop(shown.id, on: target.id)
            }
            var question = LessonQuestion(
                id: id, item: asked.id, type: .dragMatching, prompt: nil,
                options: task.items.map { .init(id: $0.id, text: word($0.concept, target), concept: nil) }, correctOptionID: nil,
                accepted: [], translation: nil, isNew: isNew(asked.id), servedAt: now)
            question.dragMatching = task
            question.targets = task.targets.map { .init(id: $0.id, text: nil, concept: $0.concept) }
            return question

        case .sightWords(let sentence, let words):
            // The sentence is read aloud; at each of its sight words the
            // learner taps that word's tile.
            guard words.allSatisfy({ catalog.item(LessonItemID(.sightWord, $0)) != nil }), let first = words.first,
                var task = SightWordsTask.make(words: words, using: &generator)
            else { return nil }
            if screen.workedExample { _ = try? task.tap(task.order[0]) }
            let asked = LessonItemID(.sightWord, first)
            var question = LessonQuestion(
                id: id, item: asked, type: .sightWords, prompt: sentence,
                options: task.tiles.map { .init(id: $0.id, text: $0.word, concept: nil) }, correctOptionID: nil, accepted: [],
                translation: nil, isNew: isNew(asked), servedAt: now)
            question.sightWords = task
            return question

        case .letters(let letter, let others):
            return lettersQuestion(letter, others: others, id: id, in: lesson, state: state, at: now, using: &generator)

        case .spelling(let concept):
            return spellingQuestion(concept, id: id, in: lesson, state: state, at: now, using: &generator)

        case .story(let storyID):
            // The story is read and heard (the client shows it from its
            // id), then each of its questions is asked in turn.
            guard let story = catalog.story(storyID), story.questions.indices.contains(part) else { return nil }
            let authoredQuestion = story.questions[part]
            guard authoredQuestion.options.count <= letters.count, authoredQuestion.options.indices.contains(authoredQuestion.answer)
            else { return nil }
            let order = authoredQuestion.options.indices.shuffled(using: &generator)
            let options = zip(letters, order).map { LessonQuestion.Option(id: $0, text: authoredQuestion.options[$1], concept: nil) }
            let asked = LessonItemID.storyQuestion(storyID, part + 1)
            return LessonQuestion(
                id: id, item: asked, type: .reading, prompt: authoredQuestion.prompt, options: options,
                correctOptionID: zip(letters, order).first { $1 == authoredQuestion.answer }?.0, accepted: [], translation: nil,
                isNew: isNew(asked), servedAt: now)
        }
    }
}

extension Lesson {
    /// A lesson of the course: `authored`'s screens in order, every type a
    /// screen can ask allowed; the first question is asked by `askNext`.
    public init(
        course authored: CourseLesson, of pack: CoursePack, in catalog: LessonCatalog, native: Language, startAbilities: [SkillAbility],
        writing: WordWriting? = nil
    ) {
        self.init(
            language: pack.language, native: native, length: catalog.questionCount(of: authored), types: Set(QuestionType.allCases),
            focus: [],
            gapWeights: [:], startAbilities: startAbilities)
        course = CourseLessonPlace(lesson: authored.id, pack: pack.id)
        self.writing = writing
    }
}

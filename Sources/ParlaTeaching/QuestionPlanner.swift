import Foundation
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaLearning

/// What the learning model knows when the next question is chosen.
public struct LearnerState: Sendable {
    /// Ability per skill (logits); a missing skill uses the overall mean.
    public var abilities: [Skill: Double]
    /// Memory of each item met before.
    public var cards: [LessonItemID: MemoryCard]
    /// Item difficulties learnt from answers; others keep their initial one.
    public var difficulties: [LessonItemID: Double]

    public init(abilities: [Skill: Double], cards: [LessonItemID: MemoryCard], difficulties: [LessonItemID: Double]) {
        (self.abilities, self.cards, self.difficulties) = (abilities, cards, difficulties)
    }

    func ability(_ skill: Skill) -> Double {
        abilities[skill]
            ?? (abilities.isEmpty ? CEFRCutScores.standard.centre(of: .a1) : abilities.values.reduce(0, +) / Double(abilities.count))
    }
}

/// Chooses and builds the next question of a lesson (IF 3.1.1):
///
/// 1. items the learner asked to practise, in their order;
/// 2. reviews that are due, the least likely to be recalled first;
/// 3. new items whose chance of success is near `targetSuccess`, leaning
///    towards the learner's gaps, picked at random among the closest;
/// 4. failing those, known items not yet due, weakest memory first.
///
/// Whatever the source, at least one question in every five is a phrase to
/// repeat (when repetition is allowed), the type avoids the last two types
/// used when it can, and an item is never asked twice in a row.
public struct QuestionPlanner: Sendable {
    public static let targetSuccess = 0.75
    /// Repetition at least once in this many consecutive questions.
    public static let repetitionEvery = 5
    /// New items are drawn among this many closest to the target.
    public static let candidatePool = 6

    public let catalog: LessonCatalog
    public let scheduler: MemoryScheduler
    /// The words the learner's account may be taught and shown (its open
    /// lists' and every free word); nil: all. Phrases and grammar are open
    /// to all. A locked word is never asked, reviewed, or shown as an
    /// option, a sequence's word or a matching tile.
    public let openWords: Set<String>?

    public init(catalog: LessonCatalog, scheduler: MemoryScheduler = MemoryScheduler(), openWords: Set<String>? = nil) {
        (self.catalog, self.scheduler, self.openWords) = (catalog, scheduler, openWords)
    }

    /// Whether a new item may be taught: a word only from an open list.
    func isOpen(_ item: LessonItemID) -> Bool {
        item.kind != .word || openWords?.contains(item.key) ?? true
    }

    /// The next question, or nil when nothing can be asked (no content for
    /// the types allowed).
    public func next(
        for lesson: Lesson, state: LearnerState, at now: Date,
        using generator: inout some RandomNumberGenerator
    ) -> LessonQuestion? {
        let mustRepeat =
            lesson.types.contains(.repetition)
            && lesson.questions.count >= Self.repetitionEvery - 1
            && !lesson.questions.suffix(Self.repetitionEvery - 1).contains { $0.type == .repetition }
        // When no phrase can be asked, any allowed type will do rather than none.
        if mustRepeat, let question = next(for: lesson, allowed: [.repetition], state: state, at: now, using: &generator) {
            return question
        }
        return next(for: lesson, allowed: lesson.types, state: state, at: now, using: &generator)
    }

    func next(
        for lesson: Lesson, allowed: Set<QuestionType>, state: LearnerState, at now: Date,
        using generator: inout some RandomNumberGenerator
    ) -> LessonQuestion? {
        let last = lesson.questions.last?.item
        let recentTypes = lesson.questions.suffix(2).map(\.type)
        let askedThisLesson = Set(lesson.questions.map(\.item))

        func usableTypes(_ item: LessonItem) -> [QuestionType] {
            catalog.types(of: item, native: lesson.native, allowed: allowed)
        }
        // Tries each candidate in turn: a question may fail to build (too
        // few distractors), then the next is tried.
        func build(_ candidates: some Sequence<LessonItem>) -> LessonQuestion? {
            for item in candidates where item.id != last {
                let types = usableTypes(item)
                guard !types.isEmpty else { continue }
                let fresh = types.filter { !recentTypes.contains($0) }
                for type in (fresh.isEmpty ? types : fresh).shuffled(using: &generator) + types.filter({ !fresh.contains($0) }) {
                    if let question = question(
                        type, about: item, in: lesson, isNew: state.cards[item.id] == nil, at: now,
                        using: &generator)
                    {
                        return question
                    }
                }
            }
            return nil
        }

        // 1. Focus.
        let focus = lesson.focus.filter { !askedThisLesson.contains($0) && isOpen($0) }.compactMap(catalog.item)
        if let question = build(focus) { return question }

        // 2. Due reviews.
        // A word learnt while its list was open (a trial) waits until it opens again.
        let known = state.cards.compactMap { id, card in isOpen(id) ? catalog.item(id).map { ($0, card) } : nil }
            .sorted { $0.0.id < $1.0.id }
        let due = scheduler.dueQueue(known, at: now, card: { $0.1 }).map(\.0)
        if let question = build(due) { return question }

        // 3. New items near the target chance of success. The type comes
        // first (a mix, leaning to skills with gaps), then the item.
        // Indices, not items: scoring a few thousand must not copy them.
        let items = catalog.items
        let isNew = items.indices.map {
            state.cards[items[$0].id] == nil && !askedThisLesson.contains(items[$0].id) && isOpen(items[$0].id)
        }
        let typeOrder = weightedTypeOrder(allowed: allowed, recent: recentTypes, lesson: lesson, using: &generator)
        for type in typeOrder {
            let theta = state.ability(type.skill)
            let optionCount = type.isChoice ? ChoiceQuestionMaker.optionCount : 0
            var scored: [(index: Int, distance: Double)] = []
            for index in catalog.indices(of: type) where isNew[index] {
                let item = items[index]
                let success = AbilityModel.successProbability(
                    theta: theta, difficulty: state.difficulties[item.id] ?? item.initialDifficulty,
                    optionCount: optionCount)
                scored.append((index, abs(success - Self.targetSuccess) / (lesson.gapWeights[item.areaID] ?? 1)))
            }
            // Ties go to catalogue order, so a seed always picks the same.
            scored.sort { $0.distance < $1.distance || ($0.distance == $1.distance && $0.index < $1.index) }
            let closest = scored.prefix(Self.candidatePool * 4).map(\.index).filter {
                catalog.types(of: items[$0], native: lesson.native, allowed: [type]) == [type]
            }
            let pool = Array(closest.prefix(Self.candidatePool)).shuffled(using: &generator) + closest.dropFirst(Self.candidatePool)
            for index in pool where items[index].id != last {
                if let question = question(type, about: items[index], in: lesson, isNew: true, at: now, using: &generator) {
                    return question
                }
            }
        }

        // 4. Known items, weakest memory first.
        let rest = known.sorted { scheduler.retrievability(of: $0.1, at: now) < scheduler.retrievability(of: $1.1, at: now) }.map(\.0)
        return build(rest)
    }

    /// The allowed types in the order to try: types not used in the last two
    /// questions first, drawn with weight 1 + the gap weight of their skill.
    func weightedTypeOrder(
        allowed: Set<QuestionType>, recent: [QuestionType], lesson: Lesson,
        using generator: inout some RandomNumberGenerator
    ) -> [QuestionType] {
        var fresh = QuestionType.allCases.filter { allowed.contains($0) && !recent.contains($0) }
        var order: [QuestionType] = []
        while !fresh.isEmpty {
            let weights = fresh.map { lesson.gapWeights[$0.skill.rawValue] ?? 1 }
            var draw = Double.random(in: 0..<weights.reduce(0, +), using: &generator)
            var index = 0
            while index < fresh.count - 1, draw >= weights[index] {
                draw -= weights[index]
                index += 1
            }
            order.append(fresh.remove(at: index))
        }
        return order + QuestionType.allCases.filter { allowed.contains($0) && recent.contains($0) }
    }

    /// Builds a question of `type` about `item`; nil when the content cannot
    /// make one (too few distractors, no translation).
    public func question(
        _ type: QuestionType, about item: LessonItem, in lesson: Lesson, isNew: Bool, at now: Date,
        using generator: inout some RandomNumberGenerator
    ) -> LessonQuestion? {
        let id = lesson.nextQuestionID
        let target = lesson.language, native = lesson.native
        switch (item.id.kind, type) {
        case (.word, .typedTranslation):
            guard let concept = catalog.concept(item.id.key), let meaning = ChoiceQuestionMaker.word(concept, native) else { return nil }
            // Every word the prompt can mean is right.
            let accepted = catalog.concepts(named: meaning, in: native).flatMap {
                Self.spellings(of: $0, in: target, as: lesson.writing)
            }
            guard !accepted.isEmpty else { return nil }
            return LessonQuestion(
                id: id, item: item.id, type: type, prompt: meaning, options: [], correctOptionID: nil,
                accepted: accepted, translation: nil, isNew: isNew, servedAt: now)
        case (.word, .sequencing):
            // Four words of the item's ordered list, the item among them.
            guard let list = catalog.ordered.first(where: { $0.value.contains { $0.key == item.id.key } })?.value else { return nil }
            let entries = list.filter { isOpen(LessonItemID(.word, $0.key)) }.compactMap { concept in
                ChoiceQuestionMaker.word(concept, target, as: lesson.writing).map { (concept: concept.key, text: $0) }
            }
            guard let task = SequencingTask.make(from: entries, including: item.id.key, using: &generator) else { return nil }
            var question = LessonQuestion(
                id: id, item: item.id, type: type, prompt: nil,
                options: task.items.map { .init(id: $0.id, text: $0.text, concept: nil) },
                correctOptionID: nil, accepted: [], translation: nil, isNew: isNew, servedAt: now)
            question.sequencing = task
            return question
        case (.word, .dragMatching):
            // The item and three words of its list (or any), none like another.
            guard let concept = catalog.concept(item.id.key) else { return nil }
            let alike = catalog.choices.soundsAlike[target] ?? [:]
            let mates = catalog.choices.listsOf[concept.key, default: []].flatMap { list in
                catalog.corpus.wordLists.first { $0.id == list }?.words ?? []
            }.filter { $0.key != concept.key }.shuffled(using: &generator)
            let pool =
                [concept]
                + (mates + catalog.corpus.wordLists.flatMap(\.words)).filter {
                    $0.key != concept.key && catalog.concept($0.key) != nil && isOpen(LessonItemID(.word, $0.key))
                }
            let candidates = pool.compactMap { concept -> MatchingCandidate? in
                guard let word = ChoiceQuestionMaker.word(concept, target, as: lesson.writing),
                    let written = ChoiceQuestionMaker.word(concept, target), let meaning = ChoiceQuestionMaker.word(concept, native)
                else { return nil }
                return MatchingCandidate(
                    concept: concept.key, word: word, translation: meaning, picture: nil, hasAudio: false,
                    soundsLike: alike[concept.key] ?? [],
                    wordMeans: Set(catalog.senses.concepts(named: written, in: target)),
                    translationMeans: Set(catalog.senses.concepts(named: meaning, in: native)))
            }
            // The item and its list's words come first, the rest after.
            let mateKeys = Set(mates.map(\.key))
            let preferred = 1 + candidates.dropFirst().prefix { mateKeys.contains($0.concept) }.count
            guard candidates.first?.concept == concept.key,
                let task = DragMatchingTask.make(from: candidates, faces: .wordTranslation, preferred: preferred, using: &generator)
            else { return nil }
            let words = Dictionary(candidates.map { ($0.concept, $0) }, uniquingKeysWith: { first, _ in first })
            var question = LessonQuestion(
                id: id, item: item.id, type: type, prompt: nil,
                options: task.items.map { .init(id: $0.id, text: words[$0.concept]?.word, concept: nil) },
                correctOptionID: nil, accepted: [], translation: nil, isNew: isNew, servedAt: now)
            question.dragMatching = task
            question.targets = task.targets.map { .init(id: $0.id, text: words[$0.concept]?.translation, concept: nil) }
            return question
        case (.word, _):
            guard let kind = type.choiceKind, let concept = catalog.concept(item.id.key),
                let choice = catalog.choices.question(
                    kind, about: concept, native: native, target: target, openWords: openWords, writing: lesson.writing,
                    using: &generator)
            else { return nil }
            let options = choice.options.map {
                LessonQuestion.Option(id: $0.id, text: $0.text, concept: $0.picture == nil ? nil : $0.concept)
            }
            let translation = type == .translationToTarget ? nil : ChoiceQuestionMaker.word(concept, native == target ? .english : native)
            return LessonQuestion(
                id: id, item: item.id, type: type, prompt: choice.prompt, options: options,
                correctOptionID: choice.correctOptionID, accepted: [], translation: translation, isNew: isNew, servedAt: now)
        case (.phrase, .repetition):
            guard let phrase = catalog.phrase(item.id.key), let text = phrase.texts[target] else { return nil }
            return LessonQuestion(
                id: id, item: item.id, type: type, prompt: text, options: [], correctOptionID: nil, accepted: [text],
                translation: native == target ? nil : phrase.texts[native], isNew: isNew, servedAt: now)
        case (.grammar, .gapFill):
            guard let (_, exercise) = catalog.exercise(item.id.key) else { return nil }
            let texts = ([exercise.correct] + exercise.distractors).shuffled(using: &generator)
            let options = zip(["a", "b", "c", "d"], texts).map { LessonQuestion.Option(id: $0, text: $1, concept: nil) }
            let correct = options.first { $0.text == exercise.correct }!.id
            return LessonQuestion(
                id: id, item: item.id, type: type, prompt: exercise.stem, options: options, correctOptionID: correct,
                accepted: [], translation: native == target ? nil : exercise.translation(in: native), isNew: isNew, servedAt: now)
        default:
            return nil
        }
    }

    /// How a word may be typed: alone, or with its article ("éléphant",
    /// "l'éléphant"); as the language writes it and, where the lesson's
    /// variant spells it otherwise, as the variant does ("grey", "gray").
    static func spellings(of concept: Concept, in language: Language, as writing: WordWriting? = nil) -> [String] {
        // The lesson's own spelling first: it is the one shown as the answer.
        var tags = [language.code]
        if let writing, writing.writes(language), writing.words != language.code { tags.insert(writing.words, at: 0) }
        var spellings: [String] = []
        for tag in tags {
            guard let localization = concept.localization(tag), !localization.isDisabled, let word = localization.word else { continue }
            let article = localization.article.flatMap { $0.isEmpty ? nil : $0 }
            let forms = [word] + (article.map { [$0.hasSuffix("'") || $0.hasSuffix("’") ? $0 + word : $0 + " " + word] } ?? [])
            for form in forms where !spellings.contains(form) { spellings.append(form) }
        }
        return spellings
    }
}

import ParlaContent
import ParlaCore

/// A multiple-choice question built from the content, with exactly one
/// correct option.
public struct ChoiceQuestion: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// A word in the learner's language; choose it in the language learnt.
        case translationToTarget
        /// A word in the language learnt; choose its meaning.
        case translationFromTarget
        /// The word spoken; choose how it is written.
        case listening
        /// A word; choose its picture.
        case picture
    }

    public struct Option: Sendable, Equatable {
        public var id: String
        /// What the option shows: a text, or the concept whose picture it is.
        public var text: String?
        public var picture: AssetReference?
        /// The concept the option stands for.
        public var concept: String
    }

    public var kind: Kind
    /// The concept asked about.
    public var concept: String
    /// The text shown (the word to translate; absent for listening, whose
    /// prompt is the word's audio).
    public var prompt: String?
    public var options: [Option]
    public var correctOptionID: String
}

/// Builds choice questions about the words of a corpus. Distractors come
/// from the same word list (topic) and level when it has enough, never a
/// word that translates the answer or reads the same as it, so exactly one
/// option is right (T4.2).
public struct ChoiceQuestionMaker: Sendable {
    let corpus: Corpus
    /// Each concept's lists, for topics.
    let listsOf: [String: [String]]
    /// Per language, the concepts each concept sounds like.
    let soundsAlike: [Language: [String: Set<String>]]

    public init(corpus: Corpus) {
        self.corpus = corpus
        var lists: [String: [String]] = [:]
        for list in corpus.wordLists { for word in list.words { lists[word.key, default: []].append(list.id) } }
        listsOf = lists
        soundsAlike = Dictionary(uniqueKeysWithValues: corpus.homophones.keys.map { ($0, LessonCatalog.soundsAlike(corpus, $0)) })
    }

    public static let optionCount = 4

    /// A question about `concept` for a learner whose language is `native`
    /// learning `target`; nil when the content has too few words to make one
    /// with three fitting distractors. `openWords`: the only words its
    /// options may show (a locked word is never shown); nil: any.
    /// `writing`: how the language learnt is written (its variant's
    /// spellings, the learner's letter case); nil: as the content writes it.
    public func question(
        _ kind: ChoiceQuestion.Kind, about concept: Concept, native: Language, target: Language, openWords: Set<String>? = nil,
        writing: WordWriting? = nil, using generator: inout some RandomNumberGenerator
    ) -> ChoiceQuestion? {
        guard let answer = Self.word(concept, target, as: writing), let meaning = Self.word(concept, native) else { return nil }
        // What the options show, for the answer and for any candidate.
        let shown: (Concept) -> String? = { candidate in
            switch kind {
            case .translationToTarget, .listening: Self.word(candidate, target, as: writing)
            case .translationFromTarget: Self.word(candidate, native)
            case .picture: candidate.picture.description
            }
        }
        guard let answerShown = shown(concept) else { return nil }
        let candidates = distractorPool(for: concept, openWords: openWords).filter { candidate in
            guard let text = shown(candidate), let candidateTarget = Self.word(candidate, target, as: writing),
                let candidateNative = Self.word(candidate, native)
            else { return false }
            // Never a second right answer: not the same text shown, not a
            // word that means the same in either language, not the same picture.
            return Self.folded(text) != Self.folded(answerShown)
                && Self.folded(candidateTarget) != Self.folded(answer)
                && Self.folded(candidateNative) != Self.folded(meaning)
                && candidate.picture != concept.picture
                // Heard, a word that sounds the same would be right too.
                && !(kind == .listening && soundsAlike[target]?[concept.key]?.contains(candidate.key) == true)
        }
        var chosen: [Concept] = []
        var seen: Set<String> = [Self.folded(answerShown)]
        for candidate in candidates.shuffled(using: &generator) where chosen.count < Self.optionCount - 1 {
            guard let text = shown(candidate), seen.insert(Self.folded(text)).inserted else { continue }
            chosen.append(candidate)
        }
        guard chosen.count == Self.optionCount - 1 else { return nil }
        let ordered = ([concept] + chosen).shuffled(using: &generator)
        let ids = ["a", "b", "c", "d"]
        let options = zip(ids, ordered).map { id, option in
            kind == .picture
                ? ChoiceQuestion.Option(id: id, text: nil, picture: option.picture, concept: option.key)
                : ChoiceQuestion.Option(id: id, text: shown(option), picture: nil, concept: option.key)
        }
        let prompt: String? =
            switch kind {
            case .translationToTarget: meaning
            case .translationFromTarget, .picture: answer
            case .listening: nil
            }
        return ChoiceQuestion(
            kind: kind, concept: concept.key, prompt: prompt, options: options,
            correctOptionID: options.first { $0.concept == concept.key }!.id)
    }

    /// Same list and level first; then the same list; then the same level
    /// anywhere: the nearest words that are enough.
    func distractorPool(for concept: Concept, openWords: Set<String>? = nil) -> [Concept] {
        let lists = Set(listsOf[concept.key] ?? [])
        let others = corpus.concepts.filter { $0.key != concept.key && openWords?.contains($0.key) ?? true }
        let sameTopic = others.filter { !lists.isDisjoint(with: listsOf[$0.key] ?? []) }
        let sameTopicAndLevel = sameTopic.filter { $0.level == concept.level }
        if sameTopicAndLevel.count >= 6 { return sameTopicAndLevel }
        if sameTopic.count >= 6 { return sameTopic }
        return others.filter { $0.level == concept.level } + sameTopic
    }

    /// The word as a learner sees it, or nil when the language lacks it:
    /// in the language `writing` writes, as it does (`en-US` "gray", in the
    /// learner's letter case); in any other, as the content writes it.
    static func word(_ concept: Concept, _ language: Language, as writing: WordWriting? = nil) -> String? {
        guard let writing, writing.writes(language) else {
            guard let localization = concept.localization(language), !localization.isDisabled else { return nil }
            return localization.word
        }
        return writing.shown(concept)
    }

    static func folded(_ text: String) -> String { PlacementQuestion.folded(text) }
}

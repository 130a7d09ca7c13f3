import ParlaCore

/// A place in the content that a picture or a sound fills: the picture of a
/// concept, the spoken word in French, the spoken phrase in German...
public enum AssetSlot: Sendable, Hashable, Comparable, CustomStringConvertible {
    case picture(AssetReference)
    case soundEffect(file: String)
    case word(concept: String, Language)
    /// A word as a variant of its language spells and says it (`en-US`:
    /// `Alphabet.words`), said by that variant's voice.
    case variantWord(concept: String, tag: String)
    case definition(concept: String, Language)
    /// When each word of a definition is spoken in its audio.
    case definitionTimings(concept: String, Language)
    case phrase(id: String, Language)
    /// What a listening item of the placement test speaks.
    case placementAudio(item: String, Language)
    /// What the course's narrator says, in a UI language (`CourseLine`).
    case narratorLine(CourseLine, Language)
    /// A story read aloud, and when each of its words is said.
    case storyAudio(id: String, Language)
    case storyTimings(id: String, Language)
    /// A sight-words screen's sentence read aloud (`<lesson>.<screen>`), and
    /// when each word is said: the tiles are tapped at those times.
    case sentenceAudio(screen: String, Language)
    case sentenceTimings(screen: String, Language)
    /// A lesson's or a story's title said in a UI language (the main menu
    /// says it between its lines' parts).
    case courseTitle(id: String, Language)
    /// A letter of an alphabet (`Alphabet`) said by its variant's narrator:
    /// its name (its sound in a phonics variant), or how it sounds at the
    /// end of a word.
    case letter(variant: String, letter: String, final: Bool)
    /// A country's flag (`flags/<name>.svg`, or its PNG).
    case flag(name: String, png: Bool)

    /// The slot's stable name, as stored with the imported content.
    public var description: String {
        switch self {
        case .picture(let reference): "picture:\(reference)"
        case .soundEffect(let file): "sound:\(file)"
        case .word(let concept, let language): "word:\(language.code):\(concept)"
        case .variantWord(let concept, let tag): "word:\(tag):\(concept)"
        case .definition(let concept, let language): "definition:\(language.code):\(concept)"
        case .definitionTimings(let concept, let language): "timings:\(language.code):\(concept)"
        case .phrase(let id, let language): "phrase:\(language.code):\(id)"
        case .placementAudio(let item, let language): "placement:\(language.code):\(item)"
        case .narratorLine(let line, let language): "line:\(language.code):\(line)"
        case .storyAudio(let id, let language): "story:\(language.code):\(id)"
        case .storyTimings(let id, let language): "storytimings:\(language.code):\(id)"
        case .sentenceAudio(let screen, let language): "sentence:\(language.code):\(screen)"
        case .sentenceTimings(let screen, let language): "sentencetimings:\(language.code):\(screen)"
        case .courseTitle(let id, let language): "title:\(language.code):\(id)"
        case .letter(let variant, let letter, let final): "\(final ? "letterfinal" : "letter"):\(variant):\(letter)"
        case .flag(let name, let png): "flag:\(name).\(png ? "png" : "svg")"
        }
    }

    public static func < (lhs: AssetSlot, rhs: AssetSlot) -> Bool { lhs.description < rhs.description }
}

/// Where a slot's file comes from.
public enum AssetSource: Sendable, Hashable {
    /// Spoken by the synthetic voice of `language`.
    case synthetic(text: String, Language)
    /// Spoken by espeak-ng's `voice` (an alphabet's variant's own).
    case voiced(text: String, voice: String)
    /// A picture file of Corpora (a path relative to it), served as it is.
    case image(path: String)
    /// A recording in Corpora (a path relative to it), encoded for delivery.
    case recorded(path: String)
    /// A drawing: ours, or an emoji from the picture set.
    case drawing(AssetReference)
    /// The times of the words of `text` in the audio of another slot.
    case narration(audio: AssetSlot, text: String, Language)
}

/// Decides, for every word, definition, phrase and picture of a corpus,
/// where its asset comes from: a recording placed in Corpora wins over the
/// synthetic voice. Every definition's audio also gets its word timings.
///
/// Recordings live in `audio/<lang>/`: `<concept>.<ext>` speaks the word (or
/// the file a localization's `speech` names), `<concept>.definition.<ext>`
/// its definition, `<phrase-id>.<ext>` a phrase, `<item-id>.<ext>` a
/// listening item of the placement test. Sound effects are files under
/// `sounds/`.
public struct AssetPlan: Sendable {
    public static let recordingExtensions = ["opus", "ogg", "flac", "wav"]

    public var sources: [AssetSlot: AssetSource]
    /// Files the corpus names that are not there.
    public var problems: [ContentProblem]

    /// `files` are the paths of every file in Corpora, relative to it.
    public init(corpus: Corpus, files: Set<String>) {
        var sources: [AssetSlot: AssetSource] = [:]
        var problems: [ContentProblem] = []
        /// The recording placed in `audio/<folder>/<stem>.<ext>`, if any.
        func recorded(_ folder: String, _ stem: String) -> String? {
            Self.recordingExtensions.lazy.map { "audio/\(folder)/\(stem).\($0)" }.first(where: files.contains)
        }
        func recording(_ language: Language, _ stem: String) -> String? { recorded(language.code, stem) }
        for list in corpus.wordLists { sources[.picture(list.icon)] = .drawing(list.icon) }
        for concept in corpus.concepts {
            sources[.picture(concept.picture)] = .drawing(concept.picture)
            if let sound = concept.sound {
                if files.contains("sounds/\(sound)") {
                    sources[.soundEffect(file: sound)] = .recorded(path: "sounds/\(sound)")
                } else {
                    problems.append(Self.missing("sounds/\(sound)", for: concept.key))
                }
            }
            for language in Language.allCases {
                guard let localization = concept.localization(language), !localization.isDisabled,
                    let word = localization.word, let definition = localization.definition
                else { continue }
                if let speech = localization.speech {
                    let path = "audio/\(language.code)/\(speech)"
                    if files.contains(path) {
                        sources[.word(concept: concept.key, language)] = .recorded(path: path)
                    } else {
                        problems.append(Self.missing(path, for: concept.key))
                    }
                } else {
                    sources[.word(concept: concept.key, language)] =
                        recording(language, concept.key).map { .recorded(path: $0) }
                        ?? .synthetic(text: Self.spokenWord(word, article: localization.article, in: language), language)
                }
                let definitionSlot = AssetSlot.definition(concept: concept.key, language)
                sources[definitionSlot] =
                    recording(language, concept.key + ".definition").map { .recorded(path: $0) } ?? .synthetic(text: definition, language)
                sources[.definitionTimings(concept: concept.key, language)] = .narration(audio: definitionSlot, text: definition, language)
            }
        }
        for phrase in corpus.phrases {
            for (language, text) in phrase.texts {
                sources[.phrase(id: phrase.id, language)] =
                    recording(language, phrase.id).map { .recorded(path: $0) }
                    ?? .synthetic(text: text, language)
            }
        }
        for item in corpus.placementQuestions {
            guard let audio = item.audio else { continue }
            sources[.placementAudio(item: item.id, item.language)] =
                recording(item.language, item.id).map { .recorded(path: $0) }
                ?? .synthetic(text: audio, item.language)
        }
        Self.planCourse(corpus, recording: recording, into: &sources)
        // A letter's recording: `audio/<variant>/letter.<letter>[.final].<ext>`.
        for alphabet in corpus.alphabets {
            for png in [false, true] {
                let path = "flags/\(alphabet.flag).\(png ? "png" : "svg")"
                guard files.contains(path) else {
                    problems.append(Self.missing(path, for: "alphabet \(alphabet.variant)"))
                    continue
                }
                sources[.flag(name: alphabet.flag, png: png)] = .image(path: path)
            }
            // Its words where it spells or says them its own way; a recording
            // in `audio/<tag>/<concept>.<ext>` wins.
            if let tag = alphabet.words, let language = alphabet.language, tag != language.code {
                for concept in corpus.concepts where sources[.variantWord(concept: concept.key, tag: tag)] == nil {
                    guard let localization = concept.localization(tag), !localization.isDisabled, let word = localization.word else {
                        continue
                    }
                    sources[.variantWord(concept: concept.key, tag: tag)] =
                        recorded(tag, concept.key).map { .recorded(path: $0) }
                        ?? .voiced(text: Self.spokenWord(word, article: localization.article, in: language), voice: alphabet.voice)
                }
            }
            for letter in alphabet.letters {
                for (final, text) in [(false, letter.say), (true, letter.final)] {
                    guard let text else { continue }
                    let stem = "letter.\(letter.letter)\(final ? ".final" : "")"
                    sources[.letter(variant: alphabet.variant, letter: letter.letter, final: final)] =
                        recorded(alphabet.variant, stem).map { .recorded(path: $0) } ?? .voiced(text: text, voice: alphabet.voice)
                }
            }
        }
        self.sources = sources
        self.problems = problems
    }

    /// The course's voice: the narrator's lines in every UI language, each
    /// story and each sight-words sentence read aloud with its word timings.
    /// A recording named after the slot's key wins (`audio/<lang>/line.closing.1.opus`,
    /// `story.<id>`, `sentence.<lesson>.<screen>`).
    private static func planCourse(
        _ corpus: Corpus, recording: (Language, String) -> String?, into sources: inout [AssetSlot: AssetSource]
    ) {
        func spoken(_ slot: AssetSlot, _ stem: String, _ text: String, _ language: Language) {
            sources[slot] = recording(language, stem).map { .recorded(path: $0) } ?? .synthetic(text: text, language)
        }
        for (line, texts) in corpus.instructions.lines.merging(corpus.screenInstructions, uniquingKeysWith: { first, _ in first }) {
            for (language, text) in texts { spoken(.narratorLine(line, language), "line.\(line)", text, language) }
        }
        for (id, titles) in corpus.packs.flatMap(\.lessons).map({ ($0.id, $0.titles) }) + corpus.stories.map({ ($0.id, $0.titles) }) {
            for (language, title) in titles { spoken(.courseTitle(id: id, language), "title.\(id)", title, language) }
        }
        for story in corpus.stories {
            let text = story.paragraphs.joined(separator: "\n\n")
            let audio = AssetSlot.storyAudio(id: story.id, story.language)
            spoken(audio, "story.\(story.id)", text, story.language)
            sources[.storyTimings(id: story.id, story.language)] = .narration(audio: audio, text: text, story.language)
        }
        for pack in corpus.packs {
            for lesson in pack.lessons {
                for (index, screen) in lesson.screens.enumerated() {
                    guard case .sightWords(let sentence, _) = screen.task else { continue }
                    let key = CourseLine.screenKey(lesson: lesson.id, screen: index + 1)
                    let audio = AssetSlot.sentenceAudio(screen: key, pack.language)
                    spoken(audio, "sentence.\(key)", sentence, pack.language)
                    sources[.sentenceTimings(screen: key, pack.language)] = .narration(audio: audio, text: sentence, pack.language)
                }
            }
        }
    }

    /// What the word card says: the word with its article where the
    /// language has gender ("le lit", "l'eau", "das Bett"), so the learner
    /// hears the gender; English nouns alone.
    public static func spokenWord(_ word: String, article: String?, in language: Language) -> String {
        guard language != .english, let article, !article.isEmpty else { return word }
        return article.hasSuffix("'") || article.hasSuffix("’") ? article + word : article + " " + word
    }

    static func missing(_ path: String, for concept: String) -> ContentProblem {
        ContentProblem(file: path, line: 1, kind: .missingAsset, message: "\(concept) names \(path), which is not in Corpora")
    }
}

import Foundation
import OpenAPIRuntime
import ParlaAPI
import ParlaContent
import ParlaCore
import ParlaServices

/// Content is immutable per version: every answer carries an ETag and is
/// served from memory; a learner's own view (locks) is private to them.
extension APIHandler {
    func cacheControl(personal: Bool) -> String { personal ? "private, max-age=60" : "public, max-age=300" }

    func listLanguages(_ input: Operations.ListLanguages.Input) async throws -> Operations.ListLanguages.Output {
        let tag = try content.entityTag("languages")
        if EntityTag.isCurrent(tag, ifNoneMatch: input.headers.ifNoneMatch) { return .notModified(.init(headers: .init(eTag: tag))) }
        let languages = Language.allCases.map { language in
            Components.Schemas.LanguageInfo(
                code: .init(language), englishName: language.englishName, nativeName: language.nativeName,
                direction: language.textDirection == .leftToRight ? .ltr : .rtl,
                alphabet: Collation(language).alphabet)
        }
        return .ok(
            .init(
                headers: .init(eTag: tag, cacheControl: cacheControl(personal: false)),
                body: .json(.init(contentVersion: try content.snapshot().version, languages: languages))))
    }

    func listWordLists(_ input: Operations.ListWordLists.Input) async throws -> Operations.ListWordLists.Output {
        let language = try content.language(input.path.language)
        let ownership = try await plans.ownership(for: try await input.query.learnerId.asyncMap { try await authorized($0, for: .read) })
        let snapshot = try content.snapshot()
        let now = Date()
        let views = try content.lists(in: language, open: ownership.lists)
        // A locked list's offer changes with the clock (a promotion ends), so the tag names it.
        let offers = views.map { snapshot.catalogue.offer(opening: $0.list.id, for: ownership, at: now)?.id }
        let tag = try content.entityTag("wordlists", language.code, offers.map { $0 ?? "-" }.joined(separator: ","), open: ownership.lists)
        if EntityTag.isCurrent(tag, ifNoneMatch: input.headers.ifNoneMatch) { return .notModified(.init(headers: .init(eTag: tag))) }
        let lists = zip(views, offers).map { view, offer in
            Components.Schemas.WordListSummary(
                id: view.list.id, name: view.list.names[language] ?? view.list.id,
                names: .init(additionalProperties: Dictionary(uniqueKeysWithValues: view.list.names.map { ($0.key.code, $0.value) })),
                icon: snapshot.assetPath(.picture(view.list.icon)) ?? "",
                wordCount: view.list.words.count, freeWordCount: view.list.freeKeys.count, locked: view.locked, offer: offer)
        }
        return .ok(
            .init(
                headers: .init(eTag: tag, cacheControl: cacheControl(personal: input.query.learnerId != nil)),
                body: .json(.init(wordLists: lists))))
    }

    /// What a learner's own view of a language's words depends on: the
    /// lists its account opens, and how it sees words (its course's variant
    /// and its letter case). For no learner: what every account opens, as
    /// the content writes it.
    func wordView(of learnerID: String?, in language: Language) async throws -> (open: Set<String>, writing: WordWriting?) {
        let learner = try await learnerID.asyncMap { try await authorized($0, for: .read) }
        // Both are read from memory (AccountEntitlements, LearnerDirectory):
        // one after the other, as child tasks would cost more than they save.
        let open = try await plans.ownership(for: learner).lists
        guard let learner else { return (open, nil) }
        return (open, try await courses.writing(of: learner, in: language))
    }

    func getWordListPage(_ input: Operations.GetWordListPage.Input) async throws -> Operations.GetWordListPage.Output {
        let language = try content.language(input.path.language)
        let (open, writing) = try await wordView(of: input.query.learnerId, in: language)
        let tag = try content.entityTag("page", language.code, input.path.listId, String(input.path.page), writing?.tag ?? "-", open: open)
        if EntityTag.isCurrent(tag, ifNoneMatch: input.headers.ifNoneMatch) { return .notModified(.init(headers: .init(eTag: tag))) }
        let (page, locked) = try content.page(input.path.page, of: input.path.listId, in: language, open: open, as: writing)
        let snapshot = try content.snapshot()
        // The bar's letters follow the learner's letter case too: small
        // letters beside small words.
        func barLetter(_ letter: String) -> String {
            writing.map { Casing.letter(letter.lowercased(), letterCase: $0.letterCase) } ?? letter
        }
        let body = Components.Schemas.WordPage(
            listId: input.path.listId, page: page.number, pageCount: page.pageCount, locked: locked,
            words: page.words.map { .init($0, language, as: writing, snapshot) },
            alphabetBar: page.alphabetBar.map { .init(letter: barLetter($0.letter), firstPage: $0.firstPage, onThisPage: $0.onThisPage) })
        return .ok(.init(headers: .init(eTag: tag, cacheControl: cacheControl(personal: input.query.learnerId != nil)), body: .json(body)))
    }

    func searchWords(_ input: Operations.SearchWords.Input) async throws -> Operations.SearchWords.Output {
        let language = try content.language(input.path.language)
        let words = try content.search(input.query.prefix, in: language, limit: input.query.limit ?? 20)
        let snapshot = try content.snapshot()
        return .ok(.init(body: .json(.init(words: words.map { .init($0, language, as: nil, snapshot) }))))
    }

    func getWord(_ input: Operations.GetWord.Input) async throws -> Operations.GetWord.Output {
        let language = try content.language(input.path.language)
        let (open, writing) = try await wordView(of: input.query.learnerId, in: language)
        let (concept, written, lists) = try content.word(input.path.wordId, in: language)
        // A word of no list open to the learner, and free in none, is locked.
        guard try content.openWords(open).contains(concept.key) else { throw ParlaError(.wordLocked) }
        let tag = try content.entityTag("word", language.code, input.path.wordId, writing?.tag ?? "-")
        if EntityTag.isCurrent(tag, ifNoneMatch: input.headers.ifNoneMatch) { return .notModified(.init(headers: .init(eTag: tag))) }
        let snapshot = try content.snapshot()
        // The card as the learner's course variant writes the word (its
        // plural too), in the learner's letter case, said by its voice.
        let word = writing.flatMap { concept.localization($0.words) } ?? written
        // The definition's recording (and its word timings) says the
        // language's own definition: a variant's own ("A truck is...") is
        // shown without it rather than with audio that says another word.
        let definitionSaid = word.definition == written.definition
        let timings = definitionSaid ? try await content.definitionTimings(of: concept.key, in: language, snapshot) : nil
        func cased(_ text: String?) -> String? { text.map { text in writing?.cased(text) ?? text } }
        let body = Components.Schemas.Word(
            id: concept.key, language: language.code, word: writing?.shown(concept) ?? word.word ?? concept.key,
            article: cased(word.article),
            gender: word.gender.flatMap { .init(rawValue: $0.rawValue) }, plural: cased(word.plural), definition: word.definition ?? "",
            level: concept.level.rawValue, frequencyRank: word.frequency, picture: snapshot.assetPath(.picture(concept.picture)) ?? "",
            sound: concept.sound.flatMap { snapshot.assetPath(.soundEffect(file: $0)) },
            audio: .init(
                word: snapshot.wordAudio(concept.key, language, words: writing?.words),
                definition: definitionSaid ? snapshot.assetPath(.definition(concept: concept.key, language)) : nil),
            definitionTimings: timings?.words
                .map { .init(word: $0.word, start: $0.start, end: $0.end) },
            caseOverride: word.caseOverride.flatMap { .init(rawValue: $0.rawValue) }, lists: lists)
        return .ok(
            .init(headers: .init(eTag: tag, cacheControl: cacheControl(personal: input.query.learnerId != nil)), body: .json(body)))
    }

    func listPhrases(_ input: Operations.ListPhrases.Input) async throws -> Operations.ListPhrases.Output {
        let language = try content.language(input.path.language)
        let query = input.query
        let tag = try content.entityTag(
            "phrases", language.code, query.level?.rawValue ?? "", query.topic ?? "",
            query.skill?.rawValue ?? "", String(query.page ?? 1), String(query.perPage ?? 25))
        if EntityTag.isCurrent(tag, ifNoneMatch: input.headers.ifNoneMatch) { return .notModified(.init(headers: .init(eTag: tag))) }
        let result = try content.phrases(
            in: language, level: query.level.flatMap { CEFRLevel(rawValue: $0.rawValue) },
            topic: query.topic, skill: query.skill.flatMap { Skill(rawValue: $0.rawValue) },
            page: query.page ?? 1, perPage: query.perPage ?? 25)
        let snapshot = try content.snapshot()
        let phrases = result.phrases.map {
            Components.Schemas.PhraseSummary(
                id: $0.id, text: $0.texts[language] ?? "", audio: snapshot.assetPath(.phrase(id: $0.id, language)),
                level: $0.level.rawValue, topic: $0.topic, skill: $0.skill.rawValue)
        }
        return .ok(
            .init(
                headers: .init(eTag: tag, cacheControl: cacheControl(personal: false)),
                body: .json(.init(page: result.page, pageCount: result.pageCount, total: result.total, phrases: phrases))))
    }

    func getPhrase(_ input: Operations.GetPhrase.Input) async throws -> Operations.GetPhrase.Output {
        let language = try content.language(input.path.language)
        let tag = try content.entityTag("phrase", language.code, input.path.phraseId)
        if EntityTag.isCurrent(tag, ifNoneMatch: input.headers.ifNoneMatch) { return .notModified(.init(headers: .init(eTag: tag))) }
        let phrase = try content.phrase(input.path.phraseId, in: language)
        return .ok(
            .init(
                headers: .init(eTag: tag, cacheControl: cacheControl(personal: false)),
                body: .json(.init(phrase, language, try content.snapshot()))))
    }

    func getStory(_ input: Operations.GetStory.Input) async throws -> Operations.GetStory.Output {
        let language = try content.language(input.path.language)
        let tag = try content.entityTag("story", language.code, input.path.storyId)
        if EntityTag.isCurrent(tag, ifNoneMatch: input.headers.ifNoneMatch) { return .notModified(.init(headers: .init(eTag: tag))) }
        let story = try content.story(input.path.storyId, in: language)
        let snapshot = try content.snapshot()
        func byCode(_ texts: [Language: String]) -> [String: String] {
            Dictionary(uniqueKeysWithValues: texts.map { ($0.key.code, $0.value) })
        }
        let body = Components.Schemas.Story(
            id: story.id, language: .init(rawValue: language.code) ?? .en, level: .init(rawValue: story.level.rawValue) ?? .a1,
            packId: story.pack, titles: .init(additionalProperties: byCode(story.titles)),
            summaries: .init(additionalProperties: byCode(story.summaries)),
            paragraphs: story.paragraphs, words: story.words, wordCount: story.wordCount, questions: story.questions.count,
            audio: snapshot.assetPath(.storyAudio(id: story.id, language)),
            timings: snapshot.assetPath(.storyTimings(id: story.id, language)))
        return .ok(.init(headers: .init(eTag: tag, cacheControl: cacheControl(personal: false)), body: .json(body)))
    }

    func getAlphabet(_ input: Operations.GetAlphabet.Input) async throws -> Operations.GetAlphabet.Output {
        let language = try content.language(input.path.language)
        let snapshot = try content.snapshot()
        let variant = input.query.variant ?? snapshot.corpus.defaultVariant(of: language)?.variant ?? language.code
        let letterCase = LetterCase(rawValue: input.query.letterCase?.rawValue ?? "") ?? .lower
        let tag = try content.entityTag("alphabet", language.code, variant, letterCase.rawValue)
        if EntityTag.isCurrent(tag, ifNoneMatch: input.headers.ifNoneMatch) { return .notModified(.init(headers: .init(eTag: tag))) }
        guard let alphabet = snapshot.corpus.alphabet(variant), alphabet.language == language else {
            throw ParlaError(.alphabetNotFound)
        }
        let letters = alphabet.letters.map { letter in
            Components.Schemas.AlphabetLetter(
                letter: letter.letter, upper: letter.upper, shown: Casing.letter(letter.letter, letterCase: letterCase),
                audio: snapshot.assetPath(.letter(variant: variant, letter: letter.letter, final: false)),
                finalAudio: letter.final == nil ? nil : snapshot.assetPath(.letter(variant: variant, letter: letter.letter, final: true)))
        }
        let body = Components.Schemas.Alphabet(
            variant: variant, letterCase: .init(rawValue: letterCase.rawValue) ?? .lower, language: .init(rawValue: language.code) ?? .en,
            phonics: alphabet.isPhonics,
            flag: snapshot.assetPath(.flag(name: alphabet.flag, png: false)) ?? "",
            flagPng: snapshot.assetPath(.flag(name: alphabet.flag, png: true)) ?? "", all: alphabet.all, other: alphabet.other,
            letters: letters)
        return .ok(.init(headers: .init(eTag: tag, cacheControl: cacheControl(personal: false)), body: .json(body)))
    }

    func listGrammarNotes(_ input: Operations.ListGrammarNotes.Input) async throws -> Operations.ListGrammarNotes.Output {
        let language = try content.language(input.path.language)
        let reader = try explanationLanguage(input.query.ui)
        let tag = try content.entityTag("grammar", language.code, reader.code)
        if EntityTag.isCurrent(tag, ifNoneMatch: input.headers.ifNoneMatch) { return .notModified(.init(headers: .init(eTag: tag))) }
        let notes = try content.notes(in: language).map {
            let explanation = $0.explanation(in: reader)
            return Components.Schemas.GrammarNoteSummary(
                id: $0.id, level: $0.level.rawValue, explainedIn: reader.code, title: explanation.title, summary: explanation.summary)
        }
        return .ok(.init(headers: .init(eTag: tag, cacheControl: cacheControl(personal: false)), body: .json(.init(notes: notes))))
    }

    func getGrammarNote(_ input: Operations.GetGrammarNote.Input) async throws -> Operations.GetGrammarNote.Output {
        let language = try content.language(input.path.language)
        let reader = try explanationLanguage(input.query.ui)
        let tag = try content.entityTag("note", language.code, input.path.noteId, reader.code)
        if EntityTag.isCurrent(tag, ifNoneMatch: input.headers.ifNoneMatch) { return .notModified(.init(headers: .init(eTag: tag))) }
        let (note, examples) = try content.note(input.path.noteId, in: language)
        let snapshot = try content.snapshot()
        let explanation = note.explanation(in: reader)
        let body = Components.Schemas.GrammarNote(
            id: note.id, language: language.code, level: note.level.rawValue, explainedIn: reader.code, title: explanation.title,
            summary: explanation.summary, body: explanation.body, examples: examples.map { .init($0, language, snapshot) })
        return .ok(.init(headers: .init(eTag: tag, cacheControl: cacheControl(personal: false)), body: .json(body)))
    }

    /// The reader's language for explanations: `ui` if given (else 422),
    /// else the request's (`Accept-Language`).
    private func explanationLanguage(_ ui: String?) throws -> Language {
        guard let ui else { return language }
        guard let reader = Language(rawValue: ui) else { throw ParlaError.validation([FieldError("ui", .invalidLanguage)]) }
        return reader
    }
}

extension Components.Schemas.WordSummary {
    /// A word of a page: as `writing` writes and says it (nil: as the
    /// content does).
    init(_ concept: Concept, _ language: Language, as writing: WordWriting?, _ snapshot: ContentCatalog.Snapshot) {
        let word = writing.flatMap { concept.localization($0.words) } ?? concept.localization(language)
        let article = word?.article.map { article in
            writing?.cased(article) ?? article
        }
        self.init(
            id: concept.key, word: writing?.shown(concept) ?? word?.word ?? concept.key, article: article,
            picture: snapshot.assetPath(.picture(concept.picture)) ?? "",
            audio: snapshot.wordAudio(concept.key, language, words: writing?.words), level: concept.level.rawValue)
    }
}

extension Components.Schemas.Phrase {
    init(_ phrase: ParlaContent.Phrase, _ language: Language, _ snapshot: ContentCatalog.Snapshot) {
        self.init(
            id: phrase.id, language: language.code, text: phrase.texts[language] ?? "",
            audio: snapshot.assetPath(.phrase(id: phrase.id, language)), level: phrase.level.rawValue,
            topic: phrase.topic, skill: phrase.skill.rawValue,
            translations: .init(
                additionalProperties: Dictionary(
                    uniqueKeysWithValues: phrase.texts.compactMap { key, value in
                        key == language ? nil : (key.code, value)
                    })))
    }
}

extension APIHandler {
    /// Pictures and audio: immutable by name, so cached for a year, with
    /// one byte range at a time for players that seek.
    func getAsset(_ input: Operations.GetAsset.Input) async throws -> Operations.GetAsset.Output {
        let name = input.path.name
        let tag = "\"\(name.prefix(32))\""
        if EntityTag.isCurrent(tag, ifNoneMatch: input.headers.ifNoneMatch) { return .notModified(.init(headers: .init(eTag: tag))) }
        let (bytes, kind) = try await content.asset(name)
        let cacheControl = "public, max-age=31536000, immutable"
        if kind == .json {
            let timings = try JSONDecoder().decode(Components.Schemas.SpeechAlignment.self, from: Data(bytes))
            return .ok(.init(headers: .init(eTag: tag, cacheControl: cacheControl, acceptRanges: .bytes), body: .json(timings)))
        }
        func body(_ slice: ArraySlice<UInt8>) -> HTTPBody { HTTPBody(slice) }
        switch ByteRange.parse(input.headers.range, length: bytes.count) {
        case .whole:
            let headers = Operations.GetAsset.Output.Ok.Headers(eTag: tag, cacheControl: cacheControl, acceptRanges: .bytes)
            return .ok(.init(headers: headers, body: Self.assetBody(kind, body(bytes[...]))))
        case .range(let range):
            let slice = bytes[range.first...range.last]
            let headers = Operations.GetAsset.Output.PartialContent.Headers(
                eTag: tag, cacheControl: cacheControl, acceptRanges: .bytes,
                contentRange: "bytes \(range.first)-\(range.last)/\(bytes.count)")
            return .partialContent(.init(headers: headers, body: Self.partialAssetBody(kind, body(slice))))
        case .unsatisfiable:
            throw ParlaError.rangeNotSatisfiable(length: bytes.count)
        }
    }

    static func assetBody(_ kind: AssetStore.Kind, _ body: HTTPBody) -> Operations.GetAsset.Output.Ok.Body {
        switch kind {
        case .opus: .audioOgg(body)
        case .png: .png(body)
        case .svg, .json: .imageSvgXml(body)
        }
    }

    static func partialAssetBody(_ kind: AssetStore.Kind, _ body: HTTPBody) -> Operations.GetAsset.Output.PartialContent.Body {
        switch kind {
        case .opus: .audioOgg(body)
        case .png: .png(body)
        case .svg, .json: .imageSvgXml(body)
        }
    }
}

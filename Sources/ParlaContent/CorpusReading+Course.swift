import Foundation
import ParlaCore
import Yams

/// What `CorpusReading` holds of `course/` until every file is read: a
/// lesson names concepts, phrases and stories read from other folders, so
/// it is checked once all of them are known.
struct CourseReading {
    struct Site {
        var file: String
        var line: Int
    }
    struct PendingLesson {
        var file: String
        var language: Language
        var pack: String
        var number: Int
        var node: Node
    }
    var packs: [(site: Site, pack: CoursePack)] = []
    var lessons: [PendingLesson] = []
    var stories: [String: (site: Site, story: Story)] = [:]
    var sightWords: [Language: [String: Int]] = [:]
}

// `course/`, as `CorpusLoader` reads it: packs, lessons, stories, sight
// words and the narrator's instructions (Corpora/README.md, "The course").
extension CorpusReading {
    /// A course file, by where it is: `course/instructions.yaml`, or
    /// `course/<lang>/packs.yaml`, `sightwords.yaml`, `stories/*.yaml`,
    /// `lessons/<pack>/NN.yaml`.
    mutating func readCourseFile(_ node: Node) {
        let parts = file.split(separator: "/").map(String.init)
        if parts == ["course", "instructions.yaml"] { return readInstructions(node) }
        guard parts.count >= 3, let language = Language(rawValue: parts[1]) else {
            problem(line: 1, .unknownLanguage, "course files live in course/<language>/ (en, fr, it, de or es)")
            return
        }
        switch parts.count {
        case 3 where parts[2] == "packs.yaml": readPacks(node, language: language)
        case 3 where parts[2] == "sightwords.yaml": readSightWords(node, language: language)
        case 4 where parts[2] == "stories": readStory(node, language: language)
        case 5 where parts[2] == "lessons":
            guard let number = Int(parts[4].dropLast(5)), parts[4].count == 7 else {
                problem(line: 1, .invalidValue, "a lesson's file is named by its place in the pack: 01.yaml, 02.yaml, ...")
                return
            }
            course.lessons.append(.init(file: file, language: language, pack: parts[3], number: number, node: node))
        default: problem(line: 1, .invalidValue, "\(file) is no course file (Corpora/README.md lists them)")
        }
    }

    mutating func readPacks(_ node: Node, language: Language) {
        if let code = string(node, "language"), code != language.code {
            problem(line: line(node["language"]), .invalidValue, "language \(code) differs from the folder's \(language.code)")
        }
        for packNode in node["packs"]?.sequence.map(Array.init) ?? [] {
            guard let id = string(packNode, "id") else { continue }
            if !Self.isKey(id) || !id.hasPrefix(language.code + "-") {
                problem(line: line(packNode["id"]), .invalidValue, "a pack's id is \(language.code)-<lowercase words>, not \(id)")
            }
            let sectionText = string(packNode, "section")
            let section = sectionText.flatMap(CourseSection.init(rawValue:))
            if let sectionText, section == nil {
                problem(
                    line: line(packNode["section"]), .invalidValue,
                    "section \(sectionText) is not one of \(CourseSection.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let level = level(packNode, allowed: .a1 ... .b2)
            let order = packNode["order"]?.int
            if (order ?? 0) < 1 { problem(line: line(packNode["order"] ?? packNode), .invalidValue, "order is a place from 1") }
            let icon = asset(packNode, "icon")
            let wordList = string(packNode, "words", required: section == .discover)
            let titles = perLanguage(packNode, "title"), summaries = perLanguage(packNode, "summary")
            guard let section, let level, let order, let icon else { continue }
            if let earlier = (course.packs.first { $0.pack.id == id }) {
                problem(
                    line: line(packNode["id"]), .duplicateKey, "pack \(id) is already defined at \(earlier.site.file):\(earlier.site.line)")
                continue
            }
            if let same = (course.packs.first { $0.pack.language == language && $0.pack.section == section && $0.pack.order == order }) {
                problem(
                    line: line(packNode["order"]), .duplicateKey, "pack \(same.pack.id) has \(section.rawValue)'s place \(order) already")
            }
            course.packs.append(
                (
                    .init(file: file, line: line(packNode["id"])),
                    CoursePack(
                        id: id, language: language, section: section, level: level, order: order, icon: icon, wordList: wordList,
                        titles: titles, summaries: summaries)
                ))
        }
    }

    mutating func readSightWords(_ node: Node, language: Language) {
        var words: [SightWord] = []
        for wordNode in node["words"]?.sequence.map(Array.init) ?? [] {
            guard let word = string(wordNode, "word") else { continue }
            guard let set = wordNode["set"]?.int, set >= 1 else {
                problem(line: line(wordNode), .invalidValue, "sight word \(word) needs its set, from 1")
                continue
            }
            if words.contains(where: { $0.word == word }) {
                problem(line: line(wordNode), .duplicateKey, "sight word \(word) is listed twice")
            }
            if let last = words.last, set < last.set { problem(line: line(wordNode), .invalidValue, "sight words are listed set by set") }
            words.append(SightWord(word: word, set: set))
        }
        if words.isEmpty { problem(line: line(node), .missingField, "words is missing") }
        corpus.sightWords[language] = words
        course.sightWords[language] = Dictionary(words.map { ($0.word.lowercased(), $0.set) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func readStory(_ node: Node, language: Language) {
        guard let id = string(node, "id") else { return }
        if let code = string(node, "language"), code != language.code {
            problem(line: line(node["language"]), .invalidValue, "language \(code) differs from the folder's \(language.code)")
        }
        if let earlier = course.stories[id] {
            problem(line: line(node["id"]), .duplicateKey, "story \(id) is already defined at \(earlier.site.file):\(earlier.site.line)")
            return
        }
        let level = level(node, allowed: .a1 ... .b2)
        let pack = string(node, "pack")
        let titles = perLanguage(node, "title"), summaries = perLanguage(node, "summary")
        let words = (node["words"]?.sequence.map(Array.init) ?? []).compactMap(\.string)
        let paragraphs = (node["paragraphs"]?.sequence.map(Array.init) ?? []).compactMap(\.string)
        var questions: [Story.Question] = []
        for questionNode in node["questions"]?.sequence.map(Array.init) ?? [] {
            guard let prompt = string(questionNode, "prompt") else { continue }
            let options = (questionNode["options"]?.sequence.map(Array.init) ?? []).compactMap(\.string)
            let answer = questionNode["answer"]?.int ?? -1
            if options.count < 2 || Set(options.map(PlacementQuestion.folded)).count != options.count {
                problem(line: line(questionNode), .invalidValue, "a question has at least two different options")
            } else if !options.indices.contains(answer) {
                problem(
                    line: line(questionNode["answer"] ?? questionNode), .invalidValue, "answer is the index of the right option, from 0")
            } else {
                questions.append(Story.Question(prompt: prompt, options: options, answer: answer))
            }
        }
        guard let level, let pack else { return }
        let story = Story(
            id: id, language: language, level: level, pack: pack, titles: titles, summaries: summaries, words: words,
            paragraphs: paragraphs,
            questions: questions)
        if !Story.wordCount.contains(story.wordCount) {
            problem(
                line: line(node["paragraphs"] ?? node), .invalidValue,
                "a story has \(Story.wordCount.lowerBound) to \(Story.wordCount.upperBound) words, \(id) has \(story.wordCount)")
        }
        if questions.count < 3 { problem(line: line(node["questions"] ?? node), .missingField, "a story has at least 3 questions") }
        for word in words { storyConcepts.append((file, line(node["words"]), word)) }
        course.stories[id] = (.init(file: file, line: line(node["id"])), story)
    }

    mutating func readInstructions(_ node: Node) {
        var instructions = CourseInstructions()
        guard let templates = node["templates"], case .mapping(let pairs) = templates else {
            problem(line: line(node), .missingField, "templates is missing")
            return
        }
        for (nameNode, linesNode) in pairs {
            guard let name = nameNode.string else { continue }
            guard let template = ScreenTemplate(rawValue: name) else {
                problem(line: line(nameNode), .invalidValue, "\(name) is no screen template")
                continue
            }
            let instruction = perLanguage(linesNode, "instruction")
            let example = linesNode["example"] == nil ? nil : perLanguage(linesNode, "example")
            let retry = linesNode["retry"] == nil ? nil : perLanguage(linesNode, "retry")
            instructions.templates[template] = .init(instruction: instruction, example: example, retry: retry)
        }
        for template in ScreenTemplate.allCases where instructions.templates[template] == nil {
            problem(line: line(templates), .missingField, "templates has no \(template.rawValue)")
        }
        for key in ["closing", "praise"] {
            let lines = (node[key]?.sequence.map(Array.init) ?? []).map { lineNode in
                var texts: [Language: String] = [:]
                for language in Language.allCases {
                    if let text = string(lineNode, language.code) { texts[language] = text }
                }
                return texts
            }
            if lines.isEmpty { problem(line: line(node), .missingField, "\(key) is missing") }
            if key == "closing" { instructions.closing = lines } else { instructions.praise = lines }
        }
        for menuLine in CourseInstructions.MenuLine.allCases {
            guard let menu = node["menu"] else {
                problem(line: line(node), .missingField, "menu is missing")
                break
            }
            let texts = perLanguage(menu, menuLine.rawValue)
            for (language, text) in texts
            where menuLine.namesTitle != (text.components(separatedBy: CourseInstructions.titlePlaceholder).count == 2) {
                problem(
                    line: line(menu[menuLine.rawValue] ?? menu), .invalidValue,
                    "menu \(menuLine.rawValue) (\(language.code)) must say \(CourseInstructions.titlePlaceholder) "
                        + (menuLine.namesTitle ? "once" : "nowhere"))
            }
            instructions.menu[menuLine] = texts
        }
        corpus.instructions = instructions
    }

    // MARK: Once every file is read

    /// Puts each lesson in its pack, checking every screen against the
    /// words, phrases, stories and sight words now known.
    mutating func assembleCourse() {
        var concepts: [String: Concept] = [:]
        for concept in corpus.concepts { concepts[concept.key] = concept }
        let phrases = Set(corpus.phrases.map(\.id))
        let lists = Set(corpus.wordLists.map(\.id))
        var packs = course.packs
        for (index, entry) in packs.enumerated() {
            file = entry.site.file
            if let list = entry.pack.wordList, !lists.contains(list) {
                problem(
                    line: entry.site.line, .unknownReference, "pack \(entry.pack.id) is built on word list \(list), which does not exist")
            }
            if entry.pack.section != .discover, entry.pack.wordList != nil {
                problem(line: entry.site.line, .invalidValue, "only a discover pack is built on a word list")
            }
            let lessons = course.lessons.filter { $0.pack == entry.pack.id && $0.language == entry.pack.language }
                .sorted { $0.number < $1.number }
            if lessons.isEmpty {
                problem(
                    line: entry.site.line, .missingField, "pack \(entry.pack.id) has no lessons (lessons/\(entry.pack.id)/01.yaml, ...)")
            }
            for (place, lesson) in lessons.enumerated() where lesson.number != place + 1 {
                file = lesson.file
                problem(line: 1, .invalidValue, "lessons are numbered 01, 02, ... without a gap: this is lesson \(place + 1)")
            }
            packs[index].pack.lessons = lessons.compactMap { readLesson($0, concepts: concepts, phrases: phrases) }
        }
        for lesson in course.lessons where !packs.contains(where: { $0.pack.id == lesson.pack && $0.pack.language == lesson.language }) {
            file = lesson.file
            problem(line: 1, .unknownReference, "lessons/\(lesson.pack)/ belongs to no pack of \(lesson.language.code)/packs.yaml")
        }
        for (_, entry) in course.stories.sorted(by: { $0.key < $1.key }) {
            file = entry.site.file
            let story = entry.story
            guard let pack = packs.first(where: { $0.pack.id == story.pack })?.pack, pack.language == story.language,
                pack.section == .readAStory
            else {
                problem(
                    line: entry.site.line, .unknownReference,
                    "story \(story.id) names pack \(story.pack), which is no readAStory pack of its language")
                continue
            }
            let told = pack.lessons.contains { $0.screens.contains { $0.task == .story(id: story.id) } }
            if !told {
                problem(line: entry.site.line, .unknownReference, "story \(story.id) belongs to \(pack.id), whose lessons never tell it")
            }
        }
        for reference in storyConcepts where concepts[reference.concept] == nil {
            problems.append(
                ContentProblem(
                    file: reference.file, line: reference.line, kind: .unknownReference, message: "\(reference.concept) is no word's key"))
        }
        if !packs.isEmpty, corpus.instructions.templates.isEmpty {
            problems.append(
                ContentProblem(
                    file: "course/instructions.yaml", line: 1, kind: .missingField,
                    message: "a course needs what the narrator says on each template's screens"))
        }
        corpus.packs = packs.map(\.pack).sorted {
            ($0.language.code, $0.section.rawValue, $0.order) < ($1.language.code, $1.section.rawValue, $1.order)
        }
        corpus.stories = course.stories.values.map(\.story).sorted { $0.id < $1.id }
    }

    mutating func readLesson(_ pending: CourseReading.PendingLesson, concepts: [String: Concept], phrases: Set<String>) -> CourseLesson? {
        file = pending.file
        let titles = perLanguage(pending.node, "title")
        let screenNodes = pending.node["screens"]?.sequence.map(Array.init) ?? []
        if !(1...20).contains(screenNodes.count) {
            problem(line: line(pending.node["screens"] ?? pending.node), .invalidValue, "a lesson has 1 to 20 screens")
        }
        let screens = screenNodes.compactMap { readScreen($0, language: pending.language, concepts: concepts, phrases: phrases) }
        guard screens.count == screenNodes.count else { return nil }
        let number = String(format: "%02d", pending.number)
        return CourseLesson(id: "\(pending.pack)-\(number)", number: pending.number, titles: titles, screens: screens)
    }

    /// One screen, refused when a reference is unknown or its answer is
    /// not the only right one.
    mutating func readScreen(_ node: Node, language: Language, concepts: [String: Concept], phrases: Set<String>) -> CourseScreen? {
        guard let name = string(node, "template") else { return nil }
        guard let template = ScreenTemplate(rawValue: name) else {
            problem(
                line: line(node["template"]), .invalidValue,
                "template \(name) is not one of \(ScreenTemplate.allCases.map(\.rawValue).joined(separator: ", "))")
            return nil
        }
        let at = line(node)
        let problemsBefore = problems.count
        func keys(_ key: String) -> [String] { (node[key]?.sequence.map(Array.init) ?? []).compactMap(\.string) }
        /// Concepts offered together: each known, each once, each told
        /// apart by its word in `languages` and, where pictures are
        /// offered, by its picture.
        func offered(_ keys: [String], count: ClosedRange<Int>, languages: [Language], pictures: Bool) {
            if !count.contains(keys.count) || Set(keys).count != keys.count {
                problem(
                    line: at, .invalidValue,
                    "\(name) offers \(count.count == 1 ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)") different words, each once: \(keys)"
                )
                return
            }
            let known = keys.compactMap { concepts[$0] }
            for key in keys where concepts[key] == nil { problem(line: at, .unknownReference, "\(key) is no word's key") }
            guard known.count == keys.count else { return }
            for language in languages {
                let words = known.map { PlacementQuestion.folded($0.localization(language)?.word ?? "") }
                if Set(words).count != words.count {
                    problem(line: at, .invalidValue, "two of \(keys) are the same word in \(language.code): the answer would be ambiguous")
                }
            }
            if pictures, Set(known.map(\.picture)).count != known.count {
                problem(line: at, .invalidValue, "two of \(keys) have the same picture: the answer would be ambiguous")
            }
            if template == .listen {
                for group in corpus.homophones[language] ?? [] where Set(group).intersection(keys).count > 1 {
                    problem(line: at, .invalidValue, "\(Set(group).intersection(keys).sorted()) sound the same in \(language.code)")
                }
            }
        }
        let task: CourseScreen.Task
        switch template {
        case .wordPicture, .choice, .listen:
            let word = string(node, "word") ?? ""
            let others = keys("options")
            let languages: [Language] = template == .choice ? Language.allCases : [language]
            offered([word] + others, count: 4...4, languages: languages, pictures: template == .wordPicture)
            if template == .choice {
                let text = string(node, "direction")
                guard let direction = text.flatMap(CourseScreen.Direction.init(rawValue:)) else {
                    problem(line: line(node["direction"] ?? node), .invalidValue, "direction is fromTarget or toTarget")
                    return nil
                }
                task = .choice(word: word, others: others, direction: direction)
            } else {
                task = template == .listen ? .listen(word: word, others: others) : .wordPicture(word: word, others: others)
            }
        case .gapFill:
            let sentence = string(node, "sentence") ?? "", answer = string(node, "answer") ?? ""
            let others = keys("options")
            if sentence.components(separatedBy: "___").count != 2 {
                problem(line: at, .invalidValue, "a gap-fill sentence has one gap, ___")
            }
            if others.count != 3 || Set(([answer] + others).map(PlacementQuestion.folded)).count != 4 {
                problem(line: at, .invalidValue, "a gap-fill offers its answer and 3 other words, all different")
            }
            let hint = node["hint"] == nil ? [:] : perLanguage(node, "hint")
            task = .gapFill(sentence: sentence, answer: answer, others: others, hint: hint)
        case .repeatPhrase:
            let phrase = string(node, "phrase") ?? ""
            if !phrases.contains(phrase) {
                problem(line: line(node["phrase"] ?? node), .unknownReference, "phrase \(phrase) does not exist")
            }
            task = .repeatPhrase(phrase: phrase)
        case .sequencing:
            let items = keys("items")
            offered(items, count: 3...6, languages: [language], pictures: true)
            task = .sequencing(items: items)
        case .matching:
            let words = keys("words")
            offered(words, count: 3...6, languages: [language], pictures: true)
            task = .matching(words: words)
        case .sightWords:
            let sentence = string(node, "sentence") ?? ""
            let words = keys("words")
            let known = course.sightWords[language] ?? [:]
            for word in words where known[word.lowercased()] == nil {
                problem(line: at, .unknownReference, "\(word) is not a sight word of \(language.code)/sightwords.yaml")
            }
            let listed = Set(words.map { $0.lowercased() })
            let occurrences = Self.letterRuns(sentence).map { $0.lowercased() }.filter(listed.contains)
            if words.isEmpty || occurrences != words.map({ $0.lowercased() }) {
                problem(
                    line: at, .invalidValue, "words lists each sight word as often and in the order the sentence says it: \(occurrences)")
            }
            task = .sightWords(sentence: sentence, words: words)
        case .story:
            let id = string(node, "story") ?? ""
            if course.stories[id]?.story.language != language {
                problem(line: line(node["story"] ?? node), .unknownReference, "story \(id) is no story of \(language.code)")
            }
            task = .story(id: id)
        case .letters:
            let letter = string(node, "letter") ?? ""
            let others = keys("others")
            checkLetters([letter] + others, language: language, at: at)
            task = .letters(letter: letter, others: others)
        case .spelling:
            let word = string(node, "word") ?? ""
            checkSpelling(word, concept: concepts[word], language: language, at: at)
            task = .spelling(word: word)
        }
        let example = node["example"]?.bool ?? false
        if example, ![.sequencing, .matching, .sightWords].contains(template) {
            problem(line: line(node["example"]), .invalidValue, "only sequencing, matching and sight words have a worked example")
        }
        let instruction = node["instruction"] == nil ? nil : perLanguage(node, "instruction")
        guard problems.count == problemsBefore else { return nil }
        return CourseScreen(task: task, workedExample: example, instruction: instruction)
    }

    /// A sentence's words as a sight-word reader sees them: runs of letters
    /// ("l'eau" is "l" and "eau").
    static func letterRuns(_ text: String) -> [Substring] { text.split { !$0.isLetter } }
}

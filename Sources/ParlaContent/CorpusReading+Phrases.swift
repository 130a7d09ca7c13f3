import Foundation
import ParlaCore
import Yams

// Phrases and grammar, as `CorpusLoader` reads them.
extension CorpusReading {
    mutating func readPhrases(_ node: Node) {
        guard let topic = string(node, "topic") else { return }
        for phraseNode in node["phrases"]?.sequence.map(Array.init) ?? [] {
            guard let id = string(phraseNode, "id") else { continue }
            if let earlier = phraseSites[id] {
                problem(line: line(phraseNode["id"]), .duplicateKey, "phrase \(id) is already defined at \(earlier.file):\(earlier.line)")
                continue
            }
            phraseSites[id] = (file, line(phraseNode["id"]))
            let level = level(phraseNode, allowed: .a1 ... .b2)
            let skillText = string(phraseNode, "skill")
            let skill = skillText.flatMap(Skill.init(rawValue:))
            if let skillText, skill == nil { problem(line: line(phraseNode["skill"]), .invalidValue, "skill \(skillText) is unknown") }
            var texts: [Language: String] = [:]
            for language in Language.allCases {
                guard let text = string(phraseNode, language.code) else { continue }
                let words = text.split(whereSeparator: { $0 == " " || $0 == "\u{00A0}" }).filter {
                    $0.contains(where: \.isLetter) || $0.contains(where: \.isNumber)
                }
                if !(1...12).contains(words.count) {
                    problem(
                        line: line(phraseNode[language.code]), .invalidValue,
                        "a phrase has 1 to 12 words, \(id) in \(language.code) has \(words.count)")
                }
                texts[language] = text
            }
            guard let level, let skill, texts.count == Language.allCases.count else { continue }
            corpus.phrases.append(Phrase(id: id, topic: topic, level: level, skill: skill, texts: texts))
        }
    }

    mutating func readGrammar(_ node: Node) {
        guard let code = string(node, "language") else { return }
        guard let language = Language(rawValue: code) else {
            problem(line: line(node["language"]), .unknownLanguage, "\(code) is not a language Parla teaches")
            return
        }
        for noteNode in node["notes"]?.sequence.map(Array.init) ?? [] {
            guard let id = string(noteNode, "id") else { continue }
            if let earlier = noteSites[id] {
                problem(line: line(noteNode["id"]), .duplicateKey, "note \(id) is already defined at \(earlier.file):\(earlier.line)")
                continue
            }
            noteSites[id] = (file, line(noteNode["id"]))
            let level = level(noteNode)
            let title = string(noteNode, "title"), summary = string(noteNode, "summary"), body = string(noteNode, "body")
            let examples = (noteNode["examples"]?.sequence.map(Array.init) ?? []).compactMap(\.string)
            if examples.count < 2 { problem(line: line(noteNode["id"]), .missingField, "note \(id) needs at least two example phrases") }
            for example in examples { exampleReferences.append((file, line(noteNode["examples"]), id, example)) }
            let exercises = (noteNode["exercises"]?.sequence.map(Array.init) ?? []).compactMap { readExercise($0, note: id) }
            guard let level, let title, let summary, let body else { continue }
            corpus.grammarNotes.append(
                GrammarNote(
                    id: id, language: language, level: level, title: title, summary: summary,
                    body: body, examples: examples, exercises: exercises))
        }
    }

    /// `grammar/<lang>.<ui>.yaml`: the notes of `language` explained in the
    /// UI language `explainedIn` (DF5). Kept until every note is read.
    mutating func readExplanations(_ node: Node) {
        guard let code = string(node, "language"), let uiCode = string(node, "explainedIn") else { return }
        guard let language = Language(rawValue: code) else {
            problem(line: line(node["language"]), .unknownLanguage, "\(code) is not a language Parla teaches")
            return
        }
        guard let ui = Language(rawValue: uiCode), ui != .english else {
            problem(
                line: line(node["explainedIn"]), .invalidValue,
                "explainedIn must be fr, it, de or es (a note's English is in grammar/\(code).yaml)")
            return
        }
        for noteNode in node["notes"]?.sequence.map(Array.init) ?? [] {
            explanations.append((file, line(noteNode), language, ui, noteNode))
        }
    }

    /// Gives each note its explanations, and requires one in every UI
    /// language: a note a reader cannot read in its own language is a
    /// problem of the content.
    mutating func applyExplanations() {
        var index: [String: Int] = [:]
        for (position, note) in corpus.grammarNotes.enumerated() { index[note.id] = position }
        for entry in explanations {
            file = entry.file
            guard let id = string(entry.note, "id") else { continue }
            guard let position = index[id], corpus.grammarNotes[position].language == entry.language else {
                problem(line: entry.line, .unknownReference, "note \(id) is no note of grammar/\(entry.language.code).yaml")
                continue
            }
            if corpus.grammarNotes[position].explanations[entry.ui] != nil {
                problem(line: entry.line, .duplicateKey, "note \(id) is explained in \(entry.ui.code) twice")
                continue
            }
            let title = string(entry.note, "title"), summary = string(entry.note, "summary"), body = string(entry.note, "body")
            var exercises = corpus.grammarNotes[position].exercises
            let translations = entry.note["exercises"]?.mapping.map(Array.init) ?? []
            if entry.ui == entry.language, !translations.isEmpty {
                problem(line: entry.line, .invalidValue, "note \(id): no exercise translations into the note's own language")
            }
            for (key, value) in translations {
                guard let exerciseID = key.string, let text = value.string, !text.isEmpty else {
                    problem(line: line(key), .invalidValue, "note \(id): an exercise translation is an id and a sentence")
                    continue
                }
                guard let at = exercises.firstIndex(where: { $0.id == exerciseID }) else {
                    problem(line: line(key), .unknownReference, "note \(id) has no exercise \(exerciseID)")
                    continue
                }
                exercises[at].translations[entry.ui] = text
            }
            if entry.ui != entry.language {
                for exercise in exercises where exercise.translation != nil && exercise.translations[entry.ui] == nil {
                    problem(line: entry.line, .missingField, "note \(id): exercise \(exercise.id) has no translation in \(entry.ui.code)")
                }
            }
            guard let title, let summary, let body else { continue }
            corpus.grammarNotes[position].exercises = exercises
            corpus.grammarNotes[position].explanations[entry.ui] = .init(title: title, summary: summary, body: body)
        }
        for note in corpus.grammarNotes {
            let missing = Language.allCases.filter { $0 != .english && note.explanations[$0] == nil }
            guard !missing.isEmpty, let site = noteSites[note.id] else { continue }
            problems.append(
                ContentProblem(
                    file: site.file, line: site.line, kind: .missingLocalization,
                    message: "note \(note.id) has no explanation in \(missing.map(\.code).joined(separator: ", "))"
                        + " (grammar/\(note.language.code).<ui>.yaml)"))
        }
    }

    /// One gap-fill exercise of a note; refuses anything that could have two
    /// right answers or none.
    mutating func readExercise(_ node: Node, note: String) -> GrammarExercise? {
        guard let id = string(node, "id") else { return nil }
        if let earlier = exerciseSites[id] {
            problem(line: line(node["id"]), .duplicateKey, "exercise \(id) is already defined at \(earlier.file):\(earlier.line)")
            return nil
        }
        exerciseSites[id] = (file, line(node["id"]))
        if !id.hasPrefix(note + "-") { problem(line: line(node["id"]), .invalidValue, "exercise \(id) must start with \(note)-") }
        let stem = string(node, "stem"), correct = string(node, "correct")
        let translation = string(node, "translation", required: false)
        let distractors = (node["distractors"]?.sequence.map(Array.init) ?? []).compactMap(\.string)
        if distractors.count != 3 || distractors.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            problem(line: line(node["id"]), .invalidValue, "exercise \(id) needs exactly 3 non-empty distractors")
        }
        if let correct {
            let options = [correct] + distractors
            if Set(options.map(PlacementQuestion.folded)).count != options.count {
                problem(
                    line: line(node["distractors"]), .invalidValue,
                    "exercise \(id) has two options that read the same: it would have two right answers")
            }
        }
        if let stem, stem.components(separatedBy: "___").count != 2 {
            problem(line: line(node["stem"]), .invalidValue, "exercise \(id) needs exactly one gap (___) in its stem")
        }
        guard let stem, let correct, distractors.count == 3 else { return nil }
        return GrammarExercise(id: id, stem: stem, correct: correct, distractors: distractors, translation: translation)
    }

    /// `placement/<lang>/<skill>.yaml`: the language and the skill come from
    /// the path. Refuses anything that could give an item two right answers
    /// or none.
    mutating func readPlacement(_ node: Node, path: String) {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count == 3, let language = Language(rawValue: parts[1]) else {
            problem(line: 1, .unknownLanguage, "placement banks are placement/<language>/<skill>.yaml")
            return
        }
        let skillName = String(parts[2].dropLast(5))
        guard let skill = Skill(rawValue: skillName), PlacementQuestion.skills.contains(skill) else {
            problem(line: 1, .invalidValue, "\(skillName) is not a placement skill (vocabulary, grammar, reading, listening)")
            return
        }
        for itemNode in node["items"]?.sequence.map(Array.init) ?? [] {
            guard let id = string(itemNode, "id") else { continue }
            if let earlier = placementSites[id] {
                problem(line: line(itemNode["id"]), .duplicateKey, "item \(id) is already defined at \(earlier.file):\(earlier.line)")
                continue
            }
            placementSites[id] = (file, line(itemNode["id"]))
            if !id.hasPrefix("\(language.code)-\(skill.rawValue)-") {
                problem(line: line(itemNode["id"]), .invalidValue, "item \(id) must start with \(language.code)-\(skill.rawValue)-")
            }
            let level = level(itemNode, allowed: .a1 ... .c1)
            let topic = string(itemNode, "topic"), stem = string(itemNode, "stem"), correct = string(itemNode, "correct")
            let passage = string(itemNode, "passage", required: skill == .reading)
            let audio = string(itemNode, "audio", required: skill == .listening)
            let distractors = (itemNode["distractors"]?.sequence.map(Array.init) ?? []).compactMap(\.string)
            if distractors.count != 3 || distractors.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                problem(line: line(itemNode["id"]), .invalidValue, "item \(id) needs exactly 3 non-empty distractors")
            }
            if let correct {
                let options = [correct] + distractors
                if Set(options.map(PlacementQuestion.folded)).count != options.count {
                    problem(
                        line: line(itemNode["distractors"]), .invalidValue,
                        "item \(id) has two options that read the same: it would have two right answers")
                }
            }
            if skill == .grammar, let stem, !stem.contains("___") {
                problem(line: line(itemNode["stem"]), .invalidValue, "grammar item \(id) needs a gap (___) in its stem")
            }
            guard let level, let topic, let stem, let correct, distractors.count == 3 else { continue }
            corpus.placementQuestions.append(
                PlacementQuestion(
                    id: id, language: language, skill: skill, level: level, topic: topic, stem: stem,
                    passage: passage, audio: audio, correct: correct, distractors: distractors))
        }
    }

    mutating func checkReferences() {
        for reference in exampleReferences where phraseSites[reference.phrase] == nil {
            problems.append(
                ContentProblem(
                    file: reference.file, line: reference.line, kind: .unknownReference,
                    message: "note \(reference.note) cites phrase \(reference.phrase), which does not exist"))
        }
        for reference in homophoneReferences where conceptSites[reference.concept] == nil {
            problems.append(
                ContentProblem(
                    file: reference.file, line: reference.line, kind: .unknownReference,
                    message: "homophones name \(reference.concept), which is no word's key"))
        }
    }

    /// `homophones.yaml`: per language, groups of concept keys whose words
    /// sound the same.
    mutating func readHomophones(_ node: Node) {
        for language in Language.allCases {
            for group in node[language.code]?.sequence.map(Array.init) ?? [] {
                let keys = (group.sequence.map(Array.init) ?? []).compactMap(\.string)
                guard keys.count >= 2 else {
                    problem(line: line(group), .invalidValue, "a group of homophones names at least two words")
                    continue
                }
                for key in keys { homophoneReferences.append((file, line(group), key)) }
                corpus.homophones[language, default: []].append(keys)
            }
        }
    }
}

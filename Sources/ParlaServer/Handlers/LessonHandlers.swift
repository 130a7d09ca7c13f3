import Foundation
import OpenAPIRuntime
import ParlaAPI
import ParlaContent
import ParlaCore
import ParlaLearning
import ParlaLearningStore
import ParlaServices
import ParlaStore
import ParlaTeaching

extension APIHandler {
    func startLesson(_ input: Operations.StartLesson.Input) async throws -> Operations.StartLesson.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        guard case .json(let form) = input.body else { throw ParlaError(.malformedRequest) }
        // A lesson of the course names its lesson, and only it does.
        switch (form.mode ?? .teacher, form.courseLesson) {
        case (.course, nil): throw ParlaError.validation([FieldError("courseLesson", .required)])
        case (.teacher, .some): throw ParlaError.validation([FieldError("courseLesson", .validationFailed)])
        default: break
        }
        let start = LessonService.Start(
            language: form.language.rawValue, length: form.length,
            types: form.types?.compactMap { QuestionType(rawValue: $0.rawValue) }, focus: form.focus,
            assignment: form.assignmentId, courseLesson: form.courseLesson)
        let (view, created) = try await lessons.start(learner, start)
        let body = try Components.Schemas.Lesson(view, content.snapshot())
        return created ? .created(.init(body: .json(body))) : .ok(.init(body: .json(body)))
    }

    func getLesson(_ input: Operations.GetLesson.Input) async throws -> Operations.GetLesson.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let lesson: LessonID = try parseID(input.path.lessonId, orElse: .lessonNotFound)
        let view = try await lessons.get(learner, lesson: lesson)
        return .ok(.init(body: .json(try .init(view, content.snapshot()))))
    }

    func pauseLessonSpeaking(_ input: Operations.PauseLessonSpeaking.Input) async throws -> Operations.PauseLessonSpeaking.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let lesson: LessonID = try parseID(input.path.lessonId, orElse: .lessonNotFound)
        return .ok(.init(body: .json(try .init(try await lessons.pauseSpeaking(learner, lesson: lesson), content.snapshot()))))
    }

    func abandonLesson(_ input: Operations.AbandonLesson.Input) async throws -> Operations.AbandonLesson.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        try await lessons.abandon(learner, lesson: try parseID(input.path.lessonId, orElse: .lessonNotFound))
        return .noContent(.init())
    }

    func getLessonAudio(_ input: Operations.GetLessonAudio.Input) async throws -> Operations.GetLessonAudio.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let lesson: LessonID = try parseID(input.path.lessonId, orElse: .lessonNotFound)
        let bytes = try await lessons.audio(learner, lesson: lesson, question: input.path.questionId)
        return .ok(.init(headers: .init(cacheControl: "private, max-age=86400"), body: .audioOgg(HTTPBody(bytes))))
    }

    func answerLesson(_ input: Operations.AnswerLesson.Input) async throws -> Operations.AnswerLesson.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let lesson: LessonID = try parseID(input.path.lessonId, orElse: .lessonNotFound)
        guard case .json(let form) = input.body else { throw ParlaError(.malformedRequest) }
        let answer = try Self.lessonAnswer(option: form.optionId, target: form.targetId, text: form.text, field: "optionId")
        let view = try await lessons.answer(
            learner, lesson: lesson, question: form.questionId, answer: answer,
            responseTimeMilliseconds: form.responseTimeMs)
        return .ok(.init(body: .json(try .init(view, question: form.questionId, snapshot: content.snapshot(), language: language))))
    }

    /// A try as a request gives it: an option (with a template's target)
    /// or a typed text, never both.
    static func lessonAnswer(option: String?, target: String?, text: String?, field: String) throws -> LessonAnswer {
        switch (option, text) {
        case (let option?, nil): return target.map { .drop(item: option, target: $0) } ?? .option(option)
        case (nil, let text?):
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw ParlaError(.emptyText) }
            return .text(String(text.prefix(200)))
        default: throw ParlaError.validation([FieldError(field, .required)])
        }
    }

    func submitLessonLog(_ input: Operations.SubmitLessonLog.Input) async throws -> Operations.SubmitLessonLog.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let lesson: LessonID = try parseID(input.path.lessonId, orElse: .lessonNotFound)
        guard case .json(let form) = input.body else { throw ParlaError(.malformedRequest) }
        let answers = try form.answers.enumerated().map { index, entry in
            OfflineAnswer(
                questionID: entry.questionId,
                answer: try Self.lessonAnswer(
                    option: entry.optionId, target: entry.targetId, text: entry.text, field: "answers[\(index)].optionId"),
                at: form.startedAt.addingTimeInterval(entry.at), claimedMilliseconds: entry.responseTimeMs)
        }
        let (view, created) = try await lessons.replay(
            learner, lesson: lesson, .init(courseLesson: form.courseLesson, seed: form.seed, startedAt: form.startedAt, answers: answers))
        let body = try Components.Schemas.Lesson(view, content.snapshot())
        return created ? .created(.init(body: .json(body))) : .ok(.init(body: .json(body)))
    }

    func recordLessonAnswer(_ input: Operations.RecordLessonAnswer.Input) async throws -> Operations.RecordLessonAnswer.Output {
        let learner = try await authorized(input.path.learnerId, for: .write)
        let lesson: LessonID = try parseID(input.path.lessonId, orElse: .lessonNotFound)
        let (body, mediaType): (HTTPBody, String) =
            switch input.body {
            case .audioWav(let body), .audioXWav(let body): (body, "audio/wav")
            case .audioFlac(let body): (body, "audio/flac")
            case .audioOgg(let body), .audioOpus(let body): (body, "audio/ogg")
            case .audioMpeg(let body): (body, "audio/mpeg")
            case .binary(let body): (body, "application/octet-stream")
            }
        let (view, _) = try await lessons.recording(
            learner, lesson: lesson, question: input.query.questionId, audio: try await Self.collect(body), mediaType: mediaType)
        return .ok(.init(body: .json(try .init(view, question: input.query.questionId, snapshot: content.snapshot(), language: language))))
    }
}

extension Components.Schemas.ProficiencyBar {
    init(_ status: ProficiencyStatus) {
        self.init(
            skill: status.skill.flatMap { .init(rawValue: $0.rawValue) }, value: status.progress,
            level: .init(rawValue: status.level.rawValue) ?? .a1, ability: status.theta)
    }

    init(_ ability: SkillAbility) { self.init(ProficiencyStatus(skill: ability.skill, theta: ability.theta, responses: ability.responses)) }
}

extension Components.Schemas.Lesson {
    init(_ view: LessonService.View, _ snapshot: ContentCatalog.Snapshot) throws {
        let lesson = view.lesson
        let question = lesson.current.map {
            Components.Schemas.LessonQuestion($0, lesson: lesson, learner: view.learner, lessonID: view.id, snapshot: snapshot)
        }
        let summary = lesson.isFinished ? Components.Schemas.LessonSummary(lesson.summary(abilities: view.abilities), gaps: view.gaps) : nil
        let checked = lesson.course.flatMap { Corpus.checkpointLevel($0.lesson, in: lesson.language) }
        let checkpoint = summary.flatMap { summary in
            checked.map { level -> CheckpointPayload in
                let passed = CoursePath.passes(firstTryCorrect: summary.firstTryCorrect, questions: summary.questions)
                return .init(
                    level: .init(rawValue: level.rawValue) ?? .a1, passed: passed,
                    courseLevel: passed ? .init(rawValue: CoursePath.level(after: level).rawValue) : nil)
            }
        }
        self.init(
            id: view.id.description, language: .init(rawValue: lesson.language.code) ?? .en,
            mode: lesson.course == nil ? .teacher : .course,
            course: lesson.course.flatMap { Components.Schemas.CourseLessonPlace($0, lesson: lesson, snapshot: snapshot) },
            status: lesson.isFinished ? .finished : .inProgress, length: lesson.length, answered: lesson.answeredCount,
            startedAt: view.startedAt, finishedAt: view.finishedAt, question: question, summary: summary, checkpoint: checkpoint,
            proficiency: view.abilities.map(Components.Schemas.ProficiencyBar.init))
    }
}

extension Components.Schemas.CourseLessonPlace {
    /// Where `lesson` is in its course lesson, with what the narrator says
    /// there in the learner's own language; nil when the content no longer
    /// has the lesson.
    init?(_ place: ParlaTeaching.CourseLessonPlace, lesson: Lesson, snapshot: ContentCatalog.Snapshot) {
        guard let authored = snapshot.courseLesson(place.lesson, in: lesson.language)?.lesson else { return nil }
        let native = lesson.native
        let index = lesson.questions.last.flatMap { place.screens[$0.id] } ?? 0
        let screen = authored.screens.indices.contains(index) ? authored.screens[index] : nil
        let tries = lesson.questions.flatMap(\.tries)
        let narration = snapshot.corpus.narration(
            of: authored, screen: index, finished: lesson.isFinished,
            rightAnswer: tries.last?.correct == true ? tries.filter(\.correct).count : nil)
        func said(_ line: CourseLine?) -> (text: String?, audio: String?) {
            guard let line, let text = snapshot.corpus.texts(of: line)?[native] else { return (nil, nil) }
            return (text, snapshot.assetPath(.narratorLine(line, native)))
        }
        let (instruction, example, retry, closing) = (
            said(narration.instruction), said(narration.example), said(narration.retry), said(narration.closing)
        )
        let praise = said(narration.praise)
        let sentence: String? =
            if !lesson.isFinished, case .sightWords = screen?.task {
                CourseLine.screenKey(lesson: authored.id, screen: index + 1)
            } else { nil }
        self.init(
            lessonId: place.lesson, packId: place.pack, title: authored.titles[native], screen: index + 1, screens: authored.screens.count,
            template: screen.flatMap { .init(rawValue: $0.template.rawValue) },
            storyId: screen.flatMap { if case .story(let id) = $0.task { id } else { nil } },
            instruction: instruction.text, instructionAudio: instruction.audio,
            workedExample: !lesson.isFinished && screen?.workedExample == true,
            example: example.text, exampleAudio: example.audio, retry: retry.text, retryAudio: retry.audio,
            sentenceAudio: sentence.flatMap { snapshot.assetPath(.sentenceAudio(screen: $0, lesson.language)) },
            sentenceTimings: sentence.flatMap { snapshot.assetPath(.sentenceTimings(screen: $0, lesson.language)) },
            closing: closing.text, closingAudio: closing.audio, praise: praise.text, praiseAudio: praise.audio)
    }
}

extension Components.Schemas.LessonQuestion {
    /// `lessonID`: nil for a lesson laid out to take offline, whose
    /// listening audio is the asset itself (the download holds it anyway).
    init(_ question: LessonQuestion, lesson: Lesson, learner: LearnerID, lessonID: LessonID?, snapshot: ContentCatalog.Snapshot) {
        let disabled = Set(question.disabledOptionIDs)
        let options = question.options.map { option in
            OptionsPayloadPayload(
                id: option.id, text: option.text,
                picture: option.concept.flatMap { snapshot.concepts[$0] }.flatMap { snapshot.assetPath(.picture($0.picture)) },
                audio: question.spelling?.tiles.first { $0.id == option.id }.flatMap {
                    snapshot.letterAudio($0.letter.said, variant: lesson.writes.variant)
                },
                disabled: disabled.contains(option.id))
        }
        // A listening or letters question's audio is served under the
        // lesson: the asset's own name would say which option is right.
        let audio: String? = lesson.audioSlot(of: question).flatMap { slot in
            guard let path = snapshot.assetPath(slot) else { return nil }
            guard [.listening, .letters].contains(question.type), let lessonID else { return path }
            return "/v1/learners/\(learner)/lessons/\(lessonID)/questions/\(question.id)/audio"
        }
        let filled = Set(question.filledTargetIDs)
        let word = question.spelling
        self.init(
            id: question.id, number: lesson.questions.count, _type: .init(rawValue: question.type.rawValue) ?? .translationFromTarget,
            skill: .init(rawValue: question.skill.rawValue) ?? .vocabulary, prompt: question.prompt, audio: audio,
            picture: word.flatMap { snapshot.concepts[$0.concept] }.flatMap { snapshot.assetPath(.picture($0.picture)) },
            hint: question.type == .repetition ? question.translation : nil, options: options,
            targets: word.map { word in
                // Target n is the word's n-th character: it shows its letter
                // once placed, and says it as it sounds there (a phonics y
                // at a word's end); one shown, not spelled, shows always.
                word.targets.enumerated().map { place, target in
                    .init(
                        id: String(place), text: target.letter == nil || word.filled[place] != nil ? target.shown : "",
                        audio: target.letter.flatMap {
                            snapshot.letterAudio($0.said, variant: lesson.writes.variant, last: place == word.lastLetter)
                        }, filled: filled.contains(String(place)))
                }
            }
                ?? question.targets.map { targets in
                    targets.map { target in
                        .init(
                            id: target.id, text: target.text ?? "",
                            picture: target.concept.flatMap { snapshot.concepts[$0] }.flatMap { snapshot.assetPath(.picture($0.picture)) },
                            filled: filled.contains(target.id))
                    }
                },
            placed: question.type.isTemplate ? Self.placed(question) : nil,
            tries: question.tries.filter { !$0.correct }.count, timeLimitSeconds: question.type.timeLimitSeconds)
    }
}

extension Components.Schemas.LessonQuestion {
    /// A template's items in place, in order: a worked example's first (placed
    /// for the learner when the question was asked, so no try of theirs),
    /// then the learner's right drops.
    static func placed(_ question: LessonQuestion) -> [PlacedPayloadPayload] {
        let dropped = question.tries.filter(\.correct).compactMap { drop in drop.optionID.map { (item: $0, target: drop.targetID) } }
        func byLearner(_ item: String) -> Bool { dropped.contains { $0.item == item } }
        var example: [(item: String, target: String?)] = []
        if let task = question.sequencing { example = task.placed.filter { !byLearner($0) }.map { ($0, nil) } }
        // Sight words: the worked example's taps come first, a tile once per turn of its word.
        if let task = question.sightWords { example = task.order.prefix(task.tapped - dropped.count).map { ($0, nil) } }
        if let task = question.dragMatching {
            example = task.items.compactMap { item in task.matched[item.id].flatMap { byLearner(item.id) ? nil : (item.id, $0) } }
        }
        return (example + dropped).map { PlacedPayloadPayload(optionId: $0.item, targetId: $0.target) }
    }
}

extension Components.Schemas.LessonSummary {
    init(_ summary: ParlaTeaching.LessonSummary, gaps: [ProficiencyGap]) {
        self.init(
            questions: summary.questions, firstTryCorrect: summary.firstTryCorrect, accuracy: summary.accuracy, seconds: summary.seconds,
            newWords: summary.newWords,
            skills: summary.changes.map { change in
                .init(
                    skill: .init(rawValue: change.skill.rawValue) ?? .vocabulary, before: .init(change.before), after: .init(change.after))
            },
            gaps: gaps.map { gap in
                .init(
                    kind: .init(rawValue: gap.kind.rawValue) ?? .topic, id: gap.id,
                    skill: gap.skill.flatMap { .init(rawValue: $0.rawValue) },
                    severity: gap.severity)
            })
    }
}

extension Components.Schemas.LessonAnswerResult {
    /// The verdict on the last try at `questionID`, the bar of its skill,
    /// and the lesson after it.
    init(_ view: LessonService.View, question questionID: String, snapshot: ContentCatalog.Snapshot, language: Language) throws {
        guard let question = view.lesson.questions.first(where: { $0.id == questionID }), let last = question.tries.last else {
            throw ParlaError(.internalError)
        }
        let ability = view.abilities.first { $0.skill == question.skill } ?? SkillAbility(skill: question.skill)
        self.init(
            correct: last.correct, feedback: .init(rawValue: last.feedback) ?? .wrong,
            message: Wording.answerFeedback(last.feedback).text(in: language), expected: last.expected,
            correctOptionId: last.correct ? question.correctOptionID : nil,
            correctAnswer: question.isResolved ? question.correctAnswer : nil,
            translation: last.correct ? question.translation : nil, score: last.score, wordsToPractise: last.wordsToPractise,
            proficiency: .init(ability), lesson: try .init(view, snapshot))
    }
}

extension APIHandler {
    func listLessonHistory(_ input: Operations.ListLessonHistory.Input) async throws -> Operations.ListLessonHistory.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let (limit, before): (Int, LessonID?) = try historyPage(limit: input.query.limit, before: input.query.before)
        let found = try await lessons.history(
            learner, language: input.query.language.flatMap { Language(rawValue: $0.rawValue) }, limit: limit, before: before)
        let records = found.map(Components.Schemas.LessonRecord.init)
        return .ok(.init(body: .json(.init(lessons: records, next: found.count == limit ? found.last?.id.description : nil))))
    }
}

extension Components.Schemas.LessonRecord {
    init(_ lesson: LessonStore.Summary) {
        let status: StatusPayload = lesson.finishedAt != nil ? .finished : lesson.expired ? .expired : .open
        let accuracy: Double? = lesson.answers == 0 ? nil : Double(lesson.right) / Double(lesson.answers)
        let skills: [SkillsPayloadPayload] = lesson.skills.map { .init(skill: $0.skill, answers: $0.answers, right: $0.right) }
        self.init(
            id: lesson.id.description, language: .init(rawValue: lesson.language)!, status: status, startedAt: lesson.startedAt,
            finishedAt: lesson.finishedAt, answers: lesson.answers, right: lesson.right, accuracy: accuracy,
            seconds: Double(lesson.milliseconds) / 1000, skills: skills)
    }
}

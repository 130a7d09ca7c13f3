import Foundation
import ParlaAPI
import ParlaCommerce
import ParlaContent
import ParlaCore
import ParlaServices
import ParlaTeaching

extension APIHandler {
    func listCoursePacks(_ input: Operations.ListCoursePacks.Input) async throws -> Operations.ListCoursePacks.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let (currency, _) = try shopQuery(input.query.currency, nil)
        let view = try await packs.course(learner, language: input.query.language.rawValue, currency: currency, sized: true)
        let snapshot = try content.snapshot()
        let sections = CourseSection.allCases.compactMap { section -> Components.Schemas.CourseOverview.SectionsPayloadPayload? in
            let packs = view.progress.packs.filter { $0.pack.section == section }
            guard !packs.isEmpty else { return nil }
            return .init(
                section: .init(rawValue: section.rawValue) ?? .discover,
                packs: packs.map { Components.Schemas.CoursePackSummary($0, view, snapshot) })
        }
        let going = view.progress.inProgress.flatMap { id in snapshot.courseLesson(id, in: view.language) }
        return .ok(
            .init(
                body: .json(
                    .init(
                        language: .init(rawValue: view.language.code) ?? .en,
                        _continue: going.map { Components.Schemas.CourseLessonRef($0.lesson, of: $0.pack, view) },
                        sections: sections))))
    }

    func getCoursePath(_ input: Operations.GetCoursePath.Input) async throws -> Operations.GetCoursePath.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let (view, path) = try await packs.path(learner, language: input.query.language.rawValue)
        let snapshot = try content.snapshot()
        let levels = path.levels.map { level in
            let checkpoint = snapshot.courseLesson(level.checkpoint, in: view.language)?.lesson
            return Components.Schemas.CoursePath.LevelsPayloadPayload(
                level: .init(rawValue: level.level.rawValue) ?? .a1, lessons: level.lessons, completed: level.completed,
                packs: level.packs.map { Components.Schemas.CoursePackSummary($0, view, snapshot) },
                checkpoint: .init(
                    lessonId: level.checkpoint, title: checkpoint?.titles[view.native] ?? level.checkpoint,
                    questions: checkpoint.map { snapshot.corpus.questionCount(of: $0) } ?? 0,
                    status: .init(rawValue: level.status.rawValue) ?? .open, passMark: CoursePath.passMark))
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        language: .init(rawValue: view.language.code) ?? .en,
                        level: path.level.flatMap { .init(rawValue: $0.rawValue) },
                        next: path.next.map { Components.Schemas.CourseLessonRef($0.lesson, of: $0.pack, view) }, levels: levels))))
    }

    func getCoursePack(_ input: Operations.GetCoursePack.Input) async throws -> Operations.GetCoursePack.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let (currency, _) = try shopQuery(input.query.currency, nil)
        let (view, pack) = try await packs.pack(learner, id: input.path.packId, currency: currency, sized: true)
        let lessons = pack.pack.lessons.map { lesson in
            let record = view.records[lesson.id]
            return Components.Schemas.CoursePackDetail.Value2Payload.LessonListPayloadPayload(
                id: lesson.id, number: lesson.number, title: lesson.titles[view.native] ?? lesson.id, screens: lesson.screens.count,
                status: .init(rawValue: CourseProgress.status(record).rawValue) ?? .notStarted, lastAccessed: record?.lastOpened)
        }
        return .ok(
            .init(
                body: .json(
                    .init(value1: .init(pack, view, try content.snapshot()), value2: .init(lessonList: lessons)))))
    }
}

extension APIHandler {
    func getCoursePackBundle(_ input: Operations.GetCoursePackBundle.Input) async throws -> Operations.GetCoursePackBundle.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let (view, pack, assets) = try await packs.bundle(learner, id: input.path.packId)
        let snapshot = try content.snapshot()
        func path(_ asset: PackService.BundledAsset) -> String { "/v1/assets/" + asset.name }
        let made = assets.compactMap { asset in
            asset.file.map { file in
                Components.Schemas.CoursePackBundle.AssetsPayloadPayload(
                    path: path(asset),
                    mediaType: .init(rawValue: AssetStore.kind(of: asset.name)?.mediaType ?? "") ?? .applicationJson,
                    bytes: file.bytes, sha256: file.sha256)
            }
        }
        let offline = try await lessons.offlineLessons(learner, pack: pack.pack, contentVersion: snapshot.version)
        return .ok(
            .init(
                body: .json(
                    .init(
                        packId: pack.pack.id, language: .init(rawValue: view.language.code) ?? .en,
                        narratorLanguage: .init(rawValue: view.native.code) ?? .en, contentVersion: snapshot.version,
                        bytes: made.map(\.bytes).reduce(0, +), assets: made,
                        pending: assets.filter { $0.file == nil }.map(path),
                        lessons: offline.map { .init($0, learner: learner.id, snapshot: snapshot) }))))
    }
}

extension Components.Schemas.OfflineCourseLesson {
    /// A lesson laid out for the device: each question as it is shown
    /// (with the narrator's lines on its screen) and what is right.
    init(_ offline: LessonService.OfflineLesson, learner: LearnerID, snapshot: ContentCatalog.Snapshot) {
        let lesson = offline.lesson, native = lesson.native
        func spoken(_ line: CourseLine) -> Components.Schemas.SpokenLine? {
            guard let text = snapshot.corpus.texts(of: line)?[native] else { return nil }
            return .init(text: text, audio: snapshot.assetPath(.narratorLine(line, native)).map { [$0] } ?? [])
        }
        let questions = lesson.questions.indices.compactMap { index -> QuestionsPayloadPayload? in
            // The lesson as it stands while this question is on screen.
            var asked = lesson
            asked.questions = Array(lesson.questions.prefix(index + 1))
            guard let place = asked.course.flatMap({ Components.Schemas.CourseLessonPlace($0, lesson: asked, snapshot: snapshot) })
            else { return nil }
            let question = lesson.questions[index], key = OfflineAnswerKey(question)
            return .init(
                question: .init(question, lesson: asked, learner: learner, lessonID: nil, snapshot: snapshot), place: place,
                answer: .init(
                    optionId: key.optionID, order: key.order,
                    matches: key.matches?.map { .init(optionId: $0.item, targetId: $0.target) }))
        }
        let praises = (1...max(1, snapshot.corpus.instructions.praise.count)).compactMap { spoken(.praise($0)) }
        let closing = snapshot.corpus.narration(of: offline.authored, screen: 0, finished: true).closing.flatMap(spoken)
        self.init(
            lessonId: offline.authored.id, seed: offline.seed, title: offline.authored.titles[native] ?? offline.authored.id,
            questions: questions, praises: praises, closing: closing)
    }
}

extension APIHandler {
    func getCourseMenu(_ input: Operations.GetCourseMenu.Input) async throws -> Operations.GetCourseMenu.Output {
        let learner = try await authorized(input.path.learnerId, for: .read)
        let (view, menu) = try await packs.menu(learner, language: input.query.language.rawValue)
        let snapshot = try content.snapshot()
        let native = view.native
        /// A menu line with `title` said in it (a lesson's or a story's, by `id`).
        func line(_ line: CourseInstructions.MenuLine, title: (id: String, text: String)? = nil) -> Components.Schemas.SpokenLine {
            let template = snapshot.corpus.instructions.menu[line]?[native] ?? ""
            let text = template.replacingOccurrences(of: CourseInstructions.titlePlaceholder, with: title?.text ?? "")
            let clips: [AssetSlot] =
                title.map {
                    [
                        .narratorLine(.menu(line, .beforeTitle), native), .courseTitle(id: $0.id, native),
                        .narratorLine(.menu(line, .afterTitle), native),
                    ]
                } ?? [.narratorLine(.menu(line, .whole), native)]
            return .init(text: text, audio: clips.compactMap { snapshot.assetPath($0) })
        }
        let suggestions = menu.suggestions.map { suggestion in
            let story = suggestion.storyID.flatMap { id in snapshot.corpus.stories.first { $0.id == id } }
            let title =
                story.map { ($0.id, $0.titles[native] ?? $0.id) } ?? (
                    suggestion.lesson.id, suggestion.lesson.titles[native] ?? suggestion.lesson.id
                )
            let said: CourseInstructions.MenuLine =
                switch suggestion.kind {
                case .learnToRead: .learnToRead
                case .discover: .discover
                case .story: .story
                }
            return Components.Schemas.CourseMenu.SuggestionsPayloadPayload(
                kind: .init(rawValue: suggestion.kind.rawValue) ?? .discover, packId: suggestion.pack.id, lessonId: suggestion.lesson.id,
                storyId: suggestion.storyID, title: title.1, line: line(said, title: title))
        }
        let going = view.progress.inProgress.flatMap { snapshot.courseLesson($0, in: view.language) }
        return .ok(
            .init(
                body: .json(
                    .init(
                        language: .init(rawValue: view.language.code) ?? .en,
                        intro: line(suggestions.isEmpty && going == nil ? .welcome : .intro), suggestions: suggestions,
                        _continue: going.map { going in
                            let title = going.lesson.titles[native] ?? going.lesson.id
                            return .init(
                                packId: going.pack.id, lessonId: going.lesson.id, title: title,
                                line: line(.continue, title: (going.lesson.id, title)))
                        }))))
    }
}

extension Components.Schemas.CoursePackSummary {
    init(_ progress: CourseProgress.Pack, _ view: PackService.View, _ snapshot: ContentCatalog.Snapshot) {
        let pack = progress.pack
        self.init(
            id: pack.id, section: .init(rawValue: pack.section.rawValue) ?? .discover, level: .init(rawValue: pack.level.rawValue) ?? .a1,
            order: pack.order, title: pack.titles[view.native] ?? pack.id, summary: pack.summaries[view.native],
            icon: snapshot.assetPath(.picture(pack.icon)) ?? "", wordList: pack.wordList, lessons: pack.lessons.count,
            completed: progress.completed, lastAccessed: progress.lastAccessed,
            next: progress.next.map { Components.Schemas.CourseLessonRef($0, of: pack, view) }, locked: progress.locked,
            downloadBytes: view.downloadBytes[pack.id] ?? 0,
            offers: view.offers[pack.id].map { $0.map { Components.Schemas.CourseOffer($0, view) } })
    }
}

extension Components.Schemas.CourseOffer {
    /// The offer with what it opens in the view's language, counted (seed
    /// 001's mega-pack popup: "30 Lessons, xxx Pages of Learning").
    init(_ offer: Offer, _ view: PackService.View) {
        let packs = offer.coursePacks.compactMap { view.packsByShared[$0] }
        let order = view.progress.packs.map(\.pack.id)
        let inOrder = packs.sorted { (order.firstIndex(of: $0.id) ?? .max) < (order.firstIndex(of: $1.id) ?? .max) }
        self.init(
            product: .init(offer, view.native), packs: inOrder.map(\.id), lessons: packs.map(\.lessons.count).reduce(0, +),
            screens: packs.flatMap(\.lessons).map(\.screens.count).reduce(0, +))
    }
}

extension Components.Schemas.CourseLessonRef {
    init(_ lesson: CourseLesson, of pack: CoursePack, _ view: PackService.View) {
        self.init(packId: pack.id, lessonId: lesson.id, title: lesson.titles[view.native])
    }
}

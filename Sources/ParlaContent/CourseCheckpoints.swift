import Foundation
import ParlaCore

/// The course's path (issue 34, item 6): its packs in level order, and at
/// the end of each level a checkpoint, a lesson that reviews the level.
///
/// A checkpoint is made from the content, never authored apart: from each
/// lesson of the level's packs, in path order, its last screen that asks
/// one question and needs no voice (a phrase to repeat is never taken, a
/// story only from a lesson that has nothing else), without its worked
/// example and with its template's instruction;
/// then at most `checkpointLength` of them, spread evenly over the level.
/// It changes when the level's lessons do, and is served as any lesson of
/// the course is (`<lang>-checkpoint-<level>`).
extension Corpus {
    public static let checkpointLength = 12

    /// The packs of `language` in path order: by level, then by section
    /// (Learn to Read, Read a Story, Discover, Art Space), then by their order.
    public func path(of language: Language) -> [CoursePack] {
        let sections = CourseSection.allCases
        return packs.filter { $0.language == language }.sorted {
            ($0.level, sections.firstIndex(of: $0.section) ?? 0, $0.order)
                < ($1.level, sections.firstIndex(of: $1.section) ?? 0, $1.order)
        }
    }

    /// `<lang>-checkpoint-<level>`, such as `fr-checkpoint-a1`.
    public static func checkpointID(_ level: CEFRLevel, in language: Language) -> String {
        "\(language.code)-checkpoint-\(level.rawValue.lowercased())"
    }

    /// The checkpoint at the end of `level` in `language`, with the pack it
    /// is filed under (the level's first); nil when the level has no pack.
    public func checkpoint(_ level: CEFRLevel, in language: Language) -> CourseLessons.Entry? {
        let packs = path(of: language).filter { $0.level == level }
        guard let first = packs.first else { return nil }
        let candidates = packs.flatMap(\.lessons).compactMap { lesson in
            lesson.screens.last { $0.template != .repeatPhrase && $0.template != .story }
                ?? lesson.screens.last { $0.template == .story }
        }
        guard !candidates.isEmpty else { return nil }
        let count = min(Self.checkpointLength, candidates.count)
        let screens = (0..<count).map { index in
            CourseScreen(task: candidates[index * candidates.count / count].task)
        }
        let titles = Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0, Wording.checkpoint(level.rawValue).text(in: $0)) })
        return .init(
            pack: first, lesson: CourseLesson(id: Self.checkpointID(level, in: language), number: 1, titles: titles, screens: screens))
    }

    /// How many questions a course lesson asks: one a screen, and a story
    /// screen one for each of its story's questions.
    public func questionCount(of lesson: CourseLesson) -> Int {
        lesson.screens.reduce(0) { count, screen in
            if case .story(let id) = screen.task { return count + (stories.first { $0.id == id }?.questions.count ?? 0) }
            return count + 1
        }
    }

    /// The level of a checkpoint's id in `language`, if it is one.
    public static func checkpointLevel(_ id: String, in language: Language) -> CEFRLevel? {
        let prefix = "\(language.code)-checkpoint-"
        guard id.hasPrefix(prefix) else { return nil }
        return CEFRLevel(rawValue: id.dropFirst(prefix.count).uppercased())
    }
}

import Foundation
import ParlaContent
import ParlaCore
import ParlaLearning

/// A learner's path through a language's course (issue 34, item 6): the
/// packs level by level (`Corpus.path(of:)`), how far it got in each level,
/// each level's checkpoint, and its place: the level it is at and the
/// lesson to take next there.
///
/// A checkpoint passed moves the course to the next level as a placement
/// would: the course's level, and every skill's ability raised to at least
/// the new level's lower cut (`abilities(passing:)`). It is passed when the
/// course is past its level, however it got there (a placement at A2 has
/// passed A1's), so nothing else is kept.
public struct CoursePath: Sendable, Equatable {
    /// A checkpoint's first tries right, as a share of its questions, to pass.
    public static let passMark = 0.8

    public enum CheckpointStatus: String, Sendable, Equatable {
        /// May be taken now, to test out of the level.
        case open
        /// Every lesson of the level's open packs (one at least) is finished: its time has come.
        case ready
        /// The course is past the level.
        case passed
    }

    public struct Level: Sendable, Equatable {
        public var level: CEFRLevel
        /// Its packs in path order, with the learner's progress.
        public var packs: [CourseProgress.Pack]
        public var lessons: Int
        public var completed: Int
        public var checkpoint: String
        public var status: CheckpointStatus
    }

    public var levels: [Level]
    /// The level the learner is at: the course's, or the first.
    public var level: CEFRLevel?
    /// The next lesson at that level: the first not finished in path order
    /// among the packs the learner may open; nil when none is left (the
    /// checkpoint is next).
    public var next: CourseLessons.Entry?

    /// `progress` of `language`, laid out on `corpus`'s path, for a
    /// learner whose course is at `courseLevel`.
    public init(corpus: Corpus, language: Language, progress: CourseProgress, courseLevel: CEFRLevel?) {
        let byID = Dictionary(progress.packs.map { ($0.pack.id, $0) }, uniquingKeysWith: { first, _ in first })
        let path = corpus.path(of: language).compactMap { byID[$0.id] }
        let levels = Array(Set(path.map(\.pack.level))).sorted()
        self.levels = levels.map { level in
            let packs = path.filter { $0.pack.level == level }
            let open = packs.filter { !$0.locked }
            let status: CheckpointStatus =
                if let courseLevel, courseLevel > level {
                    .passed
                } else if !open.isEmpty, open.allSatisfy({ $0.next == nil }) { .ready } else { .open }
            return Level(
                level: level, packs: packs, lessons: packs.map(\.pack.lessons.count).reduce(0, +),
                completed: packs.map(\.completed).reduce(0, +), checkpoint: Corpus.checkpointID(level, in: language), status: status)
        }
        let at = levels.first { level in courseLevel.map { $0 <= level } ?? true } ?? levels.last
        level = at
        next =
            path.lazy.filter { $0.pack.level == at && !$0.locked }.compactMap { pack in
                pack.next.map { CourseLessons.Entry(pack: pack.pack, lesson: $0) }
            }.first
    }

    /// Whether a checkpoint's result passes it.
    public static func passes(firstTryCorrect: Int, questions: Int) -> Bool {
        questions > 0 && Double(firstTryCorrect) >= passMark * Double(questions)
    }

    /// The level a passed checkpoint of `level` moves the course to.
    public static func level(after level: CEFRLevel) -> CEFRLevel {
        let all = CEFRLevel.allCases
        return all.firstIndex(of: level).map { all[min($0 + 1, all.count - 1)] } ?? level
    }

    /// Every skill's ability once a checkpoint moves the course to
    /// `level`, as a placement there would leave it: at least the level's
    /// lower cut, never lower than it was.
    public static func abilities(passingTo level: CEFRLevel, from abilities: [SkillAbility], cuts: CEFRCutScores = .standard)
        -> [SkillAbility]
    {
        guard let floor = cuts.lowerCut(of: level) else { return abilities }
        return abilities.map { ability in
            var raised = ability
            raised.theta = max(ability.theta, floor)
            return raised
        }
    }
}

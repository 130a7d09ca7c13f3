import Foundation
import ParlaContent
import ParlaCore
import ParlaGames
import ParlaLearning

/// A lesson of the course taken offline (issue 34).
///
/// Design note. The app downloads a pack (`getCoursePackBundle`) with each
/// lesson's questions as the server would ask them, laid out by a seed the
/// bundle names (`script`). The learner answers on the device, judged there
/// with the answers the bundle carries; the app later sends the answers as
/// a log under an id of its own. The server rebuilds the lesson from the
/// seed (the same questions, options in the same places) and replays the
/// log answer by answer through the live rule (`record`), each at the time
/// it was given: what a first try teaches, and the next question, are
/// decided as they would have been online. The id makes the log
/// idempotent: sent again, it finds its lesson and changes nothing.
///
/// Speaking screens are left out: no one offline can score a recording.
/// The learner's memory and ability are those of the replay, not the
/// download: a question's `isNew` may differ from the bundle's, which the
/// app never shows.
extension Lesson {
    /// The longest an offline log may reach back: a device offline for
    /// longer sends a lesson the model can no longer place in time.
    public static let offlineReach: TimeInterval = 30 * 86_400

    /// A course lesson to take offline, its questions laid out by `seed`.
    public init(
        offline authored: CourseLesson, of pack: CoursePack, seed: String, in catalog: LessonCatalog, native: Language,
        startAbilities: [SkillAbility], writing: WordWriting? = nil
    ) {
        self.init(course: authored, of: pack, in: catalog, native: native, startAbilities: startAbilities, writing: writing)
        types.remove(.repetition)
        course?.seed = seed
    }

    /// The lesson with every question it asks, in order, as its replay
    /// will ask them, none answered: each screen's questions depend on the
    /// seed and the step, never on the answers, so they can be laid out
    /// before any is given.
    public func script(planner: QuestionPlanner, state: LearnerState, at now: Date) -> Lesson {
        var lesson = self
        // The id is unused: an offline lesson's generator is its seed's.
        while lesson.askNext(LessonID(UUID()), planner: planner, state: state, at: now) {}
        return lesson
    }

    /// Replays `log` from the first question (asked at `startedAt`),
    /// leaving in `model` and `known` what it taught; returns what each
    /// resolved question taught, in order, with when. Refused at the first answer the
    /// live lesson would have refused, with its index.
    public mutating func replay(
        _ log: [OfflineAnswer], of id: LessonID, startedAt: Date, planner: QuestionPlanner, model: inout LearnerModel,
        difficulties known: inout [LessonItemID: ItemDifficulty]
    ) throws(OfflineReplayError) -> [(learning: LessonLearning, at: Date)] {
        guard questions.isEmpty, askNext(id, planner: planner, state: LearnerState(model, difficulties: known), at: startedAt)
        else { throw OfflineReplayError(index: nil, error: .finished) }
        var taught: [(learning: LessonLearning, at: Date)] = []
        for (index, entry) in log.enumerated() {
            do throws(LessonAnswerError) {
                if let learning = try record(
                    entry.answer, to: entry.questionID, of: id, at: entry.at, claimedMilliseconds: entry.claimedMilliseconds,
                    planner: planner, model: &model, difficulties: &known)
                {
                    taught.append((learning, entry.at))
                }
            } catch {
                throw OfflineReplayError(index: index, error: error)
            }
        }
        return taught
    }
}

/// One answer of an offline lesson's log, at the time it was given.
public struct OfflineAnswer: Sendable, Equatable {
    public var questionID: String
    public var answer: LessonAnswer
    public var at: Date
    public var claimedMilliseconds: Int?

    public init(questionID: String, answer: LessonAnswer, at: Date, claimedMilliseconds: Int? = nil) {
        (self.questionID, self.answer, self.at, self.claimedMilliseconds) = (questionID, answer, at, claimedMilliseconds)
    }
}

/// Why a log cannot have been answered: the answer at `index` (nil: the
/// lesson asks nothing offline) was refused as a live one would be.
public struct OfflineReplayError: Error, Sendable, Equatable {
    public var index: Int?
    public var error: LessonAnswerError
}

/// What the app needs to judge a question on the device: the right option,
/// or a template's items in their places.
public struct OfflineAnswerKey: Sendable, Equatable {
    /// A choice question's right option.
    public var optionID: String?
    /// Sequencing: the items box by box; sight words: the tile to tap at
    /// each sight word of the sentence, in order.
    public var order: [String]?
    /// Drag matching: each item's target; spelling: every place each tile
    /// fits (a letter twice in a word, d-a-d, fits either place).
    public var matches: [Match]?

    public struct Match: Sendable, Equatable {
        public var item: String
        public var target: String
    }

    /// One place for each tile of a word, each place once: a way to spell it.
    static func places(of word: SpellingWord) -> [Match] {
        var taken: Set<Int> = []
        return word.tiles.compactMap { tile in
            guard
                let place = word.targets.indices.first(where: {
                    !taken.contains($0) && word.targets[$0].letter.map(tile.letter.fits) == true
                })
            else { return nil }
            taken.insert(place)
            return Match(item: tile.id, target: String(place))
        }
    }

    public init(_ question: LessonQuestion) {
        optionID = question.correctOptionID
        order = question.sequencing?.order ?? question.sightWords?.order
        matches = question.dragMatching.map { task in
            task.items.compactMap { item in task.targets.first { $0.concept == item.concept }.map { Match(item: item.id, target: $0.id) } }
        }
        if let word = question.spelling {
            matches = word.tiles.flatMap { tile in
                word.targets.indices.filter { word.targets[$0].letter.map(tile.letter.fits) == true }.map {
                    Match(item: tile.id, target: String($0))
                }
            }
        }
    }
}

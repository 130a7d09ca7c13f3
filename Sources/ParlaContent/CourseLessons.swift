import ParlaCore

/// Every lesson of one language's course by id, each with its pack, the
/// levels' checkpoints included: built once with the content (a
/// checkpoint is made from its level's lessons, and an answer looks its
/// lesson up), then read.
public struct CourseLessons: Sendable {
    /// A lesson with the pack it is filed under.
    public struct Entry: Sendable, Equatable {
        public var pack: CoursePack
        public var lesson: CourseLesson

        public init(pack: CoursePack, lesson: CourseLesson) { (self.pack, self.lesson) = (pack, lesson) }
    }

    let byID: [String: Entry]

    public init(_ corpus: Corpus, language: Language) {
        var byID: [String: Entry] = [:]
        for pack in corpus.packs where pack.language == language {
            for lesson in pack.lessons where byID[lesson.id] == nil { byID[lesson.id] = Entry(pack: pack, lesson: lesson) }
        }
        for level in CEFRLevel.allCases {
            if let checkpoint = corpus.checkpoint(level, in: language) { byID[checkpoint.lesson.id] = checkpoint }
        }
        self.byID = byID
    }

    /// A lesson (`<pack>-NN`) or a checkpoint (`<lang>-checkpoint-<level>`), with its pack.
    public subscript(id: String) -> Entry? { byID[id] }
}

import ParlaWeb

// What each page of the dashboard shows, typed: a template names these
// properties (`{{name}}`), and `DashboardPages` renders a model with its
// frame and the teacher's words. `{{#hasItems}}` is true when `items` is
// not empty. A nested model's optional must not share a name with its page's
// properties: mustache would look up the page's when it is nil.

/// The sign-in form; `error`: why the last try was refused.
struct SignInPage: PageModel {
    var template: String { "signin" }
    var frame: PageFrame
    var email: String
    var error: String?
    var providers: [Provider]

    struct Provider {
        var id: String
        var label: String
    }
}

/// The second factor's form after a provider's sign-in.
struct SignInCodePage: PageModel {
    var template: String { "signin-code" }
    var frame: PageFrame
    var error: String?
}

/// Signed in by a provider: on to `/teach`.
struct SignedInPage: PageModel {
    var template: String { "signed-in" }
    var frame: PageFrame
}

/// Not this visitor's, or not there.
struct MissingPage: PageModel {
    var template: String { "missing" }
    var frame: PageFrame
}

/// A page of a link sent by email (a new password, a confirmation, an
/// email change undone): its form, or what it did.
struct AccountPage: PageModel {
    var template: String
    var frame: PageFrame
    var token: String
    var done = false
}

/// The visitor's classes, the form for a new one, and its family.
struct ClassesPage: PageModel {
    var template: String { "classes" }
    var frame: PageFrame
    var isTeacher: Bool
    var classes: [SchoolClass]
    var languages: [LanguageChoice]
    var levelChoices: [String]
    var family: [Member]

    struct SchoolClass {
        var id: String, name: String, language: String, level: String
        var members: Int
        var joinCode: String
    }

    struct LanguageChoice {
        var code: String, name: String
    }

    struct Member {
        var id: String, name: String
    }
}

/// A class: its members' levels and progress, its assignments, what it
/// misses most, and the forms that assign work.
struct ClassPage: PageModel {
    var template: String { "class" }
    var frame: PageFrame
    var id: String
    var classID: String
    var name: String
    var language: String
    var languageCode: String
    var level: String
    var joinCode: String?
    /// Nil until a member has begun the class's language: said, not drawn.
    var levelsChart: String?
    var progressChart: String?
    var learners: [Learner]
    var assignments: [Assignment]
    var missed: [Missed]
    // The assignment forms' choices (`AssignmentChoices`).
    var wordLists: [AssignmentChoices.Choice]
    var grammarNotes: [AssignmentChoices.Choice]
    var phraseTopics: [AssignmentChoices.Topic]
    var coursePacks: [AssignmentChoices.Choice]
    var packLessons: [AssignmentChoices.Pack]
    var firstDue: String, lastDue: String, defaultDue: String

    struct Learner {
        var id: String, name: String, lastActive: String, level: String, levelBar: String
        var trend7: String, trend30: String, weakest: String, completion: String
    }

    struct Assignment {
        var id: String, what: String, due: String, completion: String
    }

    struct Missed {
        var text: String
        var misses: Int, answers: Int
    }
}

/// What the assignment forms offer for a class: word lists, grammar notes
/// with exercises, phrases by topic, the course's packs and their lessons,
/// and the due dates allowed.
struct AssignmentChoices {
    var wordLists: [Choice]
    var grammarNotes: [Choice]
    var phraseTopics: [Topic]
    var coursePacks: [Choice]
    var packLessons: [Pack]
    var firstDue: String, lastDue: String, defaultDue: String

    /// A pack of the course with its lessons, for the lessons' choice.
    struct Pack {
        var name: String
        var lessons: [Choice]
    }

    struct Choice {
        var id: String, name: String
    }

    struct Topic {
        var topic: String
        var phrases: [Phrase]
    }

    struct Phrase {
        var id: String, text: String
    }
}

/// An assignment and how far each member got.
struct AssignmentPage: PageModel {
    var template: String { "assignment" }
    var frame: PageFrame
    var what: String
    var classID: String
    var className: String
    var due: String
    var items: Int
    var learners: [Learner]

    struct Learner {
        var id: String, name: String
        var answers: Int
        var completion: String
        var locked: Int
        var accuracy: String, last: String
    }
}

/// One learner, as its teacher or its family sees it.
struct LearnerPage: PageModel {
    var template: String { "learner" }
    var frame: PageFrame
    var name: String
    var language: String
    /// The learner's languages, when it has more than one.
    var languages: [LanguageLink]
    var learnerID: String
    var level: String
    var levelBar: String
    var historyChart: String?
    var skills: [SkillRow]
    var gaps: [String]
    var lessons: [Lesson]
    var games: [Game]
    var attempts: [Attempt]
    /// The course's packs in the page's language, in the course's order.
    var packs: [Pack]
    /// Its Art Space: every drawing for its family, the shared ones for a teacher.
    var drawings: [Drawing]

    struct Drawing {
        var id: String, title: String, when: String
        var picture: String
        var width: Int, height: Int
        /// Where what it said about the drawing is heard, when it said something.
        var audio: String?
        var shared: Bool
    }

    struct Pack {
        var id: String, title: String, level: String
        var completed: Int, lessons: Int
        /// The share finished, for the bar: 0 to 100.
        var percent: Int
        var lastAccessed: String?
        var locked: Bool
    }

    struct LanguageLink {
        var code: String, name: String
        var current: Bool
    }

    struct SkillRow {
        var name: String, level: String, levelBar: String
        var answers: Int
    }

    struct Lesson {
        var when: String
        var answers: Int
        var accuracy: String, time: String
    }

    struct Game {
        var when: String
        /// Card matching or spelling, in the reader's language.
        var kind: String
        /// Pairs matched or words spelled.
        var items: Int, score: Int
        var time: String
        var mismatches: Int
    }

    struct Attempt {
        var words: [Word]
        var overall: Int
        var when: String
        /// Where its recording is heard, when it is kept and may be.
        var audio: String?
    }

    struct Word {
        var text: String
        var score: Int
        /// good, fair or poor (the class of its colour).
        var grade: String
    }
}

/// The guided tour an app shows when it is first opened (seed 004, IF 6):
/// one step per feature it suggests, in every UI language. The app puts
/// each step beside the screen `feature` names.
public enum IntroTour {
    /// Bumped when the steps change enough to be shown again to learners
    /// who finished or skipped an older tour.
    public static let version = 1

    public struct Step: Sendable, Equatable {
        /// Stable across versions: what the app keys its highlight on.
        public var id: String
        /// The screen or control the step points at.
        public var feature: String
        public var title: LocalizedText
        public var text: LocalizedText
    }

    /// Where a learner is with the tour: nothing yet, done, or skipped, and
    /// for which version.
    public enum Status: String, Sendable, CaseIterable {
        case notStarted = "not_started"
        case inProgress = "in_progress"
        case completed
        case skipped
    }

    /// Whether the app should show the tour to a learner in this state.
    public static func shouldShow(status: Status, seenVersion: Int?) -> Bool {
        switch status {
        case .notStarted, .inProgress: true
        case .completed, .skipped: (seenVersion ?? 0) < version
        }
    }

    /// A learner's report of its progress: a status it may set and, if
    /// given, a step of this tour.
    public static func validate(status: String?, step: String?) throws(ParlaError) -> (Status, String?) {
        var errors = FieldErrors()
        var chosen: Status?
        if let status {
            chosen = Status(rawValue: status).flatMap { $0 == .notStarted ? nil : $0 }
            if chosen == nil { errors.add("status", .invalidTourStatus) }
        } else {
            errors.add("status", .required)
        }
        if let step, !steps.contains(where: { $0.id == step }) { errors.add("step", .invalidTourStep) }
        try errors.throwIfAny()
        return (chosen!, step)
    }

    public static let steps: [Step] = [
        Step(
            id: "welcome", feature: "home",
            title: LocalizedText(
                en: "Welcome to Parla", fr: "Bienvenue dans Parla", it: "Benvenuto in Parla", de: "Willkommen bei Parla",
                es: "Te damos la bienvenida a Parla"),
            text: LocalizedText(
                en: "Learn English, French, Italian, German or Spanish a little every day. This short tour shows you around.",
                fr:
                    "Apprenez l'anglais, le français, l'italien, l'allemand ou l'espagnol un peu chaque jour. Cette courte visite vous montre l'essentiel.",
                it: "Impara inglese, francese, italiano, tedesco o spagnolo un po' ogni giorno. Questo breve tour ti mostra l'essenziale.",
                de:
                    "Lernen Sie jeden Tag ein wenig Englisch, Französisch, Italienisch, Deutsch oder Spanisch. Diese kurze Tour zeigt Ihnen das Wichtigste.",
                es: "Aprende inglés, francés, italiano, alemán o español un poco cada día. Este breve recorrido te enseña lo esencial.")),
        Step(
            id: "placement", feature: "placement",
            title: LocalizedText(
                en: "Find your level", fr: "Trouvez votre niveau", it: "Trova il tuo livello", de: "Finden Sie Ihr Niveau",
                es: "Descubre tu nivel"),
            text: LocalizedText(
                en: "A short placement test finds where to start, so lessons are neither too easy nor too hard.",
                fr: "Un court test de niveau trouve par où commencer : les leçons ne sont ni trop faciles ni trop difficiles.",
                it: "Un breve test di livello trova da dove iniziare: le lezioni non sono né troppo facili né troppo difficili.",
                de: "Ein kurzer Einstufungstest findet Ihren Startpunkt, damit die Lektionen weder zu leicht noch zu schwer sind.",
                es:
                    "Una breve prueba de nivel encuentra por dónde empezar: las lecciones no serán ni demasiado fáciles ni demasiado difíciles."
            )),
        Step(
            id: "wordLists", feature: "wordLists",
            title: LocalizedText(
                en: "Words with pictures", fr: "Des mots en images", it: "Parole con immagini", de: "Wörter mit Bildern",
                es: "Palabras con imágenes"),
            text: LocalizedText(
                en: "Browse themed word lists: touch a picture to hear the word and read what it means.",
                fr: "Parcourez les listes de mots par thème : touchez une image pour entendre le mot et lire sa définition.",
                it: "Sfoglia le liste di parole per tema: tocca un'immagine per ascoltare la parola e leggerne il significato.",
                de: "Stöbern Sie in Wortlisten nach Themen: Tippen Sie auf ein Bild, um das Wort zu hören und seine Bedeutung zu lesen.",
                es: "Explora listas de palabras por temas: toca una imagen para oír la palabra y leer lo que significa.")),
        Step(
            id: "teacherMode", feature: "teacherMode",
            title: LocalizedText(
                en: "Lessons that adapt", fr: "Des leçons qui s'adaptent", it: "Lezioni che si adattano",
                de: "Lektionen, die sich anpassen", es: "Lecciones que se adaptan"),
            text: LocalizedText(
                en: "Teacher mode picks each question for you and brings words back just before you would forget them.",
                fr: "Le mode professeur choisit chaque question pour vous et ramène les mots juste avant que vous ne les oubliiez.",
                it: "La modalità insegnante sceglie ogni domanda per te e ripropone le parole poco prima che tu le dimentichi.",
                de: "Der Lehrermodus wählt jede Frage für Sie aus und bringt Wörter zurück, kurz bevor Sie sie vergessen würden.",
                es: "El modo profesor elige cada pregunta por ti y te repite las palabras justo antes de que las olvides.")),
        Step(
            id: "speech", feature: "speech",
            title: LocalizedText(
                en: "Say it out loud", fr: "Dites-le à voix haute", it: "Dillo ad alta voce", de: "Sprechen Sie es laut aus",
                es: "Dilo en voz alta"),
            text: LocalizedText(
                en: "Repeat a phrase into the microphone: each word gets a score, and a tip for the sound to work on.",
                fr: "Répétez une phrase dans le micro : chaque mot reçoit une note, et un conseil sur le son à travailler.",
                it: "Ripeti una frase nel microfono: ogni parola riceve un punteggio e un consiglio sul suono da migliorare.",
                de:
                    "Sprechen Sie einen Satz ins Mikrofon nach: Jedes Wort bekommt eine Bewertung und einen Tipp zum Laut, den Sie üben sollten.",
                es: "Repite una frase al micrófono: cada palabra recibe una puntuación y un consejo sobre el sonido que debes practicar.")),
        Step(
            id: "games", feature: "games",
            title: LocalizedText(
                en: "Play and compare", fr: "Jouez et comparez", it: "Gioca e confronta", de: "Spielen und vergleichen",
                es: "Juega y compara"),
            text: LocalizedText(
                en: "Match cards against the clock, then see where you stand on the leaderboards and among your friends.",
                fr: "Associez les cartes contre la montre, puis voyez votre place dans les classements et parmi vos amis.",
                it: "Abbina le carte contro il tempo, poi guarda la tua posizione nelle classifiche e tra i tuoi amici.",
                de: "Finden Sie Kartenpaare gegen die Uhr und sehen Sie dann Ihren Platz in den Bestenlisten und unter Ihren Freunden.",
                es: "Empareja cartas contra reloj y mira tu puesto en las clasificaciones y entre tus amigos.")),
        Step(
            id: "progress", feature: "profile",
            title: LocalizedText(
                en: "Watch yourself grow", fr: "Suivez vos progrès", it: "Segui i tuoi progressi", de: "Verfolgen Sie Ihre Fortschritte",
                es: "Sigue tu progreso"),
            text: LocalizedText(
                en: "Your profile shows your level in each skill and what to work on next.",
                fr: "Votre profil montre votre niveau dans chaque compétence et ce qu'il faut travailler ensuite.",
                it: "Il tuo profilo mostra il tuo livello in ogni abilità e su cosa lavorare dopo.",
                de: "Ihr Profil zeigt Ihr Niveau in jeder Fertigkeit und woran Sie als Nächstes arbeiten sollten.",
                es: "Tu perfil muestra tu nivel en cada destreza y qué practicar a continuación.")),
    ]
}

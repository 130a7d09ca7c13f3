import ParlaCore

/// The dashboard's words, in the teacher's language (EFIGS).
public enum WebText {
    static let table: [String: LocalizedText] = [
        "appName": .init(
            en: "Parla for teachers", fr: "Parla pour les enseignants", it: "Parla per gli insegnanti", de: "Parla für Lehrkräfte",
            es: "Parla para profesores"),
        "signIn": .init(en: "Sign in", fr: "Se connecter", it: "Accedi", de: "Anmelden", es: "Iniciar sesión"),
        "signOut": .init(en: "Sign out", fr: "Se déconnecter", it: "Esci", de: "Abmelden", es: "Cerrar sesión"),
        "email": .init(en: "Email", fr: "E-mail", it: "E-mail", de: "E-Mail", es: "Correo electrónico"),
        "password": .init(en: "Password", fr: "Mot de passe", it: "Password", de: "Passwort", es: "Contraseña"),
        "badCredentials": .init(
            en: "The email or the password is wrong.", fr: "L'e-mail ou le mot de passe est incorrect.",
            it: "L'e-mail o la password non sono corrette.", de: "E-Mail oder Passwort ist falsch.",
            es: "El correo o la contraseña no son correctos."),
        "classes": .init(en: "Your classes", fr: "Vos classes", it: "Le tue classi", de: "Deine Klassen", es: "Tus clases"),
        "noClasses": .init(
            en: "No class yet. Create one below.", fr: "Aucune classe pour l'instant. Créez-en une ci-dessous.",
            it: "Ancora nessuna classe. Creane una qui sotto.", de: "Noch keine Klasse. Lege unten eine an.",
            es: "Aún no hay clases. Crea una abajo."),
        "family": .init(
            en: "Your family's learners", fr: "Les apprenants de votre famille", it: "Gli studenti della tua famiglia",
            de: "Die Lernenden deiner Familie", es: "Los estudiantes de tu familia"),
        "newClass": .init(en: "New class", fr: "Nouvelle classe", it: "Nuova classe", de: "Neue Klasse", es: "Nueva clase"),
        "name": .init(en: "Name", fr: "Nom", it: "Nome", de: "Name", es: "Nombre"),
        "language": .init(en: "Language", fr: "Langue", it: "Lingua", de: "Sprache", es: "Idioma"),
        "level": .init(en: "Level", fr: "Niveau", it: "Livello", de: "Niveau", es: "Nivel"),
        "create": .init(en: "Create", fr: "Créer", it: "Crea", de: "Anlegen", es: "Crear"),
        "learners": .init(en: "Learners", fr: "Apprenants", it: "Studenti", de: "Lernende", es: "Estudiantes"),
        "joinCode": .init(en: "Join code", fr: "Code d'accès", it: "Codice di accesso", de: "Beitrittscode", es: "Código de acceso"),
        "closed": .init(en: "closed", fr: "fermé", it: "chiuso", de: "geschlossen", es: "cerrado"),
        "newCode": .init(en: "New code", fr: "Nouveau code", it: "Nuovo codice", de: "Neuer Code", es: "Nuevo código"),
        "closeCode": .init(
            en: "Close to new learners", fr: "Fermer aux nouveaux apprenants", it: "Chiudi ai nuovi studenti", de: "Für Neue schließen",
            es: "Cerrar a nuevos estudiantes"),
        "levels": .init(
            en: "Learners per level", fr: "Apprenants par niveau", it: "Studenti per livello", de: "Lernende pro Niveau",
            es: "Estudiantes por nivel"),
        "lastActive": .init(en: "Last active", fr: "Dernière activité", it: "Ultima attività", de: "Zuletzt aktiv", es: "Última actividad"),
        "trend7": .init(en: "7 days", fr: "7 jours", it: "7 giorni", de: "7 Tage", es: "7 días"),
        "trend30": .init(en: "30 days", fr: "30 jours", it: "30 giorni", de: "30 Tage", es: "30 días"),
        "weakest": .init(
            en: "Weakest skill", fr: "Compétence la plus faible", it: "Abilità più debole", de: "Schwächste Fertigkeit",
            es: "Habilidad más débil"),
        "assignments": .init(en: "Assignments", fr: "Devoirs", it: "Compiti", de: "Aufgaben", es: "Tareas"),
        "mostMissed": .init(
            en: "Most missed", fr: "Les plus manqués", it: "I più sbagliati", de: "Am häufigsten verfehlt", es: "Los más fallados"),
        "exportCSV": .init(
            en: "Export as CSV", fr: "Exporter en CSV", it: "Esporta in CSV", de: "Als CSV exportieren", es: "Exportar en CSV"),
        "progress": .init(
            en: "Progress over time", fr: "Progrès dans le temps", it: "Progressi nel tempo", de: "Fortschritt über die Zeit",
            es: "Progreso en el tiempo"),
        "attempts": .init(
            en: "Recent recordings", fr: "Enregistrements récents", it: "Registrazioni recenti", de: "Letzte Aufnahmen",
            es: "Grabaciones recientes"),
        "gaps": .init(en: "To work on", fr: "À travailler", it: "Da esercitare", de: "Zu üben", es: "Para practicar"),
        "none": .init(en: "Nothing yet.", fr: "Rien pour l'instant.", it: "Ancora niente.", de: "Noch nichts.", es: "Nada todavía."),
        "back": .init(en: "All classes", fr: "Toutes les classes", it: "Tutte le classi", de: "Alle Klassen", es: "Todas las clases"),
        "skill.vocabulary": .init(en: "vocabulary", fr: "vocabulaire", it: "lessico", de: "Wortschatz", es: "vocabulario"),
        "skill.grammar": .init(en: "grammar", fr: "grammaire", it: "grammatica", de: "Grammatik", es: "gramática"),
        "skill.listening": .init(en: "listening", fr: "compréhension orale", it: "ascolto", de: "Hörverstehen", es: "comprensión oral"),
        "skill.reading": .init(en: "reading", fr: "lecture", it: "lettura", de: "Lesen", es: "lectura"),
        "skill.speaking": .init(en: "speaking", fr: "expression orale", it: "parlato", de: "Sprechen", es: "expresión oral"),
        "notFound": .init(
            en: "There is nothing here for you.", fr: "Il n'y a rien ici pour vous.", it: "Non c'è niente qui per te.",
            de: "Hier gibt es nichts für dich.", es: "Aquí no hay nada para ti."),
    ]

    /// Every word in `language`, by key, for a template.
    public static func texts(_ language: Language) -> [String: String] { table.mapValues { $0.text(in: language) } }
}

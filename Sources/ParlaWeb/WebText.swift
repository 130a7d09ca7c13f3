import ParlaCore

/// The dashboard's words, in the teacher's language (EFIGS).
public enum WebText {
    /// A word of the dashboard. Its raw value is its name in the templates
    /// (`{{t.name}}`); `ParlaWebTests` checks that every name a template uses is one.
    public enum Key: String, CaseIterable, Sendable {
        case appName
        case signIn
        case newPasswordTitle
        case newPassword
        case passwordHint
        case savePassword
        case passwordChanged
        case confirmEmailTitle
        case confirmEmailText
        case confirmEmail
        case emailConfirmed
        case undoEmailTitle
        case undoEmailText
        case undoEmail
        case emailPutBack
        case oneTimeCode
        case oneTimeCodeHint
        case signOut
        case email
        case password
        case badCredentials
        case orSignInWith
        case signInWithGoogle = "signInWith.google"
        case signInWithApple = "signInWith.apple"
        case signInWithFacebook = "signInWith.facebook"
        case webSignInNotOffered = "webSignIn.notOffered"
        case webSignInAttemptUnknown = "webSignIn.attemptUnknown"
        case webSignInCancelled = "webSignIn.cancelled"
        case webSignInProviderRefused = "webSignIn.providerRefused"
        case webSignInProviderUnavailable = "webSignIn.providerUnavailable"
        case webSignInNotLinked = "webSignIn.notLinked"
        case twoFactorTitle
        case twoFactorText
        case signedInTitle
        case `continue`
        case classes
        case noClasses
        case family
        case newClass
        case name
        case language
        case level
        case create
        case learners
        case joinCode
        case closed
        case newCode
        case closeCode
        case levels
        case lastActive
        case trend7
        case trend30
        case weakest
        case assignments
        case mostMissed
        case exportCSV
        case progress
        case attempts
        case gaps
        case `none`
        case back
        case skillVocabulary = "skill.vocabulary"
        case skillGrammar = "skill.grammar"
        case skillListening = "skill.listening"
        case skillReading = "skill.reading"
        case skillSpeaking = "skill.speaking"
        case notFound
        case classProgress
        case kindWordList
        case kindGrammarNote
        case kindPhrases
        case kindCoursePack
        case kindCourseLessons
        case newAssignment
        case due
        case assign
        case withdraw
        case remove
        case removeFrom
        case fieldNewPassword = "field.newPassword"
        case fieldToken = "field.token"
        case fieldName = "field.name"
        case fieldLanguage = "field.language"
        case fieldLevel = "field.level"
        case fieldKind = "field.kind"
        case fieldTargets = "field.targets"
        case fieldDueAt = "field.dueAt"
        case refused
        case items
        case answers
        case completion
        case lockedItems
        case accuracy
        case lastAnswer
        case lessons
        case games
        case game
        case cardMatching
        case spelling
        case pairs
        case score
        case time
        case mismatches
        case skills
        case skill
        case towards
        case noAnswersYet
        case packs
        case pack
        case lessonsComplete
        case lastAccessed
        case locked
        case noLevelsYet
        case when
        case skipToContent
        case chooseSeveral
        case scoreOf
        case recording
        case artSpace
        case sharedWithTeachers
        case otherLanguages
        case `class`
    }

    /// Every word in every language, by its name, for the templates.
    static let byLanguage: [Language: [String: String]] = Dictionary(
        uniqueKeysWithValues: Language.allCases.map { language in
            (language, Dictionary(uniqueKeysWithValues: Key.allCases.map { ($0.rawValue, $0.text.text(in: language)) }))
        })

    /// Every word in `language`, by its name, for a template.
    public static func texts(_ language: Language) -> [String: String] { byLanguage[language] ?? [:] }

    /// One word in `language`.
    public static func text(_ key: Key, in language: Language) -> String { key.text.text(in: language) }

    /// A skill's name.
    public static func skill(_ skill: Skill) -> Key {
        switch skill {
        case .vocabulary: .skillVocabulary
        case .grammar: .skillGrammar
        case .listening: .skillListening
        case .reading: .skillReading
        case .speaking: .skillSpeaking
        }
    }

    /// A request field's name, where a form shows it; nil for a field no form has.
    public static func field(_ name: String) -> Key? { Key(rawValue: "field." + name) }
}

extension WebText.Key {
    /// The word in every language: a key cannot be added without them.
    public var text: LocalizedText {
        switch self {
        case .appName:
            LocalizedText(
                en: "Parla for teachers", fr: "Parla pour les enseignants", it: "Parla per gli insegnanti", de: "Parla für Lehrkräfte",
                es: "Parla para profesores")
        case .signIn:
            LocalizedText(en: "Sign in", fr: "Se connecter", it: "Accedi", de: "Anmelden", es: "Iniciar sesión")
        case .newPasswordTitle:
            LocalizedText(
                en: "Choose a new password", fr: "Choisissez un nouveau mot de passe", it: "Scegli una nuova password",
                de: "Wählen Sie ein neues Passwort", es: "Elige una contraseña nueva")
        case .newPassword:
            LocalizedText(
                en: "New password", fr: "Nouveau mot de passe", it: "Nuova password", de: "Neues Passwort", es: "Contraseña nueva")
        case .passwordHint:
            LocalizedText(
                en: "At least 10 characters; not your email address.", fr: "Au moins 10 caractères ; pas votre adresse e-mail.",
                it: "Almeno 10 caratteri; non il tuo indirizzo email.", de: "Mindestens 10 Zeichen; nicht Ihre E-Mail-Adresse.",
                es: "Al menos 10 caracteres; no tu dirección de correo.")
        case .savePassword:
            LocalizedText(
                en: "Save the new password", fr: "Enregistrer le nouveau mot de passe", it: "Salva la nuova password",
                de: "Neues Passwort speichern", es: "Guardar la contraseña nueva")
        case .passwordChanged:
            LocalizedText(
                en: "Your password is changed, and every device was signed out. Sign in again in the app with the new password.",
                fr:
                    "Votre mot de passe est changé et tous les appareils ont été déconnectés. Reconnectez-vous dans l'application avec le nouveau mot de passe.",
                it: "La password è cambiata e tutti i dispositivi sono stati disconnessi. Accedi di nuovo nell'app con la nuova password.",
                de:
                    "Ihr Passwort ist geändert, und alle Geräte wurden abgemeldet. Melden Sie sich in der App mit dem neuen Passwort wieder an.",
                es:
                    "Tu contraseña ha cambiado y se ha cerrado la sesión en todos los dispositivos. Vuelve a iniciar sesión en la aplicación con la contraseña nueva."
            )
        case .confirmEmailTitle:
            LocalizedText(
                en: "Confirm your email address", fr: "Confirmez votre adresse e-mail", it: "Conferma il tuo indirizzo email",
                de: "Bestätigen Sie Ihre E-Mail-Adresse", es: "Confirma tu dirección de correo")
        case .confirmEmailText:
            LocalizedText(
                en: "Press the button to confirm that this email address is yours.",
                fr: "Appuyez sur le bouton pour confirmer que cette adresse e-mail est bien la vôtre.",
                it: "Premi il pulsante per confermare che questo indirizzo email è tuo.",
                de: "Drücken Sie die Schaltfläche, um zu bestätigen, dass diese E-Mail-Adresse Ihnen gehört.",
                es: "Pulsa el botón para confirmar que esta dirección de correo es tuya.")
        case .confirmEmail:
            LocalizedText(en: "Confirm", fr: "Confirmer", it: "Conferma", de: "Bestätigen", es: "Confirmar")
        case .emailConfirmed:
            LocalizedText(
                en: "Thank you: your email address is confirmed.", fr: "Merci : votre adresse e-mail est confirmée.",
                it: "Grazie: il tuo indirizzo email è confermato.", de: "Danke: Ihre E-Mail-Adresse ist bestätigt.",
                es: "Gracias: tu dirección de correo está confirmada.")
        case .undoEmailTitle:
            LocalizedText(
                en: "Put your email address back", fr: "Rétablir votre adresse e-mail", it: "Ripristina il tuo indirizzo email",
                de: "Ihre E-Mail-Adresse wiederherstellen", es: "Recupera tu dirección de correo")
        case .undoEmailText:
            LocalizedText(
                en:
                    "If you did not change the email address of your Parla account, press the button: this address comes back, and every device is signed out.",
                fr:
                    "Si vous n'avez pas changé l'adresse e-mail de votre compte Parla, appuyez sur le bouton : cette adresse est rétablie et tous les appareils sont déconnectés.",
                it:
                    "Se non hai cambiato l'indirizzo email del tuo account Parla, premi il pulsante: questo indirizzo torna e tutti i dispositivi vengono disconnessi.",
                de:
                    "Wenn Sie die E-Mail-Adresse Ihres Parla-Kontos nicht geändert haben, drücken Sie die Schaltfläche: Diese Adresse kommt zurück, und alle Geräte werden abgemeldet.",
                es:
                    "Si no cambiaste la dirección de correo de tu cuenta de Parla, pulsa el botón: esta dirección vuelve y se cierra la sesión en todos los dispositivos."
            )
        case .undoEmail:
            LocalizedText(
                en: "Put my address back", fr: "Rétablir mon adresse", it: "Ripristina il mio indirizzo",
                de: "Meine Adresse wiederherstellen",
                es: "Recuperar mi dirección")
        case .emailPutBack:
            LocalizedText(
                en:
                    "Your email address is back and every device was signed out. Now choose a new password: use \"Forgot password\" in the app.",
                fr:
                    "Votre adresse e-mail est rétablie et tous les appareils ont été déconnectés. Choisissez maintenant un nouveau mot de passe : « Mot de passe oublié » dans l'application.",
                it:
                    "Il tuo indirizzo email è tornato e tutti i dispositivi sono stati disconnessi. Ora scegli una nuova password: «Password dimenticata» nell'app.",
                de:
                    "Ihre E-Mail-Adresse ist wiederhergestellt, und alle Geräte wurden abgemeldet. Wählen Sie jetzt ein neues Passwort: „Passwort vergessen“ in der App.",
                es:
                    "Tu dirección de correo ha vuelto y se ha cerrado la sesión en todos los dispositivos. Ahora elige una contraseña nueva: «He olvidado mi contraseña» en la aplicación."
            )
        case .oneTimeCode:
            LocalizedText(
                en: "One-time code", fr: "Code à usage unique", it: "Codice monouso", de: "Einmalcode", es: "Código de un solo uso")
        case .oneTimeCodeHint:
            LocalizedText(
                en: "Only if you turned on two-factor sign-in: the six digits your app shows, or a recovery code.",
                fr:
                    "Seulement si vous avez activé la connexion à deux facteurs : les six chiffres de votre application, ou un code de secours.",
                it: "Solo se hai attivato l'accesso a due fattori: le sei cifre della tua app, o un codice di recupero.",
                de:
                    "Nur wenn Sie die Zwei-Faktor-Anmeldung eingeschaltet haben: die sechs Ziffern Ihrer App oder ein Wiederherstellungscode.",
                es: "Solo si activaste el inicio de sesión en dos pasos: las seis cifras de tu aplicación o un código de recuperación.")
        case .signOut:
            LocalizedText(en: "Sign out", fr: "Se déconnecter", it: "Esci", de: "Abmelden", es: "Cerrar sesión")
        case .email:
            LocalizedText(en: "Email", fr: "E-mail", it: "E-mail", de: "E-Mail", es: "Correo electrónico")
        case .password:
            LocalizedText(en: "Password", fr: "Mot de passe", it: "Password", de: "Passwort", es: "Contraseña")
        case .badCredentials:
            LocalizedText(
                en: "The email or the password is wrong.", fr: "L'e-mail ou le mot de passe est incorrect.",
                it: "L'e-mail o la password non sono corrette.", de: "E-Mail oder Passwort ist falsch.",
                es: "El correo o la contraseña no son correctos.")
        case .orSignInWith:
            LocalizedText(
                en: "Or, for an account made in the app with Apple or Google",
                fr: "Ou, pour un compte créé dans l'application avec Apple ou Google",
                it: "Oppure, per un account creato nell'app con Apple o Google",
                de: "Oder, für ein in der App mit Apple oder Google erstelltes Konto",
                es: "O, para una cuenta creada en la aplicación con Apple o Google")
        case .signInWithGoogle:
            LocalizedText(
                en: "Sign in with Google", fr: "Se connecter avec Google", it: "Accedi con Google", de: "Mit Google anmelden",
                es: "Iniciar sesión con Google")
        case .signInWithApple:
            LocalizedText(
                en: "Sign in with Apple", fr: "Se connecter avec Apple", it: "Accedi con Apple", de: "Mit Apple anmelden",
                es: "Iniciar sesión con Apple")
        case .signInWithFacebook:
            LocalizedText(
                en: "Sign in with Facebook", fr: "Se connecter avec Facebook", it: "Accedi con Facebook", de: "Mit Facebook anmelden",
                es: "Iniciar sesión con Facebook")
        case .webSignInNotOffered:
            LocalizedText(
                en: "This way of signing in is not available here.", fr: "Ce moyen de connexion n'est pas disponible ici.",
                it: "Questo modo di accedere non è disponibile qui.", de: "Diese Anmeldeart ist hier nicht verfügbar.",
                es: "Esta forma de iniciar sesión no está disponible aquí.")
        case .webSignInAttemptUnknown:
            LocalizedText(
                en: "This sign-in has expired or was already used. Please start again.",
                fr: "Cette connexion a expiré ou a déjà été utilisée. Veuillez recommencer.",
                it: "Questo accesso è scaduto o è già stato usato. Ricomincia, per favore.",
                de: "Diese Anmeldung ist abgelaufen oder wurde schon verwendet. Bitte beginnen Sie von vorn.",
                es: "Este inicio de sesión ha caducado o ya se usó. Vuelve a empezar.")
        case .webSignInCancelled:
            LocalizedText(
                en: "The sign-in was cancelled.", fr: "La connexion a été annulée.", it: "L'accesso è stato annullato.",
                de: "Die Anmeldung wurde abgebrochen.", es: "Se canceló el inicio de sesión.")
        case .webSignInProviderRefused:
            LocalizedText(
                en: "The provider could not confirm who you are. Please try again.",
                fr: "Le fournisseur n'a pas pu confirmer votre identité. Veuillez réessayer.",
                it: "Il fornitore non ha potuto confermare chi sei. Riprova, per favore.",
                de: "Der Anbieter konnte nicht bestätigen, wer Sie sind. Bitte versuchen Sie es noch einmal.",
                es: "El proveedor no pudo confirmar quién eres. Inténtalo de nuevo.")
        case .webSignInProviderUnavailable:
            LocalizedText(
                en: "The provider cannot be reached just now. Please try again in a moment.",
                fr: "Le fournisseur est injoignable pour le moment. Veuillez réessayer dans un instant.",
                it: "Il fornitore non è raggiungibile in questo momento. Riprova tra poco.",
                de: "Der Anbieter ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.",
                es: "No se puede contactar con el proveedor ahora mismo. Inténtalo de nuevo en un momento.")
        case .webSignInNotLinked:
            LocalizedText(
                en: "No Parla account is linked to this identity. Create your account in the Parla app first.",
                fr: "Aucun compte Parla n'est lié à cette identité. Créez d'abord votre compte dans l'application Parla.",
                it: "Nessun account Parla è collegato a questa identità. Crea prima il tuo account nell'app Parla.",
                de: "Mit dieser Identität ist kein Parla-Konto verknüpft. Erstellen Sie Ihr Konto zuerst in der Parla-App.",
                es: "Ninguna cuenta de Parla está vinculada a esta identidad. Crea primero tu cuenta en la aplicación Parla.")
        case .twoFactorTitle:
            LocalizedText(
                en: "Enter your code", fr: "Saisissez votre code", it: "Inserisci il tuo codice", de: "Geben Sie Ihren Code ein",
                es: "Introduce tu código")
        case .twoFactorText:
            LocalizedText(
                en: "Your account uses two-factor sign-in: enter the six digits from your app, or a recovery code.",
                fr:
                    "Votre compte utilise la connexion à deux facteurs : saisissez les six chiffres de votre application, ou un code de secours.",
                it: "Il tuo account usa l'accesso a due fattori: inserisci le sei cifre della tua app, o un codice di recupero.",
                de:
                    "Ihr Konto nutzt die Zwei-Faktor-Anmeldung: Geben Sie die sechs Ziffern Ihrer App oder einen Wiederherstellungscode ein.",
                es:
                    "Tu cuenta usa el inicio de sesión en dos pasos: introduce las seis cifras de tu aplicación o un código de recuperación."
            )
        case .signedInTitle:
            LocalizedText(en: "Signed in", fr: "Connecté", it: "Accesso effettuato", de: "Angemeldet", es: "Sesión iniciada")
        case .continue:
            LocalizedText(en: "Continue", fr: "Continuer", it: "Continua", de: "Weiter", es: "Continuar")
        case .classes:
            LocalizedText(en: "Your classes", fr: "Vos classes", it: "Le tue classi", de: "Ihre Klassen", es: "Tus clases")
        case .noClasses:
            LocalizedText(
                en: "No class yet. Create one below.", fr: "Aucune classe pour l'instant. Créez-en une ci-dessous.",
                it: "Ancora nessuna classe. Creane una qui sotto.", de: "Noch keine Klasse. Lege unten eine an.",
                es: "Aún no hay clases. Crea una abajo.")
        case .family:
            LocalizedText(
                en: "Your family's learners", fr: "Les apprenants de votre famille", it: "Gli studenti della tua famiglia",
                de: "Die Lernenden Ihrer Familie", es: "Los estudiantes de tu familia")
        case .newClass:
            LocalizedText(en: "New class", fr: "Nouvelle classe", it: "Nuova classe", de: "Neue Klasse", es: "Nueva clase")
        case .name:
            LocalizedText(en: "Name", fr: "Nom", it: "Nome", de: "Name", es: "Nombre")
        case .language:
            LocalizedText(en: "Language", fr: "Langue", it: "Lingua", de: "Sprache", es: "Idioma")
        case .level:
            LocalizedText(en: "Level", fr: "Niveau", it: "Livello", de: "Niveau", es: "Nivel")
        case .create:
            LocalizedText(en: "Create", fr: "Créer", it: "Crea", de: "Anlegen", es: "Crear")
        case .learners:
            LocalizedText(en: "Learners", fr: "Apprenants", it: "Studenti", de: "Lernende", es: "Estudiantes")
        case .joinCode:
            LocalizedText(en: "Join code", fr: "Code d'accès", it: "Codice di accesso", de: "Beitrittscode", es: "Código de acceso")
        case .closed:
            LocalizedText(en: "closed", fr: "fermé", it: "chiuso", de: "geschlossen", es: "cerrado")
        case .newCode:
            LocalizedText(en: "New code", fr: "Nouveau code", it: "Nuovo codice", de: "Neuer Code", es: "Nuevo código")
        case .closeCode:
            LocalizedText(
                en: "Close to new learners", fr: "Fermer aux nouveaux apprenants", it: "Chiudi ai nuovi studenti", de: "Für Neue schließen",
                es: "Cerrar a nuevos estudiantes")
        case .levels:
            LocalizedText(
                en: "Learners per level", fr: "Apprenants par niveau", it: "Studenti per livello", de: "Lernende pro Niveau",
                es: "Estudiantes por nivel")
        case .lastActive:
            LocalizedText(en: "Last active", fr: "Dernière activité", it: "Ultima attività", de: "Zuletzt aktiv", es: "Última actividad")
        case .trend7:
            LocalizedText(en: "7 days", fr: "7 jours", it: "7 giorni", de: "7 Tage", es: "7 días")
        case .trend30:
            LocalizedText(en: "30 days", fr: "30 jours", it: "30 giorni", de: "30 Tage", es: "30 días")
        case .weakest:
            LocalizedText(
                en: "Weakest skill", fr: "Compétence la plus faible", it: "Abilità più debole", de: "Schwächste Fertigkeit",
                es: "Habilidad más débil")
        case .assignments:
            LocalizedText(en: "Assignments", fr: "Devoirs", it: "Compiti", de: "Aufgaben", es: "Tareas")
        case .mostMissed:
            LocalizedText(
                en: "Most missed", fr: "Les plus manqués", it: "I più sbagliati", de: "Am häufigsten verfehlt", es: "Los más fallados")
        case .exportCSV:
            LocalizedText(
                en: "Export as CSV", fr: "Exporter en CSV", it: "Esporta in CSV", de: "Als CSV exportieren", es: "Exportar en CSV")
        case .progress:
            LocalizedText(
                en: "Progress over time", fr: "Progrès dans le temps", it: "Progressi nel tempo", de: "Fortschritt über die Zeit",
                es: "Progreso en el tiempo")
        case .attempts:
            LocalizedText(
                en: "Recent recordings", fr: "Enregistrements récents", it: "Registrazioni recenti", de: "Letzte Aufnahmen",
                es: "Grabaciones recientes")
        case .gaps:
            LocalizedText(en: "To work on", fr: "À travailler", it: "Da esercitare", de: "Zu üben", es: "Para practicar")
        case .none:
            LocalizedText(en: "Nothing yet.", fr: "Rien pour l'instant.", it: "Ancora niente.", de: "Noch nichts.", es: "Nada todavía.")
        case .back:
            LocalizedText(en: "All classes", fr: "Toutes les classes", it: "Tutte le classi", de: "Alle Klassen", es: "Todas las clases")
        case .skillVocabulary:
            LocalizedText(en: "vocabulary", fr: "vocabulaire", it: "lessico", de: "Wortschatz", es: "vocabulario")
        case .skillGrammar:
            LocalizedText(en: "grammar", fr: "grammaire", it: "grammatica", de: "Grammatik", es: "gramática")
        case .skillListening:
            LocalizedText(en: "listening", fr: "compréhension orale", it: "ascolto", de: "Hörverstehen", es: "comprensión oral")
        case .skillReading:
            LocalizedText(en: "reading", fr: "lecture", it: "lettura", de: "Lesen", es: "lectura")
        case .skillSpeaking:
            LocalizedText(en: "speaking", fr: "expression orale", it: "parlato", de: "Sprechen", es: "expresión oral")
        case .notFound:
            LocalizedText(
                en: "There is nothing here for you.", fr: "Il n'y a rien ici pour vous.", it: "Non c'è niente qui per te.",
                de: "Hier gibt es nichts für Sie.", es: "Aquí no hay nada para ti.")
        case .classProgress:
            LocalizedText(
                en: "The class's progress", fr: "Progrès de la classe", it: "Progressi della classe", de: "Fortschritt der Klasse",
                es: "Progreso de la clase")
        case .kindWordList:
            LocalizedText(en: "Word list", fr: "Liste de mots", it: "Lista di parole", de: "Wortliste", es: "Lista de palabras")
        case .kindGrammarNote:
            LocalizedText(
                en: "Grammar note", fr: "Point de grammaire", it: "Nota di grammatica", de: "Grammatikthema", es: "Nota de gramática")
        case .kindPhrases:
            LocalizedText(en: "Phrases", fr: "Phrases", it: "Frasi", de: "Sätze", es: "Frases")
        case .kindCoursePack:
            LocalizedText(en: "Course pack", fr: "Pack du cours", it: "Pacchetto del corso", de: "Kurspaket", es: "Paquete del curso")
        case .kindCourseLessons:
            LocalizedText(
                en: "Course lessons", fr: "Leçons du cours", it: "Lezioni del corso", de: "Kurslektionen", es: "Lecciones del curso")
        case .newAssignment:
            LocalizedText(en: "New assignment", fr: "Nouveau devoir", it: "Nuovo compito", de: "Neue Aufgabe", es: "Nueva tarea")
        case .due:
            LocalizedText(en: "Due", fr: "À rendre le", it: "Scadenza", de: "Fällig am", es: "Fecha límite")
        case .assign:
            LocalizedText(en: "Assign", fr: "Donner", it: "Assegna", de: "Aufgeben", es: "Asignar")
        case .withdraw:
            LocalizedText(en: "Withdraw", fr: "Retirer", it: "Ritira", de: "Zurückziehen", es: "Retirar")
        case .remove:
            LocalizedText(en: "Remove", fr: "Retirer", it: "Rimuovi", de: "Entfernen", es: "Quitar")
        case .removeFrom:
            LocalizedText(
                en: "Remove from the class", fr: "Retirer de la classe", it: "Rimuovi dalla classe", de: "Aus der Klasse entfernen",
                es: "Quitar de la clase")
        case .fieldNewPassword:
            LocalizedText(
                en: "New password", fr: "Nouveau mot de passe", it: "Nuova password", de: "Neues Passwort", es: "Contraseña nueva")
        case .fieldToken:
            LocalizedText(en: "Link", fr: "Lien", it: "Link", de: "Link", es: "Enlace")
        case .fieldName:
            LocalizedText(en: "Name", fr: "Nom", it: "Nome", de: "Name", es: "Nombre")
        case .fieldLanguage:
            LocalizedText(en: "Language", fr: "Langue", it: "Lingua", de: "Sprache", es: "Idioma")
        case .fieldLevel:
            LocalizedText(en: "Level", fr: "Niveau", it: "Livello", de: "Niveau", es: "Nivel")
        case .fieldKind:
            LocalizedText(en: "Kind", fr: "Type", it: "Tipo", de: "Art", es: "Tipo")
        case .fieldTargets:
            LocalizedText(en: "What to work on", fr: "Contenu", it: "Contenuto", de: "Inhalt", es: "Contenido")
        case .fieldDueAt:
            LocalizedText(en: "Due date", fr: "Date de rendu", it: "Data di scadenza", de: "Fälligkeitsdatum", es: "Fecha límite")
        case .refused:
            LocalizedText(
                en: "That was not saved:", fr: "Rien n'a été enregistré :", it: "Non è stato salvato:", de: "Das wurde nicht gespeichert:",
                es: "No se ha guardado:")
        case .items:
            LocalizedText(en: "Items", fr: "Éléments", it: "Elementi", de: "Einträge", es: "Elementos")
        case .answers:
            LocalizedText(en: "Answers", fr: "Réponses", it: "Risposte", de: "Antworten", es: "Respuestas")
        case .completion:
            LocalizedText(en: "Done", fr: "Fait", it: "Completato", de: "Erledigt", es: "Hecho")
        case .lockedItems:
            LocalizedText(
                en: "Locked for them", fr: "Verrouillés pour eux", it: "Bloccati per loro", de: "Für sie gesperrt",
                es: "Bloqueados para ellos")
        case .accuracy:
            LocalizedText(
                en: "Right at the first try", fr: "Juste du premier coup", it: "Giuste al primo tentativo",
                de: "Beim ersten Versuch richtig",
                es: "Bien a la primera")
        case .lastAnswer:
            LocalizedText(en: "Last answer", fr: "Dernière réponse", it: "Ultima risposta", de: "Letzte Antwort", es: "Última respuesta")
        case .lessons:
            LocalizedText(
                en: "Recent lessons", fr: "Leçons récentes", it: "Lezioni recenti", de: "Letzte Lektionen", es: "Lecciones recientes")
        case .games:
            LocalizedText(en: "Recent games", fr: "Jeux récents", it: "Giochi recenti", de: "Letzte Spiele", es: "Juegos recientes")
        case .game:
            LocalizedText(en: "Game", fr: "Jeu", it: "Gioco", de: "Spiel", es: "Juego")
        case .cardMatching:
            LocalizedText(en: "Card matching", fr: "Paires de cartes", it: "Coppie di carte", de: "Kartenpaare", es: "Parejas de cartas")
        case .spelling:
            LocalizedText(en: "Spelling", fr: "Orthographe", it: "Ortografia", de: "Buchstabieren", es: "Deletreo")
        case .pairs:
            LocalizedText(
                en: "Pairs or words", fr: "Paires ou mots", it: "Coppie o parole", de: "Paare oder Wörter", es: "Parejas o palabras")
        case .score:
            LocalizedText(en: "Score", fr: "Score", it: "Punteggio", de: "Punkte", es: "Puntuación")
        case .time:
            LocalizedText(en: "Time", fr: "Durée", it: "Tempo", de: "Zeit", es: "Tiempo")
        case .mismatches:
            LocalizedText(en: "Mistakes", fr: "Erreurs", it: "Errori", de: "Fehler", es: "Fallos")
        case .skills:
            LocalizedText(en: "Skills", fr: "Compétences", it: "Abilità", de: "Fertigkeiten", es: "Habilidades")
        case .skill:
            LocalizedText(en: "Skill", fr: "Compétence", it: "Abilità", de: "Fertigkeit", es: "Habilidad")
        case .towards:
            LocalizedText(en: "of the way to", fr: "du chemin vers", it: "del percorso verso", de: "des Wegs zu", es: "del camino hacia")
        case .packs:
            LocalizedText(
                en: "Lesson packs", fr: "Packs de leçons", it: "Pacchetti di lezioni", de: "Lektionspakete", es: "Paquetes de lecciones")
        case .pack:
            LocalizedText(en: "Pack", fr: "Pack", it: "Pacchetto", de: "Paket", es: "Paquete")
        case .lessonsComplete:
            LocalizedText(
                en: "Lessons complete", fr: "Leçons terminées", it: "Lezioni completate", de: "Abgeschlossene Lektionen",
                es: "Lecciones completadas")
        case .lastAccessed:
            LocalizedText(en: "Last accessed", fr: "Dernier accès", it: "Ultimo accesso", de: "Zuletzt geöffnet", es: "Último acceso")
        case .locked:
            LocalizedText(en: "Locked", fr: "Verrouillé", it: "Bloccato", de: "Gesperrt", es: "Bloqueado")
        case .noAnswersYet:
            LocalizedText(
                en: "No answers yet.", fr: "Pas encore de réponses.", it: "Ancora nessuna risposta.", de: "Noch keine Antworten.",
                es: "Todavía no hay respuestas.")
        case .noLevelsYet:
            LocalizedText(
                en: "No one has a level in this language yet: a learner counts once they begin it.",
                fr: "Personne n'a encore de niveau dans cette langue : un élève compte dès qu'il la commence.",
                it: "Nessuno ha ancora un livello in questa lingua: uno studente conta appena la inizia.",
                de: "Noch niemand hat ein Niveau in dieser Sprache: Lernende zählen, sobald sie damit beginnen.",
                es: "Nadie tiene aún un nivel en este idioma: un alumno cuenta en cuanto lo empieza.")
        case .when:
            LocalizedText(en: "When", fr: "Quand", it: "Quando", de: "Wann", es: "Cuándo")
        case .skipToContent:
            LocalizedText(
                en: "Skip to the content", fr: "Aller au contenu", it: "Vai al contenuto", de: "Zum Inhalt springen", es: "Ir al contenido")
        case .chooseSeveral:
            LocalizedText(
                en: "Hold Ctrl (or ⌘) to choose several.", fr: "Maintenez Ctrl (ou ⌘) pour en choisir plusieurs.",
                it: "Tieni premuto Ctrl (o ⌘) per sceglierne più di una.", de: "Strg (oder ⌘) gedrückt halten, um mehrere zu wählen.",
                es: "Mantén pulsado Ctrl (o ⌘) para elegir varias.")
        case .scoreOf:
            LocalizedText(en: "score", fr: "score", it: "punteggio", de: "Punkte", es: "puntuación")
        case .recording:
            LocalizedText(en: "Recording", fr: "Enregistrement", it: "Registrazione", de: "Aufnahme", es: "Grabación")
        case .artSpace:
            LocalizedText(en: "Art Space", fr: "Espace Art", it: "Spazio Arte", de: "Kunstraum", es: "Espacio de Arte")
        case .sharedWithTeachers:
            LocalizedText(
                en: "Shared with teachers", fr: "Partagé avec les enseignants", it: "Condiviso con gli insegnanti",
                de: "Mit Lehrkräften geteilt", es: "Compartido con los profesores")
        case .otherLanguages:
            LocalizedText(en: "Languages", fr: "Langues", it: "Lingue", de: "Sprachen", es: "Idiomas")
        case .class:
            LocalizedText(en: "Class", fr: "Classe", it: "Classe", de: "Klasse", es: "Clase")
        }
    }
}

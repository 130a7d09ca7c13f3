import ParlaCore

/// The emails Parla sends, written in every language it speaks. A letter
/// names what it carries; `message` writes it in the reader's language.
public enum Letter: Sendable, Equatable {
    /// A link that sets a new password; valid for one hour, once.
    case passwordReset(firstName: String, link: String)
    /// A link that confirms the address is the reader's; one hour, once.
    case emailVerification(firstName: String, link: String)
    /// A bug report arrived: its reference, to quote.
    case reportReceived(firstName: String, reference: String)
    /// To the old address: the account's email changed to `newAddress`
    /// (shown masked); the link puts it back, for 7 days, once.
    case emailChanged(firstName: String, newAddress: String, link: String)

    /// What the outbox records, never the link.
    public var kind: String {
        switch self {
        case .passwordReset: "password_reset"
        case .emailVerification: "email_verification"
        case .reportReceived: "report_received"
        case .emailChanged: "email_changed"
        }
    }

    public func message(from: MailAddress, to address: String, language: Language) -> MailMessage {
        let (subject, body) = texts
        return MailMessage(
            from: from, to: MailAddress(address: address), subject: subject.text(in: language),
            text: body.text(in: language) + "\n\n-- \nParla\n", language: language.code)
    }

    private var texts: (subject: LocalizedText, body: LocalizedText) {
        switch self {
        case .passwordReset(let name, let link):
            (
                LocalizedText(
                    en: "Reset your Parla password", fr: "Réinitialisez votre mot de passe Parla",
                    it: "Reimposta la password di Parla", de: "Ihr Parla-Passwort zurücksetzen",
                    es: "Restablece tu contraseña de Parla"),
                LocalizedText(
                    en: """
                        Hello \(name),

                        Someone asked to reset the password of your Parla account. To choose a new one, open this link within an hour:

                        \(link)

                        Every device signed in to your account will be signed out. If you did not ask for this, ignore this email: your password stays as it is.
                        """,
                    fr: """
                        Bonjour \(name),

                        Quelqu'un a demandé à réinitialiser le mot de passe de votre compte Parla. Pour en choisir un nouveau, ouvrez ce lien dans l'heure :

                        \(link)

                        Tous les appareils connectés à votre compte seront déconnectés. Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.
                        """,
                    it: """
                        Ciao \(name),

                        È stato chiesto di reimpostare la password del tuo account Parla. Per sceglierne una nuova, apri questo link entro un'ora:

                        \(link)

                        Tutti i dispositivi collegati al tuo account verranno disconnessi. Se non l'hai chiesto tu, ignora questa email: la tua password resta invariata.
                        """,
                    de: """
                        Hallo \(name),

                        Jemand hat angefordert, das Passwort Ihres Parla-Kontos zurückzusetzen. Um ein neues zu wählen, öffnen Sie diesen Link innerhalb einer Stunde:

                        \(link)

                        Alle Geräte, die mit Ihrem Konto angemeldet sind, werden abgemeldet. Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.
                        """,
                    es: """
                        Hola, \(name):

                        Alguien ha pedido restablecer la contraseña de tu cuenta de Parla. Para elegir una nueva, abre este enlace antes de una hora:

                        \(link)

                        Se cerrará la sesión en todos los dispositivos conectados a tu cuenta. Si no lo has pedido tú, ignora este correo: tu contraseña no cambia.
                        """)
            )
        case .emailVerification(let name, let link):
            (
                LocalizedText(
                    en: "Confirm your email address for Parla", fr: "Confirmez votre adresse e-mail pour Parla",
                    it: "Conferma il tuo indirizzo email per Parla", de: "Bestätigen Sie Ihre E-Mail-Adresse für Parla",
                    es: "Confirma tu dirección de correo para Parla"),
                LocalizedText(
                    en: """
                        Hello \(name),

                        Please confirm that this is your email address by opening this link within an hour:

                        \(link)

                        If you did not sign up for Parla or change your address, ignore this email.
                        """,
                    fr: """
                        Bonjour \(name),

                        Confirmez qu'il s'agit bien de votre adresse e-mail en ouvrant ce lien dans l'heure :

                        \(link)

                        Si vous ne vous êtes pas inscrit à Parla et n'avez pas changé d'adresse, ignorez ce message.
                        """,
                    it: """
                        Ciao \(name),

                        Conferma che questo è il tuo indirizzo email aprendo questo link entro un'ora:

                        \(link)

                        Se non ti sei iscritto a Parla e non hai cambiato indirizzo, ignora questa email.
                        """,
                    de: """
                        Hallo \(name),

                        Bitte bestätigen Sie, dass dies Ihre E-Mail-Adresse ist, indem Sie diesen Link innerhalb einer Stunde öffnen:

                        \(link)

                        Wenn Sie sich nicht bei Parla registriert und Ihre Adresse nicht geändert haben, ignorieren Sie diese E-Mail.
                        """,
                    es: """
                        Hola, \(name):

                        Confirma que esta es tu dirección de correo abriendo este enlace antes de una hora:

                        \(link)

                        Si no te has registrado en Parla ni has cambiado tu dirección, ignora este correo.
                        """)
            )
        case .emailChanged(let name, let address, let link):
            (
                LocalizedText(
                    en: "The email address of your Parla account was changed",
                    fr: "L'adresse e-mail de votre compte Parla a été modifiée",
                    it: "L'indirizzo email del tuo account Parla è stato cambiato",
                    de: "Die E-Mail-Adresse Ihres Parla-Kontos wurde geändert",
                    es: "Se ha cambiado la dirección de correo de tu cuenta de Parla"),
                LocalizedText(
                    en: """
                        Hello \(name),

                        The email address of your Parla account was changed to \(address). Every other device was signed out.

                        If this was not you, open this link within 7 days to put this address back and sign everyone out:

                        \(link)

                        Then choose a new password. If it was you, there is nothing to do.
                        """,
                    fr: """
                        Bonjour \(name),

                        L'adresse e-mail de votre compte Parla a été remplacée par \(address). Tous les autres appareils ont été déconnectés.

                        Si ce n'est pas vous, ouvrez ce lien dans les 7 jours pour rétablir cette adresse et déconnecter tout le monde :

                        \(link)

                        Choisissez ensuite un nouveau mot de passe. Si c'est bien vous, il n'y a rien à faire.
                        """,
                    it: """
                        Ciao \(name),

                        L'indirizzo email del tuo account Parla è stato cambiato in \(address). Tutti gli altri dispositivi sono stati disconnessi.

                        Se non sei stato tu, apri questo link entro 7 giorni per ripristinare questo indirizzo e disconnettere tutti:

                        \(link)

                        Poi scegli una nuova password. Se sei stato tu, non c'è nulla da fare.
                        """,
                    de: """
                        Hallo \(name),

                        Die E-Mail-Adresse Ihres Parla-Kontos wurde in \(address) geändert. Alle anderen Geräte wurden abgemeldet.

                        Wenn Sie das nicht waren, öffnen Sie diesen Link innerhalb von 7 Tagen, um diese Adresse wiederherzustellen und alle abzumelden:

                        \(link)

                        Wählen Sie danach ein neues Passwort. Wenn Sie es waren, ist nichts zu tun.
                        """,
                    es: """
                        Hola, \(name):

                        La dirección de correo de tu cuenta de Parla se ha cambiado a \(address). Se ha cerrado la sesión en todos los demás dispositivos.

                        Si no has sido tú, abre este enlace antes de 7 días para recuperar esta dirección y cerrar todas las sesiones:

                        \(link)

                        Después elige una contraseña nueva. Si has sido tú, no tienes que hacer nada.
                        """)
            )
        case .reportReceived(let name, let reference):
            (
                LocalizedText(
                    en: "We received your report \(reference)", fr: "Nous avons reçu votre signalement \(reference)",
                    it: "Abbiamo ricevuto la tua segnalazione \(reference)", de: "Wir haben Ihre Meldung \(reference) erhalten",
                    es: "Hemos recibido tu informe \(reference)"),
                LocalizedText(
                    en: """
                        Hello \(name),

                        Thank you for telling us about this problem. Your report's reference is \(reference): quote it if you write to us about it.

                        You can follow its status in the app, under Help. We read every report.
                        """,
                    fr: """
                        Bonjour \(name),

                        Merci de nous avoir signalé ce problème. La référence de votre signalement est \(reference) : indiquez-la si vous nous écrivez à son sujet.

                        Vous pouvez suivre son statut dans l'application, sous Aide. Nous lisons chaque signalement.
                        """,
                    it: """
                        Ciao \(name),

                        Grazie per averci segnalato questo problema. Il riferimento della tua segnalazione è \(reference): indicalo se ci scrivi a riguardo.

                        Puoi seguirne lo stato nell'app, in Aiuto. Leggiamo ogni segnalazione.
                        """,
                    de: """
                        Hallo \(name),

                        Danke, dass Sie uns dieses Problem gemeldet haben. Ihre Meldung hat die Referenz \(reference): Bitte geben Sie sie an, wenn Sie uns dazu schreiben.

                        Den Status können Sie in der App unter Hilfe verfolgen. Wir lesen jede Meldung.
                        """,
                    es: """
                        Hola, \(name):

                        Gracias por contarnos este problema. La referencia de tu informe es \(reference): indícala si nos escribes sobre él.

                        Puedes seguir su estado en la aplicación, en Ayuda. Leemos todos los informes.
                        """)
            )
        }
    }
}

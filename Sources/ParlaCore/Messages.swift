import Foundation

/// A text written in every language Parla speaks. The initializer takes all
/// five, so a message cannot be added without its translations.
public struct LocalizedText: Sendable, Equatable {
    public let en: String, fr: String, it: String, de: String, es: String

    public init(en: String, fr: String, it: String, de: String, es: String) {
        (self.en, self.fr, self.it, self.de, self.es) = (en, fr, it, de, es)
    }

    public func text(in language: Language) -> String {
        switch language {
        case .english: en
        case .french: fr
        case .italian: it
        case .german: de
        case .spanish: es
        }
    }
}

extension ErrorCode {
    /// The title shown to a person; `detail` in the problem document.
    public var message: LocalizedText {
        switch self {
        case .malformedRequest:
            LocalizedText(
                en: "The request could not be read. Check that it is well-formed JSON.",
                fr: "La requête est illisible. Vérifiez qu'il s'agit d'un JSON bien formé.",
                it: "Impossibile leggere la richiesta. Verifica che sia un JSON ben formato.",
                de: "Die Anfrage konnte nicht gelesen werden. Prüfen Sie, ob sie gültiges JSON ist.",
                es: "No se pudo leer la solicitud. Comprueba que sea un JSON bien formado.")
        case .unsupportedMediaType:
            LocalizedText(
                en: "This content type is not supported here.",
                fr: "Ce type de contenu n'est pas pris en charge ici.",
                it: "Questo tipo di contenuto non è supportato qui.",
                de: "Dieser Inhaltstyp wird hier nicht unterstützt.",
                es: "Este tipo de contenido no se admite aquí.")
        case .notAcceptable:
            LocalizedText(
                en: "The response cannot be produced in the format you asked for.",
                fr: "La réponse ne peut pas être produite dans le format demandé.",
                it: "La risposta non può essere prodotta nel formato richiesto.",
                de: "Die Antwort kann nicht im gewünschten Format geliefert werden.",
                es: "La respuesta no se puede generar en el formato solicitado.")
        case .payloadTooLarge:
            LocalizedText(
                en: "The request body is too large.",
                fr: "Le corps de la requête est trop volumineux.",
                it: "Il corpo della richiesta è troppo grande.",
                de: "Der Inhalt der Anfrage ist zu groß.",
                es: "El cuerpo de la solicitud es demasiado grande.")
        case .routeNotFound:
            LocalizedText(
                en: "There is nothing at this address.",
                fr: "Il n'y a rien à cette adresse.",
                it: "Non c'è niente a questo indirizzo.",
                de: "Unter dieser Adresse gibt es nichts.",
                es: "No hay nada en esta dirección.")
        case .methodNotAllowed:
            LocalizedText(
                en: "This method is not allowed at this address.",
                fr: "Cette méthode n'est pas autorisée à cette adresse.",
                it: "Questo metodo non è consentito a questo indirizzo.",
                de: "Diese Methode ist unter dieser Adresse nicht erlaubt.",
                es: "Este método no está permitido en esta dirección.")
        case .validationFailed:
            LocalizedText(
                en: "Some fields are not valid. Please correct them and try again.",
                fr: "Certains champs ne sont pas valides. Corrigez-les puis réessayez.",
                it: "Alcuni campi non sono validi. Correggili e riprova.",
                de: "Einige Felder sind ungültig. Bitte korrigieren Sie sie und versuchen Sie es erneut.",
                es: "Algunos campos no son válidos. Corrígelos y vuelve a intentarlo.")
        case .required:
            LocalizedText(
                en: "This field is required.",
                fr: "Ce champ est obligatoire.",
                it: "Questo campo è obbligatorio.",
                de: "Dieses Feld ist erforderlich.",
                es: "Este campo es obligatorio.")
        case .invalidFirstName:
            LocalizedText(
                en: "Enter a valid first name: letters only, with single spaces, hyphens or apostrophes between them.",
                fr: "Saisissez un prénom valide : des lettres uniquement, séparées par un seul espace, un trait d'union ou une apostrophe.",
                it: "Inserisci un nome valido: solo lettere, separate da un solo spazio, trattino o apostrofo.",
                de:
                    "Geben Sie einen gültigen Vornamen ein: nur Buchstaben, getrennt durch einzelne Leerzeichen, Bindestriche oder Apostrophe.",
                es: "Introduce un nombre válido: solo letras, separadas por un único espacio, guion o apóstrofo.")
        case .invalidLastName:
            LocalizedText(
                en: "Enter a valid last name: letters only, with single spaces, hyphens or apostrophes between them.",
                fr:
                    "Saisissez un nom de famille valide : des lettres uniquement, séparées par un seul espace, un trait d'union ou une apostrophe.",
                it: "Inserisci un cognome valido: solo lettere, separate da un solo spazio, trattino o apostrofo.",
                de:
                    "Geben Sie einen gültigen Nachnamen ein: nur Buchstaben, getrennt durch einzelne Leerzeichen, Bindestriche oder Apostrophe.",
                es: "Introduce un apellido válido: solo letras, separadas por un único espacio, guion o apóstrofo.")
        case .invalidEmail:
            LocalizedText(
                en: "Enter a valid email address, such as name@example.com.",
                fr: "Saisissez une adresse e-mail valide, par exemple nom@exemple.fr.",
                it: "Inserisci un indirizzo email valido, ad esempio nome@esempio.it.",
                de: "Geben Sie eine gültige E-Mail-Adresse ein, zum Beispiel name@beispiel.de.",
                es: "Introduce una dirección de correo válida, por ejemplo nombre@ejemplo.es.")
        case .invalidPassword:
            LocalizedText(
                en: "The password must be 10 to 128 characters long.",
                fr: "Le mot de passe doit comporter entre 10 et 128 caractères.",
                it: "La password deve avere da 10 a 128 caratteri.",
                de: "Das Passwort muss 10 bis 128 Zeichen lang sein.",
                es: "La contraseña debe tener entre 10 y 128 caracteres.")
        case .passwordIsEmail:
            LocalizedText(
                en: "The password must not be your email address.",
                fr: "Le mot de passe ne doit pas être votre adresse e-mail.",
                it: "La password non può essere il tuo indirizzo email.",
                de: "Das Passwort darf nicht Ihre E-Mail-Adresse sein.",
                es: "La contraseña no puede ser tu dirección de correo.")
        case .termsNotAccepted:
            LocalizedText(
                en: "Please accept the terms of use to create an account.",
                fr: "Veuillez accepter les conditions d'utilisation pour créer un compte.",
                it: "Accetta i termini di utilizzo per creare un account.",
                de: "Bitte akzeptieren Sie die Nutzungsbedingungen, um ein Konto zu erstellen.",
                es: "Acepta las condiciones de uso para crear una cuenta.")
        case .invalidLanguage:
            LocalizedText(
                en: "Choose one of the supported languages: en, fr, it, de or es.",
                fr: "Choisissez l'une des langues prises en charge : en, fr, it, de ou es.",
                it: "Scegli una delle lingue supportate: en, fr, it, de o es.",
                de: "Wählen Sie eine der unterstützten Sprachen: en, fr, it, de oder es.",
                es: "Elige uno de los idiomas disponibles: en, fr, it, de o es.")
        case .emailTaken:
            LocalizedText(
                en: "An account with this email address already exists.",
                fr: "Un compte existe déjà avec cette adresse e-mail.",
                it: "Esiste già un account con questo indirizzo email.",
                de: "Es gibt bereits ein Konto mit dieser E-Mail-Adresse.",
                es: "Ya existe una cuenta con esta dirección de correo.")
        case .nothingToUpdate:
            LocalizedText(
                en: "The request changes nothing: give at least one field to update.",
                fr: "La requête ne modifie rien : indiquez au moins un champ à mettre à jour.",
                it: "La richiesta non modifica nulla: indica almeno un campo da aggiornare.",
                de: "Die Anfrage ändert nichts: Geben Sie mindestens ein Feld zum Aktualisieren an.",
                es: "La solicitud no cambia nada: indica al menos un campo que actualizar.")
        case .invalidCredentials:
            LocalizedText(
                en: "The email address or password is incorrect.",
                fr: "L'adresse e-mail ou le mot de passe est incorrect.",
                it: "L'indirizzo email o la password non sono corretti.",
                de: "Die E-Mail-Adresse oder das Passwort ist falsch.",
                es: "La dirección de correo o la contraseña no son correctas.")
        case .authenticationRequired:
            LocalizedText(
                en: "Please sign in: your session is missing, has expired or was signed out.",
                fr: "Veuillez vous connecter : votre session est absente, a expiré ou a été fermée.",
                it: "Accedi di nuovo: la sessione manca, è scaduta o è stata chiusa.",
                de: "Bitte melden Sie sich an: Ihre Sitzung fehlt, ist abgelaufen oder wurde beendet.",
                es: "Inicia sesión: tu sesión no existe, ha caducado o se ha cerrado.")
        case .invalidToken:
            LocalizedText(
                en:
                    "This link is not valid: it was already used, has expired (after one hour), or is for an older email address. Ask for a new one.",
                fr:
                    "Ce lien n'est pas valide : il a déjà servi, a expiré (au bout d'une heure) ou concerne une ancienne adresse e-mail. Demandez-en un nouveau.",
                it:
                    "Questo link non è valido: è già stato usato, è scaduto (dopo un'ora) o riguarda un indirizzo email precedente. Chiedine uno nuovo.",
                de:
                    "Dieser Link ist ungültig: Er wurde bereits verwendet, ist abgelaufen (nach einer Stunde) oder gilt für eine frühere E-Mail-Adresse. Fordern Sie einen neuen an.",
                es:
                    "Este enlace no es válido: ya se usó, ha caducado (tras una hora) o es de una dirección de correo anterior. Pide uno nuevo."
            )
        case .emailAlreadyVerified:
            LocalizedText(
                en: "Your email address is already confirmed.",
                fr: "Votre adresse e-mail est déjà confirmée.",
                it: "Il tuo indirizzo email è già confermato.",
                de: "Ihre E-Mail-Adresse ist bereits bestätigt.",
                es: "Tu dirección de correo ya está confirmada.")
        case .tooManyEmails:
            LocalizedText(
                en: "Several emails of this kind were sent within the last hour. Check your inbox and spam folder, or try again later.",
                fr:
                    "Plusieurs e-mails de ce type ont été envoyés au cours de la dernière heure. Vérifiez votre boîte de réception et vos indésirables, ou réessayez plus tard.",
                it:
                    "Nell'ultima ora sono state inviate diverse email di questo tipo. Controlla la posta in arrivo e lo spam, o riprova più tardi.",
                de:
                    "In der letzten Stunde wurden mehrere E-Mails dieser Art gesendet. Sehen Sie in Ihrem Posteingang und Spam-Ordner nach oder versuchen Sie es später erneut.",
                es:
                    "En la última hora se han enviado varios correos de este tipo. Revisa tu bandeja de entrada y la de spam, o vuelve a intentarlo más tarde."
            )
        case .invalidProvider:
            LocalizedText(
                en: "Choose a sign-in provider: apple or google.",
                fr: "Choisissez un fournisseur de connexion : apple ou google.",
                it: "Scegli un servizio di accesso: apple o google.",
                de: "Wählen Sie einen Anmeldedienst: apple oder google.",
                es: "Elige un proveedor de inicio de sesión: apple o google.")
        case .invalidIdToken:
            LocalizedText(
                en: "The sign-in could not be confirmed. Please try again.",
                fr: "La connexion n'a pas pu être confirmée. Veuillez réessayer.",
                it: "Non è stato possibile confermare l'accesso. Riprova.",
                de: "Die Anmeldung konnte nicht bestätigt werden. Bitte versuchen Sie es erneut.",
                es: "No se ha podido confirmar el inicio de sesión. Inténtalo de nuevo.")
        case .linkRequired:
            LocalizedText(
                en: "An account with this email address already exists. Enter its password once to sign in this way from now on.",
                fr:
                    "Un compte existe déjà avec cette adresse e-mail. Saisissez une fois son mot de passe pour vous connecter ainsi désormais.",
                it: "Esiste già un account con questo indirizzo email. Inserisci una volta la sua password per accedere così d'ora in poi.",
                de:
                    "Es gibt bereits ein Konto mit dieser E-Mail-Adresse. Geben Sie einmal sein Passwort ein, um sich künftig so anzumelden.",
                es:
                    "Ya existe una cuenta con esta dirección de correo. Introduce una vez su contraseña para iniciar sesión así a partir de ahora."
            )
        case .identityProviderNotConfigured:
            LocalizedText(
                en: "This server does not offer this way of signing in. Please sign in with your email.",
                fr: "Ce serveur ne propose pas ce mode de connexion. Connectez-vous avec votre e-mail.",
                it: "Questo server non offre questo modo di accedere. Accedi con la tua email.",
                de: "Dieser Server bietet diese Anmeldeart nicht an. Bitte melden Sie sich mit Ihrer E-Mail an.",
                es: "Este servidor no ofrece este modo de iniciar sesión. Inicia sesión con tu correo.")
        case .identityProviderUnavailable:
            LocalizedText(
                en: "This way of signing in is not available right now. Please try again later or sign in with your email.",
                fr: "Ce mode de connexion n'est pas disponible pour le moment. Réessayez plus tard ou connectez-vous avec votre e-mail.",
                it: "Questo modo di accedere non è disponibile al momento. Riprova più tardi o accedi con la tua email.",
                de: "Diese Anmeldeart ist gerade nicht verfügbar. Versuchen Sie es später erneut oder melden Sie sich mit Ihrer E-Mail an.",
                es: "Este modo de iniciar sesión no está disponible ahora. Inténtalo más tarde o inicia sesión con tu correo.")
        case .invalidTourStatus:
            LocalizedText(
                en: "The tour's status must be in_progress, completed or skipped.",
                fr: "L'état de la visite doit être in_progress, completed ou skipped.",
                it: "Lo stato del tour deve essere in_progress, completed o skipped.",
                de: "Der Status der Tour muss in_progress, completed oder skipped sein.",
                es: "El estado del recorrido debe ser in_progress, completed o skipped.")
        case .invalidTourStep:
            LocalizedText(
                en: "The tour has no such step.",
                fr: "La visite n'a pas cette étape.",
                it: "Il tour non ha questo passaggio.",
                de: "Die Tour hat keinen solchen Schritt.",
                es: "El recorrido no tiene ese paso.")
        case .signUpRequired:
            LocalizedText(
                en: "Sign up first: a guest cannot do this. Everything you learned so far comes with you.",
                fr: "Inscrivez-vous d'abord : un invité ne peut pas faire cela. Tout ce que vous avez appris vous suit.",
                it: "Prima registrati: un ospite non può farlo. Tutto ciò che hai imparato resta con te.",
                de: "Registrieren Sie sich zuerst: Als Gast geht das nicht. Alles, was Sie gelernt haben, nehmen Sie mit.",
                es: "Regístrate primero: un invitado no puede hacer esto. Todo lo que has aprendido se queda contigo.")
        case .tooManyEvents:
            LocalizedText(
                en: "A batch holds at most 100 events.",
                fr: "Un lot contient au plus 100 événements.",
                it: "Un lotto contiene al massimo 100 eventi.",
                de: "Ein Stapel enthält höchstens 100 Ereignisse.",
                es: "Un lote contiene como máximo 100 eventos.")
        case .twoFactorRequired:
            LocalizedText(
                en: "Enter the six-digit code from your authenticator app, or a recovery code.",
                fr: "Saisissez le code à six chiffres de votre application d'authentification, ou un code de secours.",
                it: "Inserisci il codice a sei cifre della tua app di autenticazione, o un codice di recupero.",
                de: "Geben Sie den sechsstelligen Code aus Ihrer Authenticator-App oder einen Wiederherstellungscode ein.",
                es: "Introduce el código de seis cifras de tu aplicación de autenticación o un código de recuperación.")
        case .invalidOneTimeCode:
            LocalizedText(
                en: "This code is wrong, used already or out of date. Try the code your app shows now.",
                fr: "Ce code est faux, déjà utilisé ou périmé. Essayez le code que votre application affiche maintenant.",
                it: "Questo codice è sbagliato, già usato o scaduto. Prova il codice che la tua app mostra ora.",
                de: "Dieser Code ist falsch, schon benutzt oder abgelaufen. Versuchen Sie den Code, den Ihre App jetzt zeigt.",
                es: "Este código es incorrecto, ya se usó o ha caducado. Prueba el código que muestra ahora tu aplicación.")
        case .twoFactorSetupRequired:
            LocalizedText(
                en: "Staff must turn on two-factor sign-in first.",
                fr: "L'équipe doit d'abord activer la connexion à deux facteurs.",
                it: "Il personale deve prima attivare l'accesso a due fattori.",
                de: "Das Team muss zuerst die Zwei-Faktor-Anmeldung einschalten.",
                es: "El equipo debe activar primero el inicio de sesión en dos pasos.")
        case .twoFactorSessionRequired:
            LocalizedText(
                en: "Sign in again with your one-time code to do this.",
                fr: "Reconnectez-vous avec votre code à usage unique pour faire cela.",
                it: "Accedi di nuovo con il tuo codice monouso per farlo.",
                de: "Melden Sie sich dafür erneut mit Ihrem Einmalcode an.",
                es: "Vuelve a iniciar sesión con tu código de un solo uso para hacer esto.")
        case .twoFactorAlreadyEnabled:
            LocalizedText(
                en: "Two-factor sign-in is already on.", fr: "La connexion à deux facteurs est déjà activée.",
                it: "L'accesso a due fattori è già attivo.", de: "Die Zwei-Faktor-Anmeldung ist schon eingeschaltet.",
                es: "El inicio de sesión en dos pasos ya está activado.")
        case .twoFactorNotEnabled:
            LocalizedText(
                en: "Two-factor sign-in is not on.", fr: "La connexion à deux facteurs n'est pas activée.",
                it: "L'accesso a due fattori non è attivo.", de: "Die Zwei-Faktor-Anmeldung ist nicht eingeschaltet.",
                es: "El inicio de sesión en dos pasos no está activado.")
        case .staffRoleRequired:
            LocalizedText(
                en: "Only the service's staff may do this.",
                fr: "Seule l'équipe du service peut faire cela.",
                it: "Solo il personale del servizio può farlo.",
                de: "Nur das Team des Dienstes darf das tun.",
                es: "Solo el equipo del servicio puede hacer esto.")
        case .invalidReportText:
            LocalizedText(
                en: "Describe the problem in 10 to 5,000 characters.",
                fr: "Décrivez le problème en 10 à 5 000 caractères.",
                it: "Descrivi il problema in 10-5.000 caratteri.",
                de: "Beschreiben Sie das Problem in 10 bis 5.000 Zeichen.",
                es: "Describe el problema en 10 a 5000 caracteres.")
        case .invalidReportStatus:
            LocalizedText(
                en: "The status must be open, in_progress, resolved or closed.",
                fr: "Le statut doit être open, in_progress, resolved ou closed.",
                it: "Lo stato deve essere open, in_progress, resolved o closed.",
                de: "Der Status muss open, in_progress, resolved oder closed sein.",
                es: "El estado debe ser open, in_progress, resolved o closed.")
        case .reportNotFound:
            LocalizedText(
                en: "There is no such report.",
                fr: "Ce signalement n'existe pas.",
                it: "Questa segnalazione non esiste.",
                de: "Diese Meldung gibt es nicht.",
                es: "Ese informe no existe.")
        case .tooManyReports:
            LocalizedText(
                en: "You have sent many reports today. Please try again tomorrow.",
                fr: "Vous avez envoyé beaucoup de signalements aujourd'hui. Réessayez demain.",
                it: "Hai inviato molte segnalazioni oggi. Riprova domani.",
                de: "Sie haben heute viele Meldungen gesendet. Bitte versuchen Sie es morgen erneut.",
                es: "Has enviado muchos informes hoy. Vuelve a intentarlo mañana.")
        case .savedListFull:
            LocalizedText(
                en: "Your saved list is full (50 items). Remove one to save another.",
                fr: "Votre liste d'enregistrements est pleine (50 éléments). Retirez-en un pour en enregistrer un autre.",
                it: "La tua lista dei salvati è piena (50 elementi). Rimuovine uno per salvarne un altro.",
                de: "Ihre Merkliste ist voll (50 Einträge). Entfernen Sie einen, um einen weiteren zu speichern.",
                es: "Tu lista de guardados está llena (50 elementos). Quita uno para guardar otro.")
        case .savedItemNotFound:
            LocalizedText(
                en: "This item is not in the saved list.",
                fr: "Cet élément n'est pas dans la liste d'enregistrements.",
                it: "Questo elemento non è nella lista dei salvati.",
                de: "Dieser Eintrag ist nicht in der Merkliste.",
                es: "Este elemento no está en la lista de guardados.")
        case .invalidItemKind:
            LocalizedText(
                en: "The kind must be word or phrase.",
                fr: "Le type doit être word ou phrase.",
                it: "Il tipo deve essere word o phrase.",
                de: "Die Art muss word oder phrase sein.",
                es: "El tipo debe ser word o phrase.")
        case .updateRequired:
            LocalizedText(
                en: "This version of the app is no longer supported. Please update it.",
                fr: "Cette version de l'application n'est plus prise en charge. Veuillez la mettre à jour.",
                it: "Questa versione dell'app non è più supportata. Aggiornala.",
                de: "Diese Version der App wird nicht mehr unterstützt. Bitte aktualisieren Sie sie.",
                es: "Esta versión de la aplicación ya no es compatible. Actualízala.")
        case .tooManyAttempts:
            LocalizedText(
                en: "Too many failed sign-in attempts. Please wait before trying again.",
                fr: "Trop de tentatives de connexion échouées. Patientez avant de réessayer.",
                it: "Troppi tentativi di accesso non riusciti. Attendi prima di riprovare.",
                de: "Zu viele fehlgeschlagene Anmeldeversuche. Bitte warten Sie, bevor Sie es erneut versuchen.",
                es: "Demasiados intentos de inicio de sesión fallidos. Espera antes de volver a intentarlo.")
        case .tooManyRequests:
            LocalizedText(
                en: "Too many requests from here. Please wait a moment and try again.",
                fr: "Trop de demandes depuis cet endroit. Patientez un instant, puis réessayez.",
                it: "Troppe richieste da qui. Attendi un momento e riprova.",
                de: "Zu viele Anfragen von hier. Bitte warten Sie einen Moment und versuchen Sie es erneut.",
                es: "Demasiadas solicitudes desde aquí. Espera un momento y vuelve a intentarlo.")
        case .wrongCurrentPassword:
            LocalizedText(
                en: "Your current password is incorrect.",
                fr: "Votre mot de passe actuel est incorrect.",
                it: "La password attuale non è corretta.",
                de: "Ihr aktuelles Passwort ist falsch.",
                es: "Tu contraseña actual no es correcta.")
        case .identityLinkedElsewhere:
            LocalizedText(
                en: "This sign-in is already linked to another Parla account.",
                fr: "Cette connexion est déjà liée à un autre compte Parla.",
                it: "Questo accesso è già collegato a un altro account Parla.",
                de: "Diese Anmeldung ist bereits mit einem anderen Parla-Konto verknüpft.",
                es: "Este inicio de sesión ya está vinculado a otra cuenta de Parla.")
        case .identityNotFound:
            LocalizedText(
                en: "This sign-in is not linked to your account.",
                fr: "Cette connexion n'est pas liée à votre compte.",
                it: "Questo accesso non è collegato al tuo account.",
                de: "Diese Anmeldung ist nicht mit Ihrem Konto verknüpft.",
                es: "Este inicio de sesión no está vinculado a tu cuenta.")
        case .lastWayIn:
            LocalizedText(
                en: "This is the only way into your account: set a password or link another sign-in first.",
                fr: "C'est le seul moyen d'accéder à votre compte : définissez d'abord un mot de passe ou liez une autre connexion.",
                it: "È l'unico modo per accedere al tuo account: imposta prima una password o collega un altro accesso.",
                de:
                    "Das ist der einzige Zugang zu Ihrem Konto: Legen Sie zuerst ein Passwort fest oder verknüpfen Sie eine andere Anmeldung.",
                es: "Es la única forma de entrar en tu cuenta: primero crea una contraseña o vincula otro inicio de sesión.")
        case .sessionNotFound:
            LocalizedText(
                en: "This session does not exist or has already ended.",
                fr: "Cette session n'existe pas ou est déjà terminée.",
                it: "Questa sessione non esiste o è già terminata.",
                de: "Diese Sitzung existiert nicht oder wurde bereits beendet.",
                es: "Esta sesión no existe o ya ha terminado.")
        case .controlCharacter:
            LocalizedText(
                en: "This text holds a control character (such as NUL or a line break), which is not allowed here.",
                fr: "Ce texte contient un caractère de contrôle (comme NUL ou un saut de ligne), ce qui n'est pas permis ici.",
                it: "Questo testo contiene un carattere di controllo (come NUL o un a capo), che qui non è consentito.",
                de: "Dieser Text enthält ein Steuerzeichen (etwa NUL oder einen Zeilenumbruch), das hier nicht erlaubt ist.",
                es: "Este texto contiene un carácter de control (como NUL o un salto de línea), que aquí no está permitido.")
        case .invalidDeviceName:
            LocalizedText(
                en: "The device name must be 1 to 100 printable characters.",
                fr: "Le nom de l'appareil doit comporter de 1 à 100 caractères imprimables.",
                it: "Il nome del dispositivo deve avere da 1 a 100 caratteri stampabili.",
                de: "Der Gerätename muss aus 1 bis 100 druckbaren Zeichen bestehen.",
                es: "El nombre del dispositivo debe tener entre 1 y 100 caracteres imprimibles.")
        case .learnerNotFound:
            LocalizedText(
                en: "This learner profile does not exist.",
                fr: "Ce profil d'apprenant n'existe pas.",
                it: "Questo profilo di studente non esiste.",
                de: "Dieses Lernprofil existiert nicht.",
                es: "Este perfil de estudiante no existe.")
        case .invalidDisplayName:
            LocalizedText(
                en: "The display name must be 1 to 40 characters, letters, digits, spaces and simple punctuation.",
                fr: "Le nom affiché doit comporter de 1 à 40 caractères : lettres, chiffres, espaces et ponctuation simple.",
                it: "Il nome visualizzato deve avere da 1 a 40 caratteri: lettere, cifre, spazi e punteggiatura semplice.",
                de: "Der Anzeigename muss 1 bis 40 Zeichen lang sein: Buchstaben, Ziffern, Leerzeichen und einfache Satzzeichen.",
                es: "El nombre visible debe tener entre 1 y 40 caracteres: letras, números, espacios y puntuación sencilla.")
        case .invalidAge:
            LocalizedText(
                en: "The age must be a whole number from 3 to 120.",
                fr: "L'âge doit être un nombre entier compris entre 3 et 120.",
                it: "L'età deve essere un numero intero compreso tra 3 e 120.",
                de: "Das Alter muss eine ganze Zahl zwischen 3 und 120 sein.",
                es: "La edad debe ser un número entero entre 3 y 120.")
        case .invalidAvatar:
            LocalizedText(
                en: "Choose an avatar from the catalogue.",
                fr: "Choisissez un avatar dans le catalogue.",
                it: "Scegli un avatar dal catalogo.",
                de: "Wählen Sie einen Avatar aus dem Katalog.",
                es: "Elige un avatar del catálogo.")
        case .learnerLimitReached:
            LocalizedText(
                en: "This account already has the largest number of learner profiles allowed.",
                fr: "Ce compte a déjà le nombre maximal de profils d'apprenant autorisé.",
                it: "Questo account ha già il numero massimo di profili di studente consentito.",
                de: "Dieses Konto hat bereits die höchstmögliche Zahl an Lernprofilen.",
                es: "Esta cuenta ya tiene el número máximo de perfiles de estudiante permitido.")
        case .lastLearner:
            LocalizedText(
                en: "An account keeps at least one learner profile: this one cannot be deleted.",
                fr: "Un compte garde au moins un profil d'apprenant : celui-ci ne peut pas être supprimé.",
                it: "Un account conserva almeno un profilo di studente: questo non può essere eliminato.",
                de: "Ein Konto behält mindestens ein Lernprofil: Dieses kann nicht gelöscht werden.",
                es: "Una cuenta conserva al menos un perfil de estudiante: este no se puede eliminar.")
        case .unsupportedImage:
            LocalizedText(
                en: "The picture must be a PNG or JPEG image.",
                fr: "L'image doit être au format PNG ou JPEG.",
                it: "L'immagine deve essere in formato PNG o JPEG.",
                de: "Das Bild muss ein PNG- oder JPEG-Bild sein.",
                es: "La imagen debe estar en formato PNG o JPEG.")
        case .invalidImageDimensions:
            LocalizedText(
                en: "The picture must be between 32 and 4096 pixels wide and high.",
                fr: "L'image doit mesurer entre 32 et 4096 pixels de large et de haut.",
                it: "L'immagine deve misurare tra 32 e 4096 pixel di larghezza e di altezza.",
                de: "Das Bild muss zwischen 32 und 4096 Pixel breit und hoch sein.",
                es: "La imagen debe medir entre 32 y 4096 píxeles de ancho y de alto.")
        case .languageNotFound:
            LocalizedText(
                en: "This language is not taught here: choose en, fr, it, de or es.",
                fr: "Cette langue n'est pas enseignée ici : choisissez en, fr, it, de ou es.",
                it: "Questa lingua non è insegnata qui: scegli en, fr, it, de o es.",
                de: "Diese Sprache wird hier nicht unterrichtet: Wählen Sie en, fr, it, de oder es.",
                es: "Este idioma no se enseña aquí: elige en, fr, it, de o es.")
        case .wordListNotFound:
            LocalizedText(
                en: "This word list does not exist.",
                fr: "Cette liste de mots n'existe pas.",
                it: "Questo elenco di parole non esiste.",
                de: "Diese Wortliste gibt es nicht.",
                es: "Esta lista de palabras no existe.")
        case .pageNotFound:
            LocalizedText(
                en: "This page does not exist: the list has fewer pages.",
                fr: "Cette page n'existe pas : la liste en compte moins.",
                it: "Questa pagina non esiste: l'elenco ne ha meno.",
                de: "Diese Seite gibt es nicht: Die Liste hat weniger Seiten.",
                es: "Esta página no existe: la lista tiene menos páginas.")
        case .wordNotFound:
            LocalizedText(
                en: "This word does not exist in this language.",
                fr: "Ce mot n'existe pas dans cette langue.",
                it: "Questa parola non esiste in questa lingua.",
                de: "Dieses Wort gibt es in dieser Sprache nicht.",
                es: "Esta palabra no existe en este idioma.")
        case .storyNotFound:
            LocalizedText(
                en: "There is no such story in this language.",
                fr: "Il n'y a pas cette histoire dans cette langue.",
                it: "Non c'è questa storia in questa lingua.",
                de: "Diese Geschichte gibt es in dieser Sprache nicht.",
                es: "No existe esta historia en este idioma.")
        case .alphabetNotFound:
            LocalizedText(
                en: "There is no alphabet for this variant of the language.",
                fr: "Il n'y a pas d'alphabet pour cette variante de la langue.",
                it: "Non c'è un alfabeto per questa variante della lingua.",
                de: "Für diese Variante der Sprache gibt es kein Alphabet.",
                es: "No hay alfabeto para esta variante del idioma.")
        case .phraseNotFound:
            LocalizedText(
                en: "This phrase does not exist.",
                fr: "Cette phrase n'existe pas.",
                it: "Questa frase non esiste.",
                de: "Diesen Satz gibt es nicht.",
                es: "Esta frase no existe.")
        case .grammarNoteNotFound:
            LocalizedText(
                en: "This grammar note does not exist in this language.",
                fr: "Cette note de grammaire n'existe pas dans cette langue.",
                it: "Questa nota di grammatica non esiste in questa lingua.",
                de: "Diese Grammatiknotiz gibt es in dieser Sprache nicht.",
                es: "Esta nota de gramática no existe en este idioma.")
        case .assetNotFound:
            LocalizedText(
                en: "This picture or sound does not exist.",
                fr: "Cette image ou ce son n'existe pas.",
                it: "Questa immagine o questo suono non esiste.",
                de: "Dieses Bild oder diesen Ton gibt es nicht.",
                es: "Esta imagen o este sonido no existe.")
        case .rangeNotSatisfiable:
            LocalizedText(
                en: "The requested range starts past the end of the file.",
                fr: "La plage demandée commence après la fin du fichier.",
                it: "L'intervallo richiesto inizia dopo la fine del file.",
                de: "Der angefragte Bereich beginnt nach dem Ende der Datei.",
                es: "El rango solicitado empieza después del final del archivo.")
        case .unsupportedAudio:
            LocalizedText(
                en: "This recording could not be read. Send WAV, FLAC, Ogg (Vorbis or Opus) or MP3.",
                fr: "Cet enregistrement est illisible. Envoyez du WAV, FLAC, Ogg (Vorbis ou Opus) ou MP3.",
                it: "Questa registrazione non è leggibile. Invia WAV, FLAC, Ogg (Vorbis o Opus) o MP3.",
                de: "Diese Aufnahme ist nicht lesbar. Sende WAV, FLAC, Ogg (Vorbis oder Opus) oder MP3.",
                es: "No se puede leer esta grabación. Envía WAV, FLAC, Ogg (Vorbis u Opus) o MP3.")
        case .audioTooLarge:
            LocalizedText(
                en: "This recording is too large.",
                fr: "Cet enregistrement est trop volumineux.",
                it: "Questa registrazione è troppo grande.",
                de: "Diese Aufnahme ist zu groß.",
                es: "Esta grabación es demasiado grande.")
        case .audioTooLong:
            LocalizedText(
                en: "This recording is too long: keep it under 15 seconds.",
                fr: "Cet enregistrement est trop long : il doit durer moins de 15 secondes.",
                it: "Questa registrazione è troppo lunga: deve durare meno di 15 secondi.",
                de: "Diese Aufnahme ist zu lang: Sie muss kürzer als 15 Sekunden sein.",
                es: "Esta grabación es demasiado larga: debe durar menos de 15 segundos.")
        case .audioTooShort:
            LocalizedText(
                en: "There is too little speech in this recording. Say the whole phrase.",
                fr: "Il y a trop peu de parole dans cet enregistrement. Dites toute la phrase.",
                it: "In questa registrazione si parla troppo poco. Di' tutta la frase.",
                de: "In dieser Aufnahme wird zu wenig gesprochen. Sag den ganzen Satz.",
                es: "Hay muy poca voz en esta grabación. Di la frase entera.")
        case .noSpeech:
            LocalizedText(
                en: "We could not hear anything. Check your microphone and try again.",
                fr: "Nous n'avons rien entendu. Vérifiez votre micro et réessayez.",
                it: "Non abbiamo sentito nulla. Controlla il microfono e riprova.",
                de: "Wir haben nichts gehört. Prüfe dein Mikrofon und versuch es noch einmal.",
                es: "No hemos oído nada. Comprueba el micrófono y vuelve a intentarlo.")
        case .emptyText:
            LocalizedText(
                en: "There is no word to say in this text.",
                fr: "Ce texte ne contient aucun mot à dire.",
                it: "Questo testo non contiene parole da dire.",
                de: "Dieser Text enthält kein Wort zum Sprechen.",
                es: "Este texto no contiene ninguna palabra que decir.")
        case .speechBusy:
            LocalizedText(
                en: "Too many recordings are being scored right now. Please try again in a moment.",
                fr: "Trop d'enregistrements sont en cours d'évaluation. Réessayez dans un instant.",
                it: "Troppe registrazioni in valutazione in questo momento. Riprova tra poco.",
                de: "Gerade werden zu viele Aufnahmen bewertet. Versuch es gleich noch einmal.",
                es: "Ahora mismo se están evaluando demasiadas grabaciones. Inténtalo de nuevo en un momento.")
        case .speechUnavailable:
            LocalizedText(
                en: "Speech scoring is not available for this language on this server.",
                fr: "L'évaluation de la prononciation n'est pas disponible pour cette langue sur ce serveur.",
                it: "La valutazione della pronuncia non è disponibile per questa lingua su questo server.",
                de: "Die Aussprachebewertung ist für diese Sprache auf diesem Server nicht verfügbar.",
                es: "La evaluación de la pronunciación no está disponible para este idioma en este servidor.")
        case .attemptNotFound:
            LocalizedText(
                en: "This attempt does not exist.",
                fr: "Cette tentative n'existe pas.",
                it: "Questo tentativo non esiste.",
                de: "Diesen Versuch gibt es nicht.",
                es: "Este intento no existe.")
        case .recordingNotKept:
            LocalizedText(
                en: "This attempt's recording was not kept: the learner's setting keepRecordings was off.",
                fr: "L'enregistrement de cette tentative n'a pas été conservé : le réglage keepRecordings était désactivé.",
                it: "La registrazione di questo tentativo non è stata conservata: l'impostazione keepRecordings era disattivata.",
                de: "Die Aufnahme dieses Versuchs wurde nicht aufbewahrt: Die Einstellung keepRecordings war aus.",
                es: "La grabación de este intento no se guardó: el ajuste keepRecordings estaba desactivado.")
        case .textOrPhraseRequired:
            LocalizedText(
                en: "Say which phrase was read: give either text or phraseId.",
                fr: "Indiquez la phrase lue : donnez text ou phraseId.",
                it: "Indica la frase letta: fornisci text oppure phraseId.",
                de: "Gib an, welcher Satz gesprochen wurde: text oder phraseId.",
                es: "Indica qué frase se ha leído: da text o phraseId.")
        case .courseNotFound:
            LocalizedText(
                en: "This learner has no course in this language.",
                fr: "Cet apprenant ne suit pas de cours dans cette langue.",
                it: "Questo studente non ha un corso in questa lingua.",
                de: "Dieser Lernende hat keinen Kurs in dieser Sprache.",
                es: "Este alumno no tiene un curso en este idioma.")
        case .drawingNotFound:
            LocalizedText(
                en: "There is no such drawing.",
                fr: "Ce dessin n'existe pas.",
                it: "Questo disegno non esiste.",
                de: "Diese Zeichnung gibt es nicht.",
                es: "Este dibujo no existe.")
        case .invalidTitle:
            LocalizedText(
                en: "A title is 1 to 60 characters, without control characters.",
                fr: "Un titre fait de 1 à 60 caractères, sans caractères de contrôle.",
                it: "Un titolo ha da 1 a 60 caratteri, senza caratteri di controllo.",
                de: "Ein Titel hat 1 bis 60 Zeichen, ohne Steuerzeichen.",
                es: "Un título tiene de 1 a 60 caracteres, sin caracteres de control.")
        case .artSpaceFull:
            LocalizedText(
                en: "The Art Space is full: delete a drawing to save a new one.",
                fr: "L'Espace Art est plein : supprime un dessin pour en garder un nouveau.",
                it: "Lo Spazio Arte è pieno: elimina un disegno per salvarne uno nuovo.",
                de: "Der Kunstraum ist voll: Lösche eine Zeichnung, um eine neue zu speichern.",
                es: "El Espacio de Arte está lleno: borra un dibujo para guardar uno nuevo.")
        case .variantNotFound:
            LocalizedText(
                en: "This language has no such variant.",
                fr: "Cette langue n'a pas cette variante.",
                it: "Questa lingua non ha questa variante.",
                de: "Diese Variante gibt es für diese Sprache nicht.",
                es: "Este idioma no tiene esta variante.")
        case .tileNotFound:
            LocalizedText(
                en: "There is no such letter tile in this game.",
                fr: "Il n'y a pas cette tuile de lettre dans ce jeu.",
                it: "Non c'è questa tessera con la lettera in questo gioco.",
                de: "Dieses Buchstabenplättchen gibt es in diesem Spiel nicht.",
                es: "No existe esta ficha de letra en este juego.")
        case .tileAlreadyPlaced:
            LocalizedText(
                en: "This letter tile is already in place.",
                fr: "Cette tuile de lettre est déjà placée.",
                it: "Questa tessera è già al suo posto.",
                de: "Dieses Buchstabenplättchen liegt schon an seinem Platz.",
                es: "Esta ficha de letra ya está colocada.")
        case .targetAlreadyFilled:
            LocalizedText(
                en: "This space already has its letter.",
                fr: "Cette case a déjà sa lettre.",
                it: "Questa casella ha già la sua lettera.",
                de: "Dieses Feld hat schon seinen Buchstaben.",
                es: "Esta casilla ya tiene su letra.")
        case .moveTooFast:
            LocalizedText(
                en: "This move came faster than a person can place a tile.",
                fr: "Ce coup est venu plus vite qu'une personne ne peut placer une tuile.",
                it: "Questa mossa è arrivata più in fretta di quanto una persona possa posare una tessera.",
                de: "Dieser Zug kam schneller, als ein Mensch ein Plättchen legen kann.",
                es: "Esta jugada llegó más rápido de lo que una persona puede colocar una ficha.")
        case .moveOutOfOrder:
            LocalizedText(
                en: "This move is dated before the one before it.",
                fr: "Ce coup est daté d'avant le précédent.",
                it: "Questa mossa ha una data precedente a quella prima.",
                de: "Dieser Zug ist früher datiert als der vorige.",
                es: "Esta jugada tiene una fecha anterior a la de la jugada previa.")
        case .courseExists:
            LocalizedText(
                en: "This learner already has a course in this language.",
                fr: "Cet apprenant suit déjà un cours dans cette langue.",
                it: "Questo studente ha già un corso in questa lingua.",
                de: "Dieser Lernende hat schon einen Kurs in dieser Sprache.",
                es: "Este alumno ya tiene un curso en este idioma.")
        case .placementNotFound:
            LocalizedText(
                en: "This placement test does not exist.",
                fr: "Ce test de niveau n'existe pas.",
                it: "Questo test di livello non esiste.",
                de: "Diesen Einstufungstest gibt es nicht.",
                es: "Esta prueba de nivel no existe.")
        case .placementFinished:
            LocalizedText(
                en: "This placement test is already finished.",
                fr: "Ce test de niveau est déjà terminé.",
                it: "Questo test di livello è già terminato.",
                de: "Dieser Einstufungstest ist schon beendet.",
                es: "Esta prueba de nivel ya ha terminado.")
        case .notCurrentItem:
            LocalizedText(
                en: "Answer the question being asked: this is not the current one.",
                fr: "Répondez à la question posée : ce n'est pas la question en cours.",
                it: "Rispondi alla domanda posta: non è quella in corso.",
                de: "Beantworte die gestellte Frage: Das ist nicht die aktuelle.",
                es: "Responde a la pregunta planteada: esta no es la actual.")
        case .optionNotFound:
            LocalizedText(
                en: "This option is not one of the question's.",
                fr: "Cette option ne fait pas partie de la question.",
                it: "Questa opzione non appartiene alla domanda.",
                de: "Diese Antwort gehört nicht zur Frage.",
                es: "Esta opción no pertenece a la pregunta.")
        case .placementUnavailable:
            LocalizedText(
                en: "There is no placement test for this language yet.",
                fr: "Il n'y a pas encore de test de niveau pour cette langue.",
                it: "Non c'è ancora un test di livello per questa lingua.",
                de: "Für diese Sprache gibt es noch keinen Einstufungstest.",
                es: "Todavía no hay prueba de nivel para este idioma.")
        case .lessonNotFound:
            LocalizedText(
                en: "This lesson does not exist.",
                fr: "Cette leçon n'existe pas.",
                it: "Questa lezione non esiste.",
                de: "Diese Lektion gibt es nicht.",
                es: "Esta lección no existe.")
        case .packNotFound:
            LocalizedText(
                en: "The course has no such pack.",
                fr: "Le cours n'a pas ce pack.",
                it: "Il corso non ha questo pacchetto.",
                de: "Dieses Paket gibt es im Kurs nicht.",
                es: "El curso no tiene este paquete.")
        case .packLocked:
            LocalizedText(
                en: "This pack is locked: buy its word list, or a pack or plan that includes it, to take its lessons.",
                fr: "Ce pack est verrouillé : achetez sa liste de mots, ou un pack ou une formule qui la contient, pour suivre ses leçons.",
                it:
                    "Questo pacchetto è bloccato: acquista il suo elenco di parole, o un pacchetto o un piano che lo include, per seguirne le lezioni.",
                de:
                    "Dieses Paket ist gesperrt: Kaufe seine Wortliste oder ein Paket oder einen Tarif, der sie enthält, um seine Lektionen zu machen.",
                es:
                    "Este paquete está bloqueado: compra su lista de palabras, o un paquete o plan que la incluya, para hacer sus lecciones."
            )
        case .courseLessonNotFound:
            LocalizedText(
                en: "The course has no such lesson in this language.",
                fr: "Le cours n'a pas cette leçon dans cette langue.",
                it: "Il corso non ha questa lezione in questa lingua.",
                de: "Diese Lektion gibt es im Kurs dieser Sprache nicht.",
                es: "El curso no tiene esta lección en este idioma.")
        case .lessonExpired:
            LocalizedText(
                en: "This lesson was left for more than a day and has ended. Start a new one.",
                fr: "Cette leçon est restée ouverte plus d'un jour et s'est terminée. Commencez-en une nouvelle.",
                it: "Questa lezione è rimasta aperta per più di un giorno ed è terminata. Iniziane una nuova.",
                de: "Diese Lektion lag länger als einen Tag brach und ist beendet. Beginne eine neue.",
                es: "Esta lección estuvo abierta más de un día y ha terminado. Empieza una nueva.")
        case .lessonFinished:
            LocalizedText(
                en: "This lesson is over: there are no more questions.",
                fr: "Cette leçon est terminée : il n'y a plus de questions.",
                it: "Questa lezione è finita: non ci sono altre domande.",
                de: "Diese Lektion ist vorbei: Es gibt keine weiteren Fragen.",
                es: "Esta lección ha terminado: no hay más preguntas.")
        case .notCurrentQuestion:
            LocalizedText(
                en: "Answer the question on screen: this one is not current.",
                fr: "Répondez à la question affichée : celle-ci n'est pas en cours.",
                it: "Rispondi alla domanda sullo schermo: questa non è quella in corso.",
                de: "Beantworte die angezeigte Frage: Diese ist nicht die aktuelle.",
                es: "Responde a la pregunta en pantalla: esta no es la actual.")
        case .optionAlreadyTried:
            LocalizedText(
                en: "You have already tried this answer. Choose another one.",
                fr: "Vous avez déjà essayé cette réponse. Choisissez-en une autre.",
                it: "Hai già provato questa risposta. Scegline un'altra.",
                de: "Diese Antwort hast du schon versucht. Wähle eine andere.",
                es: "Ya has probado esta respuesta. Elige otra.")
        case .targetNotFound:
            LocalizedText(
                en: "Drop the word on one of the question's targets.",
                fr: "Déposez le mot sur l'une des cibles de la question.",
                it: "Trascina la parola su uno dei bersagli della domanda.",
                de: "Lege das Wort auf eines der Ziele der Frage.",
                es: "Suelta la palabra sobre uno de los destinos de la pregunta.")
        case .answerKindMismatch:
            LocalizedText(
                en: "This question needs another kind of answer: an option, a typed text or a recording.",
                fr: "Cette question attend un autre type de réponse : une option, un texte saisi ou un enregistrement.",
                it: "Questa domanda richiede un altro tipo di risposta: un'opzione, un testo scritto o una registrazione.",
                de: "Diese Frage braucht eine andere Art von Antwort: eine Option, einen getippten Text oder eine Aufnahme.",
                es: "Esta pregunta necesita otro tipo de respuesta: una opción, un texto escrito o una grabación.")
        case .lessonUnavailable:
            LocalizedText(
                en: "There are no questions for this language and these question types yet.",
                fr: "Il n'y a pas encore de questions pour cette langue et ces types de questions.",
                it: "Non ci sono ancora domande per questa lingua e questi tipi di domanda.",
                de: "Für diese Sprache und diese Fragetypen gibt es noch keine Fragen.",
                es: "Todavía no hay preguntas para este idioma y estos tipos de pregunta.")
        case .gameNotFound:
            LocalizedText(
                en: "This game does not exist.",
                fr: "Cette partie n'existe pas.",
                it: "Questa partita non esiste.",
                de: "Dieses Spiel gibt es nicht.",
                es: "Esta partida no existe.")
        case .gameFinished:
            LocalizedText(
                en: "This game is over: every pair is found.",
                fr: "Cette partie est terminée : toutes les paires sont trouvées.",
                it: "Questa partita è finita: tutte le coppie sono state trovate.",
                de: "Dieses Spiel ist vorbei: Alle Paare sind gefunden.",
                es: "Esta partida ha terminado: se han encontrado todas las parejas.")
        case .gameBusy:
            LocalizedText(
                en: "Too many flips at once in this game. Try again.",
                fr: "Trop de cartes retournées en même temps dans cette partie. Réessayez.",
                it: "Troppe carte girate insieme in questa partita. Riprova.",
                de: "Zu viele Karten gleichzeitig in diesem Spiel umgedreht. Versuch es noch einmal.",
                es: "Demasiadas cartas giradas a la vez en esta partida. Inténtalo de nuevo.")
        case .cardNotFound:
            LocalizedText(
                en: "There is no card at this position.",
                fr: "Il n'y a pas de carte à cette position.",
                it: "Non c'è nessuna carta in questa posizione.",
                de: "An dieser Position liegt keine Karte.",
                es: "No hay ninguna carta en esta posición.")
        case .cardAlreadyUp:
            LocalizedText(
                en: "This card is already face up. Choose another one.",
                fr: "Cette carte est déjà retournée. Choisissez-en une autre.",
                it: "Questa carta è già scoperta. Scegline un'altra.",
                de: "Diese Karte liegt schon offen. Wähle eine andere.",
                es: "Esta carta ya está boca arriba. Elige otra.")
        case .gameRejected:
            LocalizedText(
                en: "This game could not have been played: the log has flips that are impossible.",
                fr: "Cette partie n'a pas pu être jouée : le journal contient des coups impossibles.",
                it: "Questa partita non può essere stata giocata: il registro contiene mosse impossibili.",
                de: "Dieses Spiel kann so nicht gespielt worden sein: Das Protokoll enthält unmögliche Züge.",
                es: "Esta partida no pudo jugarse así: el registro tiene jugadas imposibles.")
        case .lessonLogRejected:
            LocalizedText(
                en: "This lesson could not have been answered so: the log has answers that are impossible.",
                fr: "Cette leçon n'a pas pu être faite ainsi : le journal contient des réponses impossibles.",
                it: "Questa lezione non può essere stata svolta così: il registro contiene risposte impossibili.",
                de: "Diese Lektion kann so nicht beantwortet worden sein: Das Protokoll enthält unmögliche Antworten.",
                es: "Esta lección no pudo responderse así: el registro tiene respuestas imposibles.")
        case .gameUnavailable:
            LocalizedText(
                en: "There are not enough words with these faces for a game this size.",
                fr: "Il n'y a pas assez de mots avec ces faces pour une partie de cette taille.",
                it: "Non ci sono abbastanza parole con queste facce per una partita di queste dimensioni.",
                de: "Es gibt nicht genug Wörter mit diesen Seiten für ein Spiel dieser Größe.",
                es: "No hay suficientes palabras con estas caras para una partida de este tamaño.")
        case .flipTooFast:
            LocalizedText(
                en: "This flip came faster than a person can turn a card.",
                fr: "Ce coup est venu plus vite qu'une personne ne peut retourner une carte.",
                it: "Questa mossa è arrivata più in fretta di quanto una persona possa girare una carta.",
                de: "Dieser Zug kam schneller, als ein Mensch eine Karte umdrehen kann.",
                es: "Esta jugada llegó más rápido de lo que una persona puede girar una carta.")
        case .flipOutOfOrder:
            LocalizedText(
                en: "This flip is dated before the one before it.",
                fr: "Ce coup est daté d'avant le précédent.",
                it: "Questa mossa ha una data precedente a quella prima.",
                de: "Dieser Zug ist früher datiert als der vorige.",
                es: "Esta jugada tiene una fecha anterior a la jugada previa.")
        case .gameUnfinished:
            LocalizedText(
                en: "The log ends before every pair is found.",
                fr: "Le journal s'arrête avant que toutes les paires soient trouvées.",
                it: "Il registro finisce prima che tutte le coppie siano trovate.",
                de: "Das Protokoll endet, bevor alle Paare gefunden sind.",
                es: "El registro termina antes de encontrar todas las parejas.")
        case .friendCodeNotFound:
            LocalizedText(
                en: "No learner has this friend code. Check it and try again.",
                fr: "Aucun apprenant n'a ce code ami. Vérifiez-le et réessayez.",
                it: "Nessuno studente ha questo codice amico. Controllalo e riprova.",
                de: "Niemand hat diesen Freundescode. Prüfe ihn und versuch es noch einmal.",
                es: "Ningún estudiante tiene este código de amigo. Compruébalo e inténtalo de nuevo.")
        case .cannotBefriendSelf:
            LocalizedText(
                en: "This is your own friend code: give it to a friend instead.",
                fr: "C'est votre propre code ami : donnez-le plutôt à un ami.",
                it: "Questo è il tuo codice amico: dallo invece a un amico.",
                de: "Das ist dein eigener Freundescode: Gib ihn lieber einem Freund.",
                es: "Este es tu propio código de amigo: dáselo mejor a un amigo.")
        case .alreadyFriends:
            LocalizedText(
                en: "You are already friends.",
                fr: "Vous êtes déjà amis.",
                it: "Siete già amici.",
                de: "Ihr seid schon befreundet.",
                es: "Ya sois amigos.")
        case .friendRequestNotFound:
            LocalizedText(
                en: "There is no friend request from this learner.",
                fr: "Il n'y a pas de demande d'ami de cet apprenant.",
                it: "Non c'è nessuna richiesta di amicizia da questo studente.",
                de: "Es gibt keine Freundschaftsanfrage von diesem Lernenden.",
                es: "No hay ninguna solicitud de amistad de este estudiante.")
        case .friendNotFound:
            LocalizedText(
                en: "This learner is not among your friends or requests.",
                fr: "Cet apprenant n'est ni parmi vos amis ni parmi vos demandes.",
                it: "Questo studente non è tra i tuoi amici né tra le richieste.",
                de: "Dieser Lernende ist weder unter deinen Freunden noch unter deinen Anfragen.",
                es: "Este estudiante no está entre tus amigos ni entre tus solicitudes.")
        case .profileNotFound:
            LocalizedText(
                en: "There is no profile here you may see: it is private to the learner's friends.",
                fr: "Il n'y a pas ici de profil visible pour vous : il est réservé aux amis de l'apprenant.",
                it: "Non c'è nessun profilo visibile per te: è riservato agli amici dello studente.",
                de: "Hier gibt es kein Profil, das du sehen darfst: Es ist nur für Freunde des Lernenden sichtbar.",
                es: "Aquí no hay ningún perfil que puedas ver: es privado para los amigos del estudiante.")
        case .wordListLocked:
            LocalizedText(
                en: "This word list is locked: buy it, or a pack or plan that includes it, to use it whole.",
                fr:
                    "Cette liste de mots est verrouillée : achetez-la, ou un pack ou une formule qui la contient, pour l'utiliser en entier.",
                it: "Questo elenco di parole è bloccato: acquistalo, o un pacchetto o un piano che lo include, per usarlo per intero.",
                de: "Diese Wortliste ist gesperrt: Kaufe sie oder ein Paket oder einen Tarif, der sie enthält, um sie ganz zu nutzen.",
                es: "Esta lista de palabras está bloqueada: cómprala, o un paquete o plan que la incluya, para usarla entera.")
        case .wordLocked:
            LocalizedText(
                en: "This word belongs to a locked word list.",
                fr: "Ce mot appartient à une liste de mots verrouillée.",
                it: "Questa parola appartiene a un elenco di parole bloccato.",
                de: "Dieses Wort gehört zu einer gesperrten Wortliste.",
                es: "Esta palabra pertenece a una lista de palabras bloqueada.")
        case .planLimitReached:
            LocalizedText(
                en: "Your plan's limit for today is reached. It resets at midnight (UTC), or switch to a plan without it.",
                fr: "La limite du jour de votre formule est atteinte. Elle repart à minuit (UTC), ou passez à une formule sans limite.",
                it: "Hai raggiunto il limite di oggi del tuo piano. Si azzera a mezzanotte (UTC), oppure passa a un piano senza limite.",
                de: "Das Tageslimit deines Tarifs ist erreicht. Es gilt ab Mitternacht (UTC) neu, oder wechsle zu einem Tarif ohne Limit.",
                es: "Has alcanzado el límite de hoy de tu plan. Se reinicia a medianoche (UTC), o cambia a un plan sin límite.")
        case .trialAlreadyUsed:
            LocalizedText(
                en: "This account has already used its trial.",
                fr: "Ce compte a déjà utilisé son essai.",
                it: "Questo account ha già usato la sua prova.",
                de: "Dieses Konto hat seine Testversion schon genutzt.",
                es: "Esta cuenta ya ha usado su prueba.")
        case .trialNotAvailable:
            LocalizedText(
                en: "Your plan already gives you everything the trial would.",
                fr: "Votre formule vous donne déjà tout ce que l'essai offrirait.",
                it: "Il tuo piano ti dà già tutto quello che darebbe la prova.",
                de: "Dein Tarif bietet dir schon alles, was die Testversion böte.",
                es: "Tu plan ya te da todo lo que daría la prueba.")
        case .purchaseInvalid:
            LocalizedText(
                en: "The store's proof of this purchase could not be verified.",
                fr: "La preuve d'achat du magasin n'a pas pu être vérifiée.",
                it: "Non è stato possibile verificare la prova d'acquisto dello store.",
                de: "Der Kaufnachweis des Stores konnte nicht geprüft werden.",
                es: "No se ha podido verificar el comprobante de compra de la tienda.")
        case .purchaseForeign:
            LocalizedText(
                en: "This purchase belongs to another account.",
                fr: "Cet achat appartient à un autre compte.",
                it: "Questo acquisto appartiene a un altro account.",
                de: "Dieser Kauf gehört zu einem anderen Konto.",
                es: "Esta compra pertenece a otra cuenta.")
        case .productNotFound:
            LocalizedText(
                en: "Parla sells no such product.",
                fr: "Parla ne vend pas ce produit.",
                it: "Parla non vende questo prodotto.",
                de: "Parla verkauft dieses Produkt nicht.",
                es: "Parla no vende este producto.")
        case .legacyNotEligible:
            LocalizedText(
                en: "This receipt is not from a purchase of the original picture dictionary.",
                fr: "Ce reçu ne provient pas d'un achat du dictionnaire en images d'origine.",
                it: "Questa ricevuta non viene da un acquisto del dizionario illustrato originale.",
                de: "Dieser Beleg stammt nicht von einem Kauf des ursprünglichen Bildwörterbuchs.",
                es: "Este recibo no es de una compra del diccionario ilustrado original.")
        case .storeNotConfigured:
            LocalizedText(
                en: "This server does not take purchases from this store.",
                fr: "Ce serveur n'accepte pas les achats de ce magasin.",
                it: "Questo server non accetta acquisti da questo store.",
                de: "Dieser Server nimmt keine Käufe aus diesem Store an.",
                es: "Este servidor no acepta compras de esta tienda.")
        case .storeUnavailable:
            LocalizedText(
                en: "The store cannot be reached just now. Please try again shortly.",
                fr: "Le magasin est injoignable pour l'instant. Réessayez dans un moment.",
                it: "Lo store non è raggiungibile in questo momento. Riprova tra poco.",
                de: "Der Store ist gerade nicht erreichbar. Bitte versuche es gleich noch einmal.",
                es: "No se puede contactar con la tienda ahora. Inténtalo de nuevo en un momento.")
        case .invalidAppVersion:
            LocalizedText(
                en: "X-App-Version must be a version such as 2.1.0.",
                fr: "X-App-Version doit être une version comme 2.1.0.",
                it: "X-App-Version deve essere una versione come 2.1.0.",
                de: "X-App-Version muss eine Version wie 2.1.0 sein.",
                es: "X-App-Version debe ser una versión como 2.1.0.")
        case .invalidCurrency:
            LocalizedText(
                en: "The currency must be a three-letter code such as EUR.",
                fr: "La devise doit être un code de trois lettres comme EUR.",
                it: "La valuta deve essere un codice di tre lettere come EUR.",
                de: "Die Währung muss ein Code aus drei Buchstaben wie EUR sein.",
                es: "La moneda debe ser un código de tres letras como EUR.")
        case .teacherRequired:
            LocalizedText(
                en: "Only a teacher can do this: become one in your account first.",
                fr: "Seul un enseignant peut faire cela : devenez-en un dans votre compte d'abord.",
                it: "Solo un insegnante può farlo: diventalo prima nel tuo account.",
                de: "Das kann nur eine Lehrkraft: Werde zuerst in deinem Konto Lehrkraft.",
                es: "Solo un profesor puede hacer esto: hazte profesor primero en tu cuenta.")
        case .invalidClassName:
            LocalizedText(
                en: "A class name has 1 to 60 printable characters.",
                fr: "Le nom d'une classe compte de 1 à 60 caractères imprimables.",
                it: "Il nome di una classe ha da 1 a 60 caratteri stampabili.",
                de: "Ein Klassenname hat 1 bis 60 druckbare Zeichen.",
                es: "El nombre de una clase tiene de 1 a 60 caracteres imprimibles.")
        case .invalidLevel:
            LocalizedText(
                en: "The level must be one of A1, A2, B1, B2, C1 or C2.",
                fr: "Le niveau doit être A1, A2, B1, B2, C1 ou C2.",
                it: "Il livello deve essere A1, A2, B1, B2, C1 o C2.",
                de: "Das Niveau muss A1, A2, B1, B2, C1 oder C2 sein.",
                es: "El nivel debe ser A1, A2, B1, B2, C1 o C2.")
        case .invalidSchool:
            LocalizedText(
                en: "A school's name has at most 100 printable characters.",
                fr: "Le nom d'une école compte au plus 100 caractères imprimables.",
                it: "Il nome di una scuola ha al massimo 100 caratteri stampabili.",
                de: "Der Name einer Schule hat höchstens 100 druckbare Zeichen.",
                es: "El nombre de una escuela tiene como máximo 100 caracteres imprimibles.")
        case .classNotFound:
            LocalizedText(
                en: "There is no such class here.",
                fr: "Cette classe n'existe pas ici.",
                it: "Questa classe non esiste qui.",
                de: "Diese Klasse gibt es hier nicht.",
                es: "Esta clase no existe aquí.")
        case .joinCodeNotFound:
            LocalizedText(
                en: "No open class has this code. Check it with your teacher.",
                fr: "Aucune classe ouverte n'a ce code. Vérifiez-le auprès de votre enseignant.",
                it: "Nessuna classe aperta ha questo codice. Controllalo con il tuo insegnante.",
                de: "Keine offene Klasse hat diesen Code. Prüfe ihn mit deiner Lehrkraft.",
                es: "Ninguna clase abierta tiene este código. Compruébalo con tu profesor.")
        case .classLimitReached:
            LocalizedText(
                en: "You have as many classes as a teacher may have. Archive one first.",
                fr: "Vous avez autant de classes qu'un enseignant peut en avoir. Supprimez-en une d'abord.",
                it: "Hai il numero massimo di classi per un insegnante. Eliminane prima una.",
                de: "Du hast so viele Klassen, wie eine Lehrkraft haben darf. Lösche zuerst eine.",
                es: "Tienes tantas clases como puede tener un profesor. Elimina una primero.")
        case .classFull:
            LocalizedText(
                en: "This class is full.",
                fr: "Cette classe est complète.",
                it: "Questa classe è al completo.",
                de: "Diese Klasse ist voll.",
                es: "Esta clase está completa.")
        case .assignmentNotFound:
            LocalizedText(
                en: "There is no such assignment here.",
                fr: "Ce devoir n'existe pas ici.",
                it: "Questo compito non esiste qui.",
                de: "Diese Aufgabe gibt es hier nicht.",
                es: "Esta tarea no existe aquí.")
        case .alreadyInClass:
            LocalizedText(
                en: "This learner is already in the class.",
                fr: "Cet apprenant est déjà dans la classe.",
                it: "Questo studente è già nella classe.",
                de: "Dieser Lernende ist schon in der Klasse.",
                es: "Este estudiante ya está en la clase.")
        case .contentUnavailable:
            LocalizedText(
                en: "The learning content is not loaded yet. Please try again shortly.",
                fr: "Le contenu pédagogique n'est pas encore chargé. Réessayez dans un instant.",
                it: "I contenuti didattici non sono ancora caricati. Riprova tra poco.",
                de: "Die Lerninhalte sind noch nicht geladen. Bitte versuchen Sie es gleich erneut.",
                es: "El contenido didáctico aún no está cargado. Vuelve a intentarlo en breve.")
        case .notReady:
            LocalizedText(
                en: "The service is starting or its database is unavailable. Please try again shortly.",
                fr: "Le service démarre ou sa base de données est indisponible. Réessayez dans un instant.",
                it: "Il servizio si sta avviando o il database non è disponibile. Riprova tra poco.",
                de: "Der Dienst startet gerade oder seine Datenbank ist nicht erreichbar. Bitte versuchen Sie es gleich erneut.",
                es: "El servicio se está iniciando o su base de datos no está disponible. Vuelve a intentarlo en breve.")
        case .databaseUnavailable:
            LocalizedText(
                en: "We cannot save or read your data just now. Please try again in a few seconds.",
                fr: "Nous ne pouvons pas enregistrer ni lire vos données pour le moment. Réessayez dans quelques secondes.",
                it: "Al momento non possiamo salvare né leggere i tuoi dati. Riprova tra qualche secondo.",
                de: "Wir können Ihre Daten gerade weder speichern noch lesen. Bitte versuchen Sie es in ein paar Sekunden erneut.",
                es: "Ahora mismo no podemos guardar ni leer tus datos. Vuelve a intentarlo en unos segundos.")
        case .internalError:
            LocalizedText(
                en: "Something went wrong on our side. Please try again.",
                fr: "Un problème est survenu de notre côté. Veuillez réessayer.",
                it: "Si è verificato un problema da parte nostra. Riprova.",
                de: "Bei uns ist ein Fehler aufgetreten. Bitte versuchen Sie es erneut.",
                es: "Algo ha fallado por nuestra parte. Vuelve a intentarlo.")
        }
    }

    /// A short title for the problem document, in English: the stable
    /// `code` is what clients branch on, `detail` is what people read.
    public var title: String { rawValue.replacingOccurrences(of: "_", with: " ").capitalizedFirst }
}

/// Other user-facing words the server writes itself.
public enum Wording {
    /// What to work on in a mispronounced word: its worst phone (IPA), what
    /// it sounded like instead, and the word said instead when the sounds
    /// heard spell one.
    public static func pronunciationHint(
        phone: String, word: String, heardAs: String?, letters: String? = nil, heardAsWord: String? = nil
    ) -> LocalizedText {
        // The sound, and the letters that spell it when known: "the “th” (/θ/)".
        let (en, fr, it, de, es) =
            letters.map {
                ("“\($0)” (/\(phone)/)", "« \($0) » (/\(phone)/)", "«\($0)» (/\(phone)/)", "„\($0)“ (/\(phone)/)", "«\($0)» (/\(phone)/)")
            }
            ?? ("/\(phone)/", "/\(phone)/", "/\(phone)/", "/\(phone)/", "/\(phone)/")
        guard let heardAs, !heardAs.isEmpty, heardAs != phone else {
            return LocalizedText(
                en: "Work on the \(en) in “\(word)”.", fr: "Travaillez le \(fr) de « \(word) ».", it: "Esercita il \(it) di «\(word)».",
                de: "Üb das \(de) in „\(word)“.", es: "Practica la \(es) de «\(word)».")
        }
        if let other = heardAsWord, !other.isEmpty {
            return LocalizedText(
                en: "“\(word)” sounded like “\(other)”: the \(en) came out as /\(heardAs)/.",
                fr: "« \(word) » ressemblait à « \(other) » : le \(fr) est sorti comme /\(heardAs)/.",
                it: "«\(word)» sembrava «\(other)»: il \(it) è uscito come /\(heardAs)/.",
                de: "„\(word)“ klang wie „\(other)“: Das \(de) kam als /\(heardAs)/ heraus.",
                es: "«\(word)» sonó como «\(other)»: la \(es) salió como /\(heardAs)/.")
        }
        return LocalizedText(
            en: "The \(en) in “\(word)” sounded like /\(heardAs)/.", fr: "Le \(fr) de « \(word) » ressemblait à /\(heardAs)/.",
            it: "Il \(it) di «\(word)» sembrava /\(heardAs)/.", de: "Das \(de) in „\(word)“ klang wie /\(heardAs)/.",
            es: "La \(es) de «\(word)» sonó como /\(heardAs)/.")
    }

    /// What a learner reads after repeating a phrase, by feedback code.
    public static func speechFeedback(_ code: String) -> LocalizedText {
        switch code {
        case "great":
            LocalizedText(
                en: "Excellent! You said it just right.", fr: "Excellent ! C'était parfait.",
                it: "Eccellente! L'hai detto benissimo.", de: "Ausgezeichnet! Genau richtig gesagt.",
                es: "¡Excelente! Lo has dicho perfectamente.")
        case "good":
            LocalizedText(
                en: "Well done! That was clear.", fr: "Bravo ! C'était clair.", it: "Ben fatto! Era chiaro.",
                de: "Gut gemacht! Das war deutlich.", es: "¡Muy bien! Se ha entendido claramente.")
        case "word_mispronounced":
            LocalizedText(
                en: "Almost: listen again to the highlighted words and try once more.",
                fr: "Presque : réécoutez les mots surlignés et réessayez.",
                it: "Quasi: riascolta le parole evidenziate e riprova.",
                de: "Fast: Hör dir die markierten Wörter noch einmal an und versuch es erneut.",
                es: "Casi: escucha otra vez las palabras resaltadas e inténtalo de nuevo.")
        case "incomplete":
            LocalizedText(
                en: "Some words were missing: say the whole phrase.",
                fr: "Il manquait des mots : dites toute la phrase.",
                it: "Mancavano alcune parole: di' tutta la frase.",
                de: "Es fehlten Wörter: Sag den ganzen Satz.",
                es: "Faltaban palabras: di la frase entera.")
        case "wrong_phrase":
            LocalizedText(
                en: "That did not sound like this phrase. Listen to it and try again.",
                fr: "Cela ne ressemblait pas à cette phrase. Écoutez-la et réessayez.",
                it: "Non sembrava questa frase. Ascoltala e riprova.",
                de: "Das klang nicht nach diesem Satz. Hör ihn dir an und versuch es noch einmal.",
                es: "No sonaba a esta frase. Escúchala e inténtalo de nuevo.")
        default:
            LocalizedText(
                en: "We could not hear you. Speak a little closer to the microphone.",
                fr: "Nous ne vous avons pas entendu. Parlez un peu plus près du micro.",
                it: "Non ti abbiamo sentito. Parla un po' più vicino al microfono.",
                de: "Wir haben dich nicht gehört. Sprich etwas näher am Mikrofon.",
                es: "No te hemos oído. Habla un poco más cerca del micrófono.")
        }
    }

    /// What a learner reads after answering a lesson's question, by
    /// feedback code (recordings use the speech scorer's codes).
    public static func answerFeedback(_ code: String) -> LocalizedText {
        switch code {
        case "correct":
            LocalizedText(
                en: "Correct! Well done.", fr: "Correct ! Bravo.", it: "Giusto! Ben fatto.",
                de: "Richtig! Gut gemacht.", es: "¡Correcto! Muy bien.")
        case "almost":
            LocalizedText(
                en: "Correct! Mind the accents: this is how it is spelt.",
                fr: "Correct ! Attention aux accents : voici l'orthographe.",
                it: "Giusto! Attenzione agli accenti: ecco come si scrive.",
                de: "Richtig! Achte auf die Akzente: So schreibt man es.",
                es: "¡Correcto! Cuidado con los acentos: así se escribe.")
        case "wrong":
            LocalizedText(
                en: "Not quite. Have another try.",
                fr: "Pas tout à fait. Essayez encore.",
                it: "Non proprio. Riprova.",
                de: "Nicht ganz. Versuch es noch einmal.",
                es: "No exactamente. Inténtalo otra vez.")
        default: speechFeedback(code)
        }
    }

    /// What a player reads after turning the second card of a turn, and at the end.
    public static func gameFeedback(_ code: String) -> LocalizedText {
        switch code {
        case "match":
            LocalizedText(
                en: "A pair! Well done.", fr: "Une paire ! Bravo.", it: "Una coppia! Ben fatto.",
                de: "Ein Paar! Gut gemacht.", es: "¡Una pareja! Muy bien.")
        case "mismatch":
            LocalizedText(
                en: "Not a pair. Remember where they are!", fr: "Ce n'est pas une paire. Retenez où elles sont !",
                it: "Non è una coppia. Ricorda dove sono!", de: "Kein Paar. Merk dir, wo sie liegen!",
                es: "No es una pareja. ¡Recuerda dónde están!")
        case "finished":
            LocalizedText(
                en: "All pairs found! Great memory.", fr: "Toutes les paires trouvées ! Belle mémoire.",
                it: "Tutte le coppie trovate! Che memoria.", de: "Alle Paare gefunden! Tolles Gedächtnis.",
                es: "¡Todas las parejas encontradas! Qué memoria.")
        default:
            LocalizedText(
                en: "Now find its partner.", fr: "Trouvez maintenant sa paire.", it: "Ora trova la sua coppia.",
                de: "Jetzt finde das passende Gegenstück.", es: "Ahora encuentra su pareja.")
        }
    }

    /// What a spelling game says after a tile is placed: `placed`, `wrong`,
    /// `spelled` (a word done) or `finished` (every word).
    public static func spellingFeedback(_ code: String) -> LocalizedText {
        switch code {
        case "wrong":
            LocalizedText(
                en: "That letter goes somewhere else. Listen again!", fr: "Cette lettre va ailleurs. Écoute encore !",
                it: "Questa lettera va da un'altra parte. Ascolta di nuovo!", de: "Dieser Buchstabe gehört woanders hin. Hör noch mal!",
                es: "Esa letra va en otro sitio. ¡Escucha otra vez!")
        case "spelled":
            LocalizedText(
                en: "You spelled it! Well done.", fr: "Tu l'as écrit ! Bravo.", it: "L'hai scritta! Ben fatto.",
                de: "Du hast es geschrieben! Gut gemacht.", es: "¡La has escrito! Muy bien.")
        case "finished":
            LocalizedText(
                en: "Every word spelled! Great work.", fr: "Tous les mots sont écrits ! Super travail.",
                it: "Tutte le parole scritte! Ottimo lavoro.", de: "Alle Wörter geschrieben! Toll gemacht.",
                es: "¡Todas las palabras escritas! Buen trabajo.")
        default:
            LocalizedText(
                en: "Yes! That letter goes there.", fr: "Oui ! Cette lettre va là.", it: "Sì! Questa lettera va lì.",
                de: "Ja! Der Buchstabe gehört dahin.", es: "¡Sí! Esa letra va ahí.")
        }
    }

    /// The name a new learner profile gets when none is given: "Learner 2".
    public static func defaultLearnerName(number: Int) -> LocalizedText {
        LocalizedText(
            en: "Learner \(number)", fr: "Apprenant \(number)", it: "Studente \(number)",
            de: "Lernprofil \(number)", es: "Estudiante \(number)")
    }

    /// The title of the checkpoint at the end of a level of the course: "Checkpoint A1".
    public static func checkpoint(_ level: String) -> LocalizedText {
        LocalizedText(
            en: "Checkpoint \(level)", fr: "Bilan \(level)", it: "Verifica \(level)", de: "Zwischentest \(level)",
            es: "Control \(level)")
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

import type { ErrorTranslation } from './error-translation.js';

/** The `errors` namespace in de: one text per {@link ErrorCode}, i18next `{{name}}` interpolation. */
export const errorsDe = {
  required: 'Dieses Feld ist erforderlich.',
  fieldRequired: '{{field}} ist erforderlich.',
  currentPasswordRequired: 'Das aktuelle Passwort ist erforderlich.',
  newPasswordRequired: 'Das neue Passwort ist erforderlich.',
  passwordRequirements: 'Das Passwort erfüllt die Anforderungen nicht.',
  passwordsMustMatch: 'Die Passwörter müssen übereinstimmen.',
  passwordTooShort: 'Das Passwort muss mindestens {{n}} Zeichen lang sein.',
  passwordTooLong: 'Das Passwort darf höchstens {{n}} Zeichen lang sein.',
  passwordCharacterClasses:
    'Muss mindestens einen Großbuchstaben, einen Kleinbuchstaben, eine Ziffer und ein Sonderzeichen enthalten.',
  passwordConsecutive: 'Darf nicht mehr als {{n}} aufeinanderfolgende Zeichen enthalten.',
  passwordInvalidCharacters: 'Darf keine ungültigen Zeichen enthalten.',
  passwordCommon:
    'Dieses Passwort ist zu verbreitet oder tauchte in einem Datenleck auf. Wählen Sie ein anderes.',
  passwordMustDiffer: 'Das neue Passwort muss sich vom aktuellen unterscheiden.',
  currentPasswordIncorrect: 'Das aktuelle Passwort ist falsch.',
  invalidEmail: 'Muss eine gültige E-Mail-Adresse sein.',
  emailRequired: 'Die E-Mail-Adresse ist ein Pflichtfeld.',
  invalidValue: 'Dieser Wert ist ungültig.',
  validationProblem: 'Ein oder mehrere Validierungsfehler sind aufgetreten.',
  validationFailed: 'Bei der Überprüfung sind ein oder mehrere Fehler aufgetreten.',
  sessionTimedOut: 'Ihre Sitzung ist abgelaufen. Bitte versuchen Sie es erneut.',
  deviceRegistrationError:
    'Beim Registrieren Ihres Passkeys ist ein Problem aufgetreten. Bitte versuchen Sie es später erneut.',
  passwordExpired: 'Ihr Passwort ist abgelaufen. Wählen Sie ein neues, um fortzufahren.',
  loggedOutInactivity: 'Sie wurden nach einer Zeit der Inaktivität abgemeldet.',
  loggedOut: 'Sie haben sich abgemeldet.',
  capsLockOn: 'Die Feststelltaste ist aktiviert',
  secureSignInFailed:
    'Wir konnten Sie oder den verwendeten Passkey nicht überprüfen. Versuchen Sie es erneut oder melden Sie sich mit Ihrem Benutzernamen an.',
  invalidCredentials: 'Benutzername oder Passwort ist falsch.',
  tooManyAttempts: 'Zu viele Versuche. Bitte warten Sie einen Moment und versuchen Sie es erneut.',
  accountDisabled: 'Benutzername oder Passwort ist falsch.',
  antiforgeryInvalid:
    'Ihre Anfrage konnte nicht überprüft werden. Bitte laden Sie die Seite neu und versuchen Sie es erneut.',
  invalidReturnUrl: 'Die Rücksprungadresse ist nicht zulässig.',
  localLoginNotAllowed: 'Die Anmeldung mit Passwort ist hier nicht erlaubt.',
  notAuthenticated: 'Sie müssen sich zuerst anmelden.',
  stepNotAllowed: 'Dieser Schritt ist jetzt nicht verfügbar. Bitte beginnen Sie die Anmeldung erneut.',
  captchaRequired: 'Bitte bestätigen Sie, dass Sie ein Mensch sind, um fortzufahren.',
  captchaInvalid: 'Die Prüfung war nicht erfolgreich. Bitte versuchen Sie es erneut.',
  invalidCode: 'Der Code ist ungültig oder abgelaufen. Bitte prüfen Sie ihn und versuchen Sie es erneut.',
  reauthenticationRequired:
    'Melden Sie sich zu Ihrer Sicherheit erneut an, bevor Sie die Einstellungen der Bestätigung in zwei Schritten ändern.',
  recentSignInRequired: 'Melden Sie sich zu Ihrer Sicherheit erneut an, um diese Änderung vorzunehmen.',
  secondFactorRequired:
    'Für die Verwaltungskonsole braucht Ihr Konto die Bestätigung in zwei Schritten oder einen Passkey. Richten Sie eines davon in den Sicherheitseinstellungen Ihres Kontos ein und versuchen Sie es dann erneut.',
  confirmItsYouPasswordFirst: 'Geben Sie zuerst Ihr Passwort ein.',
  confirmItsYouCancelled:
    'Die Änderung wurde nicht vorgenommen, weil Sie nicht bestätigt haben, dass Sie es sind.',
  emailUnchanged: 'Das ist bereits Ihre E-Mail-Adresse.',
  emailNotAvailable: 'Diese E-Mail-Adresse kann nicht verwendet werden. Wählen Sie eine andere.',
  emailChangeLinkInvalid:
    'Dieser Link ist ungültig oder abgelaufen. Fordern Sie auf Ihrer Kontoseite einen neuen an.',
  twoStepMethodExists:
    'Diese Methode ist bereits eingerichtet. Um eine neue zu verwenden, wählen Sie „Ersetzen“.',
  lastTwoStepMethodRequired:
    'Für Ihr Konto ist die Bestätigung in zwei Schritten vorgeschrieben; die letzte Methode kann daher nicht entfernt werden. Fügen Sie zuerst eine andere Methode hinzu.',
  vendorCredentialsOnly:
    'Ihr Konto meldet sich über den Anbieter Ihres Unternehmens an. Passwort und Bestätigung in zwei Schritten werden dort verwaltet.',
  recoveryCodesUnavailable:
    'Diese Wiederherstellungscodes wurden bereits angezeigt oder sind abgelaufen. Erzeugen Sie neue Codes.',
  invalidPhoneNumber: 'Geben Sie die Telefonnummer mit Ländervorwahl ein, zum Beispiel +49 151 23456789.',
  codeNotSent: 'Der Code konnte nicht gesendet werden. Bitte versuchen Sie es in einigen Minuten erneut.',
  oneTimeLinkInvalid:
    'Dieser Anmeldelink ist ungültig, abgelaufen oder wurde bereits verwendet. Fordern Sie einen neuen Code an.',
  oneTimeLinkOtherBrowser:
    'Dieser Anmeldelink funktioniert nur in dem Browser, in dem der Code angefordert wurde. Öffnen Sie ihn dort oder geben Sie dort den Code ein.',
  badRequest: 'Ungültige Anfrage',
  unauthorized: 'Nicht autorisiert',
  forbidden: 'Verboten',
  notFound: 'Nicht gefunden',
  internalServerError: 'Interner Serverfehler',
  badGateway: 'Fehlerhaftes Gateway',
  serviceUnavailable: 'Dienst nicht verfügbar',
  genericError: 'Allgemeiner Fehler',
  unexpectedError: 'Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.',
  offline: 'Sie sind offline. Dafür ist eine Netzwerkverbindung nötig.',
  releaseUnknownVersion: 'Von diesem Remote gibt es keine veröffentlichte Version dieses Namens.',
  releaseIncompatible:
    '{{remote}} {{version}} benötigt {{package}} {{required}}; die Shell stellt {{package}} {{provided}} bereit.',
  releaseAlreadyActive: 'Diese Version ist bereits die aktive.',
  releaseNoCanary: 'Für dieses Remote läuft kein Canary.',
  releaseNoEarlierVersion:
    'Für dieses Remote gibt es keine frühere Version, zu der zurückgekehrt werden kann.',
  // console grants (issue 52, ADR 0063)
  grantUnknownUser: 'Kein Konto hat diesen Benutzernamen.',
  grantUnknownPartner: 'Es gibt keinen Partner mit dieser ID.',
  grantUnknownCustomer: 'Es gibt keinen Kunden mit dieser ID.',
  grantGlobalRole: 'Diese Rolle gilt überall: Lassen Sie Partner und Kunde leer.',
  grantPartnerRequired: 'Der Support braucht den Partner, dessen Personen er hilft.',
  grantSupportTakesNoCustomer: 'Der Support gilt für einen ganzen Partner: Lassen Sie den Kunden leer.',
  grantCustomerRequired: 'Eine Kundenadministration braucht den Kunden, den sie verwaltet.',
  grantCustomerOfAnotherPartner: 'Dieser Kunde gehört zu einem anderen Partner.',
  grantAlreadyGranted: 'Dieses Konto hat diese Berechtigung bereits.',
  grantNotGranted: 'Dieses Konto hat keine solche Berechtigung.',
  grantLastPlatformAdmin: 'Dies ist die letzte Plattformadministration: Ernennen Sie zuerst eine weitere.',
  grantBeyondOwn: 'Sie können nur vergeben, was Sie selbst haben, und nur dort, wo Sie es haben.',
  // partners and applications in the console (issue 52, ADR 0062)
  partnerLogoTooLarge: 'Das Logo darf höchstens {{max}} KB groß sein.',
  partnerLogoType: 'Das Logo muss ein PNG-, JPEG-, WebP- oder SVG-Bild sein.',
  partnerLogoScript:
    'Ein SVG-Logo darf keine Skripte, Ereignis-Handler oder eingebetteten Inhalte enthalten.',
  partnerLanguageUntranslated: 'Für {{language}} gibt es keine Übersetzung der Anmeldeseiten.',
  partnerDefaultLanguageNotOffered: 'Die Standardsprache muss eine der angebotenen Sprachen sein.',
  partnerPasswordMinAboveMax:
    'Die Mindestlänge ({{min}}) darf die Höchstlänge ({{max}}) nicht überschreiten.',
  partnerCaptchaNeedsKeys: 'reCAPTCHA benötigt einen Website-Schlüssel und ein Geheimnis.',
  applicationExists: 'Eine Anwendung mit dieser Client-ID gibt es bereits.',
  applicationRedirectUri: 'Geben Sie absolute http(s)-Adressen ohne Fragment ein, eine pro Zeile.',
  upstreamDiscoveryFailed: 'Das Discovery-Dokument des Anbieters konnte nicht gelesen werden: {{detail}}',
  upstreamRoles:
    'Ein Anbieter eines Dienstleisters braucht mindestens eine Dienstleisterrolle; ein Anmeldeanbieter hat keine.',
  upstreamExists: 'Einen Anbieter mit dieser ID gibt es bereits.',
  upstreamTokenAuthMethod:
    'Der Anbieter führt {{method}} nicht unter seinen Authentifizierungsmethoden am Token-Endpunkt ({{supported}}).',
  upstreamSecretRequired: 'Geben Sie das Client-Secret ein: Nur private_key_jwt kommt ohne aus.',
  // console audit search (issue 52, ADR 0063)
  auditToBeforeFrom: 'Das Enddatum darf nicht vor dem Startdatum liegen.',
  auditOtherPartner: 'Sie können nur die Ereignisse Ihres eigenen Partners durchsuchen.',
  // console bulk import, a bad row's reasons (issue 52, ADR 0063)
  importCsvUnclosedQuote: 'Zeile {{row}}: Ein Feld in Anführungszeichen wird nicht geschlossen.',
  importCsvTextAfterQuote: 'Zeile {{row}}: Nach einem schließenden Anführungszeichen steht noch Text.',
  importCsvQuoteInField: 'Zeile {{row}}: Ein Anführungszeichen steht in einem Feld ohne Anführungszeichen.',
  importEmpty: 'Die Datei ist leer: Eine Kopfzeile ist erforderlich.',
  importNoRows: 'Die Datei hat unter ihrer Kopfzeile keine Zeilen.',
  importUnknownColumn:
    'Zeile {{row}}: Unbekannte Spalte „{{column}}“ (die Spalten sind id, name, partner, username und roles).',
  importMissingColumn: 'Zeile {{row}}: Die Spalte „{{column}}“ fehlt.',
  importColumnTwice: 'Zeile {{row}}: Die Spalte „{{column}}“ kommt zweimal vor.',
  importFieldCount: 'Zeile {{row}}: {{count}} Felder, die Kopfzeile hat aber {{expected}}.',
  importIdEmpty: 'Zeile {{row}}: Die ID ist leer.',
  importIdTooLong: 'Zeile {{row}}: Die ID ist länger als {{max}} Zeichen.',
  importIdCharacters: 'Zeile {{row}}: Die ID „{{id}}“ enthält ein Leerzeichen oder ein Steuerzeichen.',
  importNameEmpty: 'Zeile {{row}}: Der Name ist leer.',
  importNameTooLong: 'Zeile {{row}}: Der Name ist länger als {{max}} Zeichen.',
  importNameCharacters: 'Zeile {{row}}: Der Name enthält ein Steuerzeichen.',
  importUnknownPartner: 'Zeile {{row}}: Es gibt keinen Partner „{{partner}}“.',
  importUnknownUser: 'Zeile {{row}}: Es gibt kein Konto „{{username}}“.',
  importRolesWithoutUser: 'Zeile {{row}}: Rollen sind ohne Benutzernamen angegeben.',
  importUnknownRole:
    'Zeile {{row}}: Unbekannte Rolle „{{role}}“ (1–7 oder EMPLOYEE, MANAGER, VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER, ADMIN, HR_ADMIN).',
  importCustomerExists: 'Zeile {{row}}: Den Kunden „{{id}}“ gibt es bereits.',
  importCustomerDiffers:
    'Zeile {{row}}: Der Kunde „{{id}}“ hat in Zeile {{earlier}} einen anderen Namen oder Partner.',
  importMemberTwice:
    'Zeile {{row}}: „{{username}}“ ist in einer früheren Zeile bereits Mitglied von „{{id}}“.',
  importCustomerTwice: 'Zeile {{row}}: Der Kunde „{{id}}“ steht bereits in Zeile {{earlier}}.',
} as const satisfies ErrorTranslation;

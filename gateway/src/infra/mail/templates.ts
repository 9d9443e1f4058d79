import {
  DEFAULT_LOCALE,
  describeUserAgent,
  escapeHtmlText,
  matchSupportedLocale,
  partnerDisplayName,
  type SupportedLocale,
} from 'shared-contracts';

/** Said to everyone: who the mail is for and which partner's sign-in sent it. */
interface CommonParams {
  /** The partner whose sign-in the user is using; it names the sender in the subject and the text. */
  partnerName: string;
  /** The user's display name for the greeting; a neutral greeting without it. */
  displayName?: string | undefined;
}

/** The parameters of each message kind the sign-in flows send. */
export interface MailParams {
  /** Password recovery: a reset link. */
  recovery: CommonParams & { link: string; expiresInMinutes: number };
  /** An e-mailed PIN as second factor. */
  pin: CommonParams & { pin: string; expiresInMinutes: number };
  /** One-time-token sign-in: a code to type and a link to follow. */
  'one-time-token': CommonParams & { code: string; link: string; expiresInMinutes: number };
  /** Notice after the password changed (reset, expired-password change or account page). */
  'password-changed': CommonParams & { changedAt: Date | number };
  /** A code that confirms the user owns the address. */
  'email-verification': CommonParams & { code: string; expiresInMinutes: number };
  /** A link, sent to a new address, that makes it the account's e-mail address (issue 43, ADR 0036). */
  'email-change': CommonParams & { link: string; expiresInMinutes: number };
  /** Notice after a change in the security centre (ADR 0036): what changed and when. */
  'security-change': CommonParams & { change: SecurityChange; changedAt: Date | number };
  /**
   * Notice, at once, that a way to sign in was added (issue 48, ADR 0042): what, when, from which browser (its
   * user agent summarised: "Chrome on Linux"), and a link to the security centre.
   */
  'sign-in-method-added': CommonParams & {
    method: AddedSignInMethod;
    /** The linked provider's name (`linked-account`). */
    provider?: string | undefined;
    changedAt: Date | number;
    /** The user agent of the browser that added it; null when it sent none. */
    userAgent: string | null;
    /** The security centre (`${PUBLIC_URL}/account/`). */
    link: string;
  };
  /**
   * Sent instead of the link when an e-mail change asks for an address another account uses (issue 48, ADR 0043):
   * nothing changed; no link, no caller-chosen text.
   */
  'email-change-taken': CommonParams;
}

/** The security centre's changes that are mailed to the account (the password has its own `password-changed`). */
export const SECURITY_CHANGES = [
  'two-step-removed',
  'two-step-default',
  'passkey-renamed',
  'passkey-deleted',
  'recovery-codes',
  'sessions-signed-out',
  'remembered-browser-forgotten',
  'remembered-browsers-forgotten',
  'profile-updated',
  'email-changed',
] as const;

/** One of {@link SECURITY_CHANGES}. */
export type SecurityChange = (typeof SECURITY_CHANGES)[number];

interface SecurityChangeText {
  subject: (partner: string) => string;
  changes: Record<SecurityChange, string>;
  when: (date: string) => string;
  ifYou: string;
  ifNot: string;
}

function securityChangeMail(text: SecurityChangeText, v: Values): { subject: string; body: Block[] } {
  return {
    subject: text.subject(v.partner),
    body: [`${text.changes[v.change as SecurityChange]} ${text.when(v.date)}`, text.ifYou, text.ifNot],
  };
}

const SECURITY_CHANGE_EN_GB: SecurityChangeText = {
  subject: (partner) => `Security settings changed for your ${partner} account`,
  changes: {
    'two-step-removed': 'A two-step verification method was removed from your account',
    'two-step-default': 'Your default two-step verification method was changed',
    'passkey-renamed': 'A passkey on your account was renamed',
    'passkey-deleted': 'A passkey was deleted from your account',
    'recovery-codes': 'New recovery codes were created for your account; the old ones no longer work',
    'sessions-signed-out': 'Your account was signed out on other devices',
    'remembered-browser-forgotten':
      'A browser remembered for your account was forgotten: it will ask for two-step verification again',
    'remembered-browsers-forgotten':
      'Every browser remembered for your account was forgotten: each will ask for two-step verification again',
    'profile-updated': 'Your profile was updated',
    'email-changed': 'The email address of your account was changed to another address',
  },
  when: (date) => `on ${date}.`,
  ifYou: 'If this was you, there’s nothing more to do.',
  ifNot: 'If it wasn’t, reset your password straight away and contact your organisation’s support team.',
};

const SECURITY_CHANGE_DE: SecurityChangeText = {
  subject: (partner) => `Sicherheitseinstellungen Ihres Kontos bei ${partner} geändert`,
  changes: {
    'two-step-removed': 'eine Methode der Bestätigung in zwei Schritten wurde aus Ihrem Konto entfernt',
    'two-step-default': 'Ihre Standardmethode der Bestätigung in zwei Schritten wurde geändert',
    'passkey-renamed': 'ein Passkey Ihres Kontos wurde umbenannt',
    'passkey-deleted': 'ein Passkey wurde aus Ihrem Konto gelöscht',
    'recovery-codes':
      'für Ihr Konto wurden neue Wiederherstellungscodes erstellt; die alten funktionieren nicht mehr',
    'sessions-signed-out': 'Ihr Konto wurde auf anderen Geräten abgemeldet',
    'remembered-browser-forgotten':
      'ein für Ihr Konto gespeicherter Browser wurde vergessen; er fragt wieder nach der Bestätigung in zwei Schritten',
    'remembered-browsers-forgotten':
      'alle für Ihr Konto gespeicherten Browser wurden vergessen; jeder fragt wieder nach der Bestätigung in zwei Schritten',
    'profile-updated': 'Ihr Profil wurde aktualisiert',
    'email-changed': 'die E-Mail-Adresse Ihres Kontos wurde in eine andere Adresse geändert',
  },
  when: (date) => `(am ${date}).`,
  ifYou: 'Wenn Sie das selbst waren, müssen Sie nichts weiter tun.',
  ifNot:
    'Andernfalls setzen Sie Ihr Passwort bitte sofort zurück und wenden Sie sich an den Support Ihrer Organisation.',
};

const SECURITY_CHANGE_FR_CA: SecurityChangeText = {
  subject: (partner) => `Paramètres de sécurité modifiés pour votre compte ${partner}`,
  changes: {
    'two-step-removed': 'Une méthode de vérification en deux étapes a été retirée de votre compte',
    'two-step-default': 'Votre méthode de vérification en deux étapes par défaut a été modifiée',
    'passkey-renamed': 'Une clé d’accès de votre compte a été renommée',
    'passkey-deleted': 'Une clé d’accès a été supprimée de votre compte',
    'recovery-codes':
      'De nouveaux codes de récupération ont été créés pour votre compte; les anciens ne fonctionnent plus',
    'sessions-signed-out': 'Votre compte a été déconnecté sur les autres appareils',
    'remembered-browser-forgotten':
      'Un navigateur mémorisé pour votre compte a été oublié; il demandera de nouveau la vérification en deux étapes',
    'remembered-browsers-forgotten':
      'Tous les navigateurs mémorisés pour votre compte ont été oubliés; chacun demandera de nouveau la vérification en deux étapes',
    'profile-updated': 'Votre profil a été mis à jour',
    'email-changed': 'L’adresse courriel de votre compte a été remplacée par une autre adresse',
  },
  when: (date) => `le ${date}.`,
  ifYou: 'Si c’était vous, vous n’avez rien d’autre à faire.',
  ifNot:
    'Sinon, réinitialisez votre mot de passe immédiatement et communiquez avec le soutien technique de votre organisation.',
};

const SECURITY_CHANGE_ES: SecurityChangeText = {
  subject: (partner) => `Se ha cambiado la configuración de seguridad de su cuenta de ${partner}`,
  changes: {
    'two-step-removed': 'Se quitó un método de verificación en dos pasos de su cuenta',
    'two-step-default': 'Se cambió su método predeterminado de verificación en dos pasos',
    'passkey-renamed': 'Se cambió el nombre de una llave de acceso de su cuenta',
    'passkey-deleted': 'Se eliminó una llave de acceso de su cuenta',
    'recovery-codes':
      'Se crearon nuevos códigos de recuperación para su cuenta; los anteriores ya no funcionan',
    'sessions-signed-out': 'Se cerró la sesión de su cuenta en otros dispositivos',
    'remembered-browser-forgotten':
      'Se olvidó un navegador recordado para su cuenta; volverá a pedir la verificación en dos pasos',
    'remembered-browsers-forgotten':
      'Se olvidaron todos los navegadores recordados para su cuenta; cada uno volverá a pedir la verificación en dos pasos',
    'profile-updated': 'Se actualizó su perfil',
    'email-changed': 'Se cambió la dirección de correo electrónico de su cuenta por otra dirección',
  },
  when: (date) => `el ${date}.`,
  ifYou: 'Si fue usted, no tiene que hacer nada más.',
  ifNot:
    'Si no fue usted, restablezca su contraseña de inmediato y póngase en contacto con el soporte de su organización.',
};

/** The ways to sign in whose addition is mailed at once (`sign-in-method-added`, ADR 0042). */
export const ADDED_SIGN_IN_METHODS = [
  'passkey',
  'authenticator',
  'sms',
  'pin',
  'recovery-codes',
  'linked-account',
] as const;

/** One of {@link ADDED_SIGN_IN_METHODS}. */
export type AddedSignInMethod = (typeof ADDED_SIGN_IN_METHODS)[number];

interface MethodAddedText {
  subject: (partner: string) => string;
  methods: Record<AddedSignInMethod, (provider: string) => string>;
  browser: (agent: { browser: string; os: string } | undefined) => string;
  added: (what: string, date: string, browser: string) => string;
  review: string;
  ifYou: string;
  ifNot: string;
}

function methodAddedMail(text: MethodAddedText, v: Values): { subject: string; body: Block[] } {
  const what = text.methods[v.method as AddedSignInMethod](v.provider);
  return {
    subject: text.subject(v.partner),
    body: [
      text.added(what, v.date, text.browser(describeUserAgent(v.userAgent || null))),
      { link: v.link, label: text.review },
      text.ifYou,
      text.ifNot,
    ],
  };
}

const METHOD_ADDED_EN_GB: MethodAddedText = {
  subject: (partner) => `A new way to sign in was added to your ${partner} account`,
  methods: {
    passkey: () => 'a passkey',
    authenticator: () => 'an authenticator app for two-step verification',
    sms: () => 'text message (SMS) codes for two-step verification',
    pin: () => 'a PIN by email for two-step verification',
    'recovery-codes': () => 'a new set of recovery codes',
    'linked-account': (provider) => `sign-in with ${provider}`,
  },
  browser: (agent) => (agent ? `${agent.browser} on ${agent.os}` : 'an unknown browser'),
  added: (what, date, browser) => `Added to your account on ${date}, from ${browser}: ${what}.`,
  review: 'Review your security settings',
  ifYou: 'If this was you, there’s nothing more to do.',
  ifNot:
    'If it wasn’t, remove it in your security settings, reset your password straight away and contact your organisation’s support team.',
};

const METHOD_ADDED_EN: MethodAddedText = {
  ...METHOD_ADDED_EN_GB,
  ifNot:
    'If it wasn’t, remove it in your security settings, reset your password right away and contact your organization’s support team.',
};

const METHOD_ADDED_DE: MethodAddedText = {
  subject: (partner) => `Neue Anmeldemöglichkeit für Ihr Konto bei ${partner}`,
  methods: {
    passkey: () => 'ein Passkey',
    authenticator: () => 'eine Authenticator-App für die Bestätigung in zwei Schritten',
    sms: () => 'Codes per SMS für die Bestätigung in zwei Schritten',
    pin: () => 'eine PIN per E-Mail für die Bestätigung in zwei Schritten',
    'recovery-codes': () => 'neue Wiederherstellungscodes',
    'linked-account': (provider) => `die Anmeldung über ${provider}`,
  },
  browser: (agent) => (agent ? `${agent.browser} unter ${agent.os}` : 'einem unbekannten Browser'),
  added: (what, date, browser) =>
    `am ${date} wurde Ihrem Konto von ${browser} aus Folgendes hinzugefügt: ${what}.`,
  review: 'Sicherheitseinstellungen prüfen',
  ifYou: 'Wenn Sie das selbst waren, müssen Sie nichts weiter tun.',
  ifNot:
    'Andernfalls entfernen Sie es in Ihren Sicherheitseinstellungen, setzen Sie Ihr Passwort sofort zurück und wenden Sie sich an den Support Ihrer Organisation.',
};

const METHOD_ADDED_FR_CA: MethodAddedText = {
  subject: (partner) => `Une nouvelle façon de vous connecter a été ajoutée à votre compte ${partner}`,
  methods: {
    passkey: () => 'une clé d’accès',
    authenticator: () => 'une application d’authentification pour la vérification en deux étapes',
    sms: () => 'des codes par texto pour la vérification en deux étapes',
    pin: () => 'un NIP par courriel pour la vérification en deux étapes',
    'recovery-codes': () => 'de nouveaux codes de récupération',
    'linked-account': (provider) => `la connexion avec ${provider}`,
  },
  browser: (agent) => (agent ? `${agent.browser} sur ${agent.os}` : 'un navigateur inconnu'),
  added: (what, date, browser) => `Ajouté à votre compte le ${date}, depuis ${browser} : ${what}.`,
  review: 'Vérifier vos paramètres de sécurité',
  ifYou: 'Si c’était vous, vous n’avez rien d’autre à faire.',
  ifNot:
    'Sinon, retirez-le dans vos paramètres de sécurité, réinitialisez votre mot de passe immédiatement et communiquez avec le soutien technique de votre organisation.',
};

const METHOD_ADDED_ES: MethodAddedText = {
  subject: (partner) => `Se agregó una nueva forma de iniciar sesión a su cuenta de ${partner}`,
  methods: {
    passkey: () => 'una llave de acceso',
    authenticator: () => 'una aplicación de autenticación para la verificación en dos pasos',
    sms: () => 'códigos por SMS para la verificación en dos pasos',
    pin: () => 'un PIN por correo electrónico para la verificación en dos pasos',
    'recovery-codes': () => 'nuevos códigos de recuperación',
    'linked-account': (provider) => `el inicio de sesión con ${provider}`,
  },
  browser: (agent) => (agent ? `${agent.browser} en ${agent.os}` : 'un navegador desconocido'),
  added: (what, date, browser) => `Se agregó a su cuenta el ${date}, desde ${browser}: ${what}.`,
  review: 'Revisar su configuración de seguridad',
  ifYou: 'Si fue usted, no tiene que hacer nada más.',
  ifNot:
    'Si no fue usted, quítelo en su configuración de seguridad, restablezca su contraseña de inmediato y póngase en contacto con el soporte de su organización.',
};

/** The kinds of mail in the catalogue. */
export type MailKind = keyof MailParams;

/** Every kind, for tests and for listing. */
export const MAIL_KINDS = [
  'recovery',
  'pin',
  'one-time-token',
  'password-changed',
  'email-verification',
  'email-change',
  'security-change',
  'sign-in-method-added',
  'email-change-taken',
] as const satisfies readonly MailKind[];

/** A message ready for a {@link Mailer}: the same content as plain text and as HTML. */
export interface RenderedMail {
  /** The locale actually used (the asked one, its language, or en-GB). */
  locale: SupportedLocale;
  subject: string;
  text: string;
  html: string;
}

// A message body is a list of blocks; one renderer turns them into text and (escaped) HTML, so the two parts never
// say different things.
type Block = string | { code: string } | { link: string; label: string };

interface Values {
  partner: string;
  name: string | undefined;
  minutes: string;
  date: string;
  code: string;
  link: string;
  change: string;
  /** `sign-in-method-added`: the method, the linked provider's name, the adding browser's user agent. */
  method: string;
  provider: string;
  userAgent: string;
}

interface LocaleText {
  greeting(name: string | undefined): string;
  signOff: string;
  automated: string;
  /** How a link is introduced in the plain-text part, where it cannot be a button. */
  linkFallback: string;
  /** The colon after a label: French puts a space before it. */
  colon: string;
  minutes(n: number): string;
  messages: { [K in MailKind]: (v: Values) => { subject: string; body: Block[] } };
}

const EN_GB: LocaleText = {
  greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
  signOff: 'Kind regards,',
  automated: 'This is an automated message – please don’t reply to it.',
  linkFallback: 'If the button doesn’t work, copy this address into your browser:',
  colon: ':',
  minutes: (n) => (n === 1 ? '1 minute' : `${n} minutes`),
  messages: {
    recovery: (v) => ({
      subject: `Reset your ${v.partner} password`,
      body: [
        `We received a request to reset the password for your ${v.partner} account.`,
        { link: v.link, label: 'Reset password' },
        `The link works once and expires in ${v.minutes}.`,
        'If you didn’t ask for this, you can ignore this email – your password won’t change.',
      ],
    }),
    pin: (v) => ({
      subject: `Your ${v.partner} sign-in PIN`,
      body: [
        `Use this PIN to finish signing in to ${v.partner}:`,
        { code: v.code },
        `It expires in ${v.minutes} and works once.`,
        'If you aren’t signing in right now, someone may know your password – please change it as soon as possible.',
      ],
    }),
    'one-time-token': (v) => ({
      subject: `Your ${v.partner} sign-in code`,
      body: [
        `Here is your one-time code for signing in to ${v.partner}:`,
        { code: v.code },
        'Or sign in directly with this link:',
        { link: v.link, label: 'Sign in' },
        `The code and the link expire in ${v.minutes} and work once.`,
        'If you didn’t ask for this, you can ignore this email.',
      ],
    }),
    'password-changed': (v) => ({
      subject: `Your ${v.partner} password was changed`,
      body: [
        `The password for your ${v.partner} account was changed on ${v.date}.`,
        'If this was you, there’s nothing more to do.',
        'If it wasn’t, reset your password straight away and contact your organisation’s support team.',
      ],
    }),
    'email-verification': (v) => ({
      subject: `Confirm your email address for ${v.partner}`,
      body: [
        `Enter this code in ${v.partner} to confirm your email address:`,
        { code: v.code },
        `It expires in ${v.minutes}.`,
        'If you didn’t ask for this, you can ignore this email.',
      ],
    }),
    'email-change': (v) => ({
      subject: `Confirm your new email address for ${v.partner}`,
      body: [
        `Someone asked to make this the email address of a ${v.partner} account. Confirm it with this link:`,
        { link: v.link, label: 'Confirm email address' },
        `The link works once and expires in ${v.minutes}. Until then the account keeps its old address.`,
        'If you didn’t ask for this, you can ignore this email.',
      ],
    }),
    'security-change': (v) => securityChangeMail(SECURITY_CHANGE_EN_GB, v),
    'sign-in-method-added': (v) => methodAddedMail(METHOD_ADDED_EN_GB, v),
    'email-change-taken': (v) => ({
      subject: `Someone tried to use your email address at ${v.partner}`,
      body: [
        `Someone asked to make this the email address of another ${v.partner} account. This address already belongs to an account, so nothing was changed and no link was sent.`,
        'If this was you, use another address for the other account. If it wasn’t, you can ignore this email – your account is not affected.',
      ],
    }),
  },
};

// American English: the same messages with US punctuation, spelling and tone.
const EN: LocaleText = {
  ...EN_GB,
  greeting: (name) => (name ? `Hi ${name},` : 'Hi,'),
  signOff: 'Best regards,',
  automated: 'This is an automated message—please don’t reply to it.',
  messages: {
    ...EN_GB.messages,
    recovery: (v) => ({
      subject: `Reset your ${v.partner} password`,
      body: [
        `We received a request to reset the password for your ${v.partner} account.`,
        { link: v.link, label: 'Reset password' },
        `The link works once and expires in ${v.minutes}.`,
        'If you didn’t ask for this, you can ignore this email—your password won’t change.',
      ],
    }),
    pin: (v) => ({
      subject: `Your ${v.partner} sign-in PIN`,
      body: [
        `Use this PIN to finish signing in to ${v.partner}:`,
        { code: v.code },
        `It expires in ${v.minutes} and works once.`,
        'If you aren’t signing in right now, someone may know your password—please change it as soon as possible.',
      ],
    }),
    'password-changed': (v) => ({
      subject: `Your ${v.partner} password was changed`,
      body: [
        `The password for your ${v.partner} account was changed on ${v.date}.`,
        'If this was you, there’s nothing more to do.',
        'If it wasn’t, reset your password right away and contact your organization’s support team.',
      ],
    }),
    'sign-in-method-added': (v) => methodAddedMail(METHOD_ADDED_EN, v),
    'email-change-taken': (v) => ({
      subject: `Someone tried to use your email address at ${v.partner}`,
      body: [
        `Someone asked to make this the email address of another ${v.partner} account. This address already belongs to an account, so nothing was changed and no link was sent.`,
        'If this was you, use another address for the other account. If it wasn’t, you can ignore this email—your account is not affected.',
      ],
    }),
  },
};

// Formal "Sie", as German business mail is. After the greeting's comma the first sentence starts in lower case.
const DE: LocaleText = {
  greeting: (name) => (name ? `Hallo ${name},` : 'Guten Tag,'),
  signOff: 'Freundliche Grüße',
  automated: 'Dies ist eine automatisch erstellte Nachricht. Bitte antworten Sie nicht darauf.',
  linkFallback: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diese Adresse in Ihren Browser:',
  colon: ':',
  minutes: (n) => (n === 1 ? '1 Minute' : `${n} Minuten`),
  messages: {
    recovery: (v) => ({
      subject: `Passwort für ${v.partner} zurücksetzen`,
      body: [
        `wir haben eine Anfrage erhalten, das Passwort Ihres Kontos bei ${v.partner} zurückzusetzen.`,
        { link: v.link, label: 'Passwort zurücksetzen' },
        `Der Link kann nur einmal verwendet werden und läuft in ${v.minutes} ab.`,
        'Falls Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren – Ihr Passwort bleibt unverändert.',
      ],
    }),
    pin: (v) => ({
      subject: `Ihre Anmelde-PIN für ${v.partner}`,
      body: [
        `mit dieser PIN schließen Sie die Anmeldung bei ${v.partner} ab:`,
        { code: v.code },
        `Sie ist ${v.minutes} gültig und kann nur einmal verwendet werden.`,
        'Falls Sie sich gerade nicht anmelden, kennt möglicherweise jemand Ihr Passwort. Bitte ändern Sie es so bald wie möglich.',
      ],
    }),
    'one-time-token': (v) => ({
      subject: `Ihr Anmeldecode für ${v.partner}`,
      body: [
        `hier ist Ihr Einmalcode für die Anmeldung bei ${v.partner}:`,
        { code: v.code },
        'Oder melden Sie sich direkt über diesen Link an:',
        { link: v.link, label: 'Anmelden' },
        `Code und Link sind ${v.minutes} gültig und funktionieren nur einmal.`,
        'Falls Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren.',
      ],
    }),
    'password-changed': (v) => ({
      subject: `Ihr Passwort für ${v.partner} wurde geändert`,
      body: [
        `das Passwort Ihres Kontos bei ${v.partner} wurde am ${v.date} geändert.`,
        'Wenn Sie das selbst waren, müssen Sie nichts weiter tun.',
        'Andernfalls setzen Sie Ihr Passwort bitte sofort zurück und wenden Sie sich an den Support Ihrer Organisation.',
      ],
    }),
    'email-verification': (v) => ({
      subject: `Bestätigen Sie Ihre E-Mail-Adresse für ${v.partner}`,
      body: [
        `geben Sie diesen Code bei ${v.partner} ein, um Ihre E-Mail-Adresse zu bestätigen:`,
        { code: v.code },
        `Er ist ${v.minutes} gültig.`,
        'Falls Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren.',
      ],
    }),
    'email-change': (v) => ({
      subject: `Bestätigen Sie Ihre neue E-Mail-Adresse bei ${v.partner}`,
      body: [
        `Jemand möchte diese Adresse zur E-Mail-Adresse eines Kontos bei ${v.partner} machen. Bestätigen Sie sie mit diesem Link:`,
        { link: v.link, label: 'E-Mail-Adresse bestätigen' },
        `Der Link funktioniert einmal und läuft in ${v.minutes} ab. Bis dahin behält das Konto seine bisherige Adresse.`,
        'Wenn Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren.',
      ],
    }),
    'security-change': (v) => securityChangeMail(SECURITY_CHANGE_DE, v),
    'sign-in-method-added': (v) => methodAddedMail(METHOD_ADDED_DE, v),
    'email-change-taken': (v) => ({
      subject: `Jemand wollte Ihre E-Mail-Adresse bei ${v.partner} verwenden`,
      body: [
        `jemand möchte diese Adresse zur E-Mail-Adresse eines anderen Kontos bei ${v.partner} machen. Die Adresse gehört bereits zu einem Konto; deshalb wurde nichts geändert und kein Link gesendet.`,
        'Wenn Sie das waren, verwenden Sie für das andere Konto eine andere Adresse. Andernfalls können Sie diese E-Mail ignorieren – Ihr Konto ist nicht betroffen.',
      ],
    }),
  },
};

// Québec usage: "courriel", "NIP" for PIN, "communiquer avec"; a space before the colon, none before ! and ?.
const FR_CA: LocaleText = {
  greeting: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
  signOff: 'Cordialement,',
  automated: 'Ce message a été envoyé automatiquement. Merci de ne pas y répondre.',
  linkFallback: 'Si le bouton ne fonctionne pas, copiez cette adresse dans votre navigateur :',
  colon: ' :',
  minutes: (n) => (n === 1 ? '1 minute' : `${n} minutes`),
  messages: {
    recovery: (v) => ({
      subject: `Réinitialisation de votre mot de passe ${v.partner}`,
      body: [
        `Nous avons reçu une demande de réinitialisation du mot de passe de votre compte ${v.partner}.`,
        { link: v.link, label: 'Réinitialiser le mot de passe' },
        `Ce lien ne peut être utilisé qu’une seule fois et expire dans ${v.minutes}.`,
        'Si vous n’avez pas fait cette demande, vous pouvez ignorer ce courriel : votre mot de passe reste inchangé.',
      ],
    }),
    pin: (v) => ({
      subject: `Votre NIP de connexion ${v.partner}`,
      body: [
        `Utilisez ce NIP pour terminer votre connexion à ${v.partner} :`,
        { code: v.code },
        `Il expire dans ${v.minutes} et ne peut être utilisé qu’une seule fois.`,
        'Si vous n’êtes pas en train de vous connecter, quelqu’un connaît peut-être votre mot de passe : changez-le dès que possible.',
      ],
    }),
    'one-time-token': (v) => ({
      subject: `Votre code de connexion ${v.partner}`,
      body: [
        `Voici votre code à usage unique pour vous connecter à ${v.partner} :`,
        { code: v.code },
        'Vous pouvez aussi vous connecter directement avec ce lien :',
        { link: v.link, label: 'Se connecter' },
        `Le code et le lien expirent dans ${v.minutes} et ne fonctionnent qu’une seule fois.`,
        'Si vous n’avez pas fait cette demande, vous pouvez ignorer ce courriel.',
      ],
    }),
    'password-changed': (v) => ({
      subject: `Le mot de passe de votre compte ${v.partner} a été modifié`,
      body: [
        `Le mot de passe de votre compte ${v.partner} a été modifié le ${v.date}.`,
        'Si c’était vous, vous n’avez rien d’autre à faire.',
        'Sinon, réinitialisez votre mot de passe immédiatement et communiquez avec le soutien technique de votre organisation.',
      ],
    }),
    'email-verification': (v) => ({
      subject: `Confirmez votre adresse courriel pour ${v.partner}`,
      body: [
        `Entrez ce code dans ${v.partner} pour confirmer votre adresse courriel :`,
        { code: v.code },
        `Il expire dans ${v.minutes}.`,
        'Si vous n’avez pas fait cette demande, vous pouvez ignorer ce courriel.',
      ],
    }),
    'email-change': (v) => ({
      subject: `Confirmez votre nouvelle adresse courriel pour ${v.partner}`,
      body: [
        `Quelqu’un a demandé que cette adresse devienne l’adresse courriel d’un compte ${v.partner}. Confirmez-la avec ce lien :`,
        { link: v.link, label: 'Confirmer l’adresse courriel' },
        `Le lien fonctionne une seule fois et expire dans ${v.minutes}. D’ici là, le compte garde son ancienne adresse.`,
        'Si vous n’avez rien demandé, vous pouvez ignorer ce courriel.',
      ],
    }),
    'security-change': (v) => securityChangeMail(SECURITY_CHANGE_FR_CA, v),
    'sign-in-method-added': (v) => methodAddedMail(METHOD_ADDED_FR_CA, v),
    'email-change-taken': (v) => ({
      subject: `Quelqu’un a voulu utiliser votre adresse courriel chez ${v.partner}`,
      body: [
        `Quelqu’un a demandé que cette adresse devienne l’adresse courriel d’un autre compte ${v.partner}. Cette adresse appartient déjà à un compte : rien n’a été changé et aucun lien n’a été envoyé.`,
        'Si c’était vous, utilisez une autre adresse pour l’autre compte. Sinon, vous pouvez ignorer ce courriel : votre compte n’est pas touché.',
      ],
    }),
  },
};

// Formal "usted"; the Spanish letter greeting ends with a colon.
const ES: LocaleText = {
  greeting: (name) => (name ? `Hola, ${name}:` : 'Hola:'),
  signOff: 'Saludos cordiales,',
  automated: 'Este es un mensaje automático. Por favor, no responda a este correo.',
  linkFallback: 'Si el botón no funciona, copie esta dirección en su navegador:',
  colon: ':',
  minutes: (n) => (n === 1 ? '1 minuto' : `${n} minutos`),
  messages: {
    recovery: (v) => ({
      subject: `Restablecer la contraseña de ${v.partner}`,
      body: [
        `Hemos recibido una solicitud para restablecer la contraseña de su cuenta de ${v.partner}.`,
        { link: v.link, label: 'Restablecer contraseña' },
        `El enlace solo puede usarse una vez y caduca en ${v.minutes}.`,
        'Si no ha solicitado este cambio, puede ignorar este correo: su contraseña seguirá siendo la misma.',
      ],
    }),
    pin: (v) => ({
      subject: `Su PIN de inicio de sesión en ${v.partner}`,
      body: [
        `Use este PIN para completar el inicio de sesión en ${v.partner}:`,
        { code: v.code },
        `Caduca en ${v.minutes} y solo puede usarse una vez.`,
        'Si no está intentando iniciar sesión, es posible que alguien conozca su contraseña: cámbiela lo antes posible.',
      ],
    }),
    'one-time-token': (v) => ({
      subject: `Su código de inicio de sesión en ${v.partner}`,
      body: [
        `Este es su código de un solo uso para iniciar sesión en ${v.partner}:`,
        { code: v.code },
        'También puede iniciar sesión directamente con este enlace:',
        { link: v.link, label: 'Iniciar sesión' },
        `El código y el enlace caducan en ${v.minutes} y solo funcionan una vez.`,
        'Si no lo ha solicitado, puede ignorar este correo.',
      ],
    }),
    'password-changed': (v) => ({
      subject: `Se ha cambiado la contraseña de su cuenta de ${v.partner}`,
      body: [
        `La contraseña de su cuenta de ${v.partner} se cambió el ${v.date}.`,
        'Si fue usted, no tiene que hacer nada más.',
        'Si no fue usted, restablezca su contraseña de inmediato y póngase en contacto con el soporte de su organización.',
      ],
    }),
    'email-verification': (v) => ({
      subject: `Confirme su dirección de correo electrónico para ${v.partner}`,
      body: [
        `Introduzca este código en ${v.partner} para confirmar su dirección de correo electrónico:`,
        { code: v.code },
        `Caduca en ${v.minutes}.`,
        'Si no lo ha solicitado, puede ignorar este correo.',
      ],
    }),
    'email-change': (v) => ({
      subject: `Confirme su nueva dirección de correo electrónico para ${v.partner}`,
      body: [
        `Alguien pidió que esta sea la dirección de correo electrónico de una cuenta de ${v.partner}. Confírmela con este enlace:`,
        { link: v.link, label: 'Confirmar la dirección de correo electrónico' },
        `El enlace funciona una vez y caduca en ${v.minutes}. Hasta entonces la cuenta conserva su dirección anterior.`,
        'Si no lo pidió, puede ignorar este correo electrónico.',
      ],
    }),
    'security-change': (v) => securityChangeMail(SECURITY_CHANGE_ES, v),
    'sign-in-method-added': (v) => methodAddedMail(METHOD_ADDED_ES, v),
    'email-change-taken': (v) => ({
      subject: `Alguien intentó usar su dirección de correo electrónico en ${v.partner}`,
      body: [
        `Alguien pidió que esta sea la dirección de correo electrónico de otra cuenta de ${v.partner}. Esta dirección ya pertenece a una cuenta, así que no se cambió nada y no se envió ningún enlace.`,
        'Si fue usted, use otra dirección para la otra cuenta. Si no, puede ignorar este correo electrónico: su cuenta no se ve afectada.',
      ],
    }),
  },
};

const CATALOGUE: Record<SupportedLocale, LocaleText> = {
  'en-GB': EN_GB,
  en: EN,
  de: DE,
  'fr-CA': FR_CA,
  es: ES,
};

/**
 * Renders one message of the catalogue in the asked locale (its language, else en-GB). Values are plain text: they
 * are HTML-escaped in the HTML part. Throws a TypeError naming the bad parameter (a link that is not http(s), an
 * empty code, a non-positive expiry).
 */
export function renderMail<K extends MailKind>(
  kind: K,
  locale: string | undefined,
  params: MailParams[K],
): RenderedMail {
  const template = CATALOGUE[DEFAULT_LOCALE].messages[kind] as LocaleText['messages'][MailKind] | undefined;
  if (!template) throw new TypeError(`unknown mail kind: ${String(kind)}`);
  const used = matchSupportedLocale(locale) ?? DEFAULT_LOCALE;
  const text = CATALOGUE[used];
  const values = valuesOf(kind, used, text, params);
  const message = text.messages[kind](values);
  const subject = message.subject;
  const signature = [text.signOff, values.partner];
  return {
    locale: used,
    subject,
    text: renderText(text, values.name, message.body, signature),
    html: renderHtml(used, subject, text, values.name, message.body, signature),
  };
}

function valuesOf(kind: MailKind, locale: SupportedLocale, text: LocaleText, params: unknown): Values {
  if (typeof params !== 'object' || params === null) throw new TypeError(`mail ${kind}: parameters missing`);
  const p = params as Record<string, unknown>;
  if (typeof p.partnerName !== 'string' || p.partnerName.trim() === '')
    throw new TypeError(`mail ${kind}: partnerName is required`);
  const name = typeof p.displayName === 'string' ? partnerDisplayName(p.displayName, '') : '';
  const values: Values = {
    // One line, no control characters: the name goes into the Subject header too.
    partner: partnerDisplayName(p.partnerName),
    name: name === '' ? undefined : name,
    minutes: '',
    date: '',
    code: '',
    link: '',
    change: '',
    method: '',
    provider: '',
    userAgent: '',
  };
  if (
    kind !== 'password-changed' &&
    kind !== 'security-change' &&
    kind !== 'sign-in-method-added' &&
    kind !== 'email-change-taken'
  ) {
    const n = p.expiresInMinutes;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
      throw new TypeError(`mail ${kind}: expiresInMinutes must be a whole number of minutes, at least 1`);
    values.minutes = text.minutes(n);
  }
  if (kind === 'pin') values.code = codeOf(kind, 'pin', p.pin);
  if (kind === 'one-time-token' || kind === 'email-verification') values.code = codeOf(kind, 'code', p.code);
  if (kind === 'recovery' || kind === 'one-time-token' || kind === 'email-change')
    values.link = linkOf(kind, p.link);
  if (kind === 'password-changed' || kind === 'security-change')
    values.date = dateOf(kind, locale, p.changedAt);
  if (kind === 'security-change') {
    if (!SECURITY_CHANGES.includes(p.change as SecurityChange))
      throw new TypeError(`mail ${kind}: change must be one of ${SECURITY_CHANGES.join(', ')}`);
    values.change = p.change as SecurityChange;
  }
  if (kind === 'sign-in-method-added') {
    if (!ADDED_SIGN_IN_METHODS.includes(p.method as AddedSignInMethod))
      throw new TypeError(`mail ${kind}: method must be one of ${ADDED_SIGN_IN_METHODS.join(', ')}`);
    values.method = p.method as AddedSignInMethod;
    values.date = dateOf(kind, locale, p.changedAt);
    values.link = linkOf(kind, p.link);
    // One line, no control characters: an administrator's provider name and the browser's own header.
    values.provider = typeof p.provider === 'string' ? partnerDisplayName(p.provider, '') : '';
    values.userAgent = typeof p.userAgent === 'string' ? p.userAgent.slice(0, 512) : '';
  }
  return values;
}

function codeOf(kind: MailKind, field: string, value: unknown): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a code must not hold
  if (typeof value !== 'string' || !/^[^\u0000-\u001f\u007f]{1,64}$/.test(value) || value.trim() === '')
    throw new TypeError(`mail ${kind}: ${field} must be 1 to 64 printable characters`);
  return value;
}

function linkOf(kind: MailKind, value: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  // Only web links: a javascript: or data: URL in a mail button would run in whatever opens it.
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new TypeError(`mail ${kind}: link must be an absolute http(s) URL`);
  return url.href;
}

function dateOf(kind: MailKind, locale: SupportedLocale, value: unknown): string {
  const date = value instanceof Date ? value : typeof value === 'number' ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime()))
    throw new TypeError(`mail ${kind}: changedAt must be a Date or epoch milliseconds`);
  // The server does not know the reader's time zone; UTC, said out loud, is never silently wrong.
  const formatted = new Intl.DateTimeFormat(locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(date);
  return `${formatted} UTC`;
}

function renderText(text: LocaleText, name: string | undefined, body: Block[], signature: string[]): string {
  const parts = [text.greeting(name)];
  for (const block of body) {
    if (typeof block === 'string') parts.push(block);
    else if ('code' in block) parts.push(`    ${block.code}`);
    else parts.push(`${block.label}${text.colon}\n${block.link}`);
  }
  parts.push(signature.join('\n'), `--\n${text.automated}`);
  return `${parts.join('\n\n')}\n`;
}

function renderHtml(
  locale: SupportedLocale,
  subject: string,
  text: LocaleText,
  name: string | undefined,
  body: Block[],
  signature: string[],
): string {
  const e = escapeHtmlText;
  const paragraph = (inner: string, style = 'margin:0 0 16px') => `<p style="${style}">${inner}</p>`;
  const rows = [paragraph(e(text.greeting(name)))];
  for (const block of body) {
    if (typeof block === 'string') rows.push(paragraph(e(block)));
    else if ('code' in block)
      rows.push(
        paragraph(
          e(block.code),
          'margin:0 0 16px;font-family:Consolas,Menlo,monospace;font-size:24px;font-weight:bold;letter-spacing:4px',
        ),
      );
    else
      rows.push(
        paragraph(
          `<a href="${e(block.link)}" style="display:inline-block;padding:10px 20px;background:#1f4e9c;color:#ffffff;text-decoration:none;border-radius:4px">${e(block.label)}</a>`,
        ),
        paragraph(
          `${e(text.linkFallback)}<br><a href="${e(block.link)}">${e(block.link)}</a>`,
          'margin:0 0 16px;font-size:13px;color:#555555',
        ),
      );
  }
  rows.push(paragraph(signature.map(e).join('<br>')));
  rows.push(paragraph(e(text.automated), 'margin:24px 0 0;font-size:12px;color:#777777'));
  return [
    '<!doctype html>',
    `<html lang="${e(locale)}">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#222222">',
    ...rows,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * The catalogue of mails the gateway sends: each kind's parameters and their checks, and which blocks (a paragraph,
 * a code, a link button) it has in which order. The words are in `./locales/<lng>.json` (ADR 0054); `./layout.ts`
 * writes the blocks out as the text and the HTML part.
 */
import { describeUserAgent, partnerDisplayName, type SupportedLocale } from 'shared-contracts';
import { layOut, type Block } from './layout.js';
import {
  counted,
  interpolate,
  messageTextsFor,
  type MessageTexts,
  type TextValues,
} from './message-texts.js';

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
  /**
   * Notice that the operators' console changed the account for its owner (issue 52, ADR 0061): what, when, and
   * that their organisation's support did it.
   */
  'account-help': CommonParams & { change: AccountHelpChange; changedAt: Date | number };
}

/** What the console's People section does to an account, each mailed to its owner (`account-help`). */
export const ACCOUNT_HELP_CHANGES = [
  'disabled',
  'enabled',
  'sessions-ended',
  'second-factor-reset',
  'two-step-required',
  'throttle-cleared',
  'membership-added',
  'membership-removed',
] as const;

/** One of {@link ACCOUNT_HELP_CHANGES}. */
export type AccountHelpChange = (typeof ACCOUNT_HELP_CHANGES)[number];

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
  'account-help',
] as const satisfies readonly MailKind[];

/** A message ready for a {@link Mailer}: the same content as plain text and as HTML. */
export interface RenderedMail {
  /** The locale actually used (the asked one, its language, or en-GB). */
  locale: SupportedLocale;
  subject: string;
  text: string;
  html: string;
}

// Which blocks a mail has, in which order, is the same in every locale and written here; the words are in the locale
// files (`./locales`, ADR 0054); one layout (`./layout.ts`) turns the blocks into the text and the HTML part.
interface Values {
  partner: string;
  name: string | undefined;
  minutes: string;
  date: string;
  code: string;
  link: string;
  change: SecurityChange | undefined;
  /** `sign-in-method-added`: the method, the linked provider's name, the adding browser's user agent. */
  method: AddedSignInMethod | undefined;
  provider: string;
  userAgent: string;
  /** `account-help`: what the console did. */
  helpChange: AccountHelpChange | undefined;
}

/** Fills one of the mail's texts with the mail's values (and any of its own, such as a text chosen by a value). */
type Say = (text: string, more?: TextValues) => string;

type MailTexts = MessageTexts['mail'];
type Body<K extends MailKind> = (texts: MailTexts[K], say: Say, values: Values) => Block[];

const BODIES: { [K in MailKind]: Body<K> } = {
  recovery: (t, say, v) => [
    say(t.request),
    { link: v.link, label: say(t.button) },
    say(t.expiry),
    say(t.ignore),
  ],
  pin: (t, say, v) => [say(t.intro), { code: v.code }, say(t.expiry), say(t.warning)],
  'one-time-token': (t, say, v) => [
    say(t.intro),
    { code: v.code },
    say(t.orLink),
    { link: v.link, label: say(t.button) },
    say(t.expiry),
    say(t.ignore),
  ],
  'password-changed': (t, say) => [say(t.changed), say(t.ifYou), say(t.ifNot)],
  'email-verification': (t, say, v) => [say(t.intro), { code: v.code }, say(t.expiry), say(t.ignore)],
  'email-change': (t, say, v) => [
    say(t.request),
    { link: v.link, label: say(t.button) },
    say(t.expiry),
    say(t.ignore),
  ],
  'security-change': (t, say, v) => [
    say(t.changed, { change: t.changes[v.change!] }),
    say(t.ifYou),
    say(t.ifNot),
  ],
  'sign-in-method-added': (t, say, v) => {
    const agent = describeUserAgent(v.userAgent || null);
    return [
      say(t.added, {
        method: say(t.methods[v.method!]),
        agent: agent ? say(t.agent, { browser: agent.browser, os: agent.os }) : say(t.unknownAgent),
      }),
      { link: v.link, label: say(t.button) },
      say(t.ifYou),
      say(t.ifNot),
    ];
  },
  'email-change-taken': (t, say) => [say(t.taken), say(t.ifYou)],
  'account-help': (t, say, v) => [
    say(t.changed, { change: t.changes[v.helpChange!] }),
    say(t.byWhom),
    say(t.ifNot),
  ],
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
  if (!MAIL_KINDS.includes(kind)) throw new TypeError(`unknown mail kind: ${String(kind)}`);
  const { locale: used, texts } = messageTextsFor(locale);
  const values = valuesOf(kind, used, texts, params);
  const { partner, minutes, date, code, link, provider } = values;
  const say: Say = (text, more) =>
    interpolate(text, { partner, minutes, date, code, link, provider, ...more });
  const mail = texts.mail[kind];
  const body = (BODIES[kind] as Body<MailKind>)(mail, say, values);
  return {
    locale: used,
    ...layOut(used, texts.layout, { subject: say(mail.subject), name: values.name, partner, body }),
  };
}

function valuesOf(kind: MailKind, locale: SupportedLocale, texts: MessageTexts, params: unknown): Values {
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
    change: undefined,
    method: undefined,
    provider: '',
    userAgent: '',
    helpChange: undefined,
  };
  if (
    kind !== 'password-changed' &&
    kind !== 'security-change' &&
    kind !== 'sign-in-method-added' &&
    kind !== 'email-change-taken' &&
    kind !== 'account-help'
  ) {
    const n = p.expiresInMinutes;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
      throw new TypeError(`mail ${kind}: expiresInMinutes must be a whole number of minutes, at least 1`);
    values.minutes = counted(texts.layout, 'minutes', locale, n);
  }
  if (kind === 'pin') values.code = codeOf(kind, 'pin', p.pin);
  if (kind === 'one-time-token' || kind === 'email-verification') values.code = codeOf(kind, 'code', p.code);
  if (kind === 'recovery' || kind === 'one-time-token' || kind === 'email-change')
    values.link = linkOf(kind, p.link);
  if (kind === 'password-changed' || kind === 'security-change' || kind === 'account-help')
    values.date = dateOf(kind, locale, p.changedAt);
  if (kind === 'account-help') {
    if (!ACCOUNT_HELP_CHANGES.includes(p.change as AccountHelpChange))
      throw new TypeError(`mail ${kind}: change must be one of ${ACCOUNT_HELP_CHANGES.join(', ')}`);
    values.helpChange = p.change as AccountHelpChange;
  }
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

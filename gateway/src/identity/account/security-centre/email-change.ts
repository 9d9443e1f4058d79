import { partnerDisplayName } from 'shared-contracts';
import { randomToken, sha256 } from '../../../infra/crypto/tokens.js';
import type { KeyValueStore } from '../../../infra/kv/key-value-store.js';
import type { Mailer } from '../../../infra/mail/mailer.js';
import { renderMail } from '../../../infra/mail/templates.js';
import { readableIp } from '../../../infra/sessions/session-index.js';
import { waitSeconds } from '../../../infra/throttle/wait.js';
import type { Store } from '../../../store/store.js';
import type { User } from '../../../store/user.repository.js';
import type { PartnerService } from '../../partners/partner.service.js';
import type { ChangeOutcome, SecurityCentreActor, SecurityCentreContext } from './context.js';
import { vendorCredentialsOnly } from './vendor-account.js';

/** How long the link of an e-mail change works (issue 43): one hour, once. */
export const EMAIL_CHANGE_TTL_MS = 60 * 60_000;
const emailChangeKey = (tokenHash: string) => `security-centre:email-change:${tokenHash}`;
const pendingEmailKey = (userId: string) => `security-centre:email-change-pending:${userId}`;

/**
 * E-mail change requests (issue 48, ADR 0043): each one mails an address the caller chose, so they are limited per
 * account and per source address, in fixed one-hour windows (a refused request never lengthens one). A request to
 * a free address and one to a taken address count alike.
 */
export const EMAIL_CHANGE_ACCOUNT_LIMIT = 3;
export const EMAIL_CHANGE_SOURCE_LIMIT = 10;
export const EMAIL_CHANGE_LIMIT_WINDOW_MS = 60 * 60_000;
const emailChangeCounterKey = (scope: 'account' | 'source', id: string) =>
  `security-centre:email-change-${scope}:${sha256(id)}`;

/** The e-mail change (issue 43, ADR 0036): a link to the new address, the change when it is opened. */
export function emailChangePart(options: {
  centre: SecurityCentreContext;
  store: Pick<Store, 'users' | 'audit'>;
  kv: KeyValueStore;
  mailer: Mailer;
  partners: Pick<PartnerService, 'forHost'>;
  /** The site's public address: the link points at its `/account/` page. */
  publicUrl: string;
  onBackgroundError?: ((error: unknown) => void) | undefined;
}) {
  const { centre, store, kv, mailer, partners, publicUrl, onBackgroundError } = options;
  const { now } = centre;

  /** The address is free for this account: nobody else signs in with it (as username or e-mail). */
  async function available(user: User, email: string): Promise<boolean> {
    const holder = await store.users.findByLogin(email);
    return !holder || holder.id === user.id;
  }

  /**
   * Counts one e-mail change request against the account's and the source's hourly budgets; the refusal (with the
   * seconds until the fuller window ends) when either is spent, else undefined.
   */
  async function limited(actor: SecurityCentreActor): Promise<ChangeOutcome | undefined> {
    const source = readableIp(actor.ip);
    const budgets: [string, number][] = [
      [emailChangeCounterKey('account', actor.user.id), EMAIL_CHANGE_ACCOUNT_LIMIT],
    ];
    if (source) budgets.push([emailChangeCounterKey('source', source), EMAIL_CHANGE_SOURCE_LIMIT]);
    for (const [key, limit] of budgets) {
      const count = await kv.increment(key, EMAIL_CHANGE_LIMIT_WINDOW_MS, 'fixed');
      // The window's start, kept beside the counter, says how long the refusal lasts (Retry-After).
      if (count === 1) await kv.set(`${key}:since`, String(now()), EMAIL_CHANGE_LIMIT_WINDOW_MS);
      if (count <= limit) continue;
      const since = Number((await kv.get(`${key}:since`)) ?? now());
      const leftMs = Math.min(EMAIL_CHANGE_LIMIT_WINDOW_MS, since + EMAIL_CHANGE_LIMIT_WINDOW_MS - now());
      return { kind: 'throttled', retryAfterSeconds: waitSeconds({ ms: leftMs }) };
    }
    return undefined;
  }

  return {
    /** The new address waiting for its link to be opened, if any. */
    pendingEmailOf: async (user: User): Promise<string | null> => {
      const raw = await kv.get(pendingEmailKey(user.id));
      return raw ? (JSON.parse(raw) as { email: string }).email : null;
    },

    /**
     * `RequestEmailChange`: mails a link to the NEW address (single use, {@link EMAIL_CHANGE_TTL_MS}, stored only as
     * a hash); the address changes only when the link is opened. Refused when it is the address already. Limited
     * per account ({@link EMAIL_CHANGE_ACCOUNT_LIMIT}) and per source ({@link EMAIL_CHANGE_SOURCE_LIMIT}) an hour:
     * 429 + Retry-After (S6). A newer request replaces the older one: only the latest link works.
     *
     * Whether another account uses the address is not said (issue 48, S10): the answer, the waiting address the
     * view shows and the work done are the same; a taken address gets a notice without a link instead of the link
     * (its holder learns that someone tried, nothing changed). Neither mail carries text the caller chose (no
     * display name): it goes to an address nobody has confirmed yet.
     */
    request: (actor: SecurityCentreActor, email: string): Promise<ChangeOutcome> => {
      if (actor.user.vendorId) return Promise.resolve(vendorCredentialsOnly());
      return centre.change(
        actor,
        async () => {
          const { user } = actor;
          if (user.email && user.email.toLowerCase() === email.toLowerCase())
            return { kind: 'invalid', errors: { email: ['emailUnchanged'] } };
          const refused = await limited(actor);
          if (refused) return refused;
          const free = await available(user, email);
          const previous = await kv.get(pendingEmailKey(user.id));
          if (previous)
            await kv.delete(emailChangeKey((JSON.parse(previous) as { tokenHash: string }).tokenHash));
          const token = randomToken(32);
          const tokenHash = sha256(token);
          // Stored for a taken address too (its link is never mailed): the same writes, the same waiting address,
          // and a confirmation in a race still finds the address taken (confirm checks again).
          await kv.set(
            emailChangeKey(tokenHash),
            // The expiry is also kept in the value and checked against the service's clock: a store's own TTL
            // (Redis's) runs on its clock, which tests cannot move and a replica's clock may not match.
            JSON.stringify({ userId: user.id, email, expiresAt: now() + EMAIL_CHANGE_TTL_MS }),
            EMAIL_CHANGE_TTL_MS,
          );
          await kv.set(pendingEmailKey(user.id), JSON.stringify({ email, tokenHash }), EMAIL_CHANGE_TTL_MS);
          const link = new URL('/account/', publicUrl);
          link.searchParams.set('confirmEmail', token);
          const partner = await partners.forHost(actor.host);
          // Only our words: the partner's name, never the caller's display name (issue 48).
          const common = { partnerName: partnerDisplayName(partner?.name, 'Identity') };
          const rendered = free
            ? renderMail('email-change', actor.locale, {
                ...common,
                link: link.href,
                expiresInMinutes: EMAIL_CHANGE_TTL_MS / 60_000,
              })
            : renderMail('email-change-taken', actor.locale, common);
          await mailer
            .send({ to: email, subject: rendered.subject, text: rendered.text, html: rendered.html })
            .catch((error: unknown) => onBackgroundError?.(error));
          return { kind: 'done' };
        },
        // The old address hears of it when the change happens, not before (the request alone changes nothing).
        { kind: 'security-centre.email-change-requested', mail: undefined },
      );
    },

    /**
     * `ConfirmEmailChange`: the mailed link, opened while signed in as the account that asked (ADR 0036). Takes
     * the token once; the address must still be free. The old address gets a notice.
     */
    confirm: async (actor: SecurityCentreActor, token: string): Promise<ChangeOutcome<string>> => {
      const { user } = actor;
      if (user.vendorId) return vendorCredentialsOnly();
      const invalid: ChangeOutcome<string> = {
        kind: 'invalid',
        errors: { token: ['emailChangeLinkInvalid'] },
      };
      const key = emailChangeKey(sha256(token));
      const waiting = await kv.get(key);
      if (!waiting || (JSON.parse(waiting) as { userId: string }).userId !== user.id) return invalid;
      const taken = await kv.take(key);
      if (!taken) return invalid;
      const { email, expiresAt } = JSON.parse(taken) as { email: string; expiresAt: number };
      if (!(now() < expiresAt)) return invalid;
      await kv.delete(pendingEmailKey(user.id));
      if (!(await available(user, email)))
        return { kind: 'invalid', errors: { email: ['emailNotAvailable'] } };
      await store.users.update(user.id, { email });
      await centre.audit(actor, 'security-centre.email-changed');
      await centre.mail(actor, 'email-changed', user.email);
      return { kind: 'done', value: email };
    },
  };
}

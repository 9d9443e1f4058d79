import type { RememberedBrowser } from 'shared-contracts';
import { sha256 } from '../../../infra/crypto/tokens.js';
import type { Store } from '../../../store/store.js';
import type { ChangeOutcome, SecurityCentreActor, SecurityCentreContext } from './context.js';

/** The browsers that skip the second factor for 30 days (ADR 0036): listed, one forgotten, all forgotten. */
export function rememberedBrowsersPart(options: {
  centre: SecurityCentreContext;
  store: Pick<Store, 'rememberedBrowsers'>;
}) {
  const { centre, store } = options;
  return {
    /**
     * `SecurityCentreView.rememberedBrowsers`; `current` for an entry this browser holds (`thisBrowser`: the record
     * keys of its cookie's entries for the account that verify).
     */
    view: async (
      actor: SecurityCentreActor,
      thisBrowser: readonly string[],
    ): Promise<RememberedBrowser[]> => {
      const listed = await store.rememberedBrowsers.listForUser(
        actor.user.id,
        sha256(actor.user.securityStamp),
        centre.now(),
      );
      return listed.map((b) => ({
        id: b.handle,
        current: thisBrowser.includes(b.entryKey),
        rememberedAt: b.rememberedAt,
        lastUsedAt: b.lastUsedAt,
        ip: b.ip,
        userAgent: b.userAgent,
      }));
    },

    /**
     * `ForgetRememberedBrowser`: the browser asks for the second factor at its next sign-in. Its cookie entry still
     * carries a valid MAC; the record it needs is gone (ADR 0036).
     */
    forget: (actor: SecurityCentreActor, handle: string): Promise<ChangeOutcome> => {
      return centre.change(
        actor,
        async () =>
          (await store.rememberedBrowsers.removeByHandle(actor.user.id, handle))
            ? { kind: 'done' }
            : { kind: 'notFound' },
        { kind: 'security-centre.remembered-browser-forgotten', mail: 'remembered-browser-forgotten' },
      );
    },

    /** `ForgetAllRememberedBrowsers`: every remembered browser of the account, this one included. */
    forgetAll: (actor: SecurityCentreActor): Promise<ChangeOutcome<number>> => {
      return centre.change<number>(
        actor,
        async () => ({ kind: 'done', value: await store.rememberedBrowsers.removeAllOf(actor.user.id) }),
        { kind: 'security-centre.remembered-browsers-forgotten', mail: 'remembered-browsers-forgotten' },
      );
    },
  };
}

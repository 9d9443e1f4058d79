import { CLIENT_NAME_MAX, type LoginView } from 'shared-contracts';
import type { Session } from '../../infra/sessions/session-manager.js';
import type { ExternalIdentityService } from '../external/external-identity.service.js';
import type { CaptchaContext, CaptchaService } from '../captcha/captcha.service.js';
import type { PartnerService } from '../partners/partner.service.js';
import type { ReturnUrls } from '../applications/return-urls.service.js';

/** An application's sign-in: the OIDC interaction the sign-in resumes (SilentLogin's only target, LoginView's name). */
export const INTERACTION = /^\/interaction\/([A-Za-z0-9_-]{1,64})$/;

/** The OIDC side's view of an application's pending sign-in (oidc-provider.ts `describeInteraction`). */
export type DescribeInteraction = (uid: string) => Promise<{ clientName?: string } | undefined>;

/**
 * The name of the application a sign-in was started by, when the checked target is its live interaction: the page
 * says "to continue to Payroll portal" (as Google and Auth0 do). Only the registered name, never a value of the
 * request; cut to {@link CLIENT_NAME_MAX} characters so a long registration cannot push the form off the page.
 */
async function clientNameOf(
  target: string,
  describeInteraction: DescribeInteraction | undefined,
): Promise<string | undefined> {
  const uid = INTERACTION.exec(target)?.[1];
  if (!uid || !describeInteraction) return undefined;
  const name = (await describeInteraction(uid))?.clientName?.trim();
  if (!name) return undefined;
  if (name.length <= CLIENT_NAME_MAX) return name;
  // Cut in UTF-16 units, as the schema counts, but never between the two halves of a surrogate pair.
  const cut = name.slice(0, CLIENT_NAME_MAX - 1).replace(/[\uD800-\uDBFF]$/, '');
  return `${cut}…`;
}

/**
 * The name of the application a sign-in page's `returnUrl` goes on to, as LoginView names it: the same answer for
 * the first HTML the gateway draws (first-paint.ts), so the line "to continue to …" is there before any script and
 * nothing moves when the app takes over.
 */
export function createApplicationNameOf(
  returnUrls: ReturnUrls,
  describeInteraction: DescribeInteraction | undefined,
): (returnUrl: string) => Promise<string | undefined> {
  return async (returnUrl) =>
    describeInteraction ? clientNameOf(await returnUrls.safe(returnUrl), describeInteraction) : undefined;
}

/** What the sign-in page needs (`LoginView`): the remembered username, the partner's options, the checked target. */
export function createLoginViewService(
  partners: PartnerService,
  returnUrls: ReturnUrls,
  captcha?: CaptchaService,
  external?: Pick<ExternalIdentityService, 'loginProviders'>,
  describeInteraction?: DescribeInteraction,
) {
  return async (
    session: Session | undefined,
    host: string,
    returnUrl: string,
    /** The request and its source: whether the next Login needs a challenge (ADR 0014). */
    request?: Omit<CaptchaContext, 'host' | 'sessionId'>,
  ): Promise<LoginView> => {
    const [partner, target] = await Promise.all([partners.forHost(host), returnUrls.safe(returnUrl)]);
    const showLoginProviders = partner?.showLoginProviders ?? false;
    // The partner's upstreams as buttons, only when the partner shows login providers (SPEC.md §6).
    const providers = showLoginProviders && external ? await external.loginProviders(host) : [];
    const username = session?.record.data.username;
    const provider = await captcha?.providerFor(host);
    const captchaRequired =
      captcha && provider && request
        ? (await captcha.assess({ ...request, host, sessionId: session?.id ?? '' }, 'login', username))
            .required
        : false;
    const clientName = await clientNameOf(target, describeInteraction);
    return {
      ...(username ? { username } : {}),
      allowLocal: true,
      showLoginProviders,
      providers,
      returnUrl: target,
      captchaRequired,
      ...(provider ? { captcha: provider } : {}),
      ...(clientName ? { clientName } : {}),
    };
  };
}

/** Answers `LoginView` for a session, host and requested returnUrl. */
export type LoginViewService = ReturnType<typeof createLoginViewService>;

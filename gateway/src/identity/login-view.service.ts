import type { LoginView } from 'shared-contracts';
import type { Session } from '../infra/sessions/session-manager.js';
import type { ExternalIdentityService } from './external/external-identity.service.js';
import type { CaptchaContext, CaptchaService } from './captcha.service.js';
import type { PartnerService } from './partner.service.js';
import type { ReturnUrls } from './return-urls.service.js';

/** What the sign-in page needs (`LoginView`): the remembered username, the partner's options, the checked target. */
export function createLoginViewService(
  partners: PartnerService,
  returnUrls: ReturnUrls,
  captcha?: CaptchaService,
  external?: Pick<ExternalIdentityService, 'loginProviders'>,
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
    return {
      ...(username ? { username } : {}),
      allowLocal: true,
      showLoginProviders,
      providers,
      returnUrl: target,
      captchaRequired,
      ...(provider ? { captcha: provider } : {}),
    };
  };
}

/** Answers `LoginView` for a session, host and requested returnUrl. */
export type LoginViewService = ReturnType<typeof createLoginViewService>;

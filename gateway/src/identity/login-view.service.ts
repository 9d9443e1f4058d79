import type { LoginView } from 'shared-contracts';
import type { Session } from '../infra/sessions/session-manager.js';
import type { PartnerService } from './partner.service.js';
import type { ReturnUrls } from './return-urls.service.js';

/** What the sign-in page needs (`LoginView`): the remembered username, the partner's options, the checked target. */
export function createLoginViewService(partners: PartnerService, returnUrls: ReturnUrls) {
  return async (session: Session | undefined, host: string, returnUrl: string): Promise<LoginView> => {
    const [partner, target] = await Promise.all([partners.forHost(host), returnUrls.safe(returnUrl)]);
    const username = session?.record.data.username;
    return {
      ...(username ? { username } : {}),
      allowLocal: true,
      showLoginProviders: partner?.showLoginProviders ?? false,
      providers: [],
      returnUrl: target,
      captchaRequired: false,
    };
  };
}

/** Answers `LoginView` for a session, host and requested returnUrl. */
export type LoginViewService = ReturnType<typeof createLoginViewService>;

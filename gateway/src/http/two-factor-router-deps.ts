import type { ReturnUrls } from '../identity/applications/return-urls.service.js';
import type { SessionAuthService } from '../identity/session/session-auth.service.js';
import type { SignInService } from '../identity/sign-in/sign-in.service.js';
import type { TwoFactorService } from '../identity/two-factor/two-factor.service.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { KnownDevices } from '../infra/throttle/known-devices.js';
import type { SignInResponses } from './sign-in-responses.js';

/**
 * Dependencies of `twoFactorRouter` and of the route tables it puts together (`two-factor-sign-in.routes.ts`,
 * `two-factor-setup.routes.ts`): a module of its own so the tables and the router do not import each other.
 */
export interface TwoFactorRouterDeps {
  sessions: RequestSessions;
  signIn: SignInService;
  auth: SessionAuthService;
  twoFactor: TwoFactorService;
  returnUrls: ReturnUrls;
  responses: SignInResponses;
  /** Browsers where the account completed a sign-in with its second factor: their own counter (issue 39). */
  secondFactorDevices?: KnownDevices | undefined;
}

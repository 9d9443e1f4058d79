import type { SecurityCentreView } from 'shared-contracts';
import {
  securityCentreContext,
  type SecurityCentreActor,
  type SecurityCentreOptions,
} from './security-centre/context.js';
import { customerPart } from './security-centre/customer.js';
import { emailChangePart } from './security-centre/email-change.js';
import { passkeysPart } from './security-centre/passkeys.js';
import { passwordPart } from './security-centre/password.js';
import { profilePart } from './security-centre/profile.js';
import { recoveryCodesPart } from './security-centre/recovery-codes.js';
import { rememberedBrowsersPart } from './security-centre/remembered-browsers.js';
import { sessionsPart } from './security-centre/sessions.js';
import { twoStepMethodsPart } from './security-centre/two-step-methods.js';
import { vendorAccountPart } from './security-centre/vendor-account.js';

// The types the router and the composition root (app.ts) name; they live with what all areas share.
export type { ChangeOutcome, EndOidcSessionsOf, SecurityCentreActor } from './security-centre/context.js';

/**
 * The security centre (issue 43, ADR 0036): a signed-in person's own two-step methods, passkeys, recovery codes,
 * password, sessions and profile. Reading needs a signed-in session; every change needs a recent full sign-in
 * (S21: the same rule as the 2FA set-up, `TwoFactorService.recentFullSignIn`), is audited, and is mailed to the
 * account so a change the owner did not make does not go unnoticed.
 *
 * One file per area in `security-centre/`, each built here from the parts of `options` it needs; what they share
 * (the recent-sign-in rule, audit, mail) is `security-centre/context.ts`. Each call below names the area it runs in.
 */
export function createSecurityCentreService(options: SecurityCentreOptions) {
  const { store, kv, mailer, partners, twoFactor, webauthn, sessionIndex, publicUrl } = options;
  const centre = securityCentreContext(options);
  const emailChange = emailChangePart({
    centre,
    store,
    kv,
    mailer,
    partners,
    publicUrl,
    onBackgroundError: options.onBackgroundError,
  });
  const profile = profilePart({ centre, store, pendingEmailOf: emailChange.pendingEmailOf });
  const password = passwordPart({ centre, store, kv, partners, revokeOidc: options.revokeOidc });
  const twoStepMethods = twoStepMethodsPart({ centre, store, twoFactor });
  const recoveryCodes = recoveryCodesPart({ centre, store, twoFactor });
  const passkeys = passkeysPart({ centre, webauthn });
  const sessions = sessionsPart({ centre, sessionIndex, endOidcSessions: options.endOidcSessions });
  const rememberedBrowsers = rememberedBrowsersPart({ centre, store });
  const customer = customerPart({ store });
  const vendorAccount = vendorAccountPart({ store });

  return {
    /** `SecurityCentreView`: everything the page shows, each part from its area. */
    async view(
      actor: SecurityCentreActor,
      browser: {
        /** Record keys of this browser's "remember this browser" entries for the account that verify. */
        rememberedEntryKeys: readonly string[];
        customerId: string | undefined;
      },
    ): Promise<SecurityCentreView> {
      const { user } = actor;
      const remembered = await rememberedBrowsers.view(actor, browser.rememberedEntryKeys);
      const chosen = await customer.view(user, browser.customerId);
      const view: SecurityCentreView = {
        profile: await profile.view(user),
        recentSignInUntil: await centre.recentSignInUntil(actor),
        twoStep: await twoStepMethods.view(user),
        passkeys: await passkeys.view(user),
        recoveryCodes: await recoveryCodes.view(user),
        sessions: await sessions.view(actor),
        browserRemembered: remembered.some((b) => b.current),
        rememberedBrowsers: remembered,
        passwordRules: await password.rules(actor),
        customer: chosen.customer,
        canSwitchCustomer: chosen.canSwitchCustomer,
      };
      const vendor = await vendorAccount.view(user);
      if (vendor) view.vendorAccount = vendor;
      return view;
    },

    // The calls, by area. Each is `<area>.<what>` in `security-centre/<area>.ts`.
    removeTwoStepMethod: twoStepMethods.remove,
    setDefaultTwoStepMethod: twoStepMethods.setDefault,
    renamePasskey: passkeys.rename,
    deletePasskey: passkeys.delete,
    regenerateRecoveryCodes: recoveryCodes.regenerate,
    changePassword: password.change,
    signOutSession: sessions.signOut,
    signOutOtherSessions: sessions.signOutOthers,
    forgetRememberedBrowser: rememberedBrowsers.forget,
    forgetAllRememberedBrowsers: rememberedBrowsers.forgetAll,
    updateProfile: profile.update,
    requestEmailChange: emailChange.request,
    confirmEmailChange: emailChange.confirm,
  };
}

/** The security centre's service. */
export type SecurityCentreService = ReturnType<typeof createSecurityCentreService>;

/**
 * `GET /interaction/:uid`: where an OIDC authorization waits for the sign-in site. The sign-in state machine's
 * last 209 sends the browser here (ARCHITECTURE.md "Sign-in is a server-side state machine"); we finish the login
 * prompt with the account of the gateway session, grant consent for first-party clients, and let oidc-provider
 * resume the authorization. Without a signed-in account the browser goes (back) to the sign-in page.
 */
import type { Request, Response } from 'express';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import { withReturnUrl } from 'shared-contracts';
import { setGrantCustomer } from './grant-customer.js';
import type { FindOidcClient, GetSignedInAccount, SignedInAccount } from './types.js';

/** What the interaction handler needs besides the provider. */
export interface InteractionDependencies {
  getSignedInAccount: GetSignedInAccount;
  findClient: FindOidcClient;
  loginPath: string;
  /** Customer selection page for `prompt=select_account`. */
  selectCustomerPath: string;
  expiredPath: string;
  /** Records a dead interaction and returns its error page with `errorId`; absent, `expiredPath` as it is. */
  expiredPage?: ((req: Request) => Promise<string | undefined>) | undefined;
}

/** Sends the browser to the expired page: with a recorded reference when the gateway keeps error records. */
async function sendToExpired(req: Request, res: Response, deps: InteractionDependencies): Promise<void> {
  const page = deps.expiredPage ? await deps.expiredPage(req).catch(() => undefined) : undefined;
  res.redirect(303, page ?? deps.expiredPath);
}

function asAccount(value: SignedInAccount | string | undefined): SignedInAccount | undefined {
  if (!value) return undefined;
  return typeof value === 'string' ? { accountId: value } : value;
}

/** Handles one visit of `/interaction/:uid` (errors other than a dead interaction go to Express's handler). */
export async function handleInteraction(
  provider: Provider,
  req: Request,
  res: Response,
  deps: InteractionDependencies,
): Promise<void> {
  res.setHeader('Cache-Control', 'no-store');
  let details: Awaited<ReturnType<Provider['interactionDetails']>>;
  try {
    details = await provider.interactionDetails(req, res);
  } catch (error) {
    // Interaction cookie missing or expired, or the OIDC session changed hands: nothing to resume.
    if (error instanceof errors.SessionNotFound) {
      await sendToExpired(req, res, deps);
      return;
    }
    throw error;
  }
  if (details.uid !== req.params.uid) {
    await sendToExpired(req, res, deps);
    return;
  }

  const signedIn = asAccount(await deps.getSignedInAccount(req));
  const resume = `/interaction/${details.uid}`;
  const { prompt } = details;

  if (prompt.name === 'login') {
    if (!signedIn) {
      res.redirect(303, withReturnUrl(deps.loginPath, resume));
      return;
    }
    // prompt=login / max_age demand a sign-in made for this interaction; an older one does not count, and we fail
    // with login_required rather than loop between the sign-in page and here.
    const forced = prompt.reasons.some((r) => r === 'login_prompt' || r === 'max_age');
    const startedAt = typeof details.iat === 'number' ? details.iat : 0;
    if (forced && signedIn.authTime !== undefined && signedIn.authTime < startedAt) {
      await provider.interactionFinished(
        req,
        res,
        { error: 'login_required', error_description: 'a new sign-in is required' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    await provider.interactionFinished(
      req,
      res,
      {
        login: {
          accountId: signedIn.accountId,
          ...(signedIn.authTime !== undefined ? { ts: signedIn.authTime } : {}),
          ...(signedIn.amr ? { amr: [...signedIn.amr] } : {}),
          // Without remember-me the OIDC session cookie ends with the browser, like the site's (ADR 0006).
          remember: signedIn.persistent === true,
        },
      },
      { mergeWithLastSubmission: false },
    );
    return;
  }

  if (prompt.name === 'select_account') {
    if (!signedIn) {
      res.redirect(303, withReturnUrl(deps.loginPath, resume));
      return;
    }
    // Done once the user chose a customer after this authorization began: on the selection page it sent them to,
    // or during the sign-in this same authorization asked for (the login result of the previous interaction).
    const chosenAt = signedIn.customerSelectedAt;
    const begun = typeof details.iat === 'number' ? details.iat : Number.POSITIVE_INFINITY;
    const signedInForThis = details.lastSubmission?.login !== undefined && signedIn.authTime !== undefined;
    const chosen =
      chosenAt !== undefined && (chosenAt >= begun || (signedInForThis && chosenAt >= signedIn.authTime!));
    if (!chosen) {
      res.redirect(303, withReturnUrl(deps.selectCustomerPath, resume));
      return;
    }
    await provider.interactionFinished(req, res, { select_account: {} }, { mergeWithLastSubmission: true });
    return;
  }

  if (prompt.name === 'consent') {
    const clientId = String(details.params.client_id);
    const client = await deps.findClient(clientId);
    if (!client || client.firstParty === false) {
      // No consent screen exists yet: third-party clients are refused rather than silently granted.
      await provider.interactionFinished(
        req,
        res,
        { error: 'consent_required', error_description: 'consent for third-party clients is not available' },
        { mergeWithLastSubmission: true },
      );
      return;
    }
    const accountId = details.session?.accountId;
    if (!accountId) {
      res.redirect(303, withReturnUrl(deps.loginPath, resume));
      return;
    }
    const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    const grant = existing ?? new provider.Grant({ accountId, clientId });
    // A new grant is for the customer chosen on the site (S37); an existing one keeps its own (loadExistingGrant).
    if (!existing && signedIn?.accountId === accountId) setGrantCustomer(grant, signedIn.customerId);
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return;
  }

  // A prompt we do not know (none are configured beyond login and consent): refuse instead of guessing.
  await provider.interactionFinished(
    req,
    res,
    { error: 'interaction_required', error_description: `unsupported prompt ${prompt.name}` },
    { mergeWithLastSubmission: false },
  );
}

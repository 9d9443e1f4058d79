/**
 * The customer (tenant) an application's tokens are for (ADR 0009, S37). The choice is made on the sign-in site and
 * kept in the site session; here it is bound to the **grant** (account + client), which every code, refresh token
 * and access token names by `grantId`. So each token's claims come from the customer its grant was made for,
 * whatever the browser chooses later, and a grant for customer A never produces a token for customer B: when the
 * site session's customer differs from the grant's at a new authorization, a new grant is made for the new customer
 * and the old one is destroyed (its tokens stop working; the application receives new tokens).
 */
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { interactionPolicy } from 'oidc-provider';
import type { SiteSessionReader } from './site-session.js';

type Grant = InstanceType<Provider['Grant']>;

/** The property of a grant's payload that holds the customer id. */
const CUSTOMER = 'customer';

/**
 * Lets grants keep a customer id in their stored payload. oidc-provider stores only the properties its models list
 * (`IN_PAYLOAD`); the list is extended once per provider instance, before any grant is saved.
 */
export function carryCustomerInGrants(provider: Provider): void {
  const GrantModel = provider.Grant as unknown as { IN_PAYLOAD: string[] };
  const own = GrantModel.IN_PAYLOAD;
  if (own.includes(CUSTOMER)) return;
  Object.defineProperty(GrantModel, 'IN_PAYLOAD', { configurable: true, get: () => [...own, CUSTOMER] });
}

/** The customer a grant was made for, if any. */
export function grantCustomer(grant: Grant | undefined): string | undefined {
  const value = (grant as unknown as Record<string, unknown> | undefined)?.[CUSTOMER];
  return typeof value === 'string' ? value : undefined;
}

/** Binds a (new, unsaved) grant to a customer. */
export function setGrantCustomer(grant: Grant, customerId: string | undefined): void {
  if (customerId) (grant as unknown as Record<string, unknown>)[CUSTOMER] = customerId;
}

/** The customer of the grant a token names (code, refresh token, access token); undefined without one. */
export async function customerOfToken(ctx: KoaContextWithOIDC, token: unknown): Promise<string | undefined> {
  const grantId = (token as { grantId?: unknown } | undefined)?.grantId;
  if (typeof grantId !== 'string') return undefined;
  const loaded = ctx.oidc.entities.Grant;
  const grant = loaded?.jti === grantId ? loaded : await ctx.oidc.provider.Grant.find(grantId);
  return grantCustomer(grant);
}

/**
 * `loadExistingGrant`: oidc-provider's default (the interaction's consent result, else the OIDC session's grant for
 * the client), except that a grant made for another customer than the site session's current one is replaced by a
 * grant for the current customer with the same scopes and claims.
 */
export function loadGrantForSiteCustomer(
  site: SiteSessionReader,
): NonNullable<Configuration['loadExistingGrant']> {
  return async (ctx) => {
    const clientId = ctx.oidc.client!.clientId;
    const result = ctx.oidc.result as { consent?: { grantId?: string } } | undefined;
    const grantId = result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(clientId);
    if (!grantId) return silentFirstPartyGrant(ctx, site);
    const grant = await ctx.oidc.provider.Grant.find(grantId);
    if (!grant) return undefined;
    const signedIn = await site.read(ctx.req);
    const wanted = signedIn && signedIn.accountId === grant.accountId ? signedIn.customerId : undefined;
    if (grantCustomer(grant) === wanted) return grant;
    const next = new ctx.oidc.provider.Grant({ accountId: grant.accountId!, clientId });
    const copy = grant as unknown as Record<string, unknown>;
    for (const key of ['openid', 'resources', 'rejected', 'rar']) {
      if (copy[key] !== undefined)
        (next as unknown as Record<string, unknown>)[key] = structuredClone(copy[key]);
    }
    setGrantCustomer(next, wanted);
    await next.save();
    // The old choice's tokens end with their grant: userinfo and refresh answer for no grant.
    await grant.destroy();
    return next;
  };
}

/**
 * `prompt=none` for a first-party client without a grant yet (the site's sign-in, no earlier authorization of this
 * client): the grant the interaction would have given without asking (first-party consent is automatic, see
 * interaction.router.ts), for the requested scopes and claims and the site session's customer (S37). Without it,
 * oidc-provider answers `consent_required` to a silent authorization it would grant with UI (ADR 0020).
 */
async function silentFirstPartyGrant(
  ctx: KoaContextWithOIDC,
  site: SiteSessionReader,
): Promise<Grant | undefined> {
  const { oidc } = ctx;
  if (!oidc.prompts.has('none') || !oidc.client || !oidc.session?.accountId) return undefined;
  if ((oidc.client as unknown as { first_party?: unknown }).first_party === false) return undefined;
  const signedIn = await site.read(ctx.req);
  if (!signedIn || signedIn.accountId !== oidc.session.accountId) return undefined;
  const grant = new oidc.provider.Grant({ accountId: signedIn.accountId, clientId: oidc.client.clientId });
  const scopes = [...oidc.requestParamOIDCScopes];
  if (scopes.length > 0) grant.addOIDCScope(scopes.join(' '));
  const claims = [...oidc.requestParamClaims];
  if (claims.length > 0) grant.addOIDCClaims(claims);
  setGrantCustomer(grant, signedIn.customerId);
  await grant.save();
  return grant;
}

/**
 * The interaction policy: oidc-provider's login and consent, plus a requestable `select_account` between them, so an
 * application can send `prompt=select_account` to let the user switch customer (ADR 0009).
 */
export function policyWithSelectAccount(): ReturnType<typeof interactionPolicy.base> {
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 1);
  return policy;
}

import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS, type ConsoleGrant, type ConsoleRole } from 'shared-contracts/console';
import { SoftwareAuthenticator } from '../testing/software-authenticator.js';
import { browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import {
  ACCOUNT_CALL_ACCESS,
  type AccountCallName,
  type ConsolePermission,
  type Policy,
} from './account-access.js';
import type { StepId } from '../identity/sign-in/sign-in-step.js';

type Browser = Awaited<ReturnType<typeof browser>>;

/** A window shorter than the default, so "not recent" is one small clock step away. */
const RECENT_MS = 60_000;

/** The answers of SPEC.md §4/§7 a refused caller gets (the status and the errors map, when there is one). */
const RESTART = { status: 400, errors: undefined }; // the protocol's empty 400: start again at the sign-in page
const NOT_SIGNED_IN = { status: 401, errors: { '': ['notAuthenticated'] } };
const NOT_RECENT = { status: 403, errors: { '': ['recentSignInRequired'] } };
const NOT_YOURS = { status: 404, errors: { '': ['notFound'] } };
/** The console's refusals (ADR 0058): no grant for the call (nothing more said), then no second factor or passkey. */
const FORBIDDEN = { status: 403, errors: { '': ['forbidden'] } };
const SECOND_FACTOR_REQUIRED = { status: 403, errors: { '': ['secondFactorRequired'] } };
/**
 * Every answer the guard and the checks before it refuse with: a caller let through gets none of them, but the
 * call's own answer (its router's, or the API's 404 for a call whose router is not mounted yet).
 */
const REFUSALS_BEFORE_THE_CALL = [
  RESTART,
  NOT_SIGNED_IN,
  NOT_RECENT,
  FORBIDDEN,
  SECOND_FACTOR_REQUIRED,
  { status: 400, errors: { '': ['antiforgeryInvalid'] } },
];

/** What a policy answers a caller without a session, and one whose sign-in is not recent (undefined: let through). */
function expectedAnswers(policy: Policy) {
  switch (policy.kind) {
    case 'anyone':
      return undefined;
    case 'pendingSignInAt':
      return { anonymous: RESTART, pendingElsewhere: RESTART, stale: RESTART };
    case 'signedIn':
      return { anonymous: NOT_SIGNED_IN, pendingElsewhere: RESTART, stale: undefined };
    case 'signedInRecently':
      return { anonymous: NOT_SIGNED_IN, pendingElsewhere: RESTART, stale: NOT_RECENT };
    case 'ownerOf':
      return {
        anonymous: NOT_SIGNED_IN,
        pendingElsewhere: RESTART,
        stale: policy.as.kind === 'signedInRecently' ? NOT_RECENT : undefined,
      };
    case 'stepOrSignedIn':
      return {
        anonymous: RESTART,
        pendingElsewhere: RESTART,
        stale: policy.recently ? NOT_RECENT : undefined,
      };
    case 'consolePermission':
      // The stale account holds no grant: refused before its sign-in's age is looked at.
      return { anonymous: NOT_SIGNED_IN, pendingElsewhere: RESTART, stale: FORBIDDEN };
  }
}

/** The grants of this suite's operators (see `operator` below). */
const GRANTS_OF: Record<'support' | 'customerAdmin' | 'releaseManager', ConsoleGrant> = {
  support: { role: 'support', partnerId: 'console-partner', customerId: null },
  customerAdmin: { role: 'customerAdmin', partnerId: 'console-partner', customerId: 'console-customer' },
  releaseManager: { role: 'releaseManager', partnerId: null, customerId: null },
};

/** Whether a grant gives a row's permission over its scope (ADR 0058): 'all' everywhere, 'partner' not one customer. */
function grantGives(grant: ConsoleGrant, policy: ConsolePermission): boolean {
  if (!ROLE_PERMISSIONS[grant.role].includes(policy.permission)) return false;
  if (policy.scope === 'all') return grant.partnerId === null && grant.customerId === null;
  if (policy.scope === 'partner') return grant.customerId === null;
  return true;
}

function answerOf(res: { status: number; body: unknown }) {
  return { status: res.status, errors: (res.body as { errors?: unknown } | undefined)?.errors };
}

/**
 * The generated access test (issue 50, ADR 0052): every call of `ACCOUNT_CALL_ACCESS`, tried with each caller its
 * policy must refuse — nobody signed in, a pending sign-in at another step, a signed-in account whose sign-in is no
 * longer recent, another account's passkey or session — and the refusal SPEC.md gives. A call added to the table is
 * tried without anyone writing a test for it; a policy loosened fails here.
 */
describe('who may call what (ACCOUNT_CALL_ACCESS)', () => {
  let gw: TestGateway;
  let stale: Browser;
  let recent: Browser;
  /** Another account's passkey and session, which `recent` must not reach. */
  let othersPasskey: string;
  let othersSession: string;
  /**
   * The console's callers (ADR 0058), each signed in recently unless said: an account without grants; support of a
   * partner, a customer administrator and a release manager, each refused or let through as ROLE_PERMISSIONS and
   * the row's scope say; a platform administrator without a second factor or a passkey; one with a passkey whose
   * sign-in is not recent; and one signed in with an authenticator code, who passes every row. (Every console row
   * × every grant × objects in and out of reach: console-matrix.test.ts.)
   */
  const operators = {} as Record<
    | 'employee'
    | 'support'
    | 'customerAdmin'
    | 'unready'
    | 'stalePlatformAdmin'
    | 'releaseManager'
    | 'platformAdmin',
    Browser
  >;

  /** Two customers for a user: its sign-in then waits at the customer selection. */
  async function twoCustomers(userId: string) {
    for (const name of ['East', 'West']) {
      await gw.store.customers.create({
        id: `${name}-${userId}`,
        name: `${name} ${userId}`,
        partnerId: null,
      });
      await gw.store.customers.addMembership({
        userId,
        customerId: `${name}-${userId}`,
        roles: ['EMPLOYEE'],
      });
    }
  }

  /** A fresh pending sign-in waiting at `step` (each refusal forgets it, so one per try). */
  async function pendingAt(step: StepId): Promise<Browser> {
    const b = await browser(gw.app);
    if (step === 'expired-password') {
      const user = await gw.addUser({ passwordExpiresAt: gw.clock.now() - 1_000 });
      expect((await b.signIn(user.username)).body.redirect).toMatch(/change-expired-password/);
    } else {
      const user = await gw.addUser();
      await twoCustomers(user.id);
      expect((await b.signIn(user.username)).body.redirect).toMatch(/\/account\/select/);
    }
    return b;
  }

  /** A step the policy does not let through (the customer selection, unless the policy names it). */
  function anotherStep(policy: Policy): StepId {
    const steps: readonly StepId[] = 'steps' in policy ? policy.steps : [];
    return steps.includes('customer-selection') ? 'expired-password' : 'customer-selection';
  }

  /** Grants a console role to the account and signs it in (with a passkey registered, when `passkey`). */
  async function operator(
    role: ConsoleRole | null,
    options: { partnerId?: string; customerId?: string; passkey?: boolean } = {},
  ): Promise<Browser> {
    const user = await gw.addUser();
    if (role)
      await gw.store.consoleGrants.add({
        userId: user.id,
        role,
        partnerId: options.partnerId ?? null,
        customerId: options.customerId ?? null,
        grantedBy: 'cli:test',
      });
    const b = await browser(gw.app);
    expect((await b.signIn(user.username)).status).toBe(209);
    if (options.passkey) {
      const registration = await b.post('/api/Account/CredentialOptions?displayName=Laptop').expect(200);
      const { payload } = new SoftwareAuthenticator(gw.config.publicUrl).register(registration.body);
      expect((await b.post('/api/Account/RegisterCredential', payload)).status).toBe(209);
      // The 209 moved the session on (a new token with it): the page reads the new one, so do we.
      b.token = (await b.agent.get('/api/Account/Antiforgery').expect(200)).body.token;
    }
    return b;
  }

  /** A platform administrator with an authenticator app, signed in with its code (a full sign-in). */
  async function platformAdmin(): Promise<Browser> {
    const user = await gw.addUser();
    await gw.store.consoleGrants.add({
      userId: user.id,
      role: 'platformAdmin',
      partnerId: null,
      customerId: null,
      grantedBy: 'cli:test',
    });
    const secret = new Secret();
    await gw.store.secondFactors.enableAuthenticator(user.id, gw.store.secrets.encrypt(secret.base32), 0);
    const b = await browser(gw.app);
    expect((await b.signIn(user.username)).body.redirect).toMatch(/\/account\/login\/twofactor/);
    const code = new TOTP({ secret }).generate({ timestamp: gw.clock.now() });
    expect((await b.post('/api/Account/LoginWith2FA', { method: 'authenticator', code })).status).toBe(209);
    // The completed sign-in is a new session, with a new token.
    b.token = (await b.agent.get('/api/Account/Antiforgery').expect(200)).body.token;
    return b;
  }

  beforeAll(async () => {
    gw = await startTestGateway({ backend: 'sqlite', config: { recentSignInMs: RECENT_MS } });
    stale = await browser(gw.app);
    expect((await stale.signIn((await gw.addUser()).username)).status).toBe(209);
    operators.stalePlatformAdmin = await operator('platformAdmin', { passkey: true });
    gw.clock.advance(RECENT_MS + 1_000);

    await gw.store.partners.create({ id: 'console-partner', name: 'Console Partner' });
    await gw.store.customers.create({
      id: 'console-customer',
      name: 'Console Customer',
      partnerId: 'console-partner',
    });
    operators.employee = await operator(null, { passkey: true });
    operators.support = await operator('support', { partnerId: 'console-partner', passkey: true });
    operators.customerAdmin = await operator('customerAdmin', {
      partnerId: 'console-partner',
      customerId: 'console-customer',
      passkey: true,
    });
    operators.unready = await operator('platformAdmin');
    operators.releaseManager = await operator('releaseManager', { passkey: true });
    operators.platformAdmin = await platformAdmin();

    recent = await browser(gw.app);
    expect((await recent.signIn((await gw.addUser()).username)).status).toBe(209);

    // Another account with a passkey (registered from the account) and a listed session.
    const other = await browser(gw.app);
    expect((await other.signIn((await gw.addUser()).username)).status).toBe(209);
    const options = await other.post('/api/Account/CredentialOptions?displayName=Laptop').expect(200);
    const { payload } = new SoftwareAuthenticator(gw.config.publicUrl).register(options.body);
    expect((await other.post('/api/Account/RegisterCredential', payload)).status).toBe(209);
    const devices = await other.agent.get('/api/Account/Devices').expect(200);
    othersPasskey = (devices.body as { devices: { id: string }[] }).devices[0]!.id;
    const view = await other.agent.get('/api/Account/SecurityCentreView').expect(200);
    othersSession = (view.body as { sessions: { id: string }[] }).sessions[0]!.id;
  });
  afterAll(async () => {
    await gw.close();
  });

  const rows = Object.entries(ACCOUNT_CALL_ACCESS) as [AccountCallName, Policy][];

  it('declares a policy for every call, and most calls ask for someone', () => {
    expect(rows.length).toBeGreaterThan(70);
    expect(rows.filter(([, policy]) => policy.kind !== 'anyone').length).toBeGreaterThan(40);
  });

  /** A policy as one line of the listing. */
  function describePolicy(policy: Policy): string {
    switch (policy.kind) {
      case 'pendingSignInAt':
        return `pendingSignInAt(${policy.steps.join(', ')})`;
      case 'ownerOf':
        return `ownerOf(${policy.object}, ${policy.as.kind})`;
      case 'stepOrSignedIn':
        return `stepOrSignedIn([${policy.steps.join(', ')}], ${policy.recently ? 'recently' : 'any sign-in'}${policy.vendors ? ', vendors too' : ''})`;
      case 'consolePermission':
        return `consolePermission(${policy.permission}, ${policy.scope})`;
      default:
        return policy.kind;
    }
  }

  it('lists every call with its policy (a changed policy changes this listing: review it, then update it)', () => {
    expect(rows.map(([call, policy]) => `${call}: ${describePolicy(policy)}`).join('\n')).toMatchSnapshot();
  });

  for (const [call, policy] of rows) {
    const expected = expectedAnswers(policy);
    if (!expected) continue;
    describe(`${call} (${policy.kind})`, () => {
      const url = `/api/Account/${call}`;
      it('refuses a browser nobody signed in with', async () => {
        const b = await browser(gw.app);
        expect(answerOf(await b.post(url, {}))).toEqual(expected.anonymous);
      });
      it('refuses a pending sign-in at another step', async () => {
        const b = await pendingAt(anotherStep(policy));
        expect(answerOf(await b.post(url, {}))).toEqual(expected.pendingElsewhere);
      });
      if (expected.stale)
        it('refuses a signed-in account whose sign-in is not recent', async () => {
          // A refusal that restarted a sign-in issued a new anti-forgery token: the page reads it, so do we.
          stale.token = (await stale.agent.get('/api/Account/Antiforgery').expect(200)).body.token;
          expect(answerOf(await stale.post(url, { id: 'any', name: 'Any' }))).toEqual(expected.stale);
        });
      if (policy.kind === 'ownerOf')
        it(`refuses another account's ${policy.object}`, async () => {
          const id = policy.object === 'passkey' ? othersPasskey : othersSession;
          expect(answerOf(await recent.post(url, { id, name: 'Mine now' }))).toEqual(NOT_YOURS);
        });
      if (policy.kind === 'consolePermission') {
        // Which of the grants below give the row's permission over its scope follows from ROLE_PERMISSIONS and
        // ADR 0058 (what each grant may do on which object: console-matrix.test.ts).
        const wrongGrants = (['support', 'customerAdmin', 'releaseManager'] as const).filter(
          (caller) => !grantGives(GRANTS_OF[caller], policy),
        );
        const rightGrants = (['support', 'customerAdmin', 'releaseManager'] as const).filter((caller) =>
          grantGives(GRANTS_OF[caller], policy),
        );
        it.each([
          ['a signed-in account without console grants', 'employee', FORBIDDEN],
          ...wrongGrants.map((caller) => [`${caller}'s grant (not this row's)`, caller, FORBIDDEN] as const),
          ['the right grant without a second factor or a passkey', 'unready', SECOND_FACTOR_REQUIRED],
          ...(policy.recently
            ? ([['the right grant, signed in not recently', 'stalePlatformAdmin', NOT_RECENT]] as const)
            : []),
        ] as const)('refuses %s', async (_who, caller, refusal) => {
          expect(answerOf(await operators[caller].post(url, {}))).toEqual(refusal);
        });
        it.each([
          ...rightGrants.map((caller) => [`${caller}'s grant with a passkey`, caller] as const),
          ['a platform administrator signed in with a code', 'platformAdmin'],
          ...(policy.recently
            ? []
            : ([['a platform administrator signed in not recently', 'stalePlatformAdmin']] as const)),
        ] as const)('lets %s through to the call', async (_who, caller) => {
          expect(REFUSALS_BEFORE_THE_CALL).not.toContainEqual(
            answerOf(await operators[caller].post(url, {})),
          );
        });
      }
    });
  }
});

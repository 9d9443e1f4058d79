import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf } from '../../http/browser.js';
import { ManualClock } from '../../infra/clock.js';
import { sha256 } from '../../infra/crypto/tokens.js';
import { MemorySessionStore } from '../../infra/sessions/memory-session.store.js';
import { RequestSessions } from '../../infra/sessions/request-sessions.js';
import { SessionManager, type Session } from '../../infra/sessions/session-manager.js';
import { LoginThrottle } from '../../infra/throttle/login-throttle.js';
import type { User } from '../../store/user.repository.js';
import type { Browser } from '../browser.js';
import { startTestGateway, TEST_PASSWORD, type TestGateway } from '../../testing/test-gateway.js';
import { PENDING_SIGN_IN_MS, SignInService, type SignInOutcome } from './sign-in.service.js';
import { StepId, type SignInFacts, type StepContext } from './sign-in-step.js';
import { defaultSignInSteps } from './step-registry.js';

/** The browser port over a request/response pair: a cookie header in, Set-Cookie headers out. */
function exchange(sessions: RequestSessions, session?: Session): Browser {
  const headers = new Map<string, unknown>();
  const req = { headers: session ? { cookie: `idp.session=${session.id}` } : {} } as IncomingMessage;
  const res = {
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), value),
  } as unknown as ServerResponse;
  return browserOf(sessions, req, res);
}

interface Account {
  expired: boolean;
  secondFactor: boolean;
  requires2fa: boolean;
  device: boolean;
  customers: number;
}

/** Every walk: which pages a sign-in visits, in order, for each kind of account (all steps switched on). */
const WALKS: [string, Account, string[]][] = [
  [
    'plain account',
    { expired: false, secondFactor: false, requires2fa: false, device: true, customers: 1 },
    [],
  ],
  [
    'expired password',
    { expired: true, secondFactor: false, requires2fa: false, device: true, customers: 1 },
    ['/account/change-expired-password'],
  ],
  [
    'second factor',
    { expired: false, secondFactor: true, requires2fa: false, device: true, customers: 0 },
    ['/account/login/twofactor'],
  ],
  [
    '2FA required, none set up',
    { expired: false, secondFactor: false, requires2fa: true, device: true, customers: 1 },
    ['/account/setup-twofactor'],
  ],
  [
    '2FA required and set up',
    { expired: false, secondFactor: true, requires2fa: true, device: true, customers: 1 },
    ['/account/login/twofactor'],
  ],
  [
    'no device yet',
    { expired: false, secondFactor: false, requires2fa: false, device: false, customers: 1 },
    ['/account/registerdevice'],
  ],
  [
    'several customers',
    { expired: false, secondFactor: false, requires2fa: false, device: true, customers: 2 },
    ['/account/select'],
  ],
  [
    'every step',
    { expired: true, secondFactor: true, requires2fa: true, device: false, customers: 3 },
    [
      '/account/change-expired-password',
      '/account/login/twofactor',
      '/account/registerdevice',
      '/account/select',
    ],
  ],
  [
    'required set-up, then device and customers',
    { expired: false, secondFactor: false, requires2fa: true, device: false, customers: 2 },
    ['/account/setup-twofactor', '/account/registerdevice', '/account/select'],
  ],
];

/** The memory store, counting the records it writes. */
class CountingSessionStore extends MemorySessionStore {
  creates = 0;
  updates = 0;
  /** Set, the next create fails (the store is down). */
  failNextCreate = false;
  override create(...args: Parameters<MemorySessionStore['create']>) {
    this.creates += 1;
    if (this.failNextCreate) {
      this.failNextCreate = false;
      return Promise.reject(new Error('session store down'));
    }
    return super.create(...args);
  }
  override update(...args: Parameters<MemorySessionStore['update']>) {
    this.updates += 1;
    return super.update(...args);
  }
}

describe('the sign-in state machine', () => {
  let gw: TestGateway;
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const accounts = new Map<string, Account>();
  const facts: SignInFacts = {
    hasSecondFactor: (id) => Promise.resolve(accounts.get(id)!.secondFactor),
    hasDevice: (id) => Promise.resolve(accounts.get(id)!.device),
    customerCount: (id) => Promise.resolve(accounts.get(id)!.customers),
  };
  let sessions: RequestSessions;
  let service: SignInService;
  const store = new CountingSessionStore(() => clock.now());

  beforeAll(async () => {
    gw = await startTestGateway({ backend: 'sqlite' });
    const manager = new SessionManager(store, { idleMs: 3_600_000, absoluteMs: 8 * 3_600_000 }, () =>
      clock.now(),
    );
    sessions = new RequestSessions(manager, { secure: false });
    const steps = defaultSignInSteps({ offerDeviceRegistration: true, selectCustomer: true });
    service = new SignInService({
      store: gw.store,
      sessions,
      throttle: new LoginThrottle({ kind: 'memory' }),
      steps,
      clock,
      facts,
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  async function signInWithPassword(account: Account, rememberMe = false, onSignIn?: (user: User) => void) {
    const user = await gw.addUser({
      requiresTwoFactor: account.requires2fa,
      passwordExpiresAt: account.expired ? clock.now() - 1 : null,
    });
    accounts.set(user.id, account);
    const anonymous = await sessions.manager.create({});
    const browser = exchange(sessions, anonymous);
    onSignIn?.(user);
    const outcome = await service.passwordSignIn(browser, anonymous, {
      login: user.username,
      password: TEST_PASSWORD,
      rememberMe,
      returnUrl: '/interaction/abc',
      ip: '203.0.113.9',
      // The browser has a platform authenticator: the passkey offer applies to accounts without a device (ADR 0016).
      platformAuthenticator: true,
    });
    return { user, anonymous, outcome };
  }

  function redirectOf(outcome: SignInOutcome): { redirect: string; session: Session } {
    if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${outcome.kind}`);
    return outcome;
  }

  it.each(WALKS)(
    '%s: visits %j, then the returnUrl, signed in with a new session id',
    async (_name, account, pages) => {
      const { anonymous, outcome } = await signInWithPassword(account);
      let current = redirectOf(outcome);
      const visited: string[] = [];
      const ids = [anonymous.id];
      while (current.redirect !== '/interaction/abc') {
        const [path, query] = current.redirect.split('?');
        visited.push(path!);
        expect(new URLSearchParams(query).get('returnUrl')).toBe('/interaction/abc');
        const state = service.pendingState(current.session);
        expect(state.kind === 'at' && state.step.path).toBe(path);
        // Not signed in while any step is open.
        expect(current.session.record.data.account).toBeUndefined();
        ids.push(current.session.id);
        const browser = exchange(sessions, current.session);
        current = redirectOf(
          await service.completeStep(
            browser,
            current.session,
            state.kind === 'at' ? state.step.id : StepId.twoFactor,
            ['otp'],
          ),
        );
        expect(visited.length).toBeLessThan(10);
      }
      expect(visited).toEqual(pages);
      expect(current.session.record.data.account).toBeDefined();
      expect(current.session.record.data.pending).toBeUndefined();
      // S24: the final id is new, and every id before it is dead.
      expect(ids).not.toContain(current.session.id);
      for (const id of ids) expect((await sessions.manager.load(id)).kind).not.toBe('active');
    },
  );

  it.each([
    [
      'a plain account',
      false,
      { expired: false, secondFactor: false, requires2fa: false, device: true, customers: 1 },
    ],
    [
      'remember-me',
      true,
      { expired: false, secondFactor: false, requires2fa: false, device: true, customers: 1 },
    ],
    [
      'an account with a step',
      false,
      { expired: false, secondFactor: true, requires2fa: false, device: true, customers: 1 },
    ],
  ] as [string, boolean, Account][])(
    'the password writes its outcome in one new record (%s): no second write of the same sign-in',
    async (_name, rememberMe, account) => {
      const before = { creates: store.creates + 1, updates: store.updates }; // + the anonymous session's record
      const { outcome } = await signInWithPassword(account, rememberMe);
      const { session } = redirectOf(outcome);
      expect({ creates: store.creates, updates: store.updates }).toEqual({
        creates: before.creates + 1,
        updates: before.updates,
      });
      const stored = await store.get(sha256(session.id));
      expect(stored?.kind).toBe('live');
      const record = stored?.kind === 'live' ? stored.record : undefined;
      expect(record?.persistent ?? false).toBe(rememberMe);
      if (account.secondFactor) expect(record?.data.pending?.current).toBe('two-factor');
      else expect(record?.data.account).toBeDefined();
    },
  );

  it.each([
    [
      'no step: the password and the completed sign-in in one write',
      { expired: false, secondFactor: false, requires2fa: false, device: true, customers: 1 },
      [['sign-in.password', 'sign-in.completed']],
    ],
    [
      'parked at a step: the password at once',
      { expired: false, secondFactor: true, requires2fa: false, device: true, customers: 1 },
      [['sign-in.password']],
    ],
  ] as [string, Account, string[][]][])(
    'the audit trail of a password sign-in (%s)',
    async (_name, account, writes) => {
      const record = gw.store.audit.record.bind(gw.store.audit);
      const seen: string[][] = [];
      gw.store.audit.record = (...events) => {
        seen.push(events.map((e) => e.kind));
        return record(...events);
      };
      try {
        const { user } = await signInWithPassword(account);
        expect(seen).toEqual(writes);
        const trail = (await gw.store.audit.list({ userId: user.id })).reverse();
        expect(trail.map((e) => [e.kind, e.ip])).toEqual(
          writes.flat().map((kind) => [kind, kind === 'sign-in.password' ? '203.0.113.9' : null]),
        );
      } finally {
        gw.store.audit.record = record;
      }
    },
  );

  it('keeps the password event in the trail when the session cannot be written after it', async () => {
    let userId = '';
    await expect(
      signInWithPassword(
        { expired: false, secondFactor: false, requires2fa: false, device: true, customers: 1 },
        false,
        (user) => {
          userId = user.id;
          store.failNextCreate = true;
        },
      ),
    ).rejects.toThrow('session store down');
    const trail = await gw.store.audit.list({ userId });
    expect(trail.map((e) => e.kind)).toEqual(['sign-in.password']);
  });

  it('refuses a step that is not the current one, and a stale pending sign-in', async () => {
    const { outcome } = await signInWithPassword({
      expired: true,
      secondFactor: true,
      requires2fa: false,
      device: true,
      customers: 1,
    });
    const { session } = redirectOf(outcome);
    const browser = exchange(sessions, session);
    expect((await service.completeStep(browser, session, 'two-factor')).kind).toBe('stepNotAllowed');
    expect(service.allowsCall(session, 'LoginWith2FA')).toBe(false);
    expect(service.allowsCall(session, 'changeexpiredpassword')).toBe(true);
    expect(service.allowsCall(session, 'User')).toBe(true);

    clock.advance(PENDING_SIGN_IN_MS + 1);
    expect(service.pendingState(session).kind).toBe('stale');
    expect(service.isAtStep(session, 'expired-password')).toBe(false);
    expect(service.allowsCall(session, 'ChangeExpiredPassword')).toBe(false);
    expect(service.allowsCall(session, 'Login')).toBe(true);
    expect((await service.completeStep(browser, session, 'expired-password')).kind).toBe('stepNotAllowed');
    await service.abandon(session);
    expect(service.pendingState(session).kind).toBe('none');
  });

  it('a pending sign-in is a browser-session cookie; remember-me makes the completed one persistent', async () => {
    const { outcome } = await signInWithPassword(
      { expired: true, secondFactor: false, requires2fa: false, device: true, customers: 1 },
      true,
    );
    const pending = redirectOf(outcome).session;
    expect(pending.record.persistent).toBe(false);
    const browser = exchange(sessions, pending);
    const done = redirectOf(await service.completeStep(browser, pending, 'expired-password'));
    expect(done.session.record.persistent).toBe(true);
  });
});

/**
 * S21, ADR 0005 "Only a proved factor renews the sign-in time": the completed session's authTime (OIDC auth_time, the
 * recent-sign-in stamp) is when this sign-in last proved a credential, for every way in; a step that proves nothing
 * and a silent sign-in never renew it.
 */
describe('S21 the sign-in time is the last proved credential', () => {
  let gw: TestGateway;
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const accounts = new Map<string, Account>();
  const facts: SignInFacts = {
    hasSecondFactor: (id) => Promise.resolve(accounts.get(id)!.secondFactor),
    hasDevice: (id) => Promise.resolve(accounts.get(id)!.device),
    customerCount: (id) => Promise.resolve(accounts.get(id)!.customers),
  };
  let sessions: RequestSessions;
  let service: SignInService;
  const MINUTE = 60_000;
  const plain: Account = {
    expired: false,
    secondFactor: false,
    requires2fa: false,
    device: true,
    customers: 1,
  };

  beforeAll(async () => {
    gw = await startTestGateway({ backend: 'sqlite' });
    const manager = new SessionManager(
      new MemorySessionStore(() => clock.now()),
      { idleMs: 3_600_000, absoluteMs: 8 * 3_600_000, persistentIdleMs: 14 * 24 * 3_600_000 },
      () => clock.now(),
    );
    sessions = new RequestSessions(manager, { secure: false });
    service = new SignInService({
      store: gw.store,
      sessions,
      throttle: new LoginThrottle({ kind: 'memory' }),
      steps: defaultSignInSteps({ offerDeviceRegistration: true, selectCustomer: true }),
      clock,
      facts,
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  async function userWith(account: Account): Promise<User> {
    const user = await gw.addUser({
      requiresTwoFactor: account.requires2fa,
      passwordExpiresAt: account.expired ? clock.now() - 1 : null,
    });
    accounts.set(user.id, { ...account });
    return user;
  }

  function redirectOf(outcome: SignInOutcome): { redirect: string; session: Session } {
    if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${outcome.kind}`);
    return outcome;
  }

  /** Passes every open step, a minute after the other, and answers the signed-in session. */
  async function walk(first: SignInOutcome): Promise<Session> {
    let current = redirectOf(first);
    for (let steps = 0; !current.session.record.data.account; steps += 1) {
      expect(steps).toBeLessThan(10);
      const state = service.pendingState(current.session);
      if (state.kind !== 'at') throw new Error(`not at a step: ${state.kind}`);
      clock.advance(MINUTE);
      const amr = state.step.id === StepId.twoFactor ? ['otp', 'mfa'] : [];
      current = redirectOf(
        await service.completeStep(exchange(sessions, current.session), current.session, state.step.id, amr),
      );
    }
    return current.session;
  }

  async function passwordSignIn(user: User, rememberMe = false, returnUrl = '/interaction/abc') {
    const anonymous = await sessions.manager.create({});
    return service.passwordSignIn(exchange(sessions, anonymous), anonymous, {
      login: user.username,
      password: TEST_PASSWORD,
      rememberMe,
      returnUrl,
      ip: '203.0.113.9',
      platformAuthenticator: true,
    });
  }

  const seconds = (ms: number) => Math.floor(ms / 1000);

  it('S21 password: the time of the password; choosing a customer and the passkey offer later do not renew it', async () => {
    const user = await userWith({ ...plain, device: false, customers: 2 });
    const provedAt = clock.now();
    const session = await walk(await passwordSignIn(user));
    expect(clock.now()).toBe(provedAt + 2 * MINUTE);
    expect(session.record.data.account?.authTime).toBe(seconds(provedAt));
  });

  it('S21 password and second factor: the time of the second factor, not of the steps after it', async () => {
    const user = await userWith({ ...plain, expired: true, secondFactor: true, device: false, customers: 2 });
    const start = clock.now();
    const session = await walk(await passwordSignIn(user));
    // expired password (+1 min), second factor (+2), passkey offer (+3), customer (+4)
    expect(session.record.data.account?.authTime).toBe(seconds(start + 2 * MINUTE));
    expect(session.record.data.account?.amr).toContain('mfa');
  });

  it('S21 passkey and one-time token: the time of the assertion or the token', async () => {
    const user = await userWith({ ...plain, customers: 2 });
    let anonymous = await sessions.manager.create({});
    let provedAt = clock.now();
    const viaPasskey = await walk(
      await service.deviceSignIn(exchange(sessions, anonymous), anonymous, user, {
        returnUrl: '/account/',
        ip: '203.0.113.9',
        credentialId: 'cred',
      }),
    );
    expect(viaPasskey.record.data.account?.authTime).toBe(seconds(provedAt));

    anonymous = await sessions.manager.create({});
    provedAt = clock.now();
    const viaToken = await walk(
      await service.oneTimeTokenSignIn(exchange(sessions, anonymous), anonymous, user, {
        returnUrl: '/account/',
        ip: '203.0.113.9',
        via: 'link',
      }),
    );
    expect(viaToken.record.data.account?.authTime).toBe(seconds(provedAt));
  });

  it('S21 upstream: its own auth_time when it gave one (never later than now), else the answer’s time', async () => {
    const user = await userWith(plain);
    const signIn = async (upstreamAuthTime: number | undefined) => {
      const anonymous = await sessions.manager.create({});
      return walk(
        await service.externalSignIn(exchange(sessions, anonymous), anonymous, user, {
          returnUrl: '/account/',
          ip: '203.0.113.9',
          providerId: 'contoso',
          issuer: 'https://upstream.example',
          upstreamAmr: ['pwd'],
          secondFactorByUpstream: false,
          idToken: 'header.payload.signature',
          upstreamAuthTime,
        }),
      );
    };
    const now = seconds(clock.now());
    expect((await signIn(now - 3600)).record.data.account?.authTime).toBe(now - 3600);
    expect((await signIn(now + 3600)).record.data.account?.authTime).toBe(seconds(clock.now()));
    expect((await signIn(undefined)).record.data.account?.authTime).toBe(seconds(clock.now()));
  });

  /** A remembered sign-in an hour ago, then the silent sign-in now. */
  async function silentAfterAnHour(account: Account, change: (user: User) => unknown) {
    const user = await userWith(account);
    const remembered = await walk(await passwordSignIn(user, true));
    const authTime = remembered.record.data.account!.authTime;
    clock.advance(60 * MINUTE);
    await change(user);
    const outcome = await service.silentSignIn(exchange(sessions, remembered), remembered, {
      returnUrl: '/interaction/abc',
      ip: '203.0.113.9',
    });
    return { user, remembered, authTime, outcome };
  }

  it('S21 silent sign-in through a customer selection keeps the remembered sign-in’s time and methods', async () => {
    const { authTime, outcome } = await silentAfterAnHour(plain, (user) => {
      accounts.get(user.id)!.customers = 2;
    });
    expect(redirectOf(outcome!).redirect).toMatch(/^\/account\/select\?/);
    const session = await walk(outcome!);
    expect(session.record.data.account?.authTime).toBe(authTime);
    expect(session.record.data.account?.amr).toEqual(['pwd']);
  });

  it('S21 silent sign-in through the second factor: the factor proved now is the new time', async () => {
    const { outcome } = await silentAfterAnHour(plain, (user) => {
      accounts.get(user.id)!.secondFactor = true;
    });
    expect(redirectOf(outcome!).redirect).toMatch(/^\/account\/login\/twofactor\?/);
    const session = await walk(outcome!);
    expect(session.record.data.account?.authTime).toBe(seconds(clock.now()));
    expect(session.record.data.account?.amr).toEqual(['pwd', 'otp', 'mfa']);
  });

  it.each([
    [
      'the 2FA set-up an administrator now requires',
      (user: User) => gw.store.users.update(user.id, { requiresTwoFactor: true }),
    ],
    [
      'an expired password',
      (user: User) => gw.store.users.update(user.id, { passwordExpiresAt: clock.now() - 1 }),
    ],
  ])(
    'S21 silent sign-in facing %s ends the remembered sign-in and asks for the password',
    async (_name, change) => {
      const { remembered, outcome } = await silentAfterAnHour(plain, async (user) => {
        await change(user);
      });
      const { redirect, session } = redirectOf(outcome!);
      expect(redirect).toBe('/account/login?returnUrl=%2Finteraction%2Fabc');
      // A new anonymous session keeping the username (S24); the remembered one is dead.
      expect(session.id).not.toBe(remembered.id);
      expect(session.record.data.account).toBeUndefined();
      expect(session.record.data.pending).toBeUndefined();
      expect(session.record.data.username).toBe(remembered.record.data.username);
      expect(session.record.persistent).toBe(false);
      expect((await sessions.manager.load(remembered.id)).kind).not.toBe('active');
    },
  );
});

describe('the step registry', () => {
  it('holds the steps of ARCHITECTURE.md in order', () => {
    expect(
      defaultSignInSteps()
        .list()
        .map((s) => s.id),
    ).toEqual(['expired-password', 'two-factor', 'two-factor-setup', 'passkey-offer', 'customer-selection']);
  });

  it('by default asks a user of several customers to choose one, and nobody else', async () => {
    const facts: SignInFacts = {
      hasSecondFactor: () => Promise.resolve(false),
      hasDevice: () => Promise.resolve(false),
      customerCount: (id) => Promise.resolve(id === 'two' ? 2 : 1),
    };
    const applying = async (steps: ReturnType<typeof defaultSignInSteps>, id: string) => {
      const context = {
        user: { id, requiresTwoFactor: false, passwordExpiresAt: null },
        pending: { passed: [] },
        now: 0,
        facts,
      } as unknown as StepContext;
      const found: string[] = [];
      for (const step of steps.list()) if (await step.appliesTo(context)) found.push(step.id);
      return found;
    };
    expect(await applying(defaultSignInSteps(), 'two')).toContain('customer-selection');
    expect(await applying(defaultSignInSteps(), 'one')).not.toContain('customer-selection');
    expect(await applying(defaultSignInSteps({ selectCustomer: false }), 'two')).not.toContain(
      'customer-selection',
    );
  });

  it('denies by default: only the waiting step’s calls and the calls outside any step', () => {
    const steps = defaultSignInSteps();
    expect(steps.allows('two-factor', 'LoginWith2FA')).toBe(true);
    expect(steps.allows('two-factor', 'loginwith2fa')).toBe(true);
    expect(steps.allows('two-factor', 'SelectCustomer')).toBe(false);
    expect(steps.allows('two-factor', 'NoSuchCall')).toBe(false);
    expect(steps.allows('customer-selection', 'Customers')).toBe(true);
    expect(steps.allows('customer-selection', 'Antiforgery')).toBe(true);
    expect(steps.allows('unknown-step', 'Customers')).toBe(false);
  });

  it('places a step before or after another, and refuses duplicates and unknown anchors', () => {
    const steps = defaultSignInSteps();
    // A step a new flow would add (its id then joins StepId).
    const terms = 'terms' as StepId;
    steps.register(
      { id: terms, path: '/account/terms', appliesTo: () => true, calls: [] },
      { before: 'passkey-offer' },
    );
    expect(
      steps
        .list()
        .map((s) => s.id)
        .indexOf(terms),
    ).toBe(3);
    expect(() => steps.register({ id: terms, path: '/x', appliesTo: () => true, calls: [] })).toThrow(
      /already/,
    );
    expect(() =>
      steps.register(
        { id: 'other' as StepId, path: '/x', appliesTo: () => true, calls: [] },
        { after: 'nope' as StepId },
      ),
    ).toThrow(/not registered/);
  });
});

/**
 * The generated access matrix of the console (issue 52, `http/console-matrix.test.ts`): the world it builds once per
 * test file, and what each area's samples tell it about their calls. Every console call whose row in
 * `ACCOUNT_CALL_ACCESS` is a `consolePermission` has samples in `./<area>.ts`, assembled in `./index.ts`.
 *
 * The matrix tries each call with every operator of the world (one per role and scope), once on an object inside the
 * operator's reach and once, when there is such an object, on objects outside it in every parameter. It expects the
 * call let through exactly when the role's permissions (ROLE_PERMISSIONS) give the row's permission over the row's
 * scope and the object is within reach; otherwise 403, or 403/404 for an object outside reach — and a refusal never
 * carries the object's data.
 */
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { ConsoleCallName, ConsoleGrant, ConsoleRole } from 'shared-contracts/console';
import type { ConsolePermission, PolicyOf } from '../../http/account-access.js';
import type { User } from '../../store/user.repository.js';
import { browser, startTestGateway, type Backend, type TestGateway } from '../test-gateway.js';

/** A signed-in fake browser (supertest agent with its anti-forgery token). */
export type Browser = Awaited<ReturnType<typeof browser>>;

/** The console calls the matrix tries: those whose row is a console permission (not `ConsoleAccess`). */
export type ConsoleMatrixCallName = {
  [C in ConsoleCallName]: PolicyOf<C> extends ConsolePermission ? C : never;
}[ConsoleCallName];

/** The operators of the world, one per role and scope. */
export const OPERATORS = [
  'platformAdmin',
  'releaseManager',
  'supportA',
  'supportB',
  'customerAdminRetail',
] as const;
/** An operator's name in the world. */
export type OperatorName = (typeof OPERATORS)[number];

/** A person of the world: an account, where it belongs, and the data a refusal must never show. */
export interface Person {
  id: string;
  username: string;
  email: string;
  displayName: string;
  /** The account's partner (null: none). */
  partnerId: string | null;
  /** The customers it is a member of. */
  customerIds: readonly string[];
  /** Holds a platform administrator's grant: outside every reach but a platform administrator's (issue 52). */
  platformAdmin: boolean;
}

/** An operator: a person with one console grant, a second factor, and a recent full sign-in (TOTP). */
export interface Operator extends Person {
  name: OperatorName;
  role: ConsoleRole;
  /** Its one grant, as the guard hands it to a handler. */
  grant: ConsoleGrant;
  /** Signed in just now with password and authenticator code; `post` sends the anti-forgery header. */
  b: Browser;
}

/** Where a person can be placed by {@link ConsoleWorld.addPerson}. */
export interface Place {
  partnerId: string | null;
  customerIds?: readonly string[];
  /** Also grant it platformAdmin (an object support must never reach). */
  platformAdmin?: boolean;
}

/**
 * The world: a gateway on a real store; two partners (`demo`, "Acme Payroll", and `other`, "Other Payroll");
 * customers Acme Retail and Acme Logistics under `demo` and Other Foods under `other`; a person in each customer;
 * a platform administrator among Acme Retail's members (so "support, or a customer administrator, acting on a
 * platform administrator" has an object to try); and the operators.
 */
export interface ConsoleWorld {
  gw: TestGateway;
  partners: { demo: { id: 'demo'; name: string }; other: { id: 'other'; name: string } };
  customers: {
    acmeRetail: { id: 'acme-retail'; name: string; partnerId: 'demo' };
    acmeLogistics: { id: 'acme-logistics'; name: string; partnerId: 'demo' };
    otherFoods: { id: 'other-foods'; name: string; partnerId: 'other' };
  };
  /**
   * One member of each customer, and a platform administrator (no operator: a target only) who is a member of
   * Acme Retail under `demo`. Operators are never targets: a change that got through would break other tries.
   */
  people: { retail: Person; logistics: Person; otherFoods: Person; platformAdmin: Person };
  operators: Record<OperatorName, Operator>;
  /** A fresh person at `place` (for a call that changes or removes what it acts on). */
  addPerson(place: Place): Promise<Person>;
  /**
   * Whether `grant` reaches `person` for a call of row scope 'customer' or 'partner' (issue 52): a grant without
   * partner and customer reaches everyone; support (a partner) its partner's people; a customer administrator the
   * members of its customer; and only a grant without partner and customer reaches a platform administrator.
   */
  reaches(grant: ConsoleGrant, person: Person): boolean;
  /**
   * A person inside the operator's reach (a member of Acme Retail, or of Other Foods for support of `other`); for
   * an operator without people permissions, the Acme Retail member (the guard refuses before looking).
   */
  personIn(operator: Operator): Person;
  /**
   * The world's people outside the operator's reach (empty for one who reaches everyone): for support of `demo` the
   * Other Foods member and the platform administrator; for the Acme Retail administrator the Acme Logistics and
   * Other Foods members and the platform administrator.
   */
  peopleOutside(operator: Operator): Person[];
}

/** One request of a call. */
export interface ConsoleRequest {
  method: 'GET' | 'POST';
  /** GET: sent as the query string. */
  query?: Record<string, string>;
  /** POST: the JSON body. */
  body?: unknown;
  /**
   * Strings the answer must not contain when the call is refused (the out-of-scope object's username, e-mail,
   * display name, a partner's name …). Persons' username, e-mail and display name are added by `personData`.
   */
  mustNotShow?: readonly string[];
  /**
   * Out of scope only: a search the caller may run whose answer leaves out what is out of reach (a people search
   * for another partner's username, an audit search by another partner's actor). Expected let through (2xx) to a
   * caller who holds the permission, yet showing none of `mustNotShow`; refused (403) to one who does not.
   */
  filtered?: boolean;
  /**
   * Out of scope only: the refusal's exact status to a caller who holds the permission, where the call tells them
   * apart (People: 403 for a person outside reach, 404 for an unknown id or a platform administrator support may
   * not know of, ADR 0061). Without it, 403 or 404.
   */
  refusedWith?: 403 | 404;
}

/**
 * How the matrix tries one call. Builders may create what they act on (each is called once per try), so a change
 * never removes what another try needs.
 */
export interface ConsoleCallSamples {
  /**
   * A request on an object inside `operator`'s reach (for a call without object, just a valid request). Called for
   * every operator, even those whose role lacks the permission (the guard refuses them before the object matters).
   */
  inScope(world: ConsoleWorld, operator: Operator): ConsoleRequest | Promise<ConsoleRequest>;
  /**
   * Requests naming objects outside `operator`'s reach in every parameter (an id of another partner's person, a
   * customer of another partner, …): one per parameter or object worth trying; [] when the operator reaches
   * everything. Undefined for calls that have no object (releases).
   */
  outOfScope?(world: ConsoleWorld, operator: Operator): ConsoleRequest[] | Promise<ConsoleRequest[]>;
  /**
   * Why a call of a row of scope 'partner' or 'customer' has no `outOfScope` (it names no object: e.g. the audit
   * retention, one setting of the whole service). Without it such a row must have `outOfScope`.
   */
  noObject?: string;
  /**
   * Statuses besides 2xx that still mean "let through": the call's own validation (e.g. 400 with a field error, 409
   * for a state conflict). Never 403/404 with `forbidden`/`notFound`: those are refusals.
   */
  allowed?: readonly (400 | 409)[];
}

/**
 * Samples of one area, by call. An area exports `samples = { … } satisfies ConsoleAreaSamples` (not annotated with
 * the type, which would hide from the index which calls it names).
 */
export type ConsoleAreaSamples = Partial<Record<ConsoleMatrixCallName, ConsoleCallSamples>>;

/** A person's data a refusal must not show. */
export function personData(person: Person): string[] {
  return [person.username, person.email, person.displayName];
}

const DEMO = { id: 'demo', name: 'Acme Payroll' } as const;
const OTHER = { id: 'other', name: 'Other Payroll' } as const;
const CUSTOMERS = {
  acmeRetail: { id: 'acme-retail', name: 'Acme Retail Ltd', partnerId: 'demo' },
  acmeLogistics: { id: 'acme-logistics', name: 'Acme Logistics GmbH', partnerId: 'demo' },
  otherFoods: { id: 'other-foods', name: 'Other Foods SA', partnerId: 'other' },
} as const;

let serial = 0;

/** Builds the world on a fresh test gateway (`backend` as `BACKENDS` names it). Close it with `world.gw.close()`. */
export async function buildConsoleWorld(backend: Backend = 'sqlite'): Promise<ConsoleWorld> {
  const gw = await startTestGateway({ backend });
  await gw.store.partners.create({ id: DEMO.id, name: DEMO.name });
  await gw.store.partners.create({ id: OTHER.id, name: OTHER.name });
  for (const customer of Object.values(CUSTOMERS)) await gw.store.customers.create({ ...customer });

  async function addPerson(place: Place, label = 'person'): Promise<Person> {
    serial += 1;
    const username = `${label}-${serial}-${randomBytes(3).toString('hex')}`;
    const user: User = await gw.addUser({
      username,
      displayName: `Shown ${username}`,
      partnerId: place.partnerId,
    });
    for (const customerId of place.customerIds ?? [])
      await gw.store.customers.addMembership({ userId: user.id, customerId, roles: ['EMPLOYEE'] });
    if (place.platformAdmin)
      await gw.store.consoleGrants.add({
        userId: user.id,
        role: 'platformAdmin',
        partnerId: null,
        customerId: null,
        grantedBy: 'cli:test',
      });
    return {
      id: user.id,
      username: user.username,
      email: user.email ?? `${username}@example.test`,
      displayName: user.displayName,
      partnerId: place.partnerId,
      customerIds: [...(place.customerIds ?? [])],
      platformAdmin: place.platformAdmin ?? false,
    };
  }

  /** A person with `grant`, an authenticator app, and a full sign-in with its code just now. */
  async function operator(name: OperatorName, grant: ConsoleGrant, place: Place): Promise<Operator> {
    const person = await addPerson({ ...place, platformAdmin: false }, name);
    await gw.store.consoleGrants.add({ userId: person.id, ...grant, grantedBy: 'cli:test' });
    const secret = new Secret();
    await gw.store.secondFactors.enableAuthenticator(person.id, gw.store.secrets.encrypt(secret.base32), 0);
    const b = await browser(gw.app);
    const signIn = await b.signIn(person.username);
    if (!/\/account\/login\/twofactor/.test(String((signIn.body as { redirect?: string }).redirect)))
      throw new Error(`${name}: the sign-in did not ask for the second factor (${signIn.status})`);
    const code = new TOTP({ secret }).generate({ timestamp: gw.clock.now() });
    const done = await b.post('/api/Account/LoginWith2FA', { method: 'authenticator', code });
    if (done.status !== 209) throw new Error(`${name}: the second factor was refused (${done.status})`);
    // The completed sign-in is a new session, with a new token.
    b.token = ((await b.agent.get('/api/Account/Antiforgery').expect(200)).body as { token: string }).token;
    return { ...person, platformAdmin: grant.role === 'platformAdmin', name, role: grant.role, grant, b };
  }

  const people = {
    retail: await addPerson({ partnerId: DEMO.id, customerIds: [CUSTOMERS.acmeRetail.id] }, 'retail'),
    logistics: await addPerson(
      { partnerId: DEMO.id, customerIds: [CUSTOMERS.acmeLogistics.id] },
      'logistics',
    ),
    otherFoods: await addPerson({ partnerId: OTHER.id, customerIds: [CUSTOMERS.otherFoods.id] }, 'foods'),
    platformAdmin: await addPerson(
      { partnerId: DEMO.id, customerIds: [CUSTOMERS.acmeRetail.id], platformAdmin: true },
      'admin',
    ),
  };
  const retail = { partnerId: DEMO.id, customerIds: [CUSTOMERS.acmeRetail.id] };
  const operators: Record<OperatorName, Operator> = {
    platformAdmin: await operator(
      'platformAdmin',
      { role: 'platformAdmin', partnerId: null, customerId: null },
      retail,
    ),
    releaseManager: await operator(
      'releaseManager',
      { role: 'releaseManager', partnerId: null, customerId: null },
      { partnerId: null },
    ),
    supportA: await operator(
      'supportA',
      { role: 'support', partnerId: DEMO.id, customerId: null },
      { partnerId: DEMO.id },
    ),
    supportB: await operator(
      'supportB',
      { role: 'support', partnerId: OTHER.id, customerId: null },
      { partnerId: OTHER.id },
    ),
    customerAdminRetail: await operator(
      'customerAdminRetail',
      { role: 'customerAdmin', partnerId: DEMO.id, customerId: CUSTOMERS.acmeRetail.id },
      retail,
    ),
  };

  function reaches(grant: ConsoleGrant, person: Person): boolean {
    if (grant.partnerId === null && grant.customerId === null) return true;
    if (person.platformAdmin) return false;
    if (grant.customerId !== null) return person.customerIds.includes(grant.customerId);
    return person.partnerId === grant.partnerId;
  }

  return {
    gw,
    partners: { demo: DEMO, other: OTHER },
    customers: CUSTOMERS,
    people,
    operators,
    addPerson: (place) => addPerson(place),
    reaches,
    personIn: (op) => (op.grant.partnerId === OTHER.id ? people.otherFoods : people.retail),
    peopleOutside: (op) => Object.values(people).filter((person) => !reaches(op.grant, person)),
  };
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS, type ConsoleGrant } from 'shared-contracts/console';
import { CONSOLE_SAMPLES } from '../testing/console-samples/index.js';
import {
  buildConsoleWorld,
  OPERATORS,
  type ConsoleCallSamples,
  type ConsoleMatrixCallName,
  type ConsoleRequest,
  type ConsoleWorld,
  type Operator,
  type OperatorName,
} from '../testing/console-samples/types.js';
import { BACKENDS } from '../testing/test-gateway.js';
import { ACCOUNT_CALL_ACCESS, type ConsolePermission, type Policy } from './account-access.js';

/** The console's rows of the access table: every call the guard lets through by a console permission. */
const ROWS = (Object.entries(ACCOUNT_CALL_ACCESS) as [string, Policy][]).filter(
  (row): row is [ConsoleMatrixCallName, ConsolePermission] => row[1].kind === 'consolePermission',
);

/** A call's samples (undefined until its area's samples are in the index). */
function samplesOf(call: ConsoleMatrixCallName): ConsoleCallSamples | undefined {
  return (CONSOLE_SAMPLES as Partial<Record<ConsoleMatrixCallName, ConsoleCallSamples>>)[call];
}

/** The grants of the world's operators (as `buildConsoleWorld` makes them): known before the world is built. */
const GRANTS: Record<OperatorName, ConsoleGrant> = {
  platformAdmin: { role: 'platformAdmin', partnerId: null, customerId: null },
  releaseManager: { role: 'releaseManager', partnerId: null, customerId: null },
  supportA: { role: 'support', partnerId: 'demo', customerId: null },
  supportB: { role: 'support', partnerId: 'other', customerId: null },
  customerAdminRetail: { role: 'customerAdmin', partnerId: 'demo', customerId: 'acme-retail' },
};

/**
 * What a row lets a grant do, from the table and ROLE_PERMISSIONS alone (ADR 0058, written here apart from the
 * guard so the guard is checked, not copied): nothing ('403') unless the role holds the row's permission and the
 * grant is as wide as the row's scope — 'all' wants a grant of no partner and no customer, 'partner' one not
 * limited to a customer, 'customer' any grant. A grant of no partner and no customer then acts everywhere ('all');
 * any other acts only within its partner or customer ('own': the handler must narrow).
 */
function access(grant: ConsoleGrant, row: ConsolePermission): '403' | 'all' | 'own' {
  if (!ROLE_PERMISSIONS[grant.role].includes(row.permission)) return '403';
  const everywhere = grant.partnerId === null && grant.customerId === null;
  const wideEnough =
    row.scope === 'all' ? everywhere : row.scope === 'partner' ? grant.customerId === null : true;
  if (!wideEnough) return '403';
  return everywhere ? 'all' : 'own';
}

/** The codes of the errors map of SPEC.md §4 with which the guard (or the API, for a call without router) refuses. */
const REFUSAL_CODES = [
  'notAuthenticated',
  'forbidden',
  'secondFactorRequired',
  'recentSignInRequired',
  'antiforgeryInvalid',
  'notFound',
];
/** The guard's refusals that are about the caller (never the answer for an object out of reach). */
const GUARD_ONLY_CODES = [
  'notAuthenticated',
  'secondFactorRequired',
  'recentSignInRequired',
  'antiforgeryInvalid',
];
/** What a refusal's body may hold: the problem details of SPEC.md §4, nothing of the object. */
const PROBLEM_KEYS = ['type', 'title', 'status', 'detail', 'instance', 'traceId', 'errors'];

interface Answer {
  status: number;
  body: unknown;
  text: string;
}

/** Every code of an answer's errors map (any field). */
function codesOf(answer: Answer): string[] {
  const errors = (answer.body as { errors?: Record<string, string[]> } | undefined)?.errors ?? {};
  return Object.values(errors).flat();
}

async function send(operator: Operator, call: string, request: ConsoleRequest): Promise<Answer> {
  const url = `/api/Account/${call}`;
  const res =
    request.method === 'GET'
      ? await operator.b.agent.get(url).query(request.query ?? {})
      : await operator.b.post(url, request.body ?? {});
  return { status: res.status, body: res.body as unknown, text: res.text };
}

/** The answer let the caller through to the call: a 2xx, or the call's own validation (not a refusal). */
function expectLetThrough(answer: Answer, samples: ConsoleCallSamples) {
  const own =
    (samples.allowed as readonly number[] | undefined)?.includes(answer.status) === true &&
    !codesOf(answer).some((code) => REFUSAL_CODES.includes(code));
  expect(
    (answer.status >= 200 && answer.status < 300) || own,
    `let through, got ${answer.status} ${answer.text.slice(0, 300)}`,
  ).toBe(true);
}

/**
 * A refusal that shows nothing more: 403 `forbidden` from the guard, or, for an object out of reach when
 * `outOfReach`, the handler's 403/404 (`forbidden`, `notFound`, or a code of its own on the field naming the object).
 */
function expectRefused(answer: Answer, request: ConsoleRequest, outOfReach: boolean) {
  if (outOfReach) {
    expect(request.refusedWith ? [request.refusedWith] : [403, 404], answer.text.slice(0, 300)).toContain(
      answer.status,
    );
    const codes = codesOf(answer);
    expect(codes.length, answer.text.slice(0, 300)).toBeGreaterThan(0);
    // The handler's own refusal may name the field (e.g. `partnerId: auditOtherPartner`); never one of the guard's
    // other refusals, which would mean the operator, not the object, was refused.
    for (const code of codes) expect(GUARD_ONLY_CODES).not.toContain(code);
  } else {
    expect({ status: answer.status, errors: (answer.body as { errors?: unknown }).errors }).toEqual({
      status: 403,
      errors: { '': ['forbidden'] },
    });
  }
  for (const key of Object.keys(answer.body as object)) expect(PROBLEM_KEYS).toContain(key);
  for (const secret of request.mustNotShow ?? []) expect(answer.text).not.toContain(secret);
}

/** A search let through whose answer leaves out what is out of reach. */
function expectFiltered(answer: Answer, request: ConsoleRequest) {
  expect(answer.status, answer.text.slice(0, 300)).toBeGreaterThanOrEqual(200);
  expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(300);
  expect(request.mustNotShow?.length ?? 0).toBeGreaterThan(0);
  for (const secret of request.mustNotShow ?? []) expect(answer.text).not.toContain(secret);
}

/**
 * The generated access matrix of the console (issue 52): every console row of ACCOUNT_CALL_ACCESS × every operator
 * of the world (each role, each scope) × an object in reach and objects out of reach. Expected let through exactly
 * when ROLE_PERMISSIONS gives the row's permission over its scope and the object is in the grant's reach; else 403,
 * or 403/404 for an object out of reach — and a refusal never carries the object's data. A row added to the table is
 * tried as soon as its area exports samples (`testing/console-samples/`).
 */
describe("the console's access matrix, as the table and ROLE_PERMISSIONS give it", () => {
  it('has samples for every console row', () => {
    expect(ROWS.length).toBeGreaterThan(8);
    expect(ROWS.map(([call]) => call).filter((call) => !samplesOf(call))).toEqual([]);
  });

  it('tries objects out of reach on every row a grant of one partner or customer passes, unless it has none', () => {
    const narrowed = ROWS.filter(([, row]) => row.scope !== 'all').map(([call]) => call);
    expect(narrowed.length).toBeGreaterThan(0);
    expect(narrowed.filter((call) => !samplesOf(call)?.outOfScope && !samplesOf(call)?.noObject)).toEqual([]);
  });

  it('derives this matrix from the table and ROLE_PERMISSIONS (a change shows here: review it, then update it)', () => {
    const lines = ROWS.map(
      ([call, row]) =>
        `${call} (${row.permission}, ${row.scope}${row.recently ? ', recently' : ''}): ${OPERATORS.map(
          (name) => `${name} ${access(GRANTS[name], row)}`,
        ).join(', ')}`,
    );
    expect(lines.join('\n')).toMatchSnapshot();
  });

  it("lists each role's permissions (one a row's scope keeps unused still shows in the console: review it)", () => {
    const lines = Object.entries(ROLE_PERMISSIONS).map(
      ([role, permissions]) => `${role}: ${permissions.join(', ')}`,
    );
    expect(lines.join('\n')).toMatchSnapshot();
  });
});

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `the console's access matrix (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let world: ConsoleWorld;
      beforeAll(async () => {
        world = await buildConsoleWorld(backend.name);
      }, 60_000);
      afterAll(async () => {
        await world?.gw.close();
      });

      it('builds the grants the matrix reads its expectations from', () => {
        for (const name of OPERATORS) expect(world.operators[name].grant).toEqual(GRANTS[name]);
      });

      for (const [call, row] of ROWS) {
        const samples = samplesOf(call);
        // A row without samples fails 'has samples for every console row' (and the type check of the samples' index).
        if (!samples) continue;
        describe(`${call} (${row.permission}, ${row.scope})`, () => {
          for (const name of OPERATORS) {
            const expected = access(GRANTS[name], row);
            it(`${name}: ${expected === '403' ? 'refused (403) in reach' : 'let through in reach'}`, async () => {
              const operator = world.operators[name];
              const request = await samples.inScope(world, operator);
              const answer = await send(operator, call, request);
              if (expected === '403') expectRefused(answer, request, false);
              else expectLetThrough(answer, samples);
            });
            if (samples.outOfScope)
              it(`${name}: ${expected === 'own' ? '403/404 (searches: without it)' : expected === '403' ? '403' : 'let through'} out of reach, never its data`, async () => {
                const operator = world.operators[name];
                const requests = await samples.outOfScope!(world, operator);
                // Someone who reaches everything has nothing out of reach; a narrowed operator always has.
                if (expected === 'own') expect(requests.length).toBeGreaterThan(0);
                for (const request of requests) {
                  const answer = await send(operator, call, request);
                  if (expected === 'all') expectLetThrough(answer, samples);
                  else if (expected === 'own' && request.filtered) expectFiltered(answer, request);
                  else expectRefused(answer, request, expected === 'own');
                }
              });
          }
        });
      }
    },
  );
}

// Section 6: OIDC authorization-code round trips/s and token refreshes/s with the demo client payroll-portal.
import { runLoad } from './load.mjs';
import { repeat, summarize } from './stats.mjs';
import { row } from './table.mjs';
import { BENCH_PASSWORD, createBenchUsers } from './users.mjs';

const S = '6';

/** @param {{base: string, gw: any, rounds: number, quick: boolean, users: number, log: (m: string) => void}} ctx */
export async function runOidc(ctx) {
  const { usernames } = await createBenchUsers(ctx.gw, ctx.users);
  const connections = 8;
  const duration = ctx.quick ? 3 : 4;
  const job = (flow) => ({
    kind: 'oidc',
    flow,
    url: ctx.base,
    connections,
    duration,
    usernames,
    password: BENCH_PASSWORD,
  });
  const code = await repeat(ctx.rounds, () => runLoad(job('code')));
  const refresh = await repeat(ctx.rounds, () => runLoad(job('refresh')));
  const data = {
    connections,
    duration,
    code: {
      perSecond: summarize(code.map((r) => r.perSecond)),
      p50: summarize(code.map((r) => r.p50)),
      p99: summarize(code.map((r) => r.p99)),
      hops: code.map((r) => r.hops),
      firstHops: code[0].firstHops,
      errors: code.map((r) => r.errors),
      firstError: code.find((r) => r.firstError)?.firstError,
    },
    refresh: {
      perSecond: summarize(refresh.map((r) => r.perSecond)),
      p50: summarize(refresh.map((r) => r.p50)),
      p99: summarize(refresh.map((r) => r.p99)),
      errors: refresh.map((r) => r.errors),
      firstError: refresh.find((r) => r.firstError)?.firstError,
    },
  };
  const hopsSeen = Object.keys(code[0].hops).join('/');
  const rows = [
    row(
      S,
      `authorization-code round trips/s (authorize → existing session → token, ${connections} users)`,
      '/s',
      data.code.perSecond,
      `${hopsSeen} HTTP requests per trip`,
    ),
    row(S, '    round trip p50', 'ms', data.code.p50),
    row(S, '    round trip p99', 'ms', data.code.p99),
    row(S, `token refreshes/s (rotating refresh tokens, ${connections} users)`, '/s', data.refresh.perSecond),
    row(S, '    refresh p99', 'ms', data.refresh.p99),
  ];
  return { rows, data };
}

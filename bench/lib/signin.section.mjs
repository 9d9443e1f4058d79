// Section 1: password sign-in throughput against the argon2id bound.
import { fileURLToPath } from 'node:url';
import {
  hashWith,
  loadGatewayArgon2,
  measurePacedTasks,
  measureVerifies,
  measureVerifiesOnThreads,
} from './argon2-bound.mjs';
import { BARE_SIGN_IN_PATH } from '../bare-sign-in.mjs';
import { cpuPerUnit, cpuReading } from './cpu-split.mjs';
import { forkServer } from './fork-server.mjs';
import { largest } from './cpu-profile.mjs';
import { loadGatewayArgon2Options } from './gateway-params.mjs';
import { runLoad } from './load.mjs';
import { profileSignIns } from './sign-in-profile.mjs';
import { percentile, repeat, summarize } from './stats.mjs';
import { row, textRow } from './table.mjs';
import { BENCH_PASSWORD, createBenchUsers } from './users.mjs';

const S = '1';
const BARE_SIGN_IN = fileURLToPath(new URL('../bare-sign-in.mjs', import.meta.url));

/**
 * @param {{base: string, gw: any, rounds: number, quick: boolean, users: number, log: (m: string) => void}} ctx
 */
export async function runSignIn(ctx) {
  const rows = [];
  const data = {};

  // (a) the hash bound, with the parameters imported from the gateway's build.
  const { options, source, verifyPassword } = await loadGatewayArgon2Options();
  data.argon2 = { options, source, byConcurrency: {} };
  const hash = await hashWith(options, BENCH_PASSWORD);
  const argon2 = await loadGatewayArgon2();
  const verifyMs = ctx.quick ? 1000 : 2000;
  // Two ways to verify as fast as the machine can: the asynchronous `verify` with 1–8 in flight (on libuv's pool,
  // each started from the main thread), and `verifySync` back to back on 1–4 threads of its own. The best counts.
  const verifyAlone = (way, durationMs) =>
    way.threads
      ? measureVerifiesOnThreads({ hash, password: BENCH_PASSWORD, threads: way.threads, durationMs })
      : measureVerifies({ hash, password: BENCH_PASSWORD, concurrency: way.concurrency, durationMs });
  const wayName = (way) => (way.threads ? `${way.threads} threads` : `${way.concurrency} in flight`);
  let best = { way: { concurrency: 1 }, summary: summarize([0]) };
  data.argon2.byThreads = {};
  for (const way of [1, 2, 4, 8]
    .map((c) => ({ concurrency: c }))
    .concat([1, 2, 4].map((t) => ({ threads: t })))) {
    const runs = await repeat(ctx.rounds, () => verifyAlone(way, verifyMs));
    const summary = summarize(runs.map((r) => r.perSecond));
    const entry = { summary, meanMs: summarize(runs.map((r) => r.meanMs)) };
    if (way.threads) data.argon2.byThreads[way.threads] = entry;
    else data.argon2.byConcurrency[way.concurrency] = entry;
    ctx.log(`argon2id verify, ${wayName(way)}: ${summary.median.toFixed(1)}/s`);
    if (summary.median > best.summary.median) best = { way, summary };
  }
  const oneHashMs = data.argon2.byConcurrency[1].meanMs;
  data.argon2.best = best;
  data.argon2.oneHashMs = oneHashMs;
  const params = `m=${options.memoryCost},t=${options.timeCost},p=${options.parallelism ?? 1}`;
  rows.push(
    row(
      S,
      `(a) argon2id verifies/s alone (${params}, best of 1/2/4/8 in flight, 1/2/4 threads: ${wayName(best.way)})`,
      '/s',
      best.summary,
      `from ${source}`,
    ),
  );
  rows.push(
    row(S, '    one argon2id verify (1 in flight)', 'ms', oneHashMs, 'the latency floor of a sign-in'),
  );

  // The bare sign-in server (bare-sign-in.mjs): measured beside the gateway with the same generator, connections and
  // schedule, the least a sign-in server can be with the gateway's hash. Its figures are this machine's floor.
  const bare = await forkServer(BARE_SIGN_IN);
  try {
    // (b) full sign-ins through the gateway.
    const userSetup = await createBenchUsers(ctx.gw, ctx.users);
    data.users = userSetup;
    ctx.log(`bench users: ${userSetup.usernames.length} via ${userSetup.how}`);
    const duration = ctx.quick ? 3 : 4;
    // A paced round's p99 is its 1 % slowest answers: at 4 s and ≈ 70/s that was the third slowest of ≈ 280, and one
    // pause of either server decided it. Twelve seconds make it the tenth of ≈ 850.
    const pacedDuration = ctx.quick ? 3 : 12;
    const poolSize = (rate, seconds = duration) => Math.ceil(Math.max(rate, 20) * 1.6 * (seconds + 1)) + 50;
    const loginJob = (extra) => ({
      kind: 'login',
      url: ctx.base,
      duration,
      usernames: userSetup.usernames,
      password: BENCH_PASSWORD,
      loginPath: '/api/Account/Login',
      expectStatus: 209,
      ...extra,
    });

    const bareJob = (extra) => ({
      kind: 'fixed',
      url: `http://127.0.0.1:${bare.port}`,
      duration,
      expectStatus: 209,
      request: {
        method: 'POST',
        path: BARE_SIGN_IN_PATH,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-requested-with': 'XMLHttpRequest',
        },
        body: JSON.stringify({
          username: userSetup.usernames[0],
          password: BENCH_PASSWORD,
          rememberMe: false,
          returnUrl: '/',
        }),
      },
      ...extra,
    });

    // Probe once: a sign-in must answer 209, otherwise the figures would measure an error path.
    const probe = await runLoad(loginJob({ connections: 1, duration: 1, poolSize: 5 }));
    if (!probe.statuses[209]) {
      throw new Error(`Login did not answer 209 (statuses ${JSON.stringify(probe.statuses)})`);
    }
    const bareProbe = await runLoad(bareJob({ connections: 1, duration: 1 }));
    if (!bareProbe.counted) {
      throw new Error(`the bare sign-in did not answer 209 (statuses ${JSON.stringify(bareProbe.statuses)})`);
    }

    data.sweep = {};
    let saturated = { connections: 1, summary: summarize([0]), p99: NaN };
    const levels = ctx.quick ? [1, 4, 16] : [1, 2, 4, 8, 16, 32];
    let flat = 0;
    for (const connections of levels) {
      const runs = await repeat(ctx.rounds, () =>
        runLoad(loginJob({ connections, poolSize: poolSize(best.summary.median) })),
      );
      const summary = summarize(runs.map((r) => r.perSecond));
      const other = runs.reduce((n, r) => n + (r.total - r.counted), 0);
      data.sweep[connections] = {
        summary,
        p50: summarize(runs.map((r) => r.p50)),
        p99: summarize(runs.map((r) => r.p99)),
        statuses: runs.map((r) => r.statuses),
        errors: runs.map((r) => r.errors),
        poolExhausted: runs.some((r) => r.poolExhausted),
      };
      ctx.log(
        `sign-in, ${connections} connections: ${summary.median.toFixed(1)}/s (p99 ${data.sweep[connections].p99.median.toFixed(0)} ms${other ? `, ${other} non-209` : ''})`,
      );
      const gain = summary.median / saturated.summary.median;
      if (summary.median > saturated.summary.median) saturated = { connections, summary };
      // Saturated: doubling the connections no longer adds 5 %, twice in a row (once can be a noisy round on a
      // shared 2-core machine).
      flat = gain < 1.05 ? flat + 1 : 0;
      if (connections >= 4 && flat >= 2) break;
    }
    data.saturated = saturated;
    rows.push(
      row(
        S,
        `(b) sign-ins/s through the gateway (saturated at ${saturated.connections} connections)`,
        '/s',
        saturated.summary,
        `${ctx.users} bench users rotated (per-account throttling kept out; made via ${userSetup.how.startsWith('admin') ? 'admin CLI' : 'store module'})`,
      ),
    );
    // b ÷ a side by side: one round of the bound, then one of sign-ins at the saturated concurrency, alternating, so
    // both see the same background load (other processes on a shared 2-core machine move both); the ratio is the
    // median of the per-round ratios.
    // Each round also reads where the machine's CPU went (lib/cpu-split.mjs): per verify in (a), and per sign-in in
    // (b) split between the gateway's main thread, its other threads (the hashes) and the load generator, and in (b′)
    // the bare server's, so the two servers' CPU per sign-in compare thread by thread.
    const pairs = await repeat(ctx.rounds, async () => {
      const a0 = cpuReading();
      const a = await verifyAlone(best.way, duration * 1000);
      const aCpu = cpuPerUnit(a0, cpuReading(), a.count);
      const b = await runLoad(
        loginJob({
          connections: saturated.connections,
          poolSize: poolSize(saturated.summary.median),
          serverPid: ctx.gw.pid,
        }),
      );
      const bareRun = await runLoad(bareJob({ connections: saturated.connections, serverPid: bare.pid }));
      return {
        a: a.perSecond,
        b: b.perSecond,
        ratio: b.perSecond / a.perSecond,
        bare: bareRun.perSecond,
        aCpu,
        bCpu: b.cpu,
        bareCpu: bareRun.cpu,
      };
    });
    data.pairs = pairs;
    rows.push(
      row(
        S,
        '    b ÷ a (alternating rounds)',
        '×',
        summarize(pairs.map((p) => p.ratio)),
        `bound 1.0: a sign-in costs at least one verify (a ${summarize(pairs.map((p) => p.a)).median.toFixed(1)}/s, b ${summarize(pairs.map((p) => p.b)).median.toFixed(1)}/s in these rounds)`,
        2,
      ),
    );
    rows.push(
      row(
        S,
        `(b′) bare sign-in server, sign-ins/s (same ${saturated.connections} connections, same rounds)`,
        '/s',
        summarize(pairs.map((p) => p.bare)),
        "bench/bare-sign-in.mjs: Express 5, JSON body, the gateway's verifyPassword; no session, store, throttle or checks",
      ),
    );
    rows.push(
      row(
        S,
        '    b′ ÷ a',
        '×',
        summarize(pairs.map((p) => p.bare / p.a)),
        "this machine's floor for b ÷ a",
        2,
      ),
    );
    rows.push(
      row(
        S,
        '    b ÷ b′',
        '×',
        summarize(pairs.map((p) => p.b / p.bare)),
        "bound 1.0: what the gateway's session, store, throttle and checks cost the rate",
        2,
      ),
    );
    rows.push(...cpuSplitRows(pairs));

    // Latency at 70 % of the saturated rate, paced evenly (open loop); each round is preceded by one hash-time
    // measurement (1 in flight) so the ratio compares like with like.
    const rate = Math.max(1, Math.round(saturated.summary.median * 0.7));
    // The bare server also at 70 % of its own saturated rate (b′ above): the two tails at the same share of each
    // server's capacity, beside the stricter reading at the gateway's rate (where the bare server is less loaded).
    const bareOwnRate = Math.max(1, Math.round(summarize(pairs.map((p) => p.bare)).median * 0.7));
    const paced = await repeat(ctx.rounds, async () => {
      const hashRun = await measureVerifies({
        hash,
        password: BENCH_PASSWORD,
        concurrency: 1,
        durationMs: verifyMs / 2,
      });
      const r = await runLoad(
        loginJob({ rate, duration: pacedDuration, poolSize: poolSize(rate, pacedDuration) }),
      );
      // The hash alone at the same rate, through the gateway's own verify and its queue of hashes in flight: what is
      // left of the sign-in's latency at this load once HTTP, session and store are taken away.
      const alone = await measurePacedTasks({
        task: async () => {
          const ok = await (verifyPassword ?? argon2.verify)(hash, BENCH_PASSWORD);
          if (!ok) throw new Error('the hash-alone verify returned false for the right password');
        },
        rate,
        durationMs: pacedDuration * 1000,
      });
      const bareRun = await runLoad(bareJob({ rate, duration: pacedDuration }));
      const bareOwn = await runLoad(bareJob({ rate: bareOwnRate, duration: pacedDuration }));
      return {
        ...r,
        bare: { p50: bareRun.p50, p99: bareRun.p99, statuses: bareRun.statuses },
        bareOwn: { p50: bareOwn.p50, p99: bareOwn.p99, statuses: bareOwn.statuses },
        hashMs: hashRun.meanMs,
        alone: { p50: percentile(alone.latencyMs, 50), p99: percentile(alone.latencyMs, 99) },
      };
    });
    const p50 = summarize(paced.map((r) => r.p50));
    const p99 = summarize(paced.map((r) => r.p99));
    data.paced = {
      rate,
      achieved: summarize(paced.map((r) => r.perSecond)),
      p50,
      p99,
      hashMs: paced.map((r) => r.hashMs),
      statuses: paced.map((r) => r.statuses),
      generatorLag: paced.map((r) => r.generatorLag),
      bare: paced.map((r) => r.bare),
      bareOwnRate,
      bareOwn: paced.map((r) => r.bareOwn),
      hashAlone: {
        how: verifyPassword
          ? `verifyPassword of ${source.split('#')[0]}`
          : '@node-rs/argon2 verify, no queue',
        p50: summarize(paced.map((r) => r.alone.p50)),
        p99: summarize(paced.map((r) => r.alone.p99)),
      },
    };
    rows.push(row(S, `    sign-in p50 at 70 % load (${rate}/s fixed rate)`, 'ms', p50));
    rows.push(row(S, `    sign-in p99 at 70 % load (${rate}/s fixed rate)`, 'ms', p99));
    rows.push(
      row(
        S,
        '    p50 ÷ one hash',
        '×',
        summarize(paced.map((r) => r.p50 / r.hashMs)),
        'bound 1.0 (hash timed just before each round)',
        2,
      ),
    );
    rows.push(
      row(S, '    p99 ÷ one hash', '×', summarize(paced.map((r) => r.p99 / r.hashMs)), 'bound 1.0', 2),
    );
    rows.push(
      row(
        S,
        `    verifies alone at ${rate}/s: p99 ÷ one hash`,
        '×',
        summarize(paced.map((r) => r.alone.p99 / r.hashMs)),
        `${verifyPassword ? "the gateway's verifyPassword and hash queue" : 'argon2 verify'}, same schedule: the hash's own tail at this load`,
        2,
      ),
    );
    rows.push(
      row(
        S,
        '    sign-in p99 ÷ verifies-alone p99',
        '×',
        summarize(paced.map((r) => r.p99 / r.alone.p99)),
        'bound 1.0: what HTTP, session and store add to the tail',
        2,
      ),
    );
    rows.push(
      row(
        S,
        `    bare sign-in server at ${rate}/s: p99 ÷ one hash`,
        '×',
        summarize(paced.map((r) => r.bare.p99 / r.hashMs)),
        "bench/bare-sign-in.mjs, same generator and schedule: this machine's floor for the sign-in's tail",
        2,
      ),
    );
    rows.push(
      row(
        S,
        '    sign-in p99 ÷ bare sign-in p99',
        '×',
        summarize(paced.map((r) => r.p99 / r.bare.p99)),
        'bound 1.0: what the gateway adds to the tail over the least sign-in server',
        2,
      ),
    );
    rows.push(
      row(
        S,
        `    bare sign-in server at 70 % of its own rate (${bareOwnRate}/s): p99 ÷ one hash`,
        '×',
        summarize(paced.map((r) => r.bareOwn.p99 / r.hashMs)),
        'the same share of its capacity as the gateway at its 70 %',
        2,
      ),
    );
    rows.push(
      row(
        S,
        '    sign-in p99 ÷ bare sign-in p99, each at 70 % of its own rate',
        '×',
        summarize(paced.map((r) => r.p99 / r.bareOwn.p99)),
        'the tails at equal load: what the gateway adds beyond its lower rate',
        2,
      ),
    );
    rows.push(
      row(
        S,
        '    load generator lag p99 (sent − scheduled)',
        'ms',
        summarize(paced.map((r) => r.generatorLag?.p99 ?? NaN)),
        'the generator, not the server: near 0 means arrivals left on time',
      ),
    );
    if (!ctx.quick) {
      // Where the difference goes: both servers' main thread under the inspector's sampling profiler (its own
      // gateway and bare server, lib/sign-in-profile.mjs; ≈ 1 minute). Wall time on the thread, so a thread that
      // waits for a core counts: compare the two sides of one run, not runs on different machines.
      ctx.log('sign-in profile (main thread, gateway and bare sign-in server)');
      try {
        const profile = await profileSignIns({ seconds: 10, log: ctx.log });
        data.profile = profileData(profile);
        rows.push(...profileRows(profile));
      } catch (e) {
        // The figures above stand without it (an inspector port refused, a process that would not start).
        rows.push(textRow(S, '    sign-in profile', 'n/a', e instanceof Error ? e.message : String(e)));
      }
    }
    return { rows, data };
  } finally {
    bare.stop();
  }
}

/** The profile as the results file keeps it: per sign-in ms by library and the gateway's top functions. */
function profileData({ gateway, bare }) {
  const per = (side, map, n) =>
    Object.fromEntries(largest(map, n).map(([k, ms]) => [k, ms / Math.max(1, side.answered)]));
  return {
    gateway: {
      answered: gateway.answered,
      busyMs: gateway.busyMs / Math.max(1, gateway.answered),
      byLibrary: per(gateway, gateway.byLibrary, 40),
      byFunction: per(gateway, gateway.byFunction, 40),
    },
    bare: {
      answered: bare.answered,
      busyMs: bare.busyMs / Math.max(1, bare.answered),
      byLibrary: per(bare, bare.byLibrary, 40),
    },
  };
}

/** The main thread per sign-in on both sides, and the libraries where the gateway spends most beyond the bare server. */
function profileRows({ gateway, bare }) {
  const per = (side, ms) => ms / Math.max(1, side.answered);
  const one = (v) => summarize([v]);
  const rows = [
    row(
      S,
      "    main thread per sign-in, sampled: the gateway's",
      'ms',
      one(per(gateway, gateway.busyMs)),
      'inspector profile, 10 s of sign-ins, 4 connections',
    ),
    row(S, '      the bare sign-in server’s', 'ms', one(per(bare, bare.busyMs)), 'the same load'),
  ];
  const extra = [...gateway.byLibrary.keys()]
    .map((lib) => [
      lib,
      per(gateway, gateway.byLibrary.get(lib) ?? 0) - per(bare, bare.byLibrary.get(lib) ?? 0),
    ])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6);
  for (const [lib, ms] of extra) rows.push(row(S, `      more than bare: ${lib}`, 'ms', one(ms), '', 3));
  return rows;
}

/**
 * The CPU split of the b ÷ a rounds, where /proc could be read: what one verify alone costs the machine, what one
 * sign-in costs it and who spent it, and the ratio the gateway alone would reach if the load generator took no core
 * time (it runs on the same cores; section 1's (a) has none).
 * With the bare server's reading of the same rounds (b′), the two servers' CPU per sign-in side by side: the gateway's
 * extra work on its main thread, and on its other threads (the same hash, made dearer or not by what else runs).
 * @param {{aCpu?: ReturnType<typeof cpuPerUnit>, bCpu?: ReturnType<typeof cpuPerUnit>,
 *   bareCpu?: ReturnType<typeof cpuPerUnit>}[]} pairs
 */
export function cpuSplitRows(pairs) {
  if (!pairs.every((p) => p.aCpu && p.bCpu?.generator !== undefined)) return [];
  const of = (pick) => summarize(pairs.map(pick));
  const idle = (pick) => `machine idle ${(of(pick).median * 100).toFixed(1)} %`;
  const line = (label, unit, pick, note, decimals) => row(S, label, unit, of(pick), note, decimals);
  const server = (cpu) => cpu.serverMain + cpu.serverOther;
  const gateway = [
    line(
      '    CPU per verify alone, (a) rounds',
      'ms',
      (p) => p.aCpu.machine,
      idle((p) => p.aCpu.idleShare),
    ),
    line(
      '    CPU per sign-in, (b) rounds',
      'ms',
      (p) => p.bCpu.machine,
      idle((p) => p.bCpu.idleShare),
    ),
    line("      the gateway's main thread", 'ms', (p) => p.bCpu.serverMain),
    line(
      "      the gateway's other threads",
      'ms',
      (p) => p.bCpu.serverOther,
      'the hashes, V8 helpers, WAL checkpoints',
    ),
    line('      the load generator', 'ms', (p) => p.bCpu.generator, 'a client process on the same cores'),
    line(
      '      the rest of the machine',
      'ms',
      (p) => p.bCpu.rest,
      'kernel work no process is charged for (± the 10 ms ticks of /proc)',
    ),
    line(
      "    CPU per verify alone ÷ the gateway's CPU per sign-in",
      '×',
      (p) => p.aCpu.machine / server(p.bCpu),
      "bound 1.0: as b ÷ a, counting the gateway's CPU alone",
      2,
    ),
  ];
  if (!pairs.every((p) => p.bareCpu?.serverMain !== undefined)) return gateway;
  return [
    ...gateway,
    line(
      "    CPU per sign-in, (b′) rounds: the bare server's main thread",
      'ms',
      (p) => p.bareCpu.serverMain,
      idle((p) => p.bareCpu.idleShare),
    ),
    line(
      "      the bare server's other threads",
      'ms',
      (p) => p.bareCpu.serverOther,
      'the hashes, V8 helpers',
    ),
    line(
      "    the bare server's CPU per sign-in ÷ the gateway's",
      '×',
      (p) => server(p.bareCpu) / server(p.bCpu),
      'bound 1.0: as b ÷ b′, counting each server alone',
      2,
    ),
    line(
      '      the gateway more than the bare server: main thread',
      'ms',
      (p) => p.bCpu.serverMain - p.bareCpu.serverMain,
      'the session, store, throttle and checks',
      3,
    ),
    line(
      '      the gateway more than the bare server: other threads',
      'ms',
      (p) => p.bCpu.serverOther - p.bareCpu.serverOther,
      'the same hashes: what the rest of the process costs them, and its own helpers',
      3,
    ),
  ];
}

/** Rows saying why the section could not run. */
export function signInUnavailable(reason) {
  return [textRow(S, 'sign-in vs hash bound', 'n/a', reason)];
}

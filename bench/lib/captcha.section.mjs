// Section 8: the captcha (issue 17, ADR 0014). How many proof-of-work challenges the gateway issues per second
// (GET CaptchaChallenge) and verifies per second (POST VerifyCaptcha with a solved, never-used token: the ALTCHA
// check, the single-use count in the key-value store and the pass), each with 4 connections. The solutions are made
// beforehand with altcha-lib, as the widget's worker makes them; how long that takes at each difficulty is noted in
// Node (one thread), and the real widget is timed in Chromium at both difficulties (captcha-widget.mjs).
import { createChallenge, randomInt, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { call, mapLimit, newSession } from './account-client.mjs';
import { widgetSolveTimes } from './captcha-widget.mjs';
import { summarize } from './stats.mjs';
import { row, textRow } from './table.mjs';

const S = '8';
const CONNECTIONS = 4;
// The gateway's ranges (gateway/src/infra/captcha/altcha-challenges.ts ALTCHA_DIFFICULTY).
const DIFFICULTY = { normal: [5_000, 50_000], high: [100_000, 400_000] };

function payload(challenge, solution) {
  const { parameters, signature } = challenge;
  return Buffer.from(JSON.stringify({ challenge: { parameters, signature }, solution })).toString('base64');
}

/** Runs `count` calls with CONNECTIONS in flight; answers per second and the statuses seen. */
async function perSecond(count, fn) {
  const statuses = {};
  const t0 = performance.now();
  await mapLimit(
    Array.from({ length: count }, (_, i) => i),
    CONNECTIONS,
    async (i) => {
      const status = await fn(i);
      statuses[status] = (statuses[status] ?? 0) + 1;
    },
  );
  return { rate: count / ((performance.now() - t0) / 1000), statuses };
}

/** @param {{base: string, rounds: number, quick: boolean, log: (m: string) => void}} ctx */
export async function runCaptcha(ctx) {
  const count = ctx.quick ? 100 : 400;
  const data = { count, connections: CONNECTIONS, issue: [], verify: [], solveMs: {} };
  for (let round = 0; round < ctx.rounds; round += 1) {
    // One session per token: a pass is per session and action, and the tokens are bound to their session.
    const sessions = await mapLimit(
      Array.from({ length: count }, (_, i) => i),
      CONNECTIONS,
      () => newSession(ctx.base),
    );
    const challenges = [];
    const issued = await perSecond(count, async (i) => {
      const res = await call(ctx.base, sessions[i].jar, 'GET', '/api/Account/CaptchaChallenge?action=login');
      challenges[i] = res.json;
      return res.status;
    });
    const tokens = [];
    const solveTimes = [];
    for (const [i, challenge] of challenges.entries()) {
      const t0 = performance.now();
      tokens[i] = payload(challenge, await solveChallenge({ challenge, deriveKey }));
      solveTimes.push(performance.now() - t0);
    }
    data.solveMs.normal = [...(data.solveMs.normal ?? []), ...solveTimes];
    const verified = await perSecond(count, async (i) => {
      const res = await call(ctx.base, sessions[i].jar, 'POST', '/api/Account/VerifyCaptcha', {
        version: 1,
        token: tokens[i],
        action: 'login',
      });
      return res.status;
    });
    data.issue.push(issued);
    data.verify.push(verified);
    ctx.log(
      `captcha round ${round + 1}: ${issued.rate.toFixed(0)} issued/s, ${verified.rate.toFixed(0)} verified/s`,
    );
  }
  // The high difficulty, solved locally with the gateway's range (the server issues it only under heavy risk).
  const highTimes = [];
  for (let i = 0; i < (ctx.quick ? 3 : 6); i += 1) {
    const [min, max] = DIFFICULTY.high;
    const challenge = await createChallenge({
      algorithm: 'SHA-256',
      cost: 1,
      counter: randomInt(max, min),
      deriveKey,
      hmacSignatureSecret: 'bench',
      hmacKeySignatureSecret: 'bench-key',
    });
    const t0 = performance.now();
    await solveChallenge({ challenge, deriveKey });
    highTimes.push(performance.now() - t0);
  }
  data.solveMs.high = highTimes;
  const widget = await widgetSolveTimes(ctx);
  data.widgetMs = widget;

  const non200 = (runs) =>
    runs.reduce(
      (n, r) => n + Object.entries(r.statuses).reduce((m, [s, c]) => m + (s === '200' ? 0 : c), 0),
      0,
    );
  const solveNormal = summarize(data.solveMs.normal);
  const solveHigh = summarize(highTimes);
  const rows = [
    textRow(S, `Captcha (proof-of-work), ${CONNECTIONS} connections, ${count} tokens per round`, ''),
    row(
      S,
      '    challenges issued (GET CaptchaChallenge)',
      '/s',
      summarize(data.issue.map((r) => r.rate)),
      non200(data.issue) ? `${non200(data.issue)} non-200` : '',
      0,
    ),
    row(
      S,
      '    solutions verified once (POST VerifyCaptcha)',
      '/s',
      summarize(data.verify.map((r) => r.rate)),
      non200(data.verify) ? `${non200(data.verify)} non-200` : 'every token accepted once',
      0,
    ),
    row(
      S,
      '    solve time, normal difficulty (Node, 1 thread)',
      'ms',
      solveNormal,
      `median of ${solveNormal.rounds} solves`,
      0,
    ),
    row(
      S,
      '    solve time, high difficulty (Node, 1 thread)',
      'ms',
      solveHigh,
      `median of ${solveHigh.rounds} solves`,
      0,
    ),
    ...[
      ['normal', widget.normal],
      ['high', widget.high],
    ].map(([level, times]) =>
      times.length > 0
        ? row(
            S,
            `    widget in Chromium, ${level} difficulty (challenge shown → page answered)`,
            'ms',
            summarize(times),
            `median of ${times.length} people; includes VerifyCaptcha and Recover`,
            0,
          )
        : textRow(
            S,
            `    widget in Chromium, ${level} difficulty`,
            `not measured: ${widget.error ?? 'no run'}`,
          ),
    ),
  ];
  return { rows, data };
}

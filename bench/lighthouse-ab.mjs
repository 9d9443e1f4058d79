#!/usr/bin/env node
// Lighthouse A/B: `node bench/lighthouse-ab.mjs <checkout A> <checkout B> [runs]` starts both checkouts' built
// gateways (each checkout built, `npm run build`) and runs Lighthouse (mobile) on /account/login alternately, A then
// B, so both meet the same machine. A figure of one build alone moves with the machine and the Chromium; the
// difference of two builds measured side by side does not (ADR 0034 measured React 19 + MF2 against Preact so).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runLighthouse } from './lib/lighthouse.mjs';

const [a, b, n = '5'] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: node bench/lighthouse-ab.mjs <checkout A> <checkout B> [runs, default 5]');
  process.exit(2);
}
const gateways = {};
for (const [key, dir] of [
  ['A', a],
  ['B', b],
]) {
  const { startGateway } = await import(pathToFileURL(path.resolve(dir, 'bench/lib/gateway.mjs')).href);
  gateways[key] = await startGateway();
}
const runs = { A: [], B: [] };
try {
  for (let i = 0; i < Number(n); i += 1) {
    for (const key of ['A', 'B']) {
      const r = await runLighthouse(`${gateways[key].base}/account/login`);
      runs[key].push(r);
      console.log(
        `${key} run ${i + 1}: score ${r.score}, TBT ${Math.round(r.tbtMs)} ms, FCP ${Math.round(r.fcpMs)} ms, LCP ${Math.round(r.lcpMs)} ms`,
      );
    }
  }
} finally {
  for (const gw of Object.values(gateways)) await gw.stop();
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
for (const key of ['A', 'B']) {
  const pick = (k) => Math.round(median(runs[key].map((r) => r[k])));
  console.log(
    `${key} (${key === 'A' ? a : b}): median score ${pick('score')}, TBT ${pick('tbtMs')} ms, FCP ${pick('fcpMs')} ms, LCP ${pick('lcpMs')} ms`,
  );
}

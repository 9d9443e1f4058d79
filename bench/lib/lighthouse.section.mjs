// Section 4: Lighthouse (mobile preset) on /account/login.
import { runLighthouse } from './lighthouse.mjs';
import { repeat, summarize } from './stats.mjs';
import { row } from './table.mjs';

const S = '4';

/** @param {{base: string, rounds: number}} ctx */
export async function runLighthouseSection(ctx) {
  const runs = await repeat(ctx.rounds, () => runLighthouse(`${ctx.base}/account/login`));
  const pick = (k) => summarize(runs.map((r) => r[k]));
  const data = { runs };
  const rows = [
    row(
      S,
      'Lighthouse /account/login (mobile): performance score',
      '/100',
      pick('score'),
      'higher is better',
      0,
    ),
    row(S, '    LCP (simulated slow 4G, 4× CPU slowdown)', 'ms', pick('lcpMs'), 'good ≤ 2500 ms', 0),
    row(S, '    TBT', 'ms', pick('tbtMs'), 'good ≤ 200 ms', 0),
    row(S, '    CLS', '', pick('cls'), 'good ≤ 0.1', 3),
  ];
  return { rows, data };
}

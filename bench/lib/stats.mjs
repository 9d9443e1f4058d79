// Small statistics helpers. Every figure the bench prints is the median over rounds with the spread (min–max),
// because on a noisy 2-core machine one round alone says little.

/**
 * @param {number[]} values
 * @returns {{median: number, min: number, max: number, rounds: number, values: number[]}}
 */
export function summarize(values) {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return { median: NaN, min: NaN, max: NaN, rounds: 0, values };
  const sorted = [...finite].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], rounds: finite.length, values };
}

/**
 * Percentile by nearest rank over raw samples (milliseconds with fractions, unlike autocannon's integer histogram).
 * @param {number[]} samples
 * @param {number} p 0..100
 */
export function percentile(samples, p) {
  if (samples.length === 0) return NaN;
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** Ratio of two summaries' medians with the spread taken from the extremes (worst/best pairing). */
export function ratio(numerator, denominator) {
  return {
    median: numerator.median / denominator.median,
    min: numerator.min / denominator.max,
    max: numerator.max / denominator.min,
    rounds: Math.min(numerator.rounds, denominator.rounds),
  };
}

/** Runs `fn` `rounds` times sequentially and returns the results in order. */
export async function repeat(rounds, fn) {
  const out = [];
  for (let i = 0; i < rounds; i += 1) out.push(await fn(i));
  return out;
}

import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import meter from './meter-dictionary.json' with { type: 'json' };

/**
 * The strength estimate behind the meter (zxcvbn-ts: patterns, keyboard walks, dates, repeats and the most frequent
 * breached passwords of meter-dictionary.json). Loaded lazily by {@link loadStrengthEstimator}, so the pages draw
 * without it. The server's common-password list (S2) decides; this only guides the person typing.
 */
const zxcvbn = new ZxcvbnFactory({
  graphs: meter.graphs,
  dictionary: { passwords: meter.passwords },
});

/** The score from 0 (too guessable) to 4 (very unguessable); `userInputs` count as known words. */
export function estimateStrength(password: string, userInputs: readonly string[] = []): 0 | 1 | 2 | 3 | 4 {
  return zxcvbn.check(password, [...userInputs]).score;
}

// What the strength meter's dictionary holds, from the package (used by the generator and by its drift test).
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

/** How many of the ranked breached passwords the page ships (≈ 8 KB gzip; the budget is ≤ 25 KB for the meter). */
export const METER_PASSWORDS = 2000;

export function meterDictionary() {
  return {
    graphs: adjacencyGraphs,
    passwords: dictionary['passwords-common'].slice(0, METER_PASSWORDS),
  };
}

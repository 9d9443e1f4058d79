/** The estimator's signature (see estimator.ts). */
export type StrengthEstimator = (password: string, userInputs?: readonly string[]) => 0 | 1 | 2 | 3 | 4;

let loading: Promise<StrengthEstimator> | undefined;

/**
 * Loads the estimator once, in a chunk of its own (≈ 23 KB gzip: zxcvbn-ts and its dictionary), when the person first
 * types a new password — the page itself does not wait for it.
 */
export function loadStrengthEstimator(): Promise<StrengthEstimator> {
  loading ??= import('./estimator.js')
    .then((m) => m.estimateStrength)
    .catch((error: unknown) => {
      // A failed chunk load (offline, a new release) may be retried on the next keystroke.
      loading = undefined;
      throw error;
    });
  return loading;
}

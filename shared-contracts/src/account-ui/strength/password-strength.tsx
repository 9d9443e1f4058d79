import { useEffect, useState } from 'react';
import { loadStrengthEstimator, type StrengthEstimator } from './load-estimator.js';

/** The meter's words, already translated by the page that shows it. */
export interface PasswordStrengthStrings {
  /** The level in words from the score (0 too guessable … 4 very unguessable): "Password strength: weak". */
  strength: (score: 0 | 1 | 2 | 3 | 4) => string;
}

const SEGMENTS = 5;

function colourOf(score: number): string {
  if (score <= 1) return 'var(--hr-color-error)';
  if (score === 2) return 'var(--hr-color-warning)';
  return 'var(--hr-color-success)';
}

/**
 * The strength meter under a new password (ADR 0010): a bar of five segments, as many filled as the score says,
 * and the level in words in a polite live region — the words carry the meaning, the colour only repeats it. The
 * estimator loads on the first character typed; until it is there, nothing is shown.
 */
export function PasswordStrength({
  password,
  strings,
  userInputs = [],
}: {
  password: string;
  strings: PasswordStrengthStrings;
  /** Words the estimator counts as known (the person's name and user name, say). */
  userInputs?: readonly string[];
}) {
  const [estimate, setEstimate] = useState<StrengthEstimator>();

  useEffect(() => {
    if (password === '' || estimate) return;
    let live = true;
    loadStrengthEstimator()
      .then((loaded) => {
        if (live) setEstimate(() => loaded);
      })
      // The meter is a guide only: without it the page works, and the server checks every password.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [password, estimate]);

  const score = password !== '' && estimate ? estimate(password, userInputs) : undefined;
  return (
    <div className="hr-strength" data-score={score}>
      <div aria-hidden="true" style={{ display: 'flex', gap: 'var(--hr-space-1)' }}>
        {Array.from({ length: SEGMENTS }, (_, i) => (
          <span
            key={i}
            style={{
              flex: 1,
              height: '0.375rem',
              borderRadius: 'var(--hr-radius)',
              border: '1px solid var(--hr-color-border)',
              background: score !== undefined && i <= score ? colourOf(score) : 'transparent',
            }}
          />
        ))}
      </div>
      <p aria-live="polite" aria-atomic="true" style={{ margin: 'var(--hr-space-1) 0 0' }}>
        {score === undefined ? '' : strings.strength(score)}
      </p>
    </div>
  );
}

import { useEffect, useState, type CSSProperties } from 'react';
import type { PasswordRules } from '../password-rules.js';
import { checkPasswordRules } from './password-rule-checks.js';

/** How long typing must pause before the rules' state is read out (not a message per key stroke). */
export const RULES_ANNOUNCE_DELAY_MS = 1000;

/** The words of the rules list, already translated by the page that shows it. */
export interface PasswordRulesStrings {
  /** "Your new password must meet these rules:" */
  rulesHeading: string;
  /** Read before a met rule: "Met:" */
  met: string;
  /** Read before a rule not met: "Not met:" */
  notMet: string;
  /** "All password rules are met." */
  allMet: string;
  /** "{met} of {total} password rules met." */
  someMet: (met: number, total: number) => string;
  /** A rule's text from its message (an error code with its values, as `validatePassword` fails with it). */
  rule: (message: string) => string;
}

/** Read by screen readers, not shown (logical properties only: the same in rtl). */
export const visuallyHidden: CSSProperties = {
  position: 'absolute',
  inlineSize: '1px',
  blockSize: '1px',
  overflow: 'hidden',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
};

/**
 * The password rules of the server's rule set, listed before anything is typed (SPEC.md §5: the bounds come from
 * the password-rules call) and each marked met or not as the user types: a tick or a cross (shapes, so not colour
 * alone) and a word for screen readers. Given as the new password field's hint, so it is read with the field; the
 * marks themselves are quiet ({@link PasswordRulesStatus} speaks once typing pauses).
 */
export function PasswordRulesList({
  password,
  rules,
  strings,
}: {
  password: string;
  rules: PasswordRules;
  strings: PasswordRulesStrings;
}) {
  return (
    <div className="hr-password-rules">
      <p style={{ margin: 0 }}>{strings.rulesHeading}</p>
      <ul className="hr-list-plain">
        {checkPasswordRules(password, rules).map((check) => (
          <li
            key={check.message}
            data-met={check.met}
            style={{
              display: 'flex',
              gap: 'var(--hr-space-1)',
              color: check.met ? 'var(--hr-color-success)' : 'var(--hr-color-text-muted)',
            }}
          >
            <span aria-hidden="true" style={{ flex: 'none', inlineSize: '1.25em', textAlign: 'center' }}>
              {check.met ? '✓' : '✗'}
            </span>
            <span>
              <span style={visuallyHidden}>{check.met ? strings.met : strings.notMet} </span>
              {strings.rule(check.message)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * One polite message for screen readers on how many rules the password meets, said once typing has paused for
 * {@link RULES_ANNOUNCE_DELAY_MS} — not on every key stroke. Shows nothing on screen (the list does).
 */
export function PasswordRulesStatus({
  password,
  rules,
  strings,
}: {
  password: string;
  rules: PasswordRules;
  strings: PasswordRulesStrings;
}) {
  const checks = checkPasswordRules(password, rules);
  const met = checks.filter((check) => check.met).length;
  let summary = '';
  if (password !== '') summary = met === checks.length ? strings.allMet : strings.someMet(met, checks.length);
  const [announced, setAnnounced] = useState('');

  useEffect(() => {
    const timer = setTimeout(() => setAnnounced(summary), RULES_ANNOUNCE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [summary, password]);

  return (
    <p role="status" aria-live="polite" aria-atomic="true" style={visuallyHidden}>
      {announced}
    </p>
  );
}

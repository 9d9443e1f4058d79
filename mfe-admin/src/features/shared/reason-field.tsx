import type { ReactNode } from 'react';
import { TextAreaField } from './text-area-field';

/** Props of {@link ReasonField}. */
export interface ReasonFieldProps {
  /** The visible label: says whether the reason is required and where it is recorded. */
  label: string;
  value: string;
  onChange: (reason: string) => void;
  /** Translated messages of the field (the page's own check and the server's `reason` errors). */
  errors?: readonly string[];
  /** Guidance under the field, read out with it. */
  hint?: ReactNode;
  /** A reason the change cannot be made without (it goes to the audit, ADR 0061). */
  required?: boolean;
  testId?: string;
}

/**
 * The reason every console change takes (issue 52: each change confirmed with a reason and audited), one field for
 * every dialog: a short text of at most 500 characters (the contracts' limit).
 */
export function ReasonField(props: ReasonFieldProps) {
  return <TextAreaField {...props} className="admin-reason" maxLength={500} />;
}

/** Props of {@link ProgressBar}. */
export interface ProgressBarProps {
  /** Whether work is under way; the bar is removed from the page when false. */
  active: boolean;
  /** Accessible name, translated by the caller ("Loading"). */
  label: string;
}

/**
 * An indeterminate progress bar at the top edge of the page, without spinner (SPEC.md §2 navigation behaviour).
 * Pure CSS animation; it honours prefers-reduced-motion in tokens.css.
 */
export function ProgressBar({ active, label }: ProgressBarProps) {
  if (!active) return null;
  return (
    <div className="hr-progress" role="progressbar" aria-label={label} aria-busy="true">
      <div className="hr-progress__bar" />
    </div>
  );
}

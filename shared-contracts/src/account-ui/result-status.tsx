/** Props of {@link ResultStatus}. */
export interface ResultStatusProps {
  /** Already translated ("Passkey deleted"); empty or undefined while there is nothing to say. */
  message?: string | undefined;
  testId?: string;
}

/**
 * The result of an action shown in the card it was taken in (issue 49: "Saved" beside what was changed, so nothing
 * depends on catching the 2-second toast). A polite live region that is always in the page, empty until there is a
 * result: a region inserted together with its text is not announced by every screen reader.
 */
export function ResultStatus({ message, testId }: ResultStatusProps) {
  return (
    <p role="status" className="hr-result-status" data-testid={testId}>
      {message ?? ''}
    </p>
  );
}

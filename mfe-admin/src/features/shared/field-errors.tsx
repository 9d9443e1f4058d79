/** A field's translated errors, tied to it by `id` (its aria-describedby names the list). Nothing without errors. */
export function FieldErrorList({ id, errors }: { id: string; errors: readonly string[] }) {
  if (errors.length === 0) return null;
  return (
    <ul id={id} className="hr-field__errors">
      {errors.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

/** The aria-describedby of a field with an optional hint and its errors (`<id>-hint`, `<id>-errors`). */
export function describedBy(id: string, hint: boolean, errors: readonly string[]): string | undefined {
  return (
    [hint ? `${id}-hint` : '', errors.length > 0 ? `${id}-errors` : ''].filter(Boolean).join(' ') || undefined
  );
}

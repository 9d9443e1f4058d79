/** One suggestion: what goes into the field, and what the list shows beside it. */
export interface Suggestion {
  value: string;
  label: string;
}

/**
 * The suggestions of a typed field (`<input list={id}>`): the browser's own list, which keyboard and screen reader
 * users work as any other, and which never stops one from typing a value it does not offer.
 */
export function SuggestionList({ id, suggestions }: { id: string; suggestions: readonly Suggestion[] }) {
  return (
    <datalist id={id}>
      {suggestions.map((s) => (
        <option key={s.value} value={s.value} label={s.label} />
      ))}
    </datalist>
  );
}

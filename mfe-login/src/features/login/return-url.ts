/** The returnUrl of a page's query (SPEC.md §2: also spelled ReturnUrl; default "/"). */
export function returnUrlOf(search: URLSearchParams): string {
  return search.get('returnUrl') ?? search.get('ReturnUrl') ?? '/';
}

/**
 * The list of common and breached passwords refused at reset and change (SECURITY-CHECKLIST S2; NIST 800-63B
 * §5.1.1.2 "passwords obtained from previous breach corpuses, dictionary words"). It ships with the service — no
 * third-party call — from the maintained zxcvbn-ts dictionaries:
 * - `@zxcvbn-ts/language-common` `passwords-common`: ~49,000 passwords ranked by how often they appear in public
 *   breach corpuses (the "10 million passwords" lists and others);
 * - `@zxcvbn-ts/language-en` `commonWords`, `wikipedia`, `firstnames`: ~90,000 English words and names, the bases
 *   people build passwords on.
 * Together more than 120,000 distinct entries, loaded once per process into a Set (O(1) per check), on the server
 * only: the sign-in pages never download it.
 */
import { dictionary as common } from '@zxcvbn-ts/language-common';
import { dictionary as english } from '@zxcvbn-ts/language-en';

let entries: Set<string> | undefined;

/** The list, built on first use (a few milliseconds) and kept for the life of the process. */
export function commonPasswordList(): ReadonlySet<string> {
  if (!entries) {
    entries = new Set<string>();
    const sources = [
      common['passwords-common'],
      english['commonWords-en'],
      english['wikipedia-en'],
      english['firstnames-en'],
    ] as readonly (readonly string[])[];
    for (const list of sources) for (const word of list) entries.add(word.toLowerCase());
  }
  return entries;
}

// Decorations people add to a listed password to pass composition rules: "Password123!", "monkey2024", "!qwerty".
const DECORATION = /^[\d\W_]+|[\d\W_]+$/gu;

/**
 * True when the password is on the list: compared without case, as typed and with leading/trailing digits and
 * symbols removed ("Password123!" is "password"). A passphrase of listed words ("correct horse battery staple") is
 * not itself on the list and passes.
 */
export function isCommonPassword(password: string): boolean {
  const list = commonPasswordList();
  const lower = password.toLowerCase();
  if (list.has(lower)) return true;
  const core = lower.replace(DECORATION, '');
  return core.length > 0 && core !== lower && list.has(core);
}

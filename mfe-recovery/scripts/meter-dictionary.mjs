// Writes shared-contracts/src/account-ui/strength/meter-dictionary.json (the meter is shared: issue 49): what the strength meter ships to the browser, cut from
// the maintained @zxcvbn-ts/language-common (ADR 0010) — its keyboard graphs and the most frequent breached
// passwords (the list is ranked), few enough for the page budget. The server keeps the whole list (S2).
// Run `npm run meter-dictionary -w mfe-recovery` after updating @zxcvbn-ts/language-common; a test checks the file
// still matches the package.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { meterDictionary } from './meter-dictionary-source.mjs';

const target = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'shared-contracts',
  'src',
  'account-ui',
  'strength',
  'meter-dictionary.json',
);
writeFileSync(target, `${JSON.stringify(meterDictionary())}\n`);
console.log(`wrote ${target}`);

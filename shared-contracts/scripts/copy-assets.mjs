// Copies the non-TypeScript assets (CSS design tokens) next to the compiled output.
import { cpSync, existsSync, mkdirSync } from 'node:fs';
const pairs = [
  ['src/ui/tokens.css', 'dist/ui/tokens.css'],
  ['src/account-ui/account-ui.css', 'dist/account-ui/account-ui.css'],
];
for (const [from, to] of pairs) {
  if (!existsSync(from)) continue;
  mkdirSync(to.slice(0, to.lastIndexOf('/')), { recursive: true });
  cpSync(from, to);
}

// Renders the sign-in pages ahead into dist/first-paint/ after the federated build (see
// shared-contracts/build/first-paint.mjs and docs/adr/0007-sign-in-first-paint.md).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFirstPaint } from 'shared-contracts/build/first-paint';

const dir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const count = await buildFirstPaint(dir, './src/first-paint/render.tsx');
console.log(`mfe-login: ${count} first-paint pages in dist/first-paint`);

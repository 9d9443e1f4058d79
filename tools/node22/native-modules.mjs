// Preloaded (NODE_OPTIONS=--import) into every process and thread of the Node 22 leg of `npm test` (run.mjs): the
// repository's node_modules hold better-sqlite3 built for the machine's Node 20 (another native ABI, which Node 22
// refuses to load), so every resolution that lands in it — `import`, `require`, `require.resolve` (the WAL
// checkpointer's worker) — is sent to the copy built for Node 22 beside this file. Nothing else changes.
import { registerHooks } from 'node:module';

const shared = new URL('../../node_modules/better-sqlite3/', import.meta.url).href;
const own = new URL('./node_modules/better-sqlite3/', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    return resolved.url.startsWith(shared)
      ? { ...resolved, url: own + resolved.url.slice(shared.length) }
      : resolved;
  },
});

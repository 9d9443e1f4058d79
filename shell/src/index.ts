// zod 4 decides whether to compile object parsers by probing `Function("")` when a schema is built, i.e. when
// shared-contracts loads. The site's CSP has no 'unsafe-eval' (S33), so that probe is refused and reported as a
// violation on every page. zod reads its global config from globalThis.__zod_globalConfig; setting `jitless`
// here, before the async boundary loads any shared module, makes it parse without code generation (no probe).
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };

// The page's styles are in the entry, so the build links them from index.html's head: the HTML the gateway sends
// first (the sign-in page already drawn) is styled before any script runs.
import './shell.css';
import './platform/platform.css';

// The async boundary module federation needs: the shared singletons are in the share scope before any app code runs.
import('./bootstrap').catch((error: unknown) => {
  // Nothing rendered yet: show a plain message rather than a blank page.
  document.body.textContent = 'The site could not start. Please reload the page.';
  console.error(error);
});

import { yieldToMain } from './platform/yield-to-main';

/**
 * The shell's start, behind the async boundary of index.ts. Evaluating the app's modules is the page's longest
 * piece of work (React DOM, zod and every shared schema, the RTK store and API, the router, i18next: ≈ 350 ms in
 * one task on a phone-class CPU, 4× throttled Chromium). Imported here one group at a time, each group is evaluated
 * in its own task, so the first paint the visitor already types into stays responsive (issue 10, Total Blocking
 * Time). The modules are the same and evaluated once: start-app's static imports then find them ready. Its own
 * modules are in this chunk (`eager`): no extra request.
 */
async function bootstrap() {
  await import('react-dom/client');
  await yieldToMain();
  await import('@reduxjs/toolkit/query/react'); // with RTK, redux, immer, react-redux
  await yieldToMain();
  await import('shared-contracts'); // zod and every schema of the site
  await yieldToMain();
  await import('shared-contracts/api'); // the store's slices and API endpoints
  await yieldToMain();
  await Promise.all([import('react-router'), import('react-i18next')]);
  await yieldToMain();
  const { startApp } = await import(/* webpackMode: "eager" */ './start-app');
  await startApp();
}

void bootstrap();

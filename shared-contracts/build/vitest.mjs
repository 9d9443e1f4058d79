// The vitest settings of the browser packages (shell and remotes): component tests in jsdom beside the code.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Component tests render React into jsdom; on a busy two-core CI machine (turbo runs lint, typecheck and other
 * suites beside them) a first render with its lazy chunks can take several seconds, so the timeout is roomy.
 */
export const componentTestConfig = defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    setupFiles: [fileURLToPath(new URL('./vitest-setup.mjs', import.meta.url))],
  },
});

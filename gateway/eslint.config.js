// The repository's config, plus one relaxation for tests: supertest types every response body as `any`, and the
// tests assert on those bodies directly (their shape is what the test checks).
import root from '../eslint.config.js';

export default [
  ...root,
  {
    files: ['src/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
];

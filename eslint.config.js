// ESLint flat config for every package: type-aware rules, no floating promises, and the import boundaries of
// ARCHITECTURE.md (a remote may import shared-contracts and libraries, never another remote or the shell).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const REMOTES = ['mfe-login', 'mfe-mfa', 'mfe-recovery', 'mfe-devices', 'mfe-tenant'];

/**
 * Code that reaches the browser validates with zod's mini build only (ADR 0025): one import of the classic API
 * would bring its ≈ 22 KB gzip back into every page. The gateway may use classic zod for its own schemas.
 */
const NO_CLASSIC_ZOD = ['zod', 'zod/v4', 'zod/v3'].map((name) => ({
  name,
  message:
    "Browser code uses 'zod/mini' (functional checks: z.string().check(z.minLength(1)), z.optional(…)); ADR 0025.",
}));

function boundaryFor(pkg) {
  const forbidden = [...REMOTES.filter((r) => r !== pkg), 'shell', 'gateway'];
  return {
    files: [`${pkg}/src/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: NO_CLASSIC_ZOD,
          patterns: [
            ...forbidden.map((name) => ({
              group: [name, `${name}/*`, `**/${name}/**`, `**/${name}`],
              message: `${pkg} may import shared-contracts and libraries only, never ${name}.`,
            })),
          ],
        },
      ],
    },
  };
}

/** The gateway's layers (ARCHITECTURE.md "The server"): http → identity → store, one direction only. */
const GATEWAY_LAYERS = [
  // The root files (app, server, runtime, CLIs) wire the layers together and may import any of them.
  { folder: '', forbidden: [] },
  { folder: 'http/', forbidden: ['store'], why: 'routers reach the store through identity services' },
  { folder: 'identity/', forbidden: ['http'], why: 'services know nothing of HTTP routing' },
  { folder: 'infra/', forbidden: ['identity', 'http'], why: 'side services sit below the identity layer' },
  { folder: 'store/', forbidden: ['identity', 'http', 'oidc'], why: 'repositories are the bottom layer' },
];

function gatewayLayer({ folder, forbidden, why }) {
  return {
    files: [`gateway/src/${folder}**/*.ts`],
    // Tests and test harnesses set up data in any layer; the direction binds the product code.
    ignores: folder ? ['gateway/src/**/*.test.ts', 'gateway/src/**/testing/**'] : [],
    rules: {
      // One rule per folder: a later block replaces this rule for its files, so each repeats the common part.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['shell', ...REMOTES, 'shared-contracts/ui', 'shared-contracts/api'],
              message: 'The gateway uses the DOM-free shared-contracts entry only.',
            },
            ...forbidden.map((layer) => ({
              regex: `(^|/)${layer}/`,
              message: `gateway/src/${folder} may not import ${layer}/: ${why}.`,
            })),
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.turbo/**',
      '**/data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/*.config.{js,mjs,cjs,ts}',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
      // Express handlers and React event handlers return promises by design.
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-expect-error': 'allow-with-description' }],
    },
  },
  {
    // React components and hook modules (house naming: `use-x.ts`). A hook called conditionally or an effect
    // reading a value it does not list breaks at runtime without a type error, so both fail the lint.
    files: ['**/*.tsx', '**/use-*.ts'],
    extends: [reactHooks.configs.flat.recommended],
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  ...REMOTES.map(boundaryFor),
  {
    files: ['shared-contracts/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: NO_CLASSIC_ZOD,
          patterns: [
            {
              group: ['shell', 'gateway', ...REMOTES],
              message: 'shared-contracts depends on nothing of ours.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['shell/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: NO_CLASSIC_ZOD }] },
  },
  ...GATEWAY_LAYERS.map(gatewayLayer),
  {
    // supertest types every response body as `any`, and the tests assert on those bodies directly.
    files: ['gateway/src/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
);

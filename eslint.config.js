// ESLint flat config for every package: type-aware rules, no floating promises, and the import boundaries of
// ARCHITECTURE.md (a remote may import shared-contracts and libraries, never another remote or the shell).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const REMOTES = ['mfe-login', 'mfe-mfa', 'mfe-recovery', 'mfe-devices', 'mfe-tenant', 'mfe-admin'];
/** The packages that run in the browser: one no-cycle and file-name block for all of them (the gateway has its own). */
const BROWSER_PACKAGES = [...REMOTES, 'shell', 'shared-contracts'];

/**
 * A remote's layout (STYLE.md "Layout", bulletproof-react's feature folders): `src/features/<feature>/` holds one
 * flow's pages, its `<feature>.api.ts`, hooks and tests; `src/features/shared/` holds what two features of the remote
 * use. A feature imports its own folder and `shared/`, never another feature, and `shared/` imports no feature: a
 * flow stays in one place and can be read, changed or removed alone. Feature folders are read from disk, so a new one
 * is covered without touching this file.
 */
function featureZones(remote) {
  const root = `${remote}/src/features`;
  const features = readdirSync(`${import.meta.dirname}/${root}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
    .map((entry) => entry.name);
  return [
    ...features.map((feature) => ({
      target: `${root}/${feature}`,
      from: root,
      except: [`./${feature}`, './shared'],
      message: `A feature of ${remote} imports only its own folder and features/shared: move what two features use to ${root}/shared.`,
    })),
    {
      target: `${root}/shared`,
      from: root,
      except: ['./shared'],
      message: `${root}/shared is used by features and imports none of them.`,
    },
  ];
}

const KEBAB_SEGMENT = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * STYLE.md "Names": files kebab-case, with role suffixes after dots (`sign-in-form.captcha.test.tsx`,
 * `two-factor.api.ts`). A rule of our own: one check of the file's name needs no plugin.
 */
const fileNames = {
  rules: {
    'kebab-case': {
      meta: {
        type: 'suggestion',
        docs: { description: 'File names are kebab-case, each dot-separated part (STYLE.md "Names").' },
        schema: [],
        messages: { name: "File name '{{name}}' is not kebab-case: write '{{suggestion}}'." },
      },
      create(context) {
        const name = context.filename.split(/[\\/]/).pop() ?? '';
        const parts = name.split('.');
        if (parts.every((part) => KEBAB_SEGMENT.test(part))) return {};
        const suggestion = parts
          .map((part) =>
            part
              .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
              .replace(/[_\s]+/g, '-')
              .toLowerCase(),
          )
          .join('.');
        return {
          Program(node) {
            context.report({ node, messageId: 'name', data: { name, suggestion } });
          },
        };
      },
    },
  },
};

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

/**
 * The gateway's zones (ARCHITECTURE.md "The server"): every folder of gateway/src and what it may import, checked
 * on the resolved file path (import-x/no-restricted-paths), not on how an import is spelt. `http` → `identity` →
 * `store`, one direction; `infra` (side services) sits on `store`, never the other way; `oidc` is an adapter beside
 * `http`; `cli` drives the layers but serves no HTTP; `releases` sits on `store`. `config.ts` (typed settings) is
 * everyone's. The wiring files (app, server, runtime, and oidc/mount.ts, which hands the OIDC adapter the app's
 * services) wire the zones together and may import any.
 */
const GATEWAY_FOLDERS = ['http', 'identity', 'infra', 'store', 'oidc', 'cli', 'releases', 'testing'];
const GATEWAY_ZONES = [
  { folder: 'http', may: ['identity', 'infra', 'releases'], why: 'routers reach the store through identity' },
  {
    folder: 'identity',
    may: ['infra', 'store', 'releases'],
    why: 'services know nothing of HTTP or the OIDC adapter',
  },
  { folder: 'infra', may: ['store'], why: 'side services sit below identity; the store never imports infra' },
  { folder: 'store', may: [], why: 'repositories are the bottom layer' },
  { folder: 'releases', may: ['store', 'infra'], why: 'the release registry sits on the store' },
  {
    folder: 'oidc',
    may: ['identity', 'infra', 'store'],
    why: 'the OIDC adapter uses identity, not the routers',
  },
  {
    folder: 'cli',
    may: ['identity', 'infra', 'store', 'oidc', 'releases'],
    why: 'the admin CLI serves no HTTP',
  },
];
const GATEWAY_ROOT_FILES = ['app.ts', 'server.ts', 'runtime.ts', 'oidc/mount.ts'];
// Tests and test harnesses set up data in any zone; the zones bind the product code.
const GATEWAY_TEST_FILES = ['gateway/src/**/*.test.ts', 'gateway/src/**/testing/**'];

/** The DOM-free shared-contracts entry only (every gateway file). */
const GATEWAY_SHARED_CONTRACTS = {
  group: ['shell', ...REMOTES, 'shared-contracts/ui', 'shared-contracts/account-ui', 'shared-contracts/api'],
  message: 'The gateway uses the DOM-free shared-contracts entry only.',
};

/**
 * Identity speaks no HTTP (issue 42): services take plain values and the `Browser` port (identity/browser.ts,
 * implemented in http/browser.ts); routers translate. No Express, no Node request or response types, no `req`/`res`.
 */
const IDENTITY_NO_HTTP_IMPORTS = [
  {
    name: 'express',
    message: 'identity/ speaks no HTTP: take plain values and the Browser port (identity/browser.ts).',
  },
  ...['node:http', 'http', 'node:https', 'https'].map((name) => ({
    name,
    importNames: ['IncomingMessage', 'ServerResponse', 'Server', 'createServer'],
    message: 'identity/ speaks no HTTP: take plain values and the Browser port (identity/browser.ts).',
  })),
];
const IDENTITY_NO_HTTP_SYNTAX = [
  {
    selector: ':function > Identifier.params[name=/^(req|res)$/]',
    message: 'identity/ speaks no HTTP: no req/res parameters; take the Browser port and plain values.',
  },
  {
    selector: 'TSTypeReference > Identifier[name=/^(IncomingMessage|ServerResponse)$/]',
    message: 'identity/ speaks no HTTP: no Node request/response types.',
  },
];

/**
 * Routers translate HTTP; they do not write session state (issue 50): a change of the session goes through a
 * service over the `Browser` port or the `SessionWriter` (identity/account/session-changes.ts, the sign-in
 * service). Only the port's adapter (http/browser.ts) calls the request sessions' writes.
 */
const HTTP_NO_SESSION_WRITES = [
  {
    selector: "MemberExpression[object.name='req'][property.name='session']",
    message: "Routers do not touch req.session: the session is identity's, through the Browser port.",
  },
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(save|regenerate|end)$/][callee.object.name=/^(sessions|sessionStore|manager)$/]",
    message:
      'Routers do not write sessions: a service changes session state through the Browser port (issue 50).',
  },
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(save|regenerate|end)$/][callee.object.property.name=/^(sessions|sessionStore)$/]",
    message:
      'Routers do not write sessions: a service changes session state through the Browser port (issue 50).',
  },
  {
    selector:
      'AssignmentExpression > MemberExpression.left MemberExpression[property.name=/^(record|data|pending|account)$/]',
    message: 'Routers do not change session records: a service does, through the Browser port (issue 50).',
  },
];

/**
 * Every skip names its reason (issue 50): a reader of the run's output, and of the test, sees why a test did not run.
 * A conditional skip carries the reason in the test's name (`describe.skipIf(reason)(`… — skipped: ${reason}`)`); a
 * skip inside a test says it (`ctx.skip('TEST_REDIS_URL is not set')`); Playwright's `test.skip(condition, reason)`
 * has its second argument. A bare `it.skip`/`describe.skip` (no reason anywhere) fails.
 */
const SKIP_NEEDS_REASON = [
  {
    selector:
      "CallExpression[callee.type='CallExpression'][callee.callee.property.name='skipIf'][arguments.0.type!='TemplateLiteral']",
    message:
      "A conditional skip names its reason in the test's name: describe.skipIf(reason)(`… — skipped: ${reason}`), or ctx.skip('reason') inside the test.",
  },
  {
    selector:
      "CallExpression[callee.type='CallExpression'][callee.callee.property.name='skipIf'][arguments.0.type='TemplateLiteral']:not(:has(TemplateElement[value.raw=/skipped/])):not(:has(Literal[value=/skipped/]))",
    message:
      "A conditional skip names its reason in the test's name: describe.skipIf(reason)(`… — skipped: ${reason}`), or ctx.skip('reason') inside the test.",
  },
  {
    selector:
      "CallExpression[callee.property.name='skip'][callee.object.name=/^(it|test|describe)$/]:not([arguments.1.type='TemplateLiteral']):not([arguments.1.value=/./])",
    message:
      "A skip names its reason: it.skipIf(reason)(`… — skipped: ${reason}`), ctx.skip('reason'), or Playwright's test.skip(condition, 'reason').",
  },
  {
    selector:
      "CallExpression[callee.property.name='skip'][callee.object.type='MemberExpression'][callee.object.object.name=/^(it|test|describe)$/]:not([arguments.1.type='TemplateLiteral']):not([arguments.1.value=/./])",
    message: 'A skip names its reason: test.describe.skip is not used; skip with a condition and a reason.',
  },
  {
    selector:
      "CallExpression[callee.property.name='skip']:not([arguments.0.type='TemplateLiteral']):not([arguments.1.type='TemplateLiteral']):not([arguments.0.value=/./]):not([arguments.1.value=/./])",
    message:
      "A skip names its reason: ctx.skip('TEST_REDIS_URL is not set'), test.skip(condition, 'reason').",
  },
];

/**
 * Composition you can read (issue 50): a service is built from explicit parts, and the object a `create…Service` (or
 * a `…Parts` builder) returns names each method with the part it comes from (`verifySignInCode: check.verifySignInCode`).
 * A spread (`...secondFactorCheck(ctx)`) hides where a method lives, and lets an extra method slip in unseen.
 */
const NO_SPREAD_FACADE = [
  {
    selector:
      ':function[id.name=/^create\\w*Service$|Parts$/] > BlockStatement > ReturnStatement > ObjectExpression > SpreadElement',
    message:
      'No spread façade: name each method with its part (`verifySignInCode: check.verifySignInCode`), so a reader finds where it lives.',
  },
  {
    selector:
      'VariableDeclarator[id.name=/^create\\w*Service$|Parts$/] > ArrowFunctionExpression > BlockStatement > ReturnStatement > ObjectExpression > SpreadElement',
    message:
      'No spread façade: name each method with its part (`verifySignInCode: check.verifySignInCode`), so a reader finds where it lives.',
  },
];

function gatewayZone({ folder, may, why }) {
  const others = GATEWAY_FOLDERS.filter((f) => f !== folder && !may.includes(f));
  return {
    files: [`gateway/src/${folder}/**/*.ts`],
    // A wiring file inside a folder (oidc/mount.ts) is bound by the wiring block, not by its folder's zone.
    ignores: [...GATEWAY_TEST_FILES, ...GATEWAY_ROOT_FILES.map((f) => `gateway/src/${f}`)],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            ...others.map((other) => ({
              target: `gateway/src/${folder}`,
              from: `gateway/src/${other}`,
              message: `gateway/src/${folder}/ may not import ${other}/: ${why}.`,
            })),
            {
              target: `gateway/src/${folder}`,
              from: 'gateway/src',
              except: [...GATEWAY_FOLDERS.map((f) => `./${f}`), './config.ts'],
              message: `gateway/src/${folder}/ may not import the root wiring (${GATEWAY_ROOT_FILES.join(', ')}).`,
            },
            {
              target: `gateway/src/${folder}`,
              from: 'gateway/src/**/testing/**',
              message: 'Product code does not import test harnesses.',
            },
          ],
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          ...(folder === 'identity' ? { paths: IDENTITY_NO_HTTP_IMPORTS } : {}),
          patterns: [GATEWAY_SHARED_CONTRACTS],
        },
      ],
      'no-restricted-syntax': [
        'error',
        ...(folder === 'identity' ? IDENTITY_NO_HTTP_SYNTAX : []),
        ...NO_SPREAD_FACADE,
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
  {
    // The browser packages (the gateway has its own block for these rules): no import cycle, since a cycle makes
    // the load order decide what a module sees and hides which way a dependency runs; a remote's features stay
    // apart (featureZones); file names kebab-case.
    files: BROWSER_PACKAGES.map((pkg) => `${pkg}/{src,build,scripts}/**/*.{ts,tsx,js,mjs,cjs}`),
    // Locale files are named by their BCP 47 tag (fr-CA.ts).
    ignores: ['**/locales/**'],
    plugins: { 'import-x': importX, 'file-names': fileNames },
    settings: {
      // no-cycle reads the imported files itself: with the TypeScript parser, or it sees no imports in them.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: BROWSER_PACKAGES.map((pkg) => `${import.meta.dirname}/${pkg}/tsconfig.json`),
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      // import-x never follows `import type`: tools/import-cycles (root `npm test`) counts those too.
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: false }],
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: REMOTES.flatMap(featureZones) },
      ],
      'file-names/kebab-case': 'error',
    },
  },
  {
    // Every gateway file: the DOM-free shared-contracts entry, and no import cycle (a cycle makes the load order
    // decide what a module sees, and hides which way a dependency runs).
    files: ['gateway/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // no-cycle reads the imported files itself: with the TypeScript parser, or it sees no imports in them.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: `${import.meta.dirname}/gateway/tsconfig.json` }),
      ],
    },
    rules: {
      'no-restricted-imports': ['error', { patterns: [GATEWAY_SHARED_CONTRACTS] }],
      // import-x never follows `import type`: tools/import-cycles (root `npm test`) counts those too.
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: false }],
    },
  },
  {
    files: GATEWAY_ROOT_FILES.map((f) => `gateway/src/${f}`),
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: GATEWAY_ROOT_FILES.map((f) => `gateway/src/${f}`),
              from: 'gateway/src/**/testing/**',
              message: 'Product code does not import test harnesses.',
            },
          ],
        },
      ],
    },
  },
  ...GATEWAY_ZONES.map(gatewayZone),
  {
    files: ['gateway/src/http/**/*.ts'],
    ignores: [...GATEWAY_TEST_FILES, 'gateway/src/http/browser.ts'],
    rules: { 'no-restricted-syntax': ['error', ...HTTP_NO_SESSION_WRITES] },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**/*.{spec,test}.ts', 'e2e/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...SKIP_NEEDS_REASON] },
  },
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

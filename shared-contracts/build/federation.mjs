// Build pieces shell and remotes must agree on (ARCHITECTURE.md "The remote contract"): the federation
// singletons, the TypeScript rule, and the whole build of a remote. Plain ESM so rspack configs import it as is.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rspack } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';

const contractsDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const contractsVersion = JSON.parse(readFileSync(path.join(contractsDir, 'package.json'), 'utf8')).version;

const require = createRequire(import.meta.url);

/**
 * Narrow entry points provided in place of whole packages (see build/shared/*.mjs): the shared name stays the
 * package's, so every `import … from 'react-router'` in the shell and the remotes still gets the one singleton.
 */
const NARROW_SHARED = {
  'react-router': path.join(contractsDir, 'build', 'shared', 'react-router.mjs'),
  '@reduxjs/toolkit': path.join(contractsDir, 'build', 'shared', 'redux-toolkit.mjs'),
  '@reduxjs/toolkit/query': path.join(contractsDir, 'build', 'shared', 'rtk-query.mjs'),
  '@reduxjs/toolkit/query/react': path.join(contractsDir, 'build', 'shared', 'rtk-query-react.mjs'),
  'react-i18next': path.join(contractsDir, 'build', 'shared', 'react-i18next.mjs'),
};

/**
 * Aliases the narrow entry points need: the real package under a name no shared key matches (so the narrow
 * module does not consume itself), in its production ESM build (tree-shakable, without development checks).
 */
export function narrowSharedAliases() {
  const dirOf = (name) => path.dirname(require.resolve(`${name}/package.json`, { paths: [contractsDir] }));
  const routerDir = dirOf('react-router');
  const rtkDist = path.join(dirOf('@reduxjs/toolkit'), 'dist');
  return {
    'hr-react-router-implementation$': path.join(routerDir, 'dist', 'production', 'index.mjs'),
    'hr-redux-toolkit-implementation$': path.join(rtkDist, 'redux-toolkit.modern.mjs'),
    'hr-rtk-query-implementation$': path.join(rtkDist, 'query', 'rtk-query.modern.mjs'),
    'hr-rtk-query-react-implementation$': path.join(rtkDist, 'query', 'react', 'rtk-query-react.modern.mjs'),
    'hr-react-i18next-implementation$': path.join(dirOf('react-i18next'), 'dist', 'es', 'index.js'),
  };
}

/**
 * Compile-time switches of the federation runtime in the shell, which runs the page's one runtime (the remotes use
 * it, `externalRuntime`): browser-only code (no Node loaders in the page). The snapshot code stays: the shell loads
 * every remote through its `mf-manifest.json` and preloads from it.
 */
export const HOST_RUNTIME_OPTIMIZATION = { target: 'web' };

/**
 * Compile-time switches of the bundler runtime in every remote's `remoteEntry.js`: browser-only, no snapshot code
 * and no remote-loading code (a remote never loads another remote; the shell does), ≈ 0.5 KiB less per entry.
 */
export const REMOTE_RUNTIME_OPTIMIZATION = { disableSnapshot: true, disableRemote: true, target: 'web' };

/** V8's compile hint for a whole file: compile every function eagerly, off the main thread while streaming. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * V8's explicit compile hint for a whole file (`//# allFunctionsCalledOnLoad`, Chromium ≥ 136), written at the top of
 * every JavaScript file of a production build, after minification (which drops comments) and before the content
 * hashes. Our scripts run most of their functions as soon as they load (module factories, React DOM, the schemas,
 * the store), and V8 otherwise compiles each function lazily on the main thread at its first call, in the middle of
 * the start's tasks. With the hint, the off-thread streaming compile that parses the file compiles them all there
 * instead (issue 10, Total Blocking Time; bench/README.md "Blocking time"). Browsers without the hint read a comment.
 * Workers built by child compilations (the service worker, the captcha's solver) are left as they are: they do not
 * run on the page's main thread.
 */
export function compileHintsPlugin() {
  return new rspack.BannerPlugin({
    banner: COMPILE_HINT,
    raw: true,
    test: /\.js$/,
    stage: rspack.Compilation.PROCESS_ASSETS_STAGE_DEV_TOOLING,
  });
}

/** The names a narrow entry point exports (its `export { a, b } from '…'` lists). */
function narrowExports(file) {
  const names = new Set();
  for (const m of readFileSync(file, 'utf8').matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const part of m[1].split(',')) {
      const name = part
        .replace(/\/\/.*$/gm, '')
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.add(name);
    }
  }
  return names;
}

/** Source files (.ts/.tsx/.js/.mjs) under `dir` that a federated build bundles (not tests, not testing helpers). */
function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    // Not in a browser build: tests' helpers (`testing`) and the sign-in pages' build-time render (`first-paint`,
    // bundled for Node by build/first-paint.mjs, where each package is itself, not a shared module).
    if (entry.isDirectory())
      return ['node_modules', 'testing', 'first-paint'].includes(entry.name) ? [] : sourceFiles(file);
    return /\.(?:tsx?|m?js)$/.test(entry.name) && !/\.test\.[^.]+$/.test(entry.name) ? [file] : [];
  });
}

/**
 * React's shared modules, shared whole: the production CommonJS build each specifier resolves to in the browser
 * builds (React publishes the same names in its development build, plus development-only ones such as
 * `captureOwnerStack`, which production leaves out).
 */
const WHOLE_SHARED = {
  react: ['react', 'cjs/react.production.js'],
  'react/jsx-runtime': ['react', 'cjs/react-jsx-runtime.production.js'],
  'react-dom': ['react-dom', 'cjs/react-dom.production.js'],
  'react-dom/client': ['react-dom', 'cjs/react-dom-client.production.js'],
};

/** The names the production build of a whole shared module exports, read by loading it in Node. */
function wholeExports(name, file) {
  const dir = path.dirname(require.resolve(`${name}/package.json`, { paths: [contractsDir] }));
  return new Set(Object.keys(require(path.join(dir, file))));
}

/**
 * The names each checked shared module provides in the browser: the narrow entry points' export lists and React's
 * production exports.
 * @returns {Map<string, Set<string>>} shared specifier → the names it provides
 */
export function sharedExports() {
  return new Map([
    ...Object.entries(NARROW_SHARED).map(([key, file]) => [key, narrowExports(file)]),
    ...Object.entries(WHOLE_SHARED).map(([key, [name, file]]) => [key, wholeExports(name, file)]),
  ]);
}

/**
 * The runtime imports from a narrowed package that its narrow entry point does not export, or from react,
 * react-dom, react-dom/client or react/jsx-runtime that React's production build does not export, in the given
 * source folders: such an import would build without a word (a consumed shared module's exports are not checked)
 * and be `undefined` in the browser. Type-only imports are ignored; `import * as` of a narrowed package is reported
 * (React's are shared whole: a namespace import of them is fine).
 * @param {string[]} dirs source folders
 * @param {Map<string, Set<string>>} [exportsOf] the provided names (default {@link sharedExports})
 * @returns {string[]} one line per problem
 */
export function missingNarrowExports(dirs, exportsOf = sharedExports()) {
  const problems = [];
  for (const file of dirs.flatMap(sourceFiles)) {
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/(import|export)\s+(type\s+)?([^;]*?)\s+from\s+['"]([^'"]+)['"]/g)) {
      const [, , typeOnly, clause, from] = m;
      const provided = exportsOf.get(from);
      if (!provided || typeOnly) continue;
      const narrowed = from in NARROW_SHARED;
      if (narrowed && (/\*\s+as\s/.test(clause) || /^\*$/.test(clause.trim()))) {
        problems.push(
          `${file}: \`${clause.trim()}\` from '${from}' (import names; the shared '${from}' is narrowed)`,
        );
        continue;
      }
      const braces = clause.match(/\{([^}]*)\}/);
      if (!braces) continue;
      for (const part of braces[1].split(',')) {
        const spec = part.trim();
        if (!spec || spec.startsWith('type ')) continue;
        const name = spec.split(/\s+as\s+/)[0].trim();
        if (!provided.has(name))
          problems.push(
            narrowed
              ? `${file}: '${name}' from '${from}' is not in ${path.relative(contractsDir, NARROW_SHARED[from])}`
              : `${file}: '${name}' from '${from}' is not exported by ${from}'s production build`,
          );
      }
    }
  }
  return problems;
}

/**
 * Fails the build when a source of the package (or of shared-contracts, which every build bundles) imports from a
 * narrowed package a name its narrow entry point lacks (add the name to build/shared/<package>.mjs), or from React
 * a name its production build does not have (e.g. a development-only API, or an API of a newer React).
 */
export class NarrowSharedCheckPlugin {
  constructor(dirs) {
    this.dirs = dirs;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('NarrowSharedCheckPlugin', (compilation) => {
      for (const problem of missingNarrowExports(this.dirs)) {
        compilation.errors.push(new compiler.webpack.WebpackError(`narrow shared module: ${problem}`));
      }
    });
  }
}

/** The source folders a build's narrow check reads: the package's src and shared-contracts' src. */
export function narrowCheckDirs(dir) {
  return [path.join(dir, 'src'), path.join(contractsDir, 'src')];
}

/**
 * The API client, the UI kits (`shared-contracts/api`, `/ui`, `/account-ui`) and the console contract
 * (`shared-contracts/console`, bundled by the shell's account menu and by mfe-admin) import the root's modules by relative path
 * (`../login.schema.js`). Built as their own shared modules, they would carry a second copy of every such module
 * beside the root's (rspack inlines it into the root's concatenated module and emits it again for them). Each such
 * request, when the root re-exports that file whole (`export * from './x.js'`), becomes `shared-contracts` itself:
 * the one shared root. Sources keep their relative imports (tsc and the gateway are unchanged).
 */
export function sharedContractsRootImports() {
  const dist = path.join(contractsDir, 'dist');
  const root = path.join(dist, 'index.js');
  const reexported = (file) =>
    existsSync(root) &&
    new RegExp(`export \\* from '\\./${file.replace(/[.]/g, '\\.')}';`).test(readFileSync(root, 'utf8'));
  return new rspack.NormalModuleReplacementPlugin(/^\.\.\/[\w.-]+\.js$/, (resource) => {
    const from = resource.context ?? '';
    if (!/[\\/]shared-contracts[\\/]dist[\\/](?:api|ui|account-ui|console)$/.test(from)) return;
    const file = resource.request.slice(3);
    if (path.join(from, '..') === dist && reexported(file)) resource.request = 'shared-contracts';
  });
}

/**
 * The federation plugin injects its bundler runtime by the absolute path of its CommonJS build
 * (webpack-bundler-runtime/dist/index.cjs), which requires the CommonJS builds of the runtime, its core and the SDK:
 * CommonJS is not tree-shaken, so every entry carried the Node loaders, the manifest snapshot code and the logger.
 * Each of these packages (and each CommonJS file the plugin names by path) resolves to its ES module build of the
 * same version instead, in the shell (which also provides the runtime core to the remotes, one copy) and in the
 * remotes.
 */
export function federationRuntimeEsm() {
  const aliases = {};
  for (const name of [
    '@module-federation/webpack-bundler-runtime',
    '@module-federation/runtime',
    '@module-federation/runtime-core',
    '@module-federation/sdk',
    '@module-federation/error-codes',
    '@module-federation/inject-external-runtime-core-plugin',
  ]) {
    const cjs = require.resolve(name, { paths: [contractsDir] });
    if (!cjs.endsWith('.cjs')) continue;
    const esm = [cjs.replace(/\.cjs$/, '.js'), cjs.replace(/\.cjs$/, '.mjs')].find(
      (file) => existsSync(file) && /^\s*(?:import|export)\b/m.test(readFileSync(file, 'utf8')),
    );
    if (!esm) continue;
    aliases[`${name}$`] = esm;
    aliases[`${cjs}$`] = esm;
  }
  return aliases;
}

/** Reads a package.json. */
export function readPackage(dir) {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
}

/**
 * The federation singletons, loaded once per page: react, react-dom, react-router, @reduxjs/toolkit, react-redux,
 * i18next, react-i18next and shared-contracts (with its subpaths). Versions come from the building package's
 * dependencies, so a remote built against an incompatible major is refused at runtime instead of running twice.
 */
export function federationShared(pkg) {
  // key: the import specifier shared; name: its package (whose version is required and provided).
  // strictVersion: a remote whose range the page's loaded singleton does not satisfy is refused at load (the runtime
  // throws "… does not satisfy the requirement …", reported as a remote-load failure), never run against it.
  const singleton = (key, name = key) => ({
    singleton: true,
    strictVersion: true,
    requiredVersion: requiredRange(pkg.dependencies[name]),
    ...(NARROW_SHARED[key]
      ? { import: NARROW_SHARED[key], version: installedVersion(name), shareKey: key }
      : {}),
  });
  const contracts = {
    singleton: true,
    strictVersion: true,
    requiredVersion: requiredRange(pkg.dependencies['shared-contracts'] ?? contractsVersion),
    version: contractsVersion,
  };
  return {
    react: singleton('react'),
    'react/jsx-runtime': singleton('react/jsx-runtime', 'react'),
    'react-dom': singleton('react-dom'),
    'react-router': singleton('react-router'),
    '@reduxjs/toolkit': singleton('@reduxjs/toolkit'),
    '@reduxjs/toolkit/query': singleton('@reduxjs/toolkit/query', '@reduxjs/toolkit'),
    '@reduxjs/toolkit/query/react': singleton('@reduxjs/toolkit/query/react', '@reduxjs/toolkit'),
    'react-redux': singleton('react-redux'),
    i18next: singleton('i18next'),
    'react-i18next': singleton('react-i18next'),
    'shared-contracts': contracts,
    'shared-contracts/api': contracts,
    'shared-contracts/ui': contracts,
    'shared-contracts/account-ui': contracts,
  };
}

/**
 * What a remote shares: the same singletons, consumed only (`import: false`). The shell registers every one of them
 * before any remote loads (built in, or for the signed-in kit fetched on first use: shell/rspack.config.mjs), and a
 * strict singleton never falls back to a remote's own copy: a version the page's copy does not satisfy refuses the
 * remote at load. So a copy in the remote's build never ran, yet it cost every page the remote is on its share maps
 * and chunk names in `remoteEntry.js` (≈ 0.8 KiB brotli; mfe-login's entry 7,436 → 6,646 B) and every release the
 * copies' files (mfe-login's build output 1.2 → 0.4 MB). The required ranges stay in the entry and in
 * `mf-manifest.json`, where the runtime and `releases publish` read them.
 */
export function remoteShared(pkg) {
  return Object.fromEntries(
    Object.entries(federationShared(pkg)).map(([key, config]) => [key, { ...config, import: false }]),
  );
}

/**
 * The range a build requires of a shared singleton, from its package.json: an exact pin (`19.3.1`) becomes the
 * versions compatible with it (`^19.3.1`: the same major, this release or newer), a range is kept as written.
 */
export function requiredRange(spec) {
  if (typeof spec !== 'string' || spec === '')
    throw new Error(`no version range for a shared module: ${spec}`);
  return /^\d+\.\d+\.\d+$/.test(spec) ? `^${spec}` : spec;
}

/** The installed version of a package (what a narrow entry point provides must say which version it is). */
function installedVersion(name) {
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`, { paths: [contractsDir] }), 'utf8'))
    .version;
}

/** TypeScript/TSX through rspack's built-in swc, React automatic runtime. */
export const typescriptRule = {
  test: /\.tsx?$/,
  exclude: /node_modules/,
  loader: 'builtin:swc-loader',
  options: {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
  },
  type: 'javascript/auto',
};

/**
 * The browsers the built pages are for: those that run the ES2022 the TypeScript rule emits (class fields and static
 * blocks, private `#x in o`), which all lay out CSS's logical properties (`margin-inline`, `border-start-start-radius`,
 * `inset-inline`) themselves. rspack's CSS minimizer otherwise aims at "fully supports es6" and rewrites each logical
 * property into left/right rules chosen by `:lang(ar)`, `:lang(he)` and 17 more: half of the shell's stylesheet,
 * inlined into every drawn page, and wrong wherever `lang` and `dir` differ (a right-to-left language without
 * shipped text marks its body `lang="en-GB"`, so the rules picked left).
 */
export const BROWSER_TARGETS = [
  'chrome >= 94',
  'edge >= 94',
  'firefox >= 93',
  'safari >= 16.4',
  'ios_saf >= 16.4',
];

/** The production minimizers: rspack's own two, the CSS one aimed at {@link BROWSER_TARGETS}. */
export function minimizers() {
  return [
    new rspack.SwcJsMinimizerRspackPlugin(),
    new rspack.LightningCssMinimizerRspackPlugin({ minimizerOptions: { targets: BROWSER_TARGETS } }),
  ];
}

/** Native CSS: extracted .css files linked from the page, never JS-injected <style> (CSP style-src 'self'). */
export const cssRule = { test: /\.css$/, type: 'css' };

/** Dev servers proxy the gateway's paths so a team works against a running gateway. */
export function gatewayProxy() {
  return [
    {
      context: ['/api', '/remotes', '/connect', '/.well-known', '/interaction'],
      target: process.env.GATEWAY_URL ?? 'http://localhost:8080',
    },
  ];
}

/**
 * The build of a remote (each mfe-* package's rspack.config.mjs is one call to this).
 * - default: the federated remote (Module Federation 2, docs/adr/0034-react-and-module-federation-2.md). Exposes
 *   exactly `./remote`; consumes the singletons the shell provides, at strict versions (`remoteShared`); uses the
 *   shell's federation runtime (experiments.externalRuntime) so one copy of the runtime runs per page; writes
 *   `mf-manifest.json`, which the shell loads the remote through; publicPath 'auto' so chunks load from wherever the
 *   gateway's manifest points (/remotes/<id>/<version>/).
 * - `--env standalone`: a plain app (no federation) rendering this remote's routes in the dev host of
 *   `shared-contracts/dev-host` with the shared store and i18n, for the flow team to work alone (`npm run dev`).
 *
 * @param dir - the remote package's folder.
 * @param env - rspack's `--env` values.
 */
export function remoteRspackConfig(dir, env = {}) {
  const pkg = readPackage(dir);
  const federationName = pkg.name.replace(/-/g, '_');
  const standalone = Boolean(env.standalone);
  return {
    mode: standalone ? 'development' : 'production',
    context: dir,
    entry: standalone ? { main: './src/testing/dev-host.ts' } : {},
    // No public source maps: production code is not shipped with its sources.
    devtool: standalone ? 'eval-cheap-module-source-map' : false,
    output: {
      // The dev host's build stays out of dist/ (what gets published) and out of git.
      path: path.join(dir, standalone ? 'node_modules/.cache/dev-host' : 'dist'),
      publicPath: standalone ? '/' : 'auto',
      uniqueName: federationName,
      // Content hashes for immutable releases; plain names in the dev host (hot updates need stable names).
      filename: standalone ? '[name].js' : '[name].[contenthash].js',
      chunkFilename: standalone ? '[name].js' : '[name].[contenthash].js',
      cssFilename: standalone ? '[name].css' : '[name].[contenthash].css',
      cssChunkFilename: standalone ? '[name].css' : '[name].[contenthash].css',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.json'],
      alias: { ...narrowSharedAliases(), ...(standalone ? {} : federationRuntimeEsm()) },
    },
    module: { rules: [typescriptRule, cssRule] },
    experiments: { css: true },
    plugins: standalone
      ? [new rspack.HtmlRspackPlugin({ title: `${pkg.name} (dev host)` })]
      : [
          new ModuleFederationPlugin({
            name: federationName,
            filename: 'remoteEntry.js',
            exposes: { './remote': './src/remote.ts' },
            shared: remoteShared(pkg),
            dts: false,
            // mf-manifest.json: what the shell loads the remote through (its entry, shared modules with their
            // required versions, and the exposed module's assets for preloading); published with the build.
            manifest: true,
            experiments: { externalRuntime: true, optimization: REMOTE_RUNTIME_OPTIMIZATION },
          }),
          new NarrowSharedCheckPlugin(narrowCheckDirs(dir)),
          sharedContractsRootImports(),
          compileHintsPlugin(),
        ],
    optimization: { minimize: !standalone, minimizer: minimizers() },
    performance: { hints: false },
    devServer: { port: Number(process.env.PORT ?? 3001), historyApiFallback: true, proxy: gatewayProxy() },
  };
}

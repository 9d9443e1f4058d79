// Build pieces shell and remotes must agree on (ARCHITECTURE.md "The remote contract"): the federation
// singletons, the TypeScript rule, and the whole build of a remote. Plain ESM so rspack configs import it as is.
import { readFileSync } from 'node:fs';
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
};

/**
 * Aliases the narrow entry points need: the real package under a name no shared key matches (so the narrow
 * module does not consume itself), in its production ESM build (tree-shakable, without development checks).
 */
export function narrowSharedAliases() {
  const routerDir = path.dirname(require.resolve('react-router/package.json', { paths: [contractsDir] }));
  return {
    'hr-react-router-implementation$': path.join(routerDir, 'dist', 'production', 'index.mjs'),
  };
}

/**
 * Compile-time switches of the federation runtime for every build (host and remotes): no manifest snapshots (the
 * shell registers remotes by their remoteEntry.js URL, never an mf-manifest.json) and browser-only code (no Node
 * loaders in the page).
 */
export const FEDERATION_RUNTIME_OPTIMIZATION = { disableSnapshot: true, target: 'web' };

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
  const singleton = (name, version = pkg.dependencies[name]) => ({
    singleton: true,
    requiredVersion: version,
    ...(NARROW_SHARED[name]
      ? { import: NARROW_SHARED[name], version: installedVersion(name), shareKey: name }
      : {}),
  });
  const contracts = { singleton: true, requiredVersion: contractsVersion, version: contractsVersion };
  return {
    react: singleton('react'),
    'react/jsx-runtime': singleton('react', pkg.dependencies.react),
    'react-dom': singleton('react-dom'),
    'react-router': singleton('react-router'),
    '@reduxjs/toolkit': singleton('@reduxjs/toolkit'),
    '@reduxjs/toolkit/query': singleton('@reduxjs/toolkit', pkg.dependencies['@reduxjs/toolkit']),
    '@reduxjs/toolkit/query/react': singleton('@reduxjs/toolkit', pkg.dependencies['@reduxjs/toolkit']),
    'react-redux': singleton('react-redux'),
    i18next: singleton('i18next'),
    'react-i18next': singleton('react-i18next'),
    'shared-contracts': contracts,
    'shared-contracts/api': contracts,
    'shared-contracts/ui': contracts,
  };
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
 * - default: the federated remote. Exposes exactly `./remote`; shares the singletons with the shell; uses the
 *   shell's federation runtime (experiments.externalRuntime) so one copy of the runtime runs per page;
 *   publicPath 'auto' so chunks load from wherever the gateway's manifest points (/remotes/<id>/<version>/).
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
    resolve: { extensions: ['.tsx', '.ts', '.js', '.json'], alias: narrowSharedAliases() },
    module: { rules: [typescriptRule, cssRule] },
    experiments: { css: true },
    plugins: standalone
      ? [new rspack.HtmlRspackPlugin({ title: `${pkg.name} (dev host)` })]
      : [
          new ModuleFederationPlugin({
            name: federationName,
            filename: 'remoteEntry.js',
            exposes: { './remote': './src/remote.ts' },
            shared: federationShared(pkg),
            dts: false,
            manifest: false,
            experiments: { externalRuntime: true, optimization: FEDERATION_RUNTIME_OPTIMIZATION },
          }),
        ],
    optimization: { minimize: !standalone },
    performance: { hints: false },
    devServer: { port: Number(process.env.PORT ?? 3001), historyApiFallback: true, proxy: gatewayProxy() },
  };
}

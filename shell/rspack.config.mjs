// Build of the shell (the federation host). No build-time remotes: the shell reads /remotes/manifest.json at
// start-up and registers what it lists (docs/adr/0001-runtime-federation.md). It provides the one federation
// runtime of the page to the remotes (experiments.provideExternalRuntime; remotes use externalRuntime).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rspack } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import {
  compileHintsPlugin,
  cssRule,
  federationRuntimeEsm,
  federationShared,
  gatewayProxy,
  HOST_RUNTIME_OPTIMIZATION,
  minimizers,
  narrowCheckDirs,
  NarrowSharedCheckPlugin,
  narrowSharedAliases,
  sharedContractsRootImports,
  typescriptRule,
} from 'shared-contracts/build/federation';
import { withShellPlatform } from './rspack.platform.mjs';

const dir = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));

// The same singletons as every remote (ARCHITECTURE.md "The remote contract"), from one list.
// The shell is the page's only host and always provides them: built into its entry (eager), they arrive in one
// request with the shell's start instead of one request per shared module and dependency.
// react-dom/client (createRoot) is the shell's alone: provided too, so it comes in the same request.
// Except the signed-in pages' kit (shared-contracts/account-ui: dialogs, the password field and its strength meter,
// the recovery code list): no first page needs it, so it is provided lazily, one chunk fetched by the first page
// that imports it (the security centre, the set-up wizard, the password pages), never with the sign-in page
// (e2e/tests/federation.spec.ts checks it; bench/lib/route-bytes.mjs leaves it out of the sign-in bill).
const LAZY_SHARED = new Set(['shared-contracts/account-ui']);
const shared = Object.fromEntries(
  Object.entries({
    ...federationShared(pkg),
    'react-dom/client': { ...federationShared(pkg)['react-dom'] },
  }).map(([key, config]) => [key, { ...config, eager: !LAZY_SHARED.has(key) }]),
);

export default async (_env, argv = {}) => {
  const dev = argv.mode === 'development';
  // The platform adds the no-flash inline script and the offline worker; no worker in the dev server.
  return withShellPlatform(shellConfig(dev), { serviceWorker: !dev });
};

function shellConfig(dev) {
  return {
    mode: dev ? 'development' : 'production',
    context: dir,
    entry: { main: './src/index.ts' },
    // Hidden maps would still be served by a static host; none in production (no public source maps).
    devtool: dev ? 'eval-cheap-module-source-map' : false,
    output: {
      path: path.join(dir, 'dist'),
      // Deep links (/account/login/local) must load scripts from absolute paths (STACK.md gotcha).
      publicPath: '/',
      uniqueName: 'shell',
      filename: 'assets/[name].[contenthash].js',
      chunkFilename: 'assets/[name].[contenthash].js',
      cssFilename: 'assets/[name].[contenthash].css',
      cssChunkFilename: 'assets/[name].[contenthash].css',
      clean: true,
    },
    // The platform's sources import with .js suffixes (NodeNext style); they resolve to the .ts/.tsx files.
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.json'],
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
      alias: { ...narrowSharedAliases(), ...(dev ? {} : federationRuntimeEsm()) },
    },
    module: {
      rules: [
        typescriptRule,
        cssRule,
        // sonner injects its stylesheet as a <style> at module load, which a strict style-src refuses; the loader
        // removes that call and platform-toaster.tsx imports sonner/dist/styles.css as an extracted file instead.
        {
          test: /[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js$/,
          loader: path.join(dir, 'build/no-inserted-css.loader.cjs'),
        },
      ],
    },
    experiments: { css: true },
    plugins: [
      new ModuleFederationPlugin({
        name: 'shell',
        remotes: {},
        shared,
        dts: false,
        manifest: false,
        // The shell provides every singleton itself (eager): sharing is settled from what is loaded, never by
        // fetching every registered remote's entry to compare versions (the default 'version-first' does that on
        // the first lazy consume, e.g. /devops loading all five remotes).
        shareStrategy: 'loaded-first',
        experiments: { provideExternalRuntime: true, optimization: HOST_RUNTIME_OPTIMIZATION },
      }),
      new NarrowSharedCheckPlugin(narrowCheckDirs(dir)),
      sharedContractsRootImports(),
      new rspack.HtmlRspackPlugin({ template: './src/index.html', scriptLoading: 'defer', inject: 'body' }),
      ...(dev ? [] : [compileHintsPlugin()]),
    ],
    optimization: {
      minimize: !dev,
      minimizer: minimizers(),
      // The eager singletons make the start 640 KB of script; as one file, V8 finalises its compile on the main
      // thread in one long task (issue 10, Total Blocking Time). Three files (React DOM, the other libraries, the
      // shell's own code with the federation runtime) are finalised in three shorter tasks. They are still the
      // entry's initial chunks: fetched in order on the first load, the singletons provided from them as before.
      // Costs ≈ 5 KB of brotli (each file compressed on its own); bench/README.md "Blocking time".
      splitChunks: dev
        ? undefined
        : {
            cacheGroups: {
              reactDom: {
                test: /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/,
                name: 'react-dom',
                chunks: 'initial',
                enforce: true,
                priority: 30,
              },
              libs: {
                test: /[\\/]node_modules[\\/]/,
                name: 'libs',
                chunks: 'initial',
                enforce: true,
                priority: 10,
              },
            },
          },
    },
    performance: { hints: false },
    devServer: {
      port: 3000,
      historyApiFallback: true,
      proxy: gatewayProxy(),
    },
  };
}

// Build of a remote (the same file in every mfe-* package; only package.json differs).
// - default: the federated remote. Exposes exactly `./remote`; shares the singletons with the shell; uses the
//   shell's federation runtime (experiments.externalRuntime) so one copy of the runtime runs per page;
//   publicPath 'auto' so chunks load from wherever the gateway's manifest points (/remotes/<id>/<version>/).
// - `--env standalone`: a plain app (no federation) rendering this remote's routes in a tiny dev host with the
//   shared store and i18n, for the flow team to work alone (`npm run dev`); /api is proxied to the gateway.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rspack } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';

const dir = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
const federationName = pkg.name.replace(/-/g, '_');
const contractsVersion = JSON.parse(readFileSync(path.join(dir, '../shared-contracts/package.json'), 'utf8')).version;

const singleton = (name, version = pkg.dependencies[name]) => ({ singleton: true, requiredVersion: version });
/** The federation singletons (ARCHITECTURE.md "The remote contract"); the shell declares the same list. */
export const shared = {
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
  'shared-contracts': { singleton: true, requiredVersion: contractsVersion, version: contractsVersion },
  'shared-contracts/api': { singleton: true, requiredVersion: contractsVersion, version: contractsVersion },
  'shared-contracts/ui': { singleton: true, requiredVersion: contractsVersion, version: contractsVersion },
};

export default (env = {}) => {
  const standalone = Boolean(env.standalone);
  return {
    mode: standalone ? 'development' : 'production',
    context: dir,
    entry: standalone ? { main: './src/testing/dev-host.tsx' } : {},
    // No public source maps (SECURITY: production code is not shipped with its sources).
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
    resolve: { extensions: ['.tsx', '.ts', '.js', '.json'] },
    module: {
      rules: [
        {
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
        },
        { test: /\.css$/, type: 'css' },
      ],
    },
    experiments: { css: true },
    plugins: standalone
      ? [new rspack.HtmlRspackPlugin({ title: `${pkg.name} (dev host)` })]
      : [
          new ModuleFederationPlugin({
            name: federationName,
            filename: 'remoteEntry.js',
            exposes: { './remote': './src/remote.ts' },
            shared,
            dts: false,
            manifest: false,
            experiments: { externalRuntime: true },
          }),
        ],
    optimization: { minimize: !standalone },
    performance: { hints: false },
    devServer: {
      port: Number(process.env.PORT ?? 3001),
      historyApiFallback: true,
      proxy: [{ context: ['/api', '/remotes', '/connect', '/.well-known'], target: process.env.GATEWAY_URL ?? 'http://localhost:8080' }],
    },
  };
};

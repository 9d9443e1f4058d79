// The build-time render of a remote's first pages (docs/adr/0007-sign-in-first-paint.md). A remote's build runs
// `buildFirstPaint` after its federated build: rspack bundles the remote's render module for Node (the same
// sources, TypeScript rule and resolution as the browser build), the module renders its pages with React's server
// renderer, and the markup lands in dist/first-paint/, so it is published with the remote's version and the
// gateway can serve the version the browser is about to load.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { rspack } from '@rspack/core';
import { typescriptRule } from './federation.mjs';

/** Folder of the rendered pages inside a remote's dist/. */
export const FIRST_PAINT_DIR = 'first-paint';

/**
 * File name of one rendered page: `<locale>.html`, with `.logo` for the variant with a logo and `.application` for
 * the one naming the application the sign-in goes on to (`<locale>.logo.application.html`).
 */
export function firstPaintFile(locale, logo, application = false) {
  return `${locale}${logo ? '.logo' : ''}${application ? '.application' : ''}.html`;
}

/** Folder of one page: its path without the leading slash, slashes turned into dashes (`account-login`). */
export function firstPaintFolder(pagePath) {
  return pagePath.replace(/^\/+/, '').replace(/\/+/g, '-') || 'index';
}

function compile(config) {
  return new Promise((resolve, reject) => {
    rspack(config).run((error, stats) => {
      if (error) return reject(error);
      if (stats?.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true })));
      resolve();
    });
  });
}

/**
 * Bundles `entry` (a module exporting `renderFirstPaintPages(): {path, locale, logo, application, html}[]`) for Node, runs it
 * and writes `dist/first-paint/<folder>/<locale>[.logo][.application].html` plus `dist/first-paint/pages.json`.
 *
 * @param dir - the remote package's folder.
 * @param entry - the render module, relative to `dir`.
 */
export async function buildFirstPaint(dir, entry) {
  const cache = path.join(dir, 'node_modules/.cache/first-paint');
  await compile({
    mode: 'production',
    context: dir,
    target: 'node20',
    entry: { render: entry },
    devtool: false,
    output: { path: cache, filename: '[name].cjs', library: { type: 'commonjs2' }, clean: true },
    resolve: { extensions: ['.tsx', '.ts', '.js', '.json'] },
    // The page's stylesheets are the shell's and the kit's, linked by the shell's HTML: none is needed here.
    module: { rules: [typescriptRule, { test: /\.css$/, type: 'asset/source' }] },
    optimization: { minimize: false },
    performance: { hints: false },
  });
  const require = createRequire(import.meta.url);
  const file = path.join(cache, 'render.cjs');
  delete require.cache[file];
  const pages = require(file).renderFirstPaintPages();
  const out = path.join(dir, 'dist', FIRST_PAINT_DIR);
  rmSync(out, { recursive: true, force: true });
  const index = { pages: {} };
  for (const page of pages) {
    const folder = firstPaintFolder(page.path);
    index.pages[page.path] = folder;
    mkdirSync(path.join(out, folder), { recursive: true });
    writeFileSync(
      path.join(out, folder, firstPaintFile(page.locale, page.logo, page.application)),
      page.html,
    );
  }
  writeFileSync(path.join(out, 'pages.json'), `${JSON.stringify(index, null, 2)}\n`);
  return pages.length;
}

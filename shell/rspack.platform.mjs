// The shell platform's part of the shell build: the Workbox service worker (InjectManifest over
// src/sw.ts → /sw.js) and the no-flash inline script in index.html. The shell's rspack.config.mjs calls
// `withShellPlatform(config)` once; everything here stays out of that file so the two can change apart.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InjectManifest } from '@aaroon/workbox-rspack-plugin';
import { rspack } from '@rspack/core';
import ts from 'typescript';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Files that must never be precached: the HTML (it carries a per-response CSP nonce and the host's partner
 * branding; the worker caches it network-first instead), federation manifests and entries (network-first so
 * a new remote version is seen), the worker itself, source maps and licence notes.
 */
export const PRECACHE_EXCLUDE = [
  /(^|\/)index\.html$/,
  /\.html$/,
  /mf-manifest\.json$/,
  /mf-stats\.json$/,
  /remoteEntry\.js$/,
  /(^|\/)sw\.js$/,
  /\.map$/,
  /\.LICENSE\.txt$/,
  /\.d\.ts$/,
];

/**
 * Loads `NO_FLASH_SCRIPT` from src/platform/no-flash.ts, the single source of the script: TypeScript
 * transpiles it to a module under node_modules/.cache (so its `shared-contracts` import resolves like the
 * shell's own) and Node imports it.
 */
export async function loadNoFlashScript() {
  const source = readFileSync(path.join(here, 'src/platform/no-flash.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const cacheDir = path.join(here, 'node_modules/.cache/platform');
  mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, `no-flash.${process.pid}.${Date.now()}.mjs`);
  writeFileSync(file, outputText);
  try {
    const { NO_FLASH_SCRIPT } = await import(pathToFileURL(file).href);
    return NO_FLASH_SCRIPT;
  } finally {
    rmSync(file, { force: true });
  }
}

/** Puts `<script nonce="__CSP_NONCE__" data-no-flash>…</script>` at the end of index.html's head. */
class NoFlashScriptPlugin {
  constructor(script) {
    this.script = script;
  }

  apply(compiler) {
    compiler.hooks.compilation.tap('NoFlashScriptPlugin', (compilation) => {
      rspack.HtmlRspackPlugin.getCompilationHooks(compilation).beforeEmit.tap(
        'NoFlashScriptPlugin',
        (data) => {
          if (data.html.includes('data-no-flash')) return data;
          // The gateway replaces __CSP_NONCE__ per response and sends the same nonce in its CSP (S33).
          const tag = `<script nonce="__CSP_NONCE__" data-no-flash>${this.script}</script>`;
          data.html = data.html.includes('</head>')
            ? data.html.replace('</head>', `${tag}</head>`)
            : tag + data.html;
          return data;
        },
      );
    });
  }
}

/**
 * Adds the platform's plugins to the shell's rspack config and returns it. `options.serviceWorker: false`
 * leaves the worker out (the dev server: a worker would serve stale bundles during development).
 */
export async function withShellPlatform(config, options = {}) {
  const serviceWorker = options.serviceWorker ?? true;
  const plugins = [...(config.plugins ?? []), new NoFlashScriptPlugin(await loadNoFlashScript())];
  if (serviceWorker) {
    plugins.push(
      new InjectManifest({
        swSrc: path.join(here, 'src/sw.ts'),
        swDest: 'sw.js',
        exclude: PRECACHE_EXCLUDE,
        // The shell's own chunks are small; a generous cap keeps a large vendor chunk precached too.
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      }),
    );
  }
  return { ...config, plugins };
}

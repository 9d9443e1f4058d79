// Builds one package's production bundle as its own rspack config does, with hidden source maps and into another
// folder (argv[2]): the files the bytes section attributes to libraries (lib/bytes-share.mjs). Run with the
// package's folder as the working directory; the package's dist/ is left alone.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const outDir = process.argv[2];
if (!outDir) throw new Error('usage: node build-with-maps.mjs <output folder> (cwd: the package)');
const requireHere = createRequire(path.join(process.cwd(), 'package.json'));
const { rspack } = requireHere('@rspack/core');
const { default: configOf } = await import(pathToFileURL(path.resolve('rspack.config.mjs')).href);
const config = typeof configOf === 'function' ? await configOf({}, { mode: 'production' }) : configOf;
config.output = { ...config.output, path: outDir };
config.devtool = 'hidden-source-map';

const compiler = rspack(config);
compiler.run((error, stats) => {
  compiler.close(() => {});
  if (error || stats?.hasErrors()) {
    console.error(error ?? stats?.toString('errors-only'));
    process.exit(1);
  }
});

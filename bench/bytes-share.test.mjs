// lib/bytes-share.mjs: the rows sources fall into, and a minified file's bytes split by its source map.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { attributeFile, chunkKey, libraryOf } from './lib/bytes-share.mjs';

const { SourceMapGenerator } = createRequire(import.meta.url)('source-map-js');

describe('library shares of the sign-in page (bytes-share.mjs)', () => {
  it('names a source by its library, shared-contracts entry point, the bundler runtime or the own code', () => {
    expect(libraryOf('webpack://shell/../node_modules/react-dom/cjs/x.js', 'shell')).toBe(
      'react-dom (with scheduler)',
    );
    expect(libraryOf('webpack://shell/../node_modules/@module-federation/sdk/dist/a.js', 'shell')).toMatch(
      /^Module Federation 2 runtime/,
    );
    expect(libraryOf('webpack://shell/../node_modules/immer/dist/immer.mjs', 'shell')).toMatch(
      /^Redux Toolkit/,
    );
    expect(libraryOf('webpack://shell/../node_modules/zod/v4/mini/schemas.js', 'shell')).toBe('zod');
    expect(libraryOf('webpack://shell/../shared-contracts/dist/api/base-api.js', 'shell')).toBe(
      'shared-contracts/api',
    );
    expect(libraryOf('webpack://shell/../shared-contracts/dist/login.schema.js', 'shell')).toBe(
      'shared-contracts/(root)',
    );
    expect(libraryOf('webpack://shell/webpack/runtime/load_script', 'shell')).toBe(
      'bundler runtime (rspack)',
    );
    expect(libraryOf('webpack://mfe-login/./src/features/login/page.tsx', 'mfe-login')).toBe(
      'mfe-login (own code)',
    );
  });

  it("splits a file's bytes by the source each mapped segment came from; the rest is unmapped", () => {
    // `AAAAbbbbbbXX`: 4 bytes from react-dom, 6 from the shell's own code, 2 without a mapping.
    const code = 'AAAAbbbbbbXX';
    const map = new SourceMapGenerator({ file: 'main.js' });
    const at = (column, source) =>
      map.addMapping({ generated: { line: 1, column }, original: { line: 1, column: 0 }, source });
    at(0, 'webpack://shell/../node_modules/react-dom/index.js');
    at(4, 'webpack://shell/./src/start-app.tsx');
    map.addMapping({ generated: { line: 1, column: 10 } });
    const bytes = attributeFile(code, JSON.parse(map.toString()), 'shell');
    expect(Object.fromEntries(bytes)).toEqual({
      'react-dom (with scheduler)': 4,
      'shell (own code)': 6,
      'unmapped (module wrappers)': 2,
    });
  });

  it('finds a script again by its name without the content hash', () => {
    expect(chunkKey('assets/main.0123456789abcdef.js')).toBe('main');
    expect(chunkKey('788.db1a824857f102a1.js')).toBe('788');
    expect(chunkKey('remoteEntry.js')).toBe('remoteEntry');
  });
});

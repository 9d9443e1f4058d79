// The build's checks of what shared modules provide and require (build/federation.mjs).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { federationShared, missingNarrowExports, remoteShared, requiredRange } from './federation.mjs';

let dir;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

/** A source folder holding one file with the given code. */
function sources(code) {
  dir = mkdtempSync(path.join(tmpdir(), 'narrow-check-'));
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src', 'page.tsx'), code);
  return [path.join(dir, 'src')];
}

describe('the narrow-export check', () => {
  it("fails a name React's production build does not export (react, react-dom, react-dom/client)", () => {
    const problems = missingNarrowExports(
      sources(
        [
          "import { useActionState, useOptimistic, useNotAHook } from 'react';",
          "import { captureOwnerStack } from 'react';", // development builds only
          "import { createRoot, hydrateRoot } from 'react-dom/client';",
          "import { preload, preinit, renderToString } from 'react-dom';",
          "import * as React from 'react';",
          "import type { ReactNode } from 'react';",
        ].join('\n'),
      ),
    );
    expect(problems.map((p) => p.replace(/^.*: '/, "'"))).toEqual([
      "'useNotAHook' from 'react' is not exported by react's production build",
      "'captureOwnerStack' from 'react' is not exported by react's production build",
      "'renderToString' from 'react-dom' is not exported by react-dom's production build",
    ]);
  });

  it('fails a name a narrow entry point lacks, and a namespace import of a narrowed package', () => {
    const problems = missingNarrowExports(
      sources(
        [
          "import { Link, unstable_NotExported } from 'react-router';",
          "import * as Router from 'react-router';",
        ].join('\n'),
      ),
    );
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain(
      "'unstable_NotExported' from 'react-router' is not in build/shared/react-router.mjs",
    );
    expect(problems[1]).toContain("`* as Router` from 'react-router'");
  });

  it("reads no folder a browser build leaves out: the build-time render and the tests' helpers", () => {
    const [src] = sources("import { MemoryRouter } from 'react-router';");
    for (const folder of ['first-paint', 'testing']) {
      mkdirSync(path.join(src, folder));
      writeFileSync(path.join(src, folder, 'render.tsx'), "import { MemoryRouter } from 'react-router';");
    }
    // Only the page's import is reported: MemoryRouter is not in the browser's react-router (issue 54).
    expect(missingNarrowExports([src])).toEqual([
      `${path.join(src, 'page.tsx')}: 'MemoryRouter' from 'react-router' is not in build/shared/react-router.mjs`,
    ]);
  });
});

const DEPENDENCIES = {
  react: '19.3.1',
  'react-dom': '19.3.1',
  'react-router': '~7.18.0',
  '@reduxjs/toolkit': '2.14.0',
  'react-redux': '9.3.1',
  i18next: '~26.7.0',
  'react-i18next': '~17.1.0',
  'shared-contracts': '^1.0.0',
};

describe('shared versions', () => {
  it('requires the compatible versions of an exact pin, and a range as written', () => {
    expect(requiredRange('19.3.1')).toBe('^19.3.1');
    expect(requiredRange('~7.18.0')).toBe('~7.18.0');
    expect(requiredRange('^1.0.0')).toBe('^1.0.0');
    expect(() => requiredRange(undefined)).toThrow(/no version range/);
  });

  it('shares every singleton strictly, shared-contracts at its real version', () => {
    const shared = federationShared({ dependencies: { ...DEPENDENCIES } });
    for (const [key, config] of Object.entries(shared)) {
      expect(config, key).toMatchObject({ singleton: true, strictVersion: true });
    }
    expect(shared.react.requiredVersion).toBe('^19.3.1');
    expect(shared['shared-contracts']).toMatchObject({ requiredVersion: '^1.0.0', version: '1.0.0' });
  });

  it('a remote consumes every singleton and provides none, at the same strict ranges', () => {
    const pkg = { dependencies: { ...DEPENDENCIES } };
    const host = federationShared(pkg);
    const remote = remoteShared(pkg);
    expect(Object.keys(remote)).toEqual(Object.keys(host));
    for (const [key, config] of Object.entries(remote)) {
      expect(config, key).toEqual({ ...host[key], import: false });
    }
  });
});

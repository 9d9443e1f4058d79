// The byte budget of the sign-in route, from the build output (run after `turbo run build`; CI does). Fails when
// the JS /account/login needs grows past bench/budget.json (the last measurement + 3 %), so a size regression is
// caught in review, not in production. See README.md "The byte budget test".
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SIGNATURES } from './lib/signatures.mjs';
import { onDemandFiles, signInRouteBytes } from './lib/route-bytes.mjs';
import { COMPILE_HINT } from 'shared-contracts/build/federation';
import { findRoute, REMOTE_IDS } from 'shared-contracts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const budget = JSON.parse(readFileSync(new URL('./budget.json', import.meta.url), 'utf8'));

/** A file of a package's build output. */
const readDist = (pkg, file) => readFileSync(path.join(REPO, pkg, 'dist', file), 'utf8');
/** Every file under a package's dist (JS and CSS), relative. */
const distFiles = (pkg, dir = '') =>
  readdirSync(path.join(REPO, pkg, 'dist', dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return distFiles(pkg, rel);
    return /\.(?:js|css)$/.test(entry.name) ? [rel] : [];
  });
/** The files of a package's build output that hold a signature. */
const holding = (pkg, name) =>
  distFiles(pkg).filter((file) => readDist(pkg, file).includes(SIGNATURES[name]));

describe('/account/login byte budget (gzip -9 of the build output)', () => {
  const bill = signInRouteBytes(REPO);
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `/account/login from dist: JS ${bill.jsGzip} B gzip (${kib(bill.jsGzip)}; ${kib(bill.jsRaw)} raw), CSS ${bill.cssGzip} B gzip, ${bill.files.length} files\n` +
      bill.files.map((f) => `  ${f.pkg}/${f.file} ${f.gzip}`).join('\n'),
  );

  it('finds the shell entry, mfe-login remoteEntry, its exposed module and the login page chunk', () => {
    expect(bill.files.some((f) => f.pkg === 'shell' && f.file.endsWith('.js'))).toBe(true);
    const login = bill.files.filter((f) => f.pkg === 'mfe-login').map((f) => f.file);
    expect(login).toContain('remoteEntry.js');
    // remoteEntry + the exposed module's chunk + at least one chunk of the page itself.
    expect(login.length).toBeGreaterThanOrEqual(3);
  });

  it('ships exactly one React DOM and one Module Federation runtime for the route', () => {
    const read = (f) => readFileSync(path.join(REPO, f.pkg, 'dist', f.file), 'utf8');
    const js = bill.files.filter((f) => f.file.endsWith('.js'));
    expect(
      js.filter((f) => read(f).includes(SIGNATURES.reactDom)).map((f) => `${f.pkg}/${f.file}`),
    ).toHaveLength(1);
    expect(
      js.filter((f) => read(f).includes(SIGNATURES.mfRuntime)).map((f) => `${f.pkg}/${f.file}`),
    ).toHaveLength(1);
  });

  it("validates with zod's mini build only: the classic API is in no file of the route (ADR 0025)", () => {
    const read = (f) => readFileSync(path.join(REPO, f.pkg, 'dist', f.file), 'utf8');
    const js = bill.files.filter((f) => f.file.endsWith('.js'));
    expect(js.filter((f) => SIGNATURES.zodClassic.test(read(f))).map((f) => `${f.pkg}/${f.file}`)).toEqual(
      [],
    );
    expect(js.filter((f) => SIGNATURES.zodMini.test(read(f)))).toHaveLength(1);
  });

  it(`stays within the JS budget (${budget.signInRouteJsGzipBytes} B gzip)`, () => {
    expect(budget.signInRouteJsGzipBytes, 'set signInRouteJsGzipBytes in bench/budget.json').toBeTypeOf(
      'number',
    );
    expect(bill.jsGzip).toBeLessThanOrEqual(budget.signInRouteJsGzipBytes);
  });

  it(`stays within the JS budget as served, brotli (${budget.signInRouteJsBrotliBytes} B)`, () => {
    expect(budget.signInRouteJsBrotliBytes, 'set signInRouteJsBrotliBytes in bench/budget.json').toBeTypeOf(
      'number',
    );
    expect(bill.jsBrotli).toBeLessThanOrEqual(budget.signInRouteJsBrotliBytes);
  });

  it(`stays within the CSS budget (${budget.signInRouteCssGzipBytes} B gzip)`, () => {
    expect(budget.signInRouteCssGzipBytes, 'set signInRouteCssGzipBytes in bench/budget.json').toBeTypeOf(
      'number',
    );
    expect(bill.cssGzip).toBeLessThanOrEqual(budget.signInRouteCssGzipBytes);
  });
});

// Total Blocking Time is decided by the longest tasks of the start, and compiling a script is one task on the main
// thread per file. These are the build-output halves of bench/README.md "Blocking time": they do not time anything.
describe('/account/login scripts compile off the main thread in pieces (build output)', () => {
  const bill = signInRouteBytes(REPO);
  const js = bill.files.filter((f) => f.file.endsWith('.js'));
  const read = (f) => readFileSync(path.join(REPO, f.pkg, 'dist', f.file), 'utf8');

  it("every script starts with V8's compile hint, so its functions are compiled while it streams in", () => {
    expect(js.length).toBeGreaterThan(0);
    expect(js.filter((f) => !read(f).startsWith(COMPILE_HINT)).map((f) => `${f.pkg}/${f.file}`)).toEqual([]);
  });

  it(`no script is larger than ${budget.largestScriptRawBytes} B unpacked (the shell's start is several files)`, () => {
    const sizes = js.map((f) => ({ file: `${f.pkg}/${f.file}`, raw: Buffer.byteLength(read(f)) }));
    expect(sizes.filter((s) => s.raw > budget.largestScriptRawBytes)).toEqual([]);
  });
});

// The stylesheets mirror with the document's `dir`: the CSS minimizer aims at the browsers the scripts need
// (BROWSER_TARGETS), which lay out logical properties themselves. Aimed at older ones it rewrote each into left and
// right rules chosen by `:lang(ar)`, `:lang(he)` and 17 more languages, half of the shell's stylesheet, and they
// picked the wrong side when a right-to-left language without shipped text marks its body `lang="en-GB"`.
describe("/account/login's stylesheets choose sides by direction, not language (build output)", () => {
  const bill = signInRouteBytes(REPO);
  const css = bill.files.filter((f) => f.file.endsWith('.css'));
  const read = (f) => readFileSync(path.join(REPO, f.pkg, 'dist', f.file), 'utf8');

  it('keeps logical properties and has no :lang() rules', () => {
    expect(css.length).toBeGreaterThan(0);
    expect(css.filter((f) => read(f).includes(':lang(')).map((f) => `${f.pkg}/${f.file}`)).toEqual([]);
    expect(css.some((f) => /(?:margin|padding|border)-inline-(?:start|end)\s*:/.test(read(f)))).toBe(true);
  });
});

// react-i18next's Trans parses the translated string as HTML with a parser of its own (html-parse-stringify):
// ≈ 3.8 KiB brotli on every sign-in page for one sentence with links, which mfe-login's linkedText writes instead.
describe('/account/login carries no react-i18next Trans (build output)', () => {
  const bill = signInRouteBytes(REPO);

  it('no file of the route holds its signature, a property only Trans reads (so minifying keeps it)', () => {
    const trans = readFileSync(
      path.join(REPO, 'node_modules', 'react-i18next', 'dist', 'es', 'TransWithoutContext.js'),
      'utf8',
    );
    expect(trans).toContain(SIGNATURES.reactI18nextTrans);
    expect(
      bill.files
        .filter((f) => readDist(f.pkg, f.file).includes(SIGNATURES.reactI18nextTrans))
        .map((f) => `${f.pkg}/${f.file}`),
    ).toEqual([]);
  });
});

// The operators' console (issue 51, ADR 0060) is its own remote so that the page everyone loads carries none of it:
// not mfe-admin's code, not the console contract, not the ConsoleAccess call of the account menu, not the date picker.
describe("/account/login carries nothing of the operators' console (build output)", () => {
  const bill = signInRouteBytes(REPO);
  const CONSOLE = ['consoleContract', 'consoleAccessCall', 'datePicker', 'mfeAdmin'];

  it.each(CONSOLE)('no file of the route holds the %s signature', (name) => {
    expect(
      bill.files
        .filter((f) => readDist(f.pkg, f.file).includes(SIGNATURES[name]))
        .map((f) => `${f.pkg}/${f.file}`),
    ).toEqual([]);
  });

  it('the signatures are real: mfe-admin carries its own and the contract, the shell the lazily shared call', () => {
    const has = (pkg, name) => holding(pkg, name).length > 0;
    expect(has('mfe-admin', 'mfeAdmin')).toBe(true);
    expect(has('mfe-admin', 'consoleContract')).toBe(true);
    expect(has('shell', 'consoleAccessCall')).toBe(true);
    expect(has('shell', 'datePicker')).toBe(true);
  });

  it.each(REMOTE_IDS.filter((id) => id !== 'mfe-admin'))('%s has no byte of mfe-admin', (id) => {
    expect(existsSync(path.join(REPO, id, 'dist')), `build ${id} first`).toBe(true);
    expect(holding(id, 'mfeAdmin')).toEqual([]);
  });
});

// The remotes consume the singletons the shell provides and build no copy of them (ADR 0034, amended 2026-11-29):
// a copy never runs (strict singletons do not fall back), yet its share maps and chunk names weigh on every page the
// remote is on.
describe('no remote carries a copy of a shared library (build output)', () => {
  it('the signatures are real: the shell, which provides React and React DOM, holds both', () => {
    expect(holding('shell', 'react')).not.toEqual([]);
    expect(holding('shell', 'reactDom')).not.toEqual([]);
  });

  it.each(REMOTE_IDS)('%s holds no React and no React DOM', (id) => {
    expect(existsSync(path.join(REPO, id, 'dist')), `build ${id} first`).toBe(true);
    expect(holding(id, 'react')).toEqual([]);
    expect(holding(id, 'reactDom')).toEqual([]);
  });
});

// What the sign-in page loads, read from the builds (the shell's index.html and chunk maps, the route owner's
// remoteEntry and mf-manifest.json), holds none of the chunks of the two heaviest things a signed-in person or an
// operator opens: the security centre (shell chunks behind its on-demand loader) and mfe-admin (its manifest's
// files). Either in the first load would add tens of KiB to every sign-in (issue 54).
describe('/account/login loads no chunk of the security centre or of mfe-admin (build manifests)', () => {
  const bill = signInRouteBytes(REPO);
  const loaded = bill.files.map((f) => `${f.pkg}/${f.file}`);
  const read = (pkg, file) => readFileSync(path.join(REPO, pkg, 'dist', file));
  const digest = (bytes) => createHash('sha256').update(bytes).digest('hex');

  it("the security centre is chunks of its own, and the sign-in page's files are none of them", () => {
    const centre = onDemandFiles(path.join(REPO, 'shell', 'dist'), 'SecurityCentre');
    // Its loader must still fetch chunks of its own that hold its code: bundled into a chunk of the first load,
    // it would leave no chunk here and the check below would hold for nothing.
    expect(centre.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(0);
    expect(centre.some((f) => read('shell', f).includes(SIGNATURES.securityCentre))).toBe(true);
    expect(
      loaded.filter((f) => centre.includes(f.replace(/^shell\//, '')) && f.startsWith('shell/')),
    ).toEqual([]);
    expect(
      bill.files.filter((f) => read(f.pkg, f.file).includes(SIGNATURES.securityCentre)).map((f) => f.file),
    ).toEqual([]);
  });

  it("the sign-in page's remote files are its route owner's, and none is a file of mfe-admin's manifest", () => {
    const owner = findRoute('/account/login')?.owner;
    expect(owner).toBe('mfe-login');
    expect([...new Set(bill.files.map((f) => f.pkg))].sort()).toEqual(['mfe-login', 'shell']);
    const manifest = JSON.parse(read('mfe-admin', 'mf-manifest.json').toString('utf8'));
    const assets = [
      manifest.metaData.remoteEntry.name,
      ...manifest.exposes.flatMap((e) => [
        ...e.assets.js.sync,
        ...e.assets.js.async,
        ...e.assets.css.sync,
        ...e.assets.css.async,
      ]),
    ];
    expect(assets.length).toBeGreaterThan(2);
    const admin = new Set(assets.map((a) => digest(read('mfe-admin', a))));
    expect(bill.files.filter((f) => admin.has(digest(read(f.pkg, f.file)))).map((f) => f.file)).toEqual([]);
  });
});

// Rspack loader for sonner's ESM build: removes its `__insertCSS("…")` call, which appends a <style> element at
// module load. Under the gateway's CSP (`style-src 'self' 'nonce-…'`, no 'unsafe-inline') that element is
// refused and reported as a violation; the same rules reach the page as an extracted file instead
// (`import 'sonner/dist/styles.css'` in src/platform/platform-toaster.tsx). The build fails when the call is not
// found, so a sonner upgrade that changes the injection cannot silently bring the inline <style> back.
'use strict';

/** `__insertCSS("…")` with a double-quoted string literal (escapes allowed), plus its semicolon. */
const INSERT_CALL = /__insertCSS\(\s*"(?:[^"\\]|\\.)*"\s*\);?/g;

module.exports = function noInsertedCss(source) {
  let calls = 0;
  const out = source.replace(INSERT_CALL, () => {
    calls += 1;
    return '/* sonner styles come from sonner/dist/styles.css (CSP) */';
  });
  if (calls === 0) {
    throw new Error(
      `no-inserted-css.loader: no __insertCSS("…") call found in ${this.resourcePath}; check the sonner version`,
    );
  }
  return out;
};

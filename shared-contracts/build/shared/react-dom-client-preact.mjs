// react-dom/client in the browser: Preact's createRoot (docs/adr/0029-preact-in-the-browser.md), with React DOM's
// behaviour where the two differ (react-dom-semantics.mjs), as react-dom-preact.mjs.
import './react-dom-semantics.mjs';

export * from 'preact/compat/client';
export { default } from 'preact/compat/client';

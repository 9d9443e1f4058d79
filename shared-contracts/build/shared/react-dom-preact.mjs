// react-dom in the browser: Preact's compat layer (docs/adr/0029-preact-in-the-browser.md), in a module of its own
// because 'react' and 'react-dom' are two shared keys and the federation plugin provides one key per resolved file.
// Importing it also installs React DOM's behaviour where the two differ and our pages notice (react-dom-semantics.mjs).
import './react-dom-semantics.mjs';

export * from 'preact/compat';
export { default } from 'preact/compat';

// react-dom in the browser: Preact's compat layer (docs/adr/0029-preact-in-the-browser.md), in a module of its own
// because 'react' and 'react-dom' are two shared keys and the federation plugin provides one key per resolved file.
// Importing it also gives Preact React DOM's meaning of the two props our pages use that Preact reads differently.
import './react-dom-semantics.mjs';

export * from 'preact/compat';
export { default } from 'preact/compat';

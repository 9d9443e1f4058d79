// Recognising a bundle by content, not by file name (names are content hashes or numeric chunk ids).

/** String literals that survive minification and exist in exactly one library, to recognise a file by content. */
export const SIGNATURES = {
  // React DOM's client renderer marks containers with this property prefix (react-dom-client.production.js).
  reactDom: '__reactContainer$',
  // Hook names of the Module Federation runtime core (@module-federation/runtime-core); each copy of the runtime
  // bundled into a host or remoteEntry carries them.
  mfRuntime: 'beforeInitContainer',
  // Constructor names zod registers its schema classes under: the classic API's string schema, and zod/mini's.
  zodClassic: /["'`]ZodString["'`]/,
  zodMini: /["'`]ZodMiniString["'`]/,
};

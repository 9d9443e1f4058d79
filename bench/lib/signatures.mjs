// Recognising a bundle by content, not by file name (names are content hashes or numeric chunk ids).

/** String literals that survive minification and exist in exactly one library, to recognise a file by content. */
export const SIGNATURES = {
  // The page's renderer (Preact, ADR 0029): its DOM code names SVG's foreignObject, which no other library of the
  // page does (React DOM did too, so the count stays right if the renderer ever changes back).
  renderer: 'foreignObject',
  // Hook names of the Module Federation runtime core (@module-federation/runtime-core); each copy of the runtime
  // bundled into a host or remoteEntry carries them. None since ADR 0030 (webpack's container interface instead).
  mfRuntime: 'beforeInitContainer',
  // webpack's container interface (rspack's ModuleFederationPluginV1): the error of a remote entry's `init`, in each
  // remote's remoteEntry.js and nowhere else.
  container: 'Container initialization failed',
  // Constructor names zod registers its schema classes under: the classic API's string schema, and zod/mini's.
  zodClassic: /["'`]ZodString["'`]/,
  zodMini: /["'`]ZodMiniString["'`]/,
};

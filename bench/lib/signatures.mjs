// Recognising a bundle by content, not by file name (names are content hashes or numeric chunk ids).

/** String literals that survive minification and exist in exactly one library, to recognise a file by content. */
export const SIGNATURES = {
  // React DOM's client renderer marks containers with this property prefix (react-dom-client.production.js).
  reactDom: '__reactContainer$',
  // React's element type, in react's and react/jsx-runtime's builds (and React DOM's, which compares with it).
  react: 'react.transitional.element',
  // Hook names of the Module Federation runtime core (@module-federation/runtime-core); each copy of the runtime
  // bundled into a host or remoteEntry carries them.
  mfRuntime: 'beforeInitContainer',
  // Constructor names zod registers its schema classes under: the classic API's string schema, and zod/mini's.
  zodClassic: /["'`]ZodString["'`]/,
  zodMini: /["'`]ZodMiniString["'`]/,
  // The operators' console (ADR 0060), none of which the sign-in page may carry: a permission name of its contract
  // (shared-contracts/console), the call the account menu asks (shared-contracts/account-ui), the date picker's class
  // (shared-contracts/src/ui/date-field.tsx) and the class of mfe-admin's own layout (its pages' code and CSS).
  consoleContract: 'console.releases.read',
  consoleAccessCall: 'ConsoleAccess',
  datePicker: 'hr-date-field',
  mfeAdmin: 'admin-console',
  // The security centre's own section class (shell/src/pages/security-centre/security-centre-page.tsx and its CSS):
  // a signed-in person's page, none of which the sign-in page may carry (issue 54).
  securityCentre: 'security-centre__heading',
  // A property react-i18next's `Trans` reads (react-i18next/dist/es/TransWithoutContext.js) and nothing else of it:
  // `Trans` brings an HTML parser, ≈ 3.8 KiB brotli, and the shared react-i18next leaves it out (issue 54).
  reactI18nextTrans: 'i18nIsDynamicList',
};

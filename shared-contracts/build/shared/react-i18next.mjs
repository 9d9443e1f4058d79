// What the shell and the remotes use of react-i18next, provided under that name (see react-router.mjs). A new import
// from 'react-i18next' must be added here, or the build fails (NarrowSharedCheckPlugin). `Trans` is left out on
// purpose: it brings an HTML parser, ≈ 3.8 KiB brotli on every sign-in page (bench/README.md); a sentence with links
// in it goes through mfe-login's `linkedText` instead.
export { I18nextProvider, initReactI18next, useTranslation } from 'hr-react-i18next-implementation';

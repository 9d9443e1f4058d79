// What the shell and the remotes use of react-i18next, provided under that name (see react-router.mjs). A new import
// from 'react-i18next' must be added here, or the build fails (NarrowSharedCheckPlugin).
export { I18nextProvider, initReactI18next, Trans, useTranslation } from 'hr-react-i18next-implementation';

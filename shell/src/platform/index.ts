/**
 * The shell platform (issue 4): partner branding, locales and RTL, theme, offline worker and update toast,
 * offline notice, date picker. The shell mounts {@link PlatformRoot} around its router and puts
 * {@link PartnerHeader}/{@link PartnerFooter} in its layouts; remotes inherit everything through the document.
 */
export { PlatformRoot, type PlatformRootProps } from './platform-root.js';
export { PartnerHeader, PartnerFooter } from './partner-header.js';
export { PartnerContext, usePartner } from './partner-context.js';
export { PartnerLogo, PrivacyPolicyLink, usePartnerBranding } from './partner-branding.js';
export {
  applyPartnerBranding,
  partnerBranding,
  PARTNER_BACKGROUND_VARIABLE,
  type PartnerBranding,
} from './branding.js';
export { ThemeSwitch } from './theme-switch.js';
export { useColorScheme } from './use-color-scheme.js';
export { applyTheme, readColorScheme, resolveTheme, saveColorScheme, type ResolvedTheme } from './theme.js';
export { LanguagePicker } from './language-picker.js';
export {
  applyDocumentLanguage,
  chooseLocale,
  cultureCookieValue,
  directionOf,
  persistLocale,
  readCultureCookie,
  readSavedLocale,
} from './language.js';
export { changeLocale } from './locale-change.js';
export { usePartnerLocale } from './use-partner-locale.js';
export {
  FALLBACK_PARTNER,
  partnerApi,
  platformApi,
  usePartnerMetadataQuery,
  useSetLanguageMutation,
} from './platform.api.js';
export {
  registerOfflineWorker,
  showUpdateToast,
  SERVICE_WORKER_URL,
  UPDATE_TOAST_ID,
} from './offline-worker.js';
export { OfflineNotice, isNetworkFailure, useOnlineStatus } from './offline-notice.js';
export { PlatformToaster } from './platform-toaster.js';
export { DatePicker, type DatePickerProps } from './date-picker.js';
export { useDebouncedValue } from './use-debounced-value.js';
export { NO_FLASH_SCRIPT, noFlashScript } from './no-flash.js';
export { withToast } from './toast-outlet.js';

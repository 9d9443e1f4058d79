import type { ErrorCode } from '../../error-codes.js';

/**
 * One text per error code, with i18next `{{name}}` placeholders: the type every locale's `errors` module fills. A
 * module of its own so the locale modules and their loader (`../error-translations.ts`) do not import each other.
 */
export type ErrorTranslation = { readonly [code in ErrorCode]: string };
